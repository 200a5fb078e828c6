// ---- barriers in called functions: inlining (the first pass)
//
// A kernel that hands its tiled_index to a function waiting on its barrier
// (directly or through further such calls) is compiled in two parses. The
// first (Inliner) replaces each such call statement by the callee's body,
// as text: its arguments bound first to fresh variables, the tiled_index
// parameter mapped onto the kernel's own, the callee's locals in a nested
// block. It writes the kernel's body as
//     { /*amp_ht_inlined:H...*/ if constexpr (true) { INLINED }
//       else {/*amp_ht_orig*/ ORIGINAL } }
// and the launcher's script parses that output a second time, where the
// kernel is analysed and split as any other (its body: the INLINED block),
// and where Consumer::handle checks that every name of each inlined callee
// bound to the same declaration as in the callee (keysOf: the hashes H,
// one per instantiation of the kernel). The fibers branch of a compiled
// kernel, and a kernel the second pass refuses, get the ORIGINAL body back.

#pragma once

#include "keys.h"

#include "clang/Lex/MacroInfo.h"
#include "clang/Lex/Preprocessor.h"
#include "llvm/Support/Path.h"

namespace tile_compiler {

// An edit of [b, e) of a file: its replacement text (editedText).
struct TextEdit {
  unsigned b, e;
  std::string text;
};
std::string editedText(SourceManager& sm, FileID fid, unsigned b, unsigned e, std::vector<TextEdit> edits);

class Inliner {
public:
  Inliner(ASTContext& ctx, const std::set<std::string>& headers, KernelFn k, ParmVarDecl* p,
          Preprocessor* pp = nullptr)
      : ctx_(ctx), sm_(ctx.getSourceManager()), lo_(ctx.getLangOpts()), headers_(headers), fn_(k), param_(p),
        pp_(pp) {
    dependent_ = k.scope()->isDependentContext() || k.op->getTemplateInstantiationPattern() != nullptr;
    for (const DeclContext* c = k.scope(); c; c = c->getParent())
      if (const auto* fd = dyn_cast<FunctionDecl>(c))
        if (fd->isTemplateInstantiation() || fd->getDescribedFunctionTemplate()) dependent_ = true;
  }

  int expanded = 0; // macro invocations holding a barrier, replaced by their expansion

  std::string keys; // the binding keys of every inlined call, in order
  int calls = 0;    // call statements inlined (nested ones included)

  // ---- defined in inliner.cpp
  std::string run();

  int restarted = 0; // variables whose later live range got a name of its own

private:
  std::vector<TextEdit> expandBarrierMacros(const CompoundStmt* body, FileID fid);
  std::string expansionText(SourceLocation name, unsigned b, unsigned e, FileID fid, std::string& why);

private:
  std::vector<TextEdit> restarts(const CompoundStmt* body, const std::vector<const CallExpr*>& calls, FileID fid);

  ASTContext& ctx_;
  SourceManager& sm_;
  const LangOptions& lo_;
  const std::set<std::string>& headers_;
  KernelFn fn_;
  ParmVarDecl* param_;
  Preprocessor* pp_; // macro definitions (expandBarrierMacros); may be null
  bool dependent_ = false; // the kernel is in a template: template arguments must be spelled as written
  std::map<const FunctionDecl*, int> sites_;
  std::set<const FunctionDecl*> hasStatic_;
  std::map<const FunctionDecl*, bool> waits_;
  int ids_ = 0;

