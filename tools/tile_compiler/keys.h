// Binding keys (tools/tile_compiler): what each name of an inlined callee
// binds to, computed by the first pass on the callee (Inliner) and by the
// second on the inlined block (InlinedKeys); the kernel is compiled only
// when both agree (Consumer::handle in tile_compiler.cpp).
#pragma once

#include "common.h"

namespace tile_compiler {

std::string declKey(SourceManager& sm, const Decl* d);
// The overlay folder of this parse (its copies key as their originals).
void keyOverlay(const std::string& overlay);
// path without the overlay's prefix: the original a copy stands for.
std::string originalOf(const std::string& path);
std::string canon(QualType t);

// The binding keys of a statement tree: statement kinds (implicit nodes
// left out) and every declaration it names, with `name` giving the
// callee-relative ones ("P<i>" parameters, "T" the tiled_index, "N<i>"
// non-type template arguments, "L<name>" the callee's own locals) and
// `call` the keys of a nested inlined call (true: s was one).
struct KeyWalker {
  SourceManager& sm;
  std::function<std::string(const ValueDecl*)> name;
  std::function<bool(const Stmt*, std::string&)> call;
  std::string out;
  // ---- defined in keys.cpp
  std::string key(const ValueDecl* d);
  void walk(const Stmt* s);
};

// The second pass: the binding keys of the inlined calls of a kernel
// instance's INLINED block (each `{/*amp_ht_call*/ ...}` block), computed
// as Inliner computed them on the callees.
struct InlinedKeys {
  ASTContext& ctx;
  SourceManager& sm;
  const ParmVarDecl* param;
  // ---- defined in keys.cpp
  bool isCall(const Stmt* s);
  std::string call(const CompoundStmt* cs);
  void all(const Stmt* s, std::string& out);
};

} // namespace tile_compiler
