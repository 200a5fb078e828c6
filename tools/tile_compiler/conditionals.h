// Preprocessor conditionals inside a kernel's body (`#ifdef SYNC` around a
// barrier, `#if 0` around a debugging statement).
//
// The compiled body is emitted from pieces of the body's text, in source
// order, with its barriers and split statements rewritten between them; a
// conditional whose `#if` falls in one piece and whose `#endif` falls in a
// gap (or in another region) would leave the compiled text unbalanced. So the
// compiled body takes the parse's decision: the lines of every conditional
// directive and of every group the parse skipped are blanked, and the group
// the parse took stays as plain text.
//
// The parse is Clang's; the user's compile may be another compiler (GCC for
// host builds) whose predefined macros differ (`__clang__`, `__GNUC__`'s
// value, `_OPENMP`). So each conditional's decision is checked where the
// conditional stood: its directives are repeated there with an `#error` in
// every group the parse did not take (and an `#else` with one where it took
// none), so that a compiler deciding otherwise stops the rewritten compile,
// and the launcher compiles the source as written (the kernel on fibers,
// with a warning that quotes the #error). Device passes of GPU builds
// (__CUDA_ARCH__, __HIP_DEVICE_COMPILE__) never run the compiled body and
// skip the check.
#pragma once

#include "common.h"

#include "clang/Lex/PPCallbacks.h"
#include "clang/Lex/Preprocessor.h"

namespace tile_compiler {

class Conditionals {
public:
  // Records the conditionals of every file the preprocessor reads (call
  // before the parse: the plugin's consumer is made before the main file is
  // read).
  static std::shared_ptr<Conditionals> record(Preprocessor& pp);

  // What the compiled body does with one line of the body's text.
  struct Line {
    unsigned b, e;     // [b, e): the line's text without its newline (a directive's continued lines included)
    std::string text;  // its replacement: the check for a conditional's opening line, else empty
  };
  // The conditional-directive and skipped lines inside [b, e) of file fid,
  // in order. Throws Refused when a conditional begins or ends outside
  // [b, e) but has a directive inside.
  std::vector<Line> linesIn(const SourceManager& sm, FileID fid, unsigned b, unsigned e) const;

  // One directive of a conditional.
  struct Directive {
    SourceLocation at;  // the directive's name token (`if` of `#if`)
    bool taken;         // the group it opens was the one the parse took (#endif: false)
    bool opens;         // #if, #ifdef, #ifndef
    bool isElse;
    bool ends;          // #endif
  };
  // Keyed by the opening directive's location (the raw encoding).
  std::map<SourceLocation::UIntTy, std::vector<Directive>> chains;
  std::vector<SourceRange> skipped;  // from the `#` that began skipping to the directive that ended it

private:
  std::string check(const SourceManager& sm, const std::vector<Directive>& chain) const;
};

} // namespace tile_compiler