  unsigned off(SourceLocation l) { return sm_.getFileOffset(sm_.getExpansionLoc(l)); }
  unsigned endOfToken(SourceLocation l);
  std::string where(SourceLocation l);
  std::string lineDirective(SourceLocation l);
  unsigned stmtEnd(const Stmt* s, FileID fid);
  static const Expr* strip(const Expr* e) { return e->IgnoreParenImpCasts(); }
  const Stmt* parentOf(const Stmt* s);
  bool isTiled(const Expr* a, const ValueDecl* tiled);
  // The kernel's own names for its barrier (`const tile_barrier& b =
  // t.barrier;`): each stands for `t.barrier` (barrierAliases), its
  // declaration dropped and its waits renamed (aliasEdits).
  std::set<const VarDecl*> aliases_;
  void barrierAliases(const CompoundStmt* body);
  std::vector<TextEdit> aliasEdits(const CompoundStmt* body, const std::vector<const CallExpr*>& calls, FileID fid);
  bool waits(const FunctionDecl* f, const ParmVarDecl* p, int depth);
  void waitingCalls(const Stmt* s, const ValueDecl* tiled, std::vector<const CallExpr*>& out);
  bool waitsAnyTiled(const FunctionDecl* g);
  const DeclStmt* initialisedBy(const CallExpr* c);
  const Stmt* assignedBy(const CallExpr* c);
  const Stmt* valuedStatement(const CallExpr* c, bool kernelLevel = false);
  // (tiled: the tiled_index the call's operands may read; callee: in an
  // inlined callee's body, whose own names only the operands may use;
  // lastReturn: its last `return E;`, which may hold the call.)
  const Stmt* enclosingStatement(const CallExpr* c, const ValueDecl* tiled = nullptr,
                                 const FunctionDecl* callee = nullptr, const Stmt* lastReturn = nullptr);
  bool quiet(const Expr* e, const CallExpr* c, const ValueDecl* tiled, const FunctionDecl* callee);
  // The call c (and what it calls) writes no memory but its own locals,
  // tile_static memory and locals of its callers bound to its reference
  // parameters: an element of a view or array read beside it cannot change.
  bool writesOnlyTileOrLocal(const CallExpr* c, const FunctionDecl* caller, std::set<const ParmVarDecl*> localRefs,
                             int depth);
  // Every use of v in the kernel's body reads an element (`v[i]`, `v(i)` as
  // a value) or calls a const member: no work-item writes through v.
  bool readOnlyInKernel(const VarDecl* v);
  bool returnsStorable(const FunctionDecl* f);
  const Stmt* statementOf(const CallExpr* c);

  // A type as both parses name it from anywhere (non-dependent kernels).
  std::string typeName(QualType t) { return spelledType(t, lo_); }

  std::vector<TextEdit> qualifyForeignNames(const FunctionDecl* f, const DeclContext* kns, std::string& why);

  // Whether the last deduced text names a template's parameters.
  bool deducedDependent_ = false;
  // The patterns (template texts) of the callees being inlined, innermost
  // last: a nested call's deduced arguments are read from its caller's.
  std::vector<const FunctionDecl*> patterns_;

  const CallExpr* patternCall(const CallExpr* call, int depth);
  std::vector<std::pair<QualType, std::string>> kernelScopeTypes();
  std::vector<std::pair<llvm::APSInt, std::string>> kernelScopeValues();
  std::vector<std::pair<const NamedDecl*, TemplateArgument>> enclosingTemplateArgs();
  static std::pair<unsigned, unsigned> depthIndex(const NamedDecl* tp);
  template <class T> const T* shapeOf(QualType a);
  std::string asWritten(QualType t);
  std::string asWritten(const TemplateArgument& a);
  std::optional<ArrayRef<TemplateArgument>> classArgs(QualType a, const TemplateDecl* of);
  std::string deduceFrom(QualType p, QualType a, const NamedDecl* tp, int level);
  std::string deducedAsWritten(const NamedDecl* tp, const FunctionDecl* pattern, const CallExpr* pcall);
  std::string deducedFromArgument(const NamedDecl* tp, const FunctionDecl* pattern, const CallExpr* pcall, FileID cfid,
                                  const std::vector<TextEdit>& cedits);
  bool calleeFileOk(SourceLocation l);
  // For a callee defined after the kernel: the first thing its body names
  // that has no declaration before the kernel (empty: none).
  std::string declaredAfter(const FunctionDecl* f, const CompoundStmt* body);
  std::string inlineCall(const CallExpr* call, const Stmt* st, FileID cfid, const std::vector<TextEdit>& cedits,
                         const ValueDecl* tiled, int depth, bool spelled,
                         const std::vector<std::pair<QualType, std::string>>& outer, std::string& keys,
                         const std::string& result = "", std::string* resultType = nullptr);
};

} // namespace tile_compiler
