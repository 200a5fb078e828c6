// The tile compiler's shared declarations (tools/tile_compiler; tile_compiler.cpp
// has the plugin's contract, README.md the design): the Clang AST headers, the
// refusal a pass throws (Refused: the kernel keeps fibers, with the reason)
// and the small type helpers of every pass.
#pragma once

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/DynamicRecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

using namespace clang;

namespace tile_compiler {

std::string spelledType(QualType t, const LangOptions& lo);
// s as a C string literal (a #line's file name, a kernel's place).
std::string quote(const std::string& s);

// Variables in the order they are written (their names' locations), not in
// the order of their addresses: the instantiations of one kernel template
// must give one compiled text, and each has its own VarDecl objects at the
// same locations.
struct SourceOrder {
  bool operator()(const VarDecl* a, const VarDecl* b) const {
    const auto x = a->getLocation().getRawEncoding(), y = b->getLocation().getRawEncoding();
    return x != y ? x < y : a < b;
  }
  bool operator()(const DeclStmt* a, const DeclStmt* b) const {
    const auto x = a->getBeginLoc().getRawEncoding(), y = b->getBeginLoc().getRawEncoding();
    return x != y ? x < y : a < b;
  }
};

struct Refused {
  std::string why;
};

// A tiled kernel: a lambda, or a function object's call operator
// (`struct K { void operator()(tiled_index<256> t) const restrict(amp) {...} };`),
// whose members play the role of a lambda's captures.
struct KernelFn {
  LambdaExpr* lambda = nullptr; // null for a function object
  CXXMethodDecl* op = nullptr;  // the call operator (the lambda's own, or the class's)
  static KernelFn of(LambdaExpr* l) { return {l, l->getCallOperator()}; }
  static KernelFn of(CXXMethodDecl* m) { return {nullptr, m}; }
  SourceLocation begin() const { return lambda ? lambda->getBeginLoc() : op->getBeginLoc(); }
  SourceLocation end() const { return lambda ? lambda->getEndLoc() : op->getEndLoc(); }
  CompoundStmt* body() const {
    return lambda ? lambda->getCompoundStmtBody() : dyn_cast_or_null<CompoundStmt>(op->getBody());
  }
  // The scope the kernel's text is read in: the lambda's enclosing function
  // (or namespace), or the call operator itself (whose parents are its class
  // and the namespaces around it).
  const DeclContext* scope() const { return lambda ? lambda->getLambdaClass()->getDeclContext() : op; }
  // Each work-item owns a copy of the closure: a `mutable` lambda, or a
  // call operator that is not const (the launcher copies the object per
  // work-item then, capture.h's invoke_kernel).
  bool copiesPerItem() const { return lambda ? lambda->isMutable() : !op->isConst(); }
  bool capturedByCopy(const VarDecl* v) const;
  // e is `this->m` (written `m`) for a field m of the function object.
  static const FieldDecl* ownField(const Expr* e);
};

// A tile_static array declared alone, as `tile_static TYPE NAME[BOUNDS];`
// in one file: [b, e) of the declaration in its file and the text that
// declares it as storage with slack after the array plus a reference of the
// same name (host_tiles::tile_static_slack, compiled_tiles.h: a write past
// the array stays in the kernel's own storage, as on a GPU). False for any
// other spelling (a macro, attributes, several declarators, a declarator
// around the name), which stays as written.
bool slackDecl(SourceManager& sm, const LangOptions& lo, const DeclStmt* ds, unsigned& b, unsigned& e,
               std::string& rep);
// Every such declaration inside body's braces (slackDecl), in source order,
// but for arrays the body names in a decltype (std::extent<decltype(a)> is 0
// for a reference) or in a lambda (one that captures the reference by copy
// would copy the array): those stay as written. Offsets in body's file.
struct SlackEdit {
  unsigned b, e;
  std::string text;
};
std::vector<SlackEdit> slackDecls(SourceManager& sm, const LangOptions& lo, const CompoundStmt* body);
bool inConcurrency(const Decl* d);
bool isAmpClass(QualType t, llvm::StringRef name);
bool isValueClass(QualType t);

// vector_width.cpp: whether a compiled kernel's body has arithmetic the
// wider instruction-set copies speed up (else it gets the baseline copy only).
bool paysForWideCopies(const Stmt* body, const ASTContext& ctx);

} // namespace tile_compiler
