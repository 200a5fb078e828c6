// amp_compat/compat/assert.h -- <assert.h> (and so <cassert>) as MSVC's
// preprocessor treats it: `assert(cond, "message")` compiles.
//
// Contract, under --windows-compat (this directory is first on the include
// path) in C++:
//   assert(e)            exactly the C library's assert: nothing (and e is
//                        not evaluated) with NDEBUG, else e is evaluated once
//                        and a false e ends the program through __assert_fail
//                        ("prog: file:line: function: Assertion `e' failed.",
//                        then abort()).
//   assert(e, extra...)  the same as assert(e): the extra arguments are
//                        dropped, neither evaluated nor checked. MSVC does the
//                        same for any function-like macro given too many
//                        arguments (warning C4002), and Visual Studio code
//                        (Microsoft's C++ AMP sample pack among it) writes
//                        assert(cond, "why") as a message-carrying assert.
// Arguments are split at top-level commas, as every preprocessor splits them:
// `assert(f<a, b>())` keeps `f<a` and fails to compile, as it does in MSVC
// (and in standard C++), never silently asserting something else.
// The --msvc rewriter (scripts/amp_driver/passes/msvc.py) drops the same arguments in
// the source, so both modes agree.
//
// No include guard: like the C library's <assert.h>, each inclusion defines
// assert anew from the current NDEBUG.
#include_next <assert.h>

#if defined(__cplusplus) && defined(__GLIBC__)
#undef assert
#ifdef NDEBUG
#define assert(...) (static_cast<void>(0))
#else
// The C library's own expansion (glibc's <assert.h>, C++ branch), applied to
// the first argument only; __assert_fail is also what CUDA provides in device
// code.
#define assert(...) AMP_COMPAT_ASSERT_FIRST_(__VA_ARGS__, )
#define AMP_COMPAT_ASSERT_FIRST_(e, ...)                                                    \
  (static_cast<bool>(e) ? void(0) : __assert_fail(#e, __FILE__, __LINE__, __ASSERT_FUNCTION))
#endif
#endif
