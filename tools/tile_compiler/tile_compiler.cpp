// tile_compiler: a Clang 22 plugin that rewrites the tiled kernel lambdas of a
// host translation unit so that a tile runs as loops over its work-items
// between barriers instead of as fibers
// (amp_compat/detail/backend/host/compiled_tiles.h has the runtime side,
// README.md beside this file the design and the rules).
//
// Run on a parse of the source (clang++-22 -fsyntax-only with the host flags):
//   -fplugin=tile_compiler.so -Xclang -plugin-arg-tile-compiler -Xclang out=FILE
//       [-Xclang -plugin-arg-tile-compiler -Xclang report=1]
//       [-Xclang -plugin-arg-tile-compiler -Xclang overlay=DIR
//        -Xclang -plugin-arg-tile-compiler -Xclang header=PATH ...]
// writes the rewritten main file to FILE (the original text when nothing was
// rewritten) and each named project header with a rewritten kernel to
// DIR/PATH; report=1 prints a note per tiled kernel with a barrier: which path
// it takes and why.
//
// What is compiled: a non-mutable lambda taking one tiled_index<...>, whose
// barriers (t.barrier.wait*() statements on its own parameter) sit at the top
// level of the body or in blocks, `for`, `while` and `if` statements whose
// conditions are uniform over the tile (see Kernel::uniform). Locals declared
// at those levels and used across a barrier are recomputed per region when
// they are pure functions of the work-item, else kept in arrays with one
// element per work-item; tile-uniform scalars and tile_static variables stay
// single. `return` marks the work-item returned (checked at the next barrier),
// uniform break/continue are statements of the tile, and a region that is one
// guard on the local index becomes the item loop's bounds. A region loop whose
// work-items provably touch no memory another of them writes is marked
// `#pragma GCC ivdep`; over a 2-D tile the loop is a row/column nest.
// A call statement handing the tiled_index to a function that waits on its
// barrier is first inlined (Inliner, a first parse), the result analysed by
// a second parse (pass=2) that also checks each inlined name binds as in the
// callee; the fibers branch keeps the original body.
// Everything else is wrapped with the reason and keeps fibers.
#include "clang/AST/ASTConsumer.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendPluginRegistry.h"
#include "clang/Lex/Lexer.h"
#include "clang/Lex/MacroInfo.h"
#include "clang/Lex/Preprocessor.h"
#include "clang/Rewrite/Core/Rewriter.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

using namespace clang;

namespace {

// A type spelled so that it names the same type from anywhere in the file
// (fully qualified, canonical): what the rewrite writes for per-work-item
// arrays and for the inliner's argument bindings.
std::string spelledType(QualType t, const LangOptions& lo) {
  PrintingPolicy pp(lo);
  pp.FullyQualifiedName = true;
  pp.SuppressScope = false;
  pp.SuppressUnwrittenScope = true; // anonymous and inline namespaces: not spellable
  pp.PrintAsCanonical = true;
  return t.getAsString(pp);
}

struct Refused {
  std::string why;
};

bool inConcurrency(const Decl* d) {
  for (const DeclContext* c = d->getDeclContext(); c; c = c->getParent())
    if (const auto* ns = dyn_cast<NamespaceDecl>(c))
      if (ns->getName() == "Concurrency" || ns->getName() == "concurrency") return true;
  return false;
}

// The class of t (through references and cv), if it is one of Concurrency's
// templates named `name`.
bool isAmpClass(QualType t, llvm::StringRef name) {
  const auto* rd = t.getNonReferenceType()->getAsCXXRecordDecl();
  return rd && rd->getName() == name && inConcurrency(rd);
}

// Value-only classes: reading them never reads memory other work-items write.
bool isValueClass(QualType t) {
  return isAmpClass(t, "index") || isAmpClass(t, "extent") || isAmpClass(t, "tiled_extent");
}

// The call that receives expression e (a use of a tiled_index, perhaps
// copied) as its argument j; null when e is used any other way.
const CallExpr* receivingCall(ASTContext& ctx, const Expr* e, unsigned& j) {
  DynTypedNode n = DynTypedNode::create(*static_cast<const Stmt*>(e));
  const Stmt* child = e;
  for (int guard = 0; guard < 12; ++guard) {
    auto ps = ctx.getParents(n);
    if (ps.empty()) return nullptr;
    const Stmt* p = ps[0].get<Stmt>();
    if (!p) return nullptr;
    if (const auto* c = dyn_cast<CallExpr>(p)) {
      for (j = 0; j < c->getNumArgs(); ++j)
        if (c->getArg(j) == child) return c;
      return nullptr;
    }
    const auto* ce = dyn_cast<CXXConstructExpr>(p);
    if (!(isa<ImplicitCastExpr>(p) || isa<ParenExpr>(p) || isa<MaterializeTemporaryExpr>(p) ||
          isa<CXXBindTemporaryExpr>(p) ||
          (ce && ce->getNumArgs() == 1 && ce->getConstructor() &&
           (ce->getConstructor()->isCopyConstructor() || ce->getConstructor()->isMoveConstructor()))))
      return nullptr;
    if (const auto* ic = dyn_cast<ImplicitCastExpr>(p); ic && ic->getCastKind() != CK_NoOp &&
                                                        ic->getCastKind() != CK_LValueToRValue)
      return nullptr;
    child = p;
    n = ps[0];
  }
  return nullptr;
}

// What a kernel may read of its tiled_index without waiting: the member
// `barrier` is not among them.
bool isTileInfoMember(llvm::StringRef n) {
  static const std::set<std::string> names = {"global",      "local",     "tile",      "tile_origin", "tile_extent",
                                              "tile_dim0",   "tile_dim1", "tile_dim2", "rank",        "get_tile_extent"};
  return names.count(n.str()) > 0;
}

// f (a free function) provably never waits on the barrier of its
// tiled_index parameter idx: its body is visible, declares no static
// (tile_static) storage, and every use of that parameter reads a member
// other than `barrier`, converts it (to index), or hands it to a function
// that never waits either. A kernel may then pass its tiled_index to f
// from a compiled region: each work-item calls f with its own tiled_index.
bool neverWaits(ASTContext& ctx, const FunctionDecl* f, unsigned idx, int depth) {
  const FunctionDecl* def = nullptr;
  if (depth > 8 || !f->hasBody(def) || !def->getBody() || idx >= def->getNumParams() || def->isVariadic())
    return false;
  struct V : RecursiveASTVisitor<V> {
    ASTContext& ctx;
    const ParmVarDecl* p;
    int depth;
    bool ok = true;
    V(ASTContext& c, const ParmVarDecl* pp, int d) : ctx(c), p(pp), depth(d) {}
    bool VisitVarDecl(VarDecl* v) {
      if (v->isStaticLocal()) ok = false;
      return ok;
    }
    bool VisitLambdaExpr(LambdaExpr*) { return ok = false; }
    bool VisitDeclRefExpr(DeclRefExpr* r) {
      if (r->getDecl() != p) return true;
      auto ps = ctx.getParents(*r);
      const Stmt* q = ps.empty() ? nullptr : ps[0].get<Stmt>();
      while (q && (isa<ParenExpr>(q) || (isa<ImplicitCastExpr>(q) && cast<ImplicitCastExpr>(q)->getCastKind() == CK_NoOp))) {
        auto qs = ctx.getParents(*q);
        q = qs.empty() ? nullptr : qs[0].get<Stmt>();
      }
      if (const auto* me = dyn_cast_or_null<MemberExpr>(q))
        if (isa<CXXConversionDecl>(me->getMemberDecl()) || isTileInfoMember(me->getMemberDecl()->getName())) return true;
      if (const auto* ic = dyn_cast_or_null<ImplicitCastExpr>(q))
        if (ic->getCastKind() == CK_UserDefinedConversion || ic->getCastKind() == CK_DerivedToBase) return true;
      unsigned j = 0;
      const CallExpr* c = receivingCall(ctx, r, j);
      const FunctionDecl* g = c ? c->getDirectCallee() : nullptr;
      if (g && !isa<CXXMethodDecl>(g) && neverWaits(ctx, g, j, depth + 1)) return true;
      return ok = false;
    }
  } v(ctx, def->getParamDecl(idx), depth);
  v.TraverseStmt(def->getBody());
  return v.ok;
}

// f's result depends only on its arguments' values: a free function with a
// visible body that takes arithmetic values, value classes (index, extent),
// objects by const reference, or a tiled_index of which it reads only the
// tile's members (tile, tile_origin, tile_extent...); returns no reference
// or pointer; reads nothing but its parameters, its own locals, constants
// and the members and const value-class accessors of those (no element of a
// view, no pointer, no global that can change); writes only its locals and
// by-value parameters; and calls only such functions. Called with arguments
// that are the same for every work-item of a tile, its result is too
// (Windows' `min(a, b)` in Microsoft's BinomialOptions; the AMP Algorithms
// Library's `tile_partial_data_size(view, tidx)`).
bool sameForSameArgs(const FunctionDecl* f, int depth) {
  const FunctionDecl* def = nullptr;
  if (depth > 4 || isa<CXXMethodDecl>(f) || !f->hasBody(def) || !def->getBody() || def->isVariadic()) return false;
  const QualType rt = def->getReturnType();
  if (rt->isReferenceType() || rt->isPointerType() || rt->isVoidType()) return false;
  std::set<const ParmVarDecl*> tiled;
  for (const ParmVarDecl* pv : def->parameters()) {
    QualType t = pv->getType();
    if (t->isReferenceType() && !t.getNonReferenceType().isConstQualified()) return false;
    t = t.getNonReferenceType();
    if (t->isPointerType() || t->isArrayType() || t.isVolatileQualified()) return false;
    if (isAmpClass(t, "tiled_index")) tiled.insert(pv);
  }
  struct V : RecursiveASTVisitor<V> {
    const FunctionDecl* f;
    const std::set<const ParmVarDecl*>& tiled;
    int depth;
    ASTContext& ctx;
    bool ok = true;
    V(const FunctionDecl* ff, const std::set<const ParmVarDecl*>& t, int d, ASTContext& c)
        : f(ff), tiled(t), depth(d), ctx(c) {}
    const Stmt* parent(const Stmt* s) {
      auto ps = ctx.getParents(*s);
      const Stmt* q = ps.empty() ? nullptr : ps[0].get<Stmt>();
      while (q && (isa<ParenExpr>(q) || isa<ImplicitCastExpr>(q))) {
        auto qs = ctx.getParents(*q);
        q = qs.empty() ? nullptr : qs[0].get<Stmt>();
      }
      return q;
    }
    bool VisitDeclRefExpr(DeclRefExpr* r) {
      const ValueDecl* d = r->getDecl();
      if (isa<FunctionDecl>(d) || isa<EnumConstantDecl>(d)) return true;
      const auto* v = dyn_cast<VarDecl>(d);
      if (!v) return ok = false;
      if (const auto* pv = dyn_cast<ParmVarDecl>(v); pv && tiled.count(pv)) {
        const auto* me = dyn_cast_or_null<MemberExpr>(parent(r));
        const std::string n = me ? me->getMemberDecl()->getNameAsString() : "";
        if (n.empty() || n == "global" || n == "local" || !isTileInfoMember(n)) ok = false;
        return ok;
      }
      if (v->getDeclContext() == f) return true; // a parameter or local of f
      if (v->isStaticLocal()) return ok = false;
      return ok = v->getType().isConstQualified() && !v->getType().isVolatileQualified() &&
                  !v->getType()->isReferenceType();
    }
    bool VisitVarDecl(VarDecl* v) {
      if (v->isStaticLocal() || v->getType()->isReferenceType() || v->getType()->isPointerType()) ok = false;
      return ok;
    }
    bool VisitBinaryOperator(BinaryOperator* b) {
      if (!b->isAssignmentOp()) return true;
      const auto* d = dyn_cast<DeclRefExpr>(b->getLHS()->IgnoreParenImpCasts());
      const auto* v = d ? dyn_cast<VarDecl>(d->getDecl()) : nullptr;
      if (!v || v->getDeclContext() != f || v->getType()->isReferenceType()) ok = false;
      return ok;
    }
    bool VisitUnaryOperator(UnaryOperator* u) {
      if (u->getOpcode() == UO_Deref || u->getOpcode() == UO_AddrOf) return ok = false;
      if (u->isIncrementDecrementOp()) {
        const auto* d = dyn_cast<DeclRefExpr>(u->getSubExpr()->IgnoreParenImpCasts());
        const auto* v = d ? dyn_cast<VarDecl>(d->getDecl()) : nullptr;
        if (!v || v->getDeclContext() != f || v->getType()->isReferenceType()) ok = false;
      }
      return ok;
    }
    bool VisitMemberExpr(MemberExpr* m) {
      if (m->isArrow()) ok = false;
      return ok;
    }
    bool VisitCallExpr(CallExpr* c) {
      if (const auto* oc = dyn_cast<CXXOperatorCallExpr>(c)) {
        if (oc->isAssignmentOp() || oc->getNumArgs() == 0 || !isValueClass(oc->getArg(0)->IgnoreImplicit()->getType()))
          ok = false;
        return ok;
      }
      if (const auto* mc = dyn_cast<CXXMemberCallExpr>(c)) {
        const CXXMethodDecl* m = mc->getMethodDecl();
        const QualType ot = mc->getImplicitObjectArgument()->IgnoreImplicit()->getType();
        if (!m || !m->isConst() ||
            !(isValueClass(ot) || m->getName() == "get_extent" || m->getName() == "get_tile_extent"))
          ok = false;
        return ok;
      }
      const FunctionDecl* g = c->getDirectCallee();
      if (!g || !(g->getBuiltinID() || sameForSameArgs(g, depth + 1))) ok = false;
      return ok;
    }
    bool VisitCXXConstructExpr(CXXConstructExpr* c) {
      if (!isValueClass(c->getType()) && !(c->getConstructor() && c->getConstructor()->isTrivial())) ok = false;
      return ok;
    }
    bool VisitCXXThisExpr(CXXThisExpr*) { return ok = false; }
    bool VisitCXXNewExpr(CXXNewExpr*) { return ok = false; }
    bool VisitCXXDeleteExpr(CXXDeleteExpr*) { return ok = false; }
    bool VisitCXXThrowExpr(CXXThrowExpr*) { return ok = false; }
    bool VisitLambdaExpr(LambdaExpr*) { return ok = false; }
    bool VisitGCCAsmStmt(GCCAsmStmt*) { return ok = false; }
  } v(def, tiled, depth, def->getASTContext());
  v.TraverseStmt(def->getBody());
  return v.ok;
}

class Kernel {
public:
  // body: the block to compile when it is not the lambda's own body (a
  // kernel whose called functions were inlined by the first pass: the `then`
  // block of its `if constexpr (true) { INLINED } else { ORIGINAL }`).
  Kernel(ASTContext& ctx, LambdaExpr* l, ParmVarDecl* p, CompoundStmt* body = nullptr)
      : ctx_(ctx), sm_(ctx.getSourceManager()), lo_(ctx.getLangOpts()), lambda_(l), param_(p),
        body_(body ? body : l->getCompoundStmtBody()), fid_(sm_.getFileID(sm_.getExpansionLoc(l->getBeginLoc()))) {}

  int barriers = 0;
  int per_item = 0;
  int recomputed_count = 0;
  // Every value kept per work-item in item_slots: set when a kernel
  // template's instantiations differ only in which kind of storage their
  // types need (a user's class in one, int in another), so that all give
  // the same text.
  bool slotsForAll = false;
  // No `#pragma GCC ivdep` anywhere: for instantiations whose independence
  // proofs differ (the calls a user's class makes are not proven).
  bool ivdepOff = false;
  bool usedSlots() const { return !slots_.empty(); }
  int guarded = 0;  // regions whose guard became the item loop's bounds
  int independent_ = 0; // region loops marked #pragma GCC ivdep

  // The compiled branch (statements inside `if constexpr (tile group) { ... }`).
  std::string compile() {
    if (lambda_->isMutable()) throw Refused{"the kernel is `mutable` (each work-item owns a copy of the closure)"};
    collect();
    checkParamUses();
    if (!barriers) throw Refused{"no barrier"};
    checkControl();
    classifyLocals();
    return emitAll();
  }

private:
  ASTContext& ctx_;
  SourceManager& sm_;
  const LangOptions& lo_;
  LambdaExpr* lambda_;
  ParmVarDecl* param_;
  CompoundStmt* body_;
  FileID fid_; // the file the kernel is written in (the main file or a project header)

  std::set<const Stmt*> withBarrier_;              // statements that contain a barrier
  std::set<const Stmt*> barrierStmts_;             // the barrier calls (statements of a block)
  std::set<const VarDecl*> locals_;                // declared in the body
  std::map<const VarDecl*, const DeclStmt*> splitDecl_; // declared directly in a split block or split for's init
  std::map<const VarDecl*, const ForStmt*> loopVar_;    // declared in a split for's init
  std::set<const VarDecl*> tileLevel_;             // one value per tile
  std::set<const VarDecl*> refTile_;               // tile-level references (bound once per tile)
  std::set<const VarDecl*> constCopy_;             // tile-level copies of uniform objects, only used const
  std::map<const VarDecl*, std::string> arrays_;   // per-work-item arrays: name
  std::set<const VarDecl*> remat_;                 // recomputed in each region that reads them
  std::map<const VarDecl*, std::set<const VarDecl*>> rematDeps_; // the recomputed values its initialiser reads
  bool itemMode_ = false;                          // uniform() asks "pure per work-item" instead
  std::vector<const DeclRefExpr*> refs_;           // every reference to a variable in the body
  std::vector<const ReturnStmt*> returns_;         // `return;` statements (all inside regions)
  std::set<const Stmt*> tileJumps_;                // `break;` / `if (U) break;` (continue too) of a split block
  std::string label_;                              // the end of the work-item loop being emitted
  int labels_ = 0;
  std::map<const Stmt*, int> regionOf_;            // split-block child -> region number
  std::vector<std::pair<unsigned, unsigned>> regionRange_; // offsets of each region

  // ---- helpers
  // The parent of s in this kernel's body. In a template instantiation,
  // statements that need no change (`break;`, a reference to a global) are
  // shared with the template's pattern, so the AST's parent map gives them
  // two parents, the pattern's first: the kernel's own tree is walked instead.
  std::map<const Stmt*, const Stmt*> parent_;
  void mapParents(const Stmt* s) {
    for (const Stmt* c : s->children())
      if (c) {
        parent_[c] = s;
        mapParents(c);
      }
  }
  const Stmt* parentOf(const Stmt* s) {
    if (parent_.empty()) mapParents(body_);
    if (auto it = parent_.find(s); it != parent_.end()) return it->second;
    auto ps = ctx_.getParents(*s);
    return ps.empty() ? nullptr : ps[0].get<Stmt>();
  }
  const Stmt* parentSkipping(const Stmt* s) { // past parentheses and implicit nodes
    const Stmt* p = parentOf(s);
    while (p && (isa<ParenExpr>(p) || isa<ExprWithCleanups>(p) || isa<MaterializeTemporaryExpr>(p) ||
                 (isa<ImplicitCastExpr>(p) && cast<ImplicitCastExpr>(p)->getCastKind() == CK_NoOp)))
      p = parentOf(p);
    return p;
  }
  // Offsets in the main file; a location inside a macro expansion counts as
  // the expansion's (its start, or for endOfToken the end of its last token).
  unsigned off(SourceLocation l) { return sm_.getFileOffset(sm_.getExpansionLoc(l)); }
  bool inFile(SourceLocation l) { return l.isValid() && sm_.getFileID(sm_.getExpansionLoc(l)) == fid_; }
  unsigned endOfToken(SourceLocation l) {
    if (l.isMacroID()) l = sm_.getExpansionRange(l).getEnd();
    return sm_.getFileOffset(Lexer::getLocForEndOfToken(l, 0, sm_, lo_));
  }
  // End offset of statement s, its `;` included.
  unsigned stmtEnd(const Stmt* s) {
    if (!inFile(s->getEndLoc())) throw Refused{"a statement ends inside a macro"};
    unsigned e = endOfToken(s->getEndLoc());
    if (isa<CompoundStmt>(s) || isa<DeclStmt>(s)) return e;
    const char* buf = sm_.getBufferData(fid_).data();
    unsigned k = e;
    while (buf[k] == ' ' || buf[k] == '\t' || buf[k] == '\n' || buf[k] == '\r') ++k;
    return buf[k] == ';' ? k + 1 : e;
  }
  std::string lineDirective(SourceLocation l) {
    PresumedLoc p = sm_.getPresumedLoc(l);
    std::string f = p.getFilename();
    std::string esc;
    for (char c : f) {
      if (c == '"' || c == '\\') esc += '\\';
      esc += c;
    }
    return macrosUpTo(off(l)) + "\n#line " + std::to_string(p.getLine()) + " \"" + esc + "\"\n";
  }
  // `#define`/`#undef` lines of the kernel body between the last point
  // emitted and offset o, in order: the compiled body is emitted in source
  // order from pieces of the body, and a macro the kernel defines (ported
  // CUDA code's `#define CELL(i) buf[...]`) must be defined where its uses
  // land. Directives inside a region's text come with it and are replayed
  // here once more, in order, which leaves the same macros defined.
  unsigned dirCursor_ = 0;
  std::string macrosUpTo(unsigned o) {
    if (dirCursor_ == 0 || o <= dirCursor_) return "";
    const llvm::StringRef buf = sm_.getBufferData(fid_);
    std::string out;
    unsigned k = dirCursor_;
    dirCursor_ = o;
    while (k < o) {
      size_t eol = buf.find('\n', k);
      while (eol != llvm::StringRef::npos && eol > 0 && buf[eol - 1] == '\\') eol = buf.find('\n', eol + 1);
      const unsigned end = eol == llvm::StringRef::npos ? static_cast<unsigned>(buf.size()) : static_cast<unsigned>(eol);
      llvm::StringRef line = buf.slice(k, end).ltrim();
      if (line.consume_front("#")) {
        line = line.ltrim();
        if (line.starts_with("define") || line.starts_with("undef")) out += "\n" + buf.slice(k, end).str() + "\n";
      }
      k = end + 1;
    }
    return out;
  }
  std::string where(const Stmt* s) {
    PresumedLoc p = sm_.getPresumedLoc(s->getBeginLoc());
    return "line " + std::to_string(p.getLine());
  }

  static const Expr* strip(const Expr* e) { return e->IgnoreParenImpCasts(); }

  // A call t.barrier.wait*() on the kernel's own parameter.
  bool isBarrierCall(const Stmt* s) {
    const auto* call = dyn_cast<CXXMemberCallExpr>(s);
    if (!call) return false;
    const CXXMethodDecl* m = call->getMethodDecl();
    if (!m || !m->getParent() || m->getParent()->getName() != "tile_barrier" || !m->getName().starts_with("wait"))
      return false;
    const auto* me = dyn_cast<MemberExpr>(strip(call->getImplicitObjectArgument()));
    if (!me || me->getMemberDecl()->getName() != "barrier")
      throw Refused{"a barrier waited on through a tile_barrier other than the kernel's tiled_index (" +
                    where(s) + ")"};
    const auto* dr = dyn_cast<DeclRefExpr>(strip(me->getBase()));
    if (!dr || dr->getDecl() != param_)
      throw Refused{"a barrier waited on through another tiled_index (" + where(s) + ")"};
    return true;
  }

  // ---- analysis
  void collect() {
    struct V : RecursiveASTVisitor<V> {
      Kernel& k;
      explicit V(Kernel& kk) : k(kk) {}
      bool shouldVisitImplicitCode() const { return false; }
      bool VisitStmt(Stmt* s) {
        if (isa<LambdaExpr>(s)) throw Refused{"a lambda inside the kernel (" + k.where(s) + ")"};
        if (isa<GotoStmt>(s) || isa<IndirectGotoStmt>(s)) throw Refused{"`goto` in the kernel"};
        if (isa<CXXTryStmt>(s)) throw Refused{"`try` in the kernel"};
        if (isa<GCCAsmStmt>(s) || isa<MSAsmStmt>(s)) throw Refused{"inline assembly in the kernel"};
        if (const auto* r = dyn_cast<ReturnStmt>(s)) k.returns_.push_back(r);
        if (const auto* dr = dyn_cast<DeclRefExpr>(s)) k.refs_.push_back(dr);
        if (k.isBarrierCall(s)) {
          const Stmt* p = k.parentOf(s);
          const Stmt* me = s;
          if (const auto* ewc = dyn_cast_or_null<ExprWithCleanups>(p)) p = k.parentOf(ewc), me = ewc;
          // A barrier labelled `case X:` is a statement of the switch's block.
          const Stmt* block = p;
          while (block && isa<SwitchCase>(block)) block = k.parentOf(block);
          if (p && (isa<ForStmt>(p) || isa<WhileStmt>(p) || isa<DoStmt>(p) || isa<IfStmt>(p)))
            throw Refused{"a barrier as the unbraced body or branch of a statement (" + k.where(me) + ")"};
          if (!block || !isa<CompoundStmt>(block))
            throw Refused{"a barrier inside an expression (" + k.where(me) + ")"};
          k.barrierStmts_.insert(me);
          ++k.barriers;
          for (const Stmt* c = me; c && c != k.body_;) {
            const Stmt* up = k.parentOf(c);
            if (!up) throw Refused{"a barrier outside the kernel body"};
            k.withBarrier_.insert(up);
            c = up;
          }
        }
        return true;
      }
      bool VisitVarDecl(VarDecl* v) {
        if (v != k.param_) k.locals_.insert(v);
        return true;
      }
    } v(*this);
    v.TraverseStmt(body_);
  }

  // An unbraced body or branch that is itself a `for`, `while` or `if`
  // holding a barrier (`if (U) if (V) { ... }`, `for (...) for (...) { }`):
  // split as if it were braced (checked on its own like any such statement).
  bool splitStmt(const Stmt* b) {
    return withBarrier_.count(b) && (isa<ForStmt>(b) || isa<WhileStmt>(b) || isa<IfStmt>(b) || isa<DoStmt>(b));
  }

  // Barriers only in blocks, for/while bodies and if branches with uniform
  // conditions; no break/continue leaving a split loop.
  void checkControl() {
    for (const Stmt* s : withBarrier_) {
      if (isa<CompoundStmt>(s)) continue;
      if (const auto* f = dyn_cast<ForStmt>(s)) {
        if (!isa<CompoundStmt>(f->getBody()) && !splitStmt(f->getBody()))
          throw Refused{"a barrier in a `for` without braces (" + where(s) + ")"};
        if (f->getConditionVariable()) throw Refused{"a `for` condition declaring a variable (" + where(s) + ")"};
        // An init that is an expression (`for (i = 0, k = 1; ...)`, the
        // variables declared before) runs once per tile like the increment:
        // checked in classifyLocals, once the tile-level variables are known.
        if (const auto* ds = dyn_cast_or_null<DeclStmt>(f->getInit()))
          for (const Decl* d : ds->decls())
            if (const auto* v = dyn_cast<VarDecl>(d)) {
              splitDecl_[v] = ds;
              loopVar_[v] = f;
            }
        continue;
      }
      if (const auto* w = dyn_cast<WhileStmt>(s)) {
        if (!isa<CompoundStmt>(w->getBody()) && !splitStmt(w->getBody()))
          throw Refused{"a barrier in a `while` without braces (" + where(s) + ")"};
        if (w->getConditionVariable()) throw Refused{"a `while` condition declaring a variable (" + where(s) + ")"};
        continue;
      }
      if (const auto* i = dyn_cast<IfStmt>(s)) {
        if (i->getInit() || i->getConditionVariable())
          throw Refused{"an `if` with an init statement or a condition variable around a barrier (" + where(s) + ")"};
        for (const Stmt* b : {i->getThen(), i->getElse()})
          if (b && withBarrier_.count(b) == 0 && barrierStmts_.count(b) == 0) continue;
          else if (b && !isa<CompoundStmt>(b) && !splitStmt(b))
            throw Refused{"a barrier in an `if` branch without braces (" + where(s) + ")"};
        continue;
      }
      // A `do` loop: its body runs first, then the (uniform) condition: the
      // tile runs the same iterations as each of its work-items would.
      if (const auto* d = dyn_cast<DoStmt>(s)) {
        if (!isa<CompoundStmt>(d->getBody()) && !splitStmt(d->getBody()))
          throw Refused{"a barrier in a `do` loop without braces (" + where(s) + ")"};
        continue;
      }
      // A switch with a uniform selector stays a statement of the tile, its
      // block split; its labels (directly in that block) are tile-level
      // jump targets, each label's statement split like a statement of the
      // block. Fallthrough and `break` are then the switch's own.
      if (const auto* sw = dyn_cast<SwitchStmt>(s)) {
        const auto* body = dyn_cast<CompoundStmt>(sw->getBody());
        if (!body) throw Refused{"a barrier in a `switch` without braces (" + where(s) + ")"};
        if (sw->getInit() || sw->getConditionVariable())
          throw Refused{"a `switch` with an init statement or a condition variable around a barrier (" + where(s) + ")"};
        for (const SwitchCase* sc = sw->getSwitchCaseList(); sc; sc = sc->getNextSwitchCase()) {
          const Stmt* p = parentOf(sc);
          while (p && isa<SwitchCase>(p)) p = parentOf(p);
          if (p != body)
            throw Refused{"a `case` label nested inside a statement of a `switch` with a barrier (" + where(sc) + ")"};
          if (const auto* cs = dyn_cast<CaseStmt>(sc); cs && cs->caseStmtIsGNURange())
            throw Refused{"a `case` range in a `switch` with a barrier (" + where(sc) + ")"};
        }
        continue;
      }
      if (isa<SwitchCase>(s)) continue; // checked with its switch
      const char* kind = "a statement";
      throw Refused{std::string("a barrier inside ") + kind + " (" + where(s) + "), which the compiled path does not split"};
    }
    // break/continue whose target contains a barrier: the item loop would end, not the tile's loop.
    struct V : RecursiveASTVisitor<V> {
      Kernel& k;
      explicit V(Kernel& kk) : k(kk) {}
      bool VisitStmt(Stmt* s) {
        if (!isa<BreakStmt>(s) && !isa<ContinueStmt>(s)) return true;
        for (const Stmt* p = k.parentOf(s); p; p = k.parentOf(p)) {
          const bool loop = isa<ForStmt>(p) || isa<WhileStmt>(p) || isa<DoStmt>(p) || isa<CXXForRangeStmt>(p);
          if (loop || (isa<SwitchStmt>(p) && isa<BreakStmt>(s))) {
            if (k.withBarrier_.count(p)) {
              // Taken by the whole tile when it is a statement of a split
              // block, alone or as `if (U) break;` / `if (U) { break; }`
              // (U uniform: checked once the tile-level values are known).
              const Stmt* up = k.parentOf(s);
              const Stmt* at = s;
              if (const auto* cs = dyn_cast_or_null<CompoundStmt>(up); cs && cs->size() == 1 && !k.withBarrier_.count(cs))
                at = cs, up = k.parentOf(cs);
              if (const auto* is = dyn_cast_or_null<IfStmt>(up);
                  is && is->getThen() == at && !is->getElse() && !is->getInit() && !is->getConditionVariable())
                at = is, up = k.parentOf(is);
              else if (at != s)
                up = nullptr;
              while (up && isa<SwitchCase>(up)) up = k.parentOf(up); // `case 0: break;`
              if (up && isa<CompoundStmt>(up) && k.withBarrier_.count(up)) {
                k.tileJumps_.insert(at);
                break;
              }
              throw Refused{std::string(isa<BreakStmt>(s) ? "`break`" : "`continue`") +
                            " out of a loop with a barrier (" + k.where(s) +
                            "), other than as a statement of the loop's body or under a uniform `if` there"};
            }
            break;
          }
          if (p == k.body_) break;
        }
        return true;
      }
    } v(*this);
    v.TraverseStmt(body_);
    // Declarations directly in split blocks.
    for (const Stmt* s : withBarrier_)
      if (const auto* cs = dyn_cast<CompoundStmt>(s))
        for (const Stmt* c : cs->body())
          if (const auto* ds = dyn_cast<DeclStmt>(c))
            for (const Decl* d : ds->decls())
              if (const auto* v = dyn_cast<VarDecl>(d)) splitDecl_[v] = ds;
    for (const Stmt* c : body_->body())
      if (const auto* ds = dyn_cast<DeclStmt>(c))
        for (const Decl* d : ds->decls())
          if (const auto* v = dyn_cast<VarDecl>(d)) splitDecl_[v] = ds;
  }

  // The parameter may be read through its members and converted to index;
  // its barrier only in the barrier statements; passing it on could hide a
  // barrier in the callee.
  void checkParamUses() {
    static const std::set<std::string> uniformMembers = {"tile", "tile_origin", "tile_extent", "tile_dim0",
                                                         "tile_dim1", "tile_dim2", "rank", "get_tile_extent"};
    for (const DeclRefExpr* r : refs_) {
      if (r->getDecl() != param_) continue;
      const Stmt* p = parentSkipping(r);
      const auto* me = dyn_cast_or_null<MemberExpr>(p);
      if (me) {
        const ValueDecl* m = me->getMemberDecl();
        if (isa<CXXConversionDecl>(m)) continue;
        const std::string n = m->getNameAsString();
        if (n == "global" || n == "local" || uniformMembers.count(n)) continue;
        if (n == "barrier") {
          const Stmt* call = parentSkipping(me);
          if (call && (barrierStmts_.count(call) || barrierStmts_.count(parentOf(call)))) continue;
          throw Refused{"the tile_barrier is used other than in a barrier statement (" + where(r) + ")"};
        }
      }
      if (const auto* ice = dyn_cast_or_null<ImplicitCastExpr>(p))
        if (ice->getCastKind() == CK_UserDefinedConversion || ice->getCastKind() == CK_DerivedToBase) continue;
      unsigned j = 0;
      if (const CallExpr* c = receivingCall(ctx_, r, j))
        if (const FunctionDecl* g = c->getDirectCallee(); g && !isa<CXXMethodDecl>(g) && neverWaits(ctx_, g, j, 0))
          continue;
      throw Refused{"the tiled_index is passed on or copied (" + where(r) +
                    "): a barrier in a called function cannot be seen"};
    }
  }

  // Is the reference r a plain read (or the object of a const member access)?
  // (Through an lvalue `?:`, `_min(a, b)`'s `((a) < (b)) ? (a) : (b)`, and
  // the no-op casts that give both branches one type.)
  bool isRead(const DeclRefExpr* r) {
    const Stmt* c = r;
    const Stmt* p = parentOf(r);
    for (int guard = 0; p && guard < 16; ++guard) {
      if (const auto* ice = dyn_cast<ImplicitCastExpr>(p)) {
        if (ice->getCastKind() == CK_LValueToRValue) return true;
        if (ice->getCastKind() != CK_NoOp) return false;
      } else if (const auto* co = dyn_cast<ConditionalOperator>(p)) {
        if (co->getCond() == c || !co->isGLValue()) return false;
      } else if (!isa<ParenExpr>(p)) {
        return false;
      }
      c = p;
      p = parentOf(p);
    }
    return false;
  }

  // The allowed writes of a split loop's variable: in its increment, as
  // ++v, v++, --v, v--, v op= U or v = U with U uniform.
  // r is written by the init or the increment of a `for` around a barrier
  // (an assignment or ++/-- there, alone or in a comma list), which runs
  // once per tile.
  const Expr* forWriteExpr(const DeclRefExpr* r) {
    const Stmt* p = parentOf(r);
    while (p && isa<ParenExpr>(p)) p = parentOf(p);
    const auto* u = dyn_cast_or_null<UnaryOperator>(p);
    const auto* b = dyn_cast_or_null<BinaryOperator>(p);
    if (!(u && u->isIncrementDecrementOp()) && !(b && b->isAssignmentOp() && strip(b->getLHS()) == r)) return nullptr;
    const Stmt* top = p;
    for (const Stmt* q = parentOf(top); q; q = parentOf(top)) {
      if (const auto* c = dyn_cast<BinaryOperator>(q); c && c->getOpcode() == BO_Comma) { top = q; continue; }
      if (isa<ParenExpr>(q)) { top = q; continue; }
      const auto* f = dyn_cast<ForStmt>(q);
      if (f && withBarrier_.count(f) && (f->getInit() == top || f->getInc() == top)) return cast<Expr>(p);
      return nullptr;
    }
    return nullptr;
  }
  bool forWrite(const DeclRefExpr* r) { return forWriteExpr(r) != nullptr; }
  bool forWriteUniform(const DeclRefExpr* r) {
    const Expr* w = forWriteExpr(r);
    if (const auto* b = dyn_cast_or_null<BinaryOperator>(w)) return uniform(b->getRHS());
    return w != nullptr;
  }
  // e (a split for's init or increment) only updates tile-level locals with
  // uniform values: assignments and ++/-- of them, in a comma list.
  bool tileWrites(const Expr* e) {
    e = e->IgnoreParens();
    if (const auto* c = dyn_cast<BinaryOperator>(e); c && c->getOpcode() == BO_Comma)
      return tileWrites(c->getLHS()) && tileWrites(c->getRHS());
    const Expr* lhs = nullptr;
    if (const auto* u = dyn_cast<UnaryOperator>(e); u && u->isIncrementDecrementOp()) lhs = u->getSubExpr();
    if (const auto* b = dyn_cast<BinaryOperator>(e); b && b->isAssignmentOp()) {
      if (!uniform(b->getRHS())) return false;
      lhs = b->getLHS();
    }
    const auto* dr = lhs ? dyn_cast<DeclRefExpr>(strip(lhs)) : nullptr;
    const auto* v = dr ? dyn_cast<VarDecl>(dr->getDecl()) : nullptr;
    return v && locals_.count(v) && tileLevel_.count(v);
  }
  // The parts of a comma expression, left to right.
  static void commaParts(const Expr* e, std::vector<const Expr*>& out) {
    e = e->IgnoreParens();
    if (const auto* c = dyn_cast<BinaryOperator>(e); c && c->getOpcode() == BO_Comma) {
      commaParts(c->getLHS(), out);
      commaParts(c->getRHS(), out);
    } else {
      out.push_back(e);
    }
  }
  // The local a part of a `for` increment updates (`addr += blockSize`,
  // `++k`); null for anything else.
  const VarDecl* updatedLocal(const Expr* e) {
    const Expr* lhs = nullptr;
    if (const auto* u = dyn_cast<UnaryOperator>(e); u && u->isIncrementDecrementOp()) lhs = u->getSubExpr();
    if (const auto* b = dyn_cast<BinaryOperator>(e); b && b->isAssignmentOp()) lhs = b->getLHS();
    const auto* dr = lhs ? dyn_cast<DeclRefExpr>(strip(lhs)) : nullptr;
    const auto* v = dr ? dyn_cast<VarDecl>(dr->getDecl()) : nullptr;
    return v && locals_.count(v) && !isTileStorage(v) && !v->getType()->isReferenceType() ? v : nullptr;
  }
  // A `for` around a barrier whose increment also advances a work-item's
  // own value (Bolt's radix sort: `iblock++, addr += blockSize`): its
  // per-item parts run in a work-item loop at the end of each iteration
  // (itemIncParts_), the tile-level ones stay in the header. Not when a
  // per-item part reads what a tile-level part writes (their order would
  // change), nor when the body has a `continue` of this loop (it would skip
  // the parts moved into the body).
  std::map<const ForStmt*, std::vector<const Expr*>> itemIncParts_;
  bool splitsItemIncrement(const ForStmt* f) {
    std::vector<const Expr*> parts, item;
    commaParts(f->getInc(), parts);
    std::set<const VarDecl*> tileWritten;
    for (const Expr* p : parts) {
      if (tileWrites(p)) {
        if (const VarDecl* v = updatedLocal(p)) tileWritten.insert(v);
        continue;
      }
      const VarDecl* v = updatedLocal(p);
      if (!v || tileLevel_.count(v) || loopVar_.count(v) || p->HasSideEffects(ctx_) == false) return false;
      item.push_back(p);
    }
    if (item.empty()) return false;
    struct Reads : RecursiveASTVisitor<Reads> {
      std::set<const VarDecl*>& w;
      bool clash = false;
      explicit Reads(std::set<const VarDecl*>& x) : w(x) {}
      bool VisitDeclRefExpr(DeclRefExpr* r) {
        if (const auto* v = dyn_cast<VarDecl>(r->getDecl()); v && w.count(v)) clash = true;
        return true;
      }
    };
    for (const Expr* p : item) {
      Reads rd(tileWritten);
      rd.TraverseStmt(const_cast<Expr*>(p));
      if (rd.clash) return false;
    }
    struct Cont : RecursiveASTVisitor<Cont> {
      bool found = false;
      int depth = 0;
      bool TraverseForStmt(ForStmt* s) { ++depth; RecursiveASTVisitor::TraverseForStmt(s); --depth; return true; }
      bool TraverseWhileStmt(WhileStmt* s) { ++depth; RecursiveASTVisitor::TraverseWhileStmt(s); --depth; return true; }
      bool TraverseDoStmt(DoStmt* s) { ++depth; RecursiveASTVisitor::TraverseDoStmt(s); --depth; return true; }
      bool TraverseCXXForRangeStmt(CXXForRangeStmt* s) { ++depth; RecursiveASTVisitor::TraverseCXXForRangeStmt(s); --depth; return true; }
      bool TraverseLambdaExpr(LambdaExpr*) { return true; }
      bool VisitContinueStmt(ContinueStmt*) { if (depth == 0) found = true; return true; }
    } ct;
    ct.TraverseStmt(const_cast<Stmt*>(f->getBody()));
    if (ct.found) return false;
    itemIncParts_[f] = item;
    return true;
  }

  // A scalar declared once and reused as the loop variable of several
  // `for`s (Microsoft's BinomialOptions: `int i;`, `for (i = tid; ...)`
  // with no barrier, later `for (i = NUM_STEPS; ...; i -= D)` around
  // barriers). Each `for` whose init assigns v owns v while it runs; when
  // every reference lies inside such an owner, a barrier-free owner's
  // per-work-item values never cross a barrier (it runs inside one region)
  // and v can stay one scalar of the tile, provided no barrier-free owner
  // sits inside an owner around a barrier (which would read v after it).
  // itemOwned_: the references inside barrier-free owners (never uniform).
  std::set<const DeclRefExpr*> itemOwned_;
  const ForStmt* ownerFor(const DeclRefExpr* r, const VarDecl* v) {
    for (const Stmt* q = parentOf(r); q && q != lambda_->getBody(); q = parentOf(q)) {
      const auto* f = dyn_cast<ForStmt>(q);
      const auto* init = f ? dyn_cast_or_null<Expr>(f->getInit()) : nullptr;
      if (!init) continue;
      std::vector<const Expr*> parts;
      commaParts(init, parts);
      for (const Expr* e : parts)
        if (const auto* b = dyn_cast<BinaryOperator>(e); b && b->getOpcode() == BO_Assign)
          if (const auto* d = dyn_cast<DeclRefExpr>(strip(b->getLHS())); d && d->getDecl() == v) return f;
    }
    return nullptr;
  }
  bool reusedLoopVariable(const VarDecl* v, const std::vector<const DeclRefExpr*>& uses) {
    std::vector<const DeclRefExpr*> inItemFor;
    for (const DeclRefExpr* r : uses) {
      const ForStmt* f = ownerFor(r, v);
      if (!f) return false;
      if (withBarrier_.count(f)) continue;
      for (const Stmt* q = parentOf(f); q && q != lambda_->getBody(); q = parentOf(q))
        if (const auto* outer = dyn_cast<ForStmt>(q); outer && withBarrier_.count(outer) && ownerFor(r, v) != outer) {
          std::vector<const Expr*> parts;
          if (const auto* init = dyn_cast_or_null<Expr>(outer->getInit())) commaParts(init, parts);
          for (const Expr* e : parts)
            if (const auto* b = dyn_cast<BinaryOperator>(e); b && b->getOpcode() == BO_Assign)
              if (const auto* d = dyn_cast<DeclRefExpr>(strip(b->getLHS())); d && d->getDecl() == v) return false;
        }
      inItemFor.push_back(r);
    }
    if (inItemFor.empty()) return false;
    itemOwned_.insert(inItemFor.begin(), inItemFor.end());
    return true;
  }

  bool isLoopIncWrite(const DeclRefExpr* r, const VarDecl* v) {
    auto it = loopVar_.find(v);
    if (it == loopVar_.end() || !it->second->getInc()) return false;
    const Expr* inc = it->second->getInc()->IgnoreParens();
    if (const auto* u = dyn_cast<UnaryOperator>(inc))
      return u->isIncrementDecrementOp() && strip(u->getSubExpr()) == r;
    if (const auto* b = dyn_cast<BinaryOperator>(inc))
      return b->isAssignmentOp() && strip(b->getLHS()) == r && uniform(b->getRHS());
    return false;
  }

  // A statement of a split block that only updates variable v:
  // ++v; v++; --v; v--; v op= U; v = U; with U uniform. It runs once per
  // tile when v is tile-level.
  const Stmt* updateStmtOf(const DeclRefExpr* r) {
    const Stmt* p = parentOf(r);
    while (p && isa<ParenExpr>(p)) p = parentOf(p);
    const Stmt* stmt = p;
    if (const auto* u = dyn_cast_or_null<UnaryOperator>(p)) {
      if (!u->isIncrementDecrementOp()) return nullptr;
    } else if (const auto* b = dyn_cast_or_null<BinaryOperator>(p)) {
      if (!b->isAssignmentOp() || strip(b->getLHS()) != r) return nullptr;
    } else {
      return nullptr;
    }
    const Stmt* block = parentOf(stmt);
    return block && isa<CompoundStmt>(block) && withBarrier_.count(block) ? stmt : nullptr;
  }
  bool isTileUpdate(const DeclRefExpr* r) {
    const Stmt* s = updateStmtOf(r);
    if (!s) return false;
    if (const auto* b = dyn_cast<BinaryOperator>(s)) return uniform(b->getRHS());
    return true;
  }
  bool isTileUpdateStmt(const Stmt* c) {
    const Expr* lhs = nullptr;
    if (const auto* u = dyn_cast<UnaryOperator>(c); u && u->isIncrementDecrementOp()) lhs = u->getSubExpr();
    if (const auto* b = dyn_cast<BinaryOperator>(c); b && b->isAssignmentOp()) lhs = b->getLHS();
    const auto* dr = lhs ? dyn_cast<DeclRefExpr>(strip(lhs)) : nullptr;
    const auto* v = dr ? dyn_cast<VarDecl>(dr->getDecl()) : nullptr;
    return v && locals_.count(v) && tileLevel_.count(v) && updateStmtOf(dr) == c;
  }

  bool capturedByCopy(const VarDecl* v) {
    for (const LambdaCapture& c : lambda_->captures())
      if (c.capturesVariable() && c.getCapturedVar() == v) return c.getCaptureKind() == LCK_ByCopy;
    return false;
  }

  // Uniform over the tile: the same value for every work-item of the tile at
  // the same point of the body. Literals, tile-level locals, values captured
  // by copy (const in a non-mutable kernel) and constants, the parameter's
  // tile/tile_origin/tile_extent, and arithmetic, comparisons, casts and
  // value-class (index/extent) accessors of those.
  bool uniform(const Expr* e) {
    e = e->IgnoreParenImpCasts();
    if (isa<IntegerLiteral>(e) || isa<FloatingLiteral>(e) || isa<CXXBoolLiteralExpr>(e) ||
        isa<CharacterLiteral>(e) || isa<UnaryExprOrTypeTraitExpr>(e) || isa<SubstNonTypeTemplateParmExpr>(e))
      return true;
    if (const auto* dr = dyn_cast<DeclRefExpr>(e)) {
      const ValueDecl* d = dr->getDecl();
      if (isa<EnumConstantDecl>(d)) return true;
      const auto* v = dyn_cast<VarDecl>(d);
      if (!v || v == param_ || itemOwned_.count(dr)) return false;
      // A tile-level reference: its object's value is uniform when its
      // initialiser's is (a constant, a capture by copy, a tile-level value).
      if (refTile_.count(v)) return uniform(v->getInit());
      // (A recomputed reference names memory, whose value may change.)
      if (itemMode_ && locals_.count(v))
        return (remat_.count(v) > 0 && !v->getType()->isReferenceType()) || (tileLevel_.count(v) > 0 && stable(v));
      if (locals_.count(v)) return tileLevel_.count(v) > 0;
      if (capturedByCopy(v)) return true;
      return v->getType().isConstQualified() && !v->getType()->isReferenceType();
    }
    if (const auto* me = dyn_cast<MemberExpr>(e)) {
      const Expr* base = strip(me->getBase());
      if (const auto* dr = dyn_cast<DeclRefExpr>(base); dr && dr->getDecl() == param_) {
        const std::string n = me->getMemberDecl()->getNameAsString();
        return n == "tile" || n == "tile_origin" || n == "tile_extent" || n == "tile_dim0" || n == "tile_dim1" ||
               n == "tile_dim2" || n == "rank" || (itemMode_ && (n == "local" || n == "global"));
      }
      if (me->isArrow()) return false;
      return (isa<FieldDecl>(me->getMemberDecl()) || isa<VarDecl>(me->getMemberDecl())) && uniform(base);
    }
    if (const auto* b = dyn_cast<BinaryOperator>(e))
      return !b->isAssignmentOp() && b->getOpcode() != BO_Comma && uniform(b->getLHS()) && uniform(b->getRHS());
    if (const auto* u = dyn_cast<UnaryOperator>(e)) {
      switch (u->getOpcode()) {
      case UO_Plus: case UO_Minus: case UO_Not: case UO_LNot: return uniform(u->getSubExpr());
      default: return false;
      }
    }
    if (const auto* c = dyn_cast<ConditionalOperator>(e))
      return uniform(c->getCond()) && uniform(c->getTrueExpr()) && uniform(c->getFalseExpr());
    if (const auto* c = dyn_cast<ExplicitCastExpr>(e)) return uniform(c->getSubExpr());
    if (const auto* m = dyn_cast<MaterializeTemporaryExpr>(e)) return uniform(m->getSubExpr());
    if (const auto* w = dyn_cast<ExprWithCleanups>(e)) return uniform(w->getSubExpr());
    if (const auto* ce = dyn_cast<CXXConstructExpr>(e)) {
      if (!isValueClass(ce->getType())) return false;
      for (const Expr* a : ce->arguments())
        if (!uniform(a)) return false;
      return true;
    }
    if (const auto* oc = dyn_cast<CXXOperatorCallExpr>(e)) {
      // The object through base-class casts: index and extent take operator[] from a base.
      if (oc->getNumArgs() == 0 || !isValueClass(strip(oc->getArg(0))->getType())) return false;
      if (oc->isAssignmentOp()) return false;
      for (const Expr* a : oc->arguments())
        if (!uniform(a)) return false;
      return true;
    }
    if (const auto* c = dyn_cast<CallExpr>(e); c && !isa<CXXMemberCallExpr>(c) && !isa<CXXOperatorCallExpr>(c))
      return uniformCall(c);
    if (const auto* mc = dyn_cast<CXXMemberCallExpr>(e)) {
      const Expr* obj = mc->getImplicitObjectArgument();
      const CXXMethodDecl* m = mc->getMethodDecl();
      if (!m || !m->isConst()) return false;
      bool ok = false;
      if (const auto* dr = dyn_cast<DeclRefExpr>(strip(obj)); dr && dr->getDecl() == param_)
        ok = isa<CXXConversionDecl>(m) ? itemMode_ // index(t): t.global
                                       : m->getNameAsString() == "get_tile_extent";
      else if (isValueClass(strip(obj)->getType()))
        ok = uniform(obj);
      else if (m->getNameAsString() == "get_extent" || m->getNameAsString() == "get_tile_extent")
        ok = uniform(obj) || (isa<DeclRefExpr>(strip(obj)) && !locals_.count(dyn_cast<VarDecl>(
                                                                   cast<DeclRefExpr>(strip(obj))->getDecl())));
      if (!ok) return false;
      for (const Expr* a : mc->arguments())
        if (!uniform(a)) return false;
      return true;
    }
    return false;
  }

  // A call of a function whose result depends only on its arguments
  // (sameForSameArgs), each the same for every work-item: uniform values,
  // objects that are the same for all (a captured view by const reference),
  // or the kernel's tiled_index where the callee reads only the tile's
  // members.
  bool uniformCall(const CallExpr* c) {
    const FunctionDecl* g = c->getDirectCallee();
    if (!g || c->getNumArgs() != g->getNumParams() || !sameForSameArgs(g, 0)) return false;
    for (unsigned i = 0; i < c->getNumArgs(); ++i) {
      const Expr* a = c->getArg(i)->IgnoreImplicit();
      if (const auto* ce = dyn_cast<CXXConstructExpr>(a); ce && ce->getNumArgs() == 1 && ce->getConstructor() &&
          (ce->getConstructor()->isCopyConstructor() || ce->getConstructor()->isMoveConstructor()))
        a = ce->getArg(0)->IgnoreImplicit();
      if (const auto* dr = dyn_cast<DeclRefExpr>(strip(a)); dr && dr->getDecl() == param_) {
        if (!isAmpClass(g->getParamDecl(i)->getType().getNonReferenceType(), "tiled_index")) return false;
        continue;
      }
      if (uniform(a)) continue;
      if (g->getParamDecl(i)->getType()->isReferenceType() && uniformObject(a)) continue;
      return false;
    }
    return true;
  }

  bool hasInit(const VarDecl* v) { return v->getInit() != nullptr; }

  // e names the same object for every work-item of the tile: a captured
  // variable (by copy: the closure's member, shared by the tile's calls on
  // the compiled path and equal in every copy on the fibers path; by
  // reference: the outer object), a variable outside the kernel, a
  // tile_static variable, or a tile-level local or reference.
  // v is initialised as a copy (copy or move constructor) of a uniform object.
  bool copiedFromUniform(const VarDecl* v) {
    const auto* ce = dyn_cast<CXXConstructExpr>(v->getInit()->IgnoreImplicit());
    if (!ce || ce->getNumArgs() != 1 || !ce->getConstructor() ||
        !(ce->getConstructor()->isCopyConstructor() || ce->getConstructor()->isMoveConstructor()))
      return false;
    const Expr* a = ce->getArg(0)->IgnoreImplicit();
    return uniformObject(a);
  }
  // The object e (a variable, or a member of it) is used without being
  // modified: read, the object of a const member function or operator, a
  // field of it used so, copied, or passed by value or const reference.
  bool constUse(const Expr* e) {
    const Stmt* p = parentOf(e);
    while (p && (isa<ParenExpr>(p) || (isa<ImplicitCastExpr>(p) && (cast<ImplicitCastExpr>(p)->getCastKind() == CK_NoOp ||
                                                                       cast<ImplicitCastExpr>(p)->getCastKind() == CK_DerivedToBase ||
                                                                       cast<ImplicitCastExpr>(p)->getCastKind() == CK_UncheckedDerivedToBase)))) {
      e = cast<Expr>(p);
      p = parentOf(p);
    }
    if (!p) return false;
    if (const auto* ice = dyn_cast<ImplicitCastExpr>(p)) return ice->getCastKind() == CK_LValueToRValue;
    if (const auto* me = dyn_cast<MemberExpr>(p)) {
      if (me->getBase() != e || me->isArrow()) return false;
      if (const auto* m = dyn_cast<CXXMethodDecl>(me->getMemberDecl())) return m->isConst() || m->isStatic();
      return isa<FieldDecl>(me->getMemberDecl()) && constUse(me);
    }
    if (const auto* ce = dyn_cast<CXXConstructExpr>(p))
      return ce->getConstructor() && ce->getConstructor()->isCopyConstructor();
    if (const auto* call = dyn_cast<CallExpr>(p)) {
      const FunctionDecl* f = call->getDirectCallee();
      if (!f) return false;
      for (unsigned i = 0; i < call->getNumArgs(); ++i) {
        if (call->getArg(i) != e) continue;
        if (const auto* m = dyn_cast<CXXMethodDecl>(f); m && isa<CXXOperatorCallExpr>(call) && !m->isStatic()) {
          if (i == 0) return m->isConst();
          --i;
        }
        if (i >= f->getNumParams()) return false;
        QualType pt = f->getParamDecl(i)->getType();
        return !pt->isReferenceType() || pt.getNonReferenceType().isConstQualified();
      }
    }
    return false;
  }

  // e is an element of an array_view/array that stays the same object for
  // the kernel's life (a capture by copy, const in a non-mutable kernel, or a
  // tile-level copy only used as const), at indices that are pure functions
  // of the work-item: evaluating e again anywhere in the kernel gives the
  // same element.
  bool elementRef(const Expr* e) {
    // An element of tile storage (`T& smem = local_buffer[tidx.local[0]];`,
    // the AMP Algorithms Library's reduce): the array is the tile's, the
    // indices the work-item's own values.
    if (const auto* as = dyn_cast<ArraySubscriptExpr>(e->IgnoreParenImpCasts())) {
      const Expr* base = as;
      while (const auto* sub = dyn_cast<ArraySubscriptExpr>(base->IgnoreParenImpCasts())) {
        if (!itemPure(sub->getIdx())) return false;
        base = sub->getBase()->IgnoreParenImpCasts();
      }
      const auto* dr = dyn_cast<DeclRefExpr>(base);
      const auto* v = dr ? dyn_cast<VarDecl>(dr->getDecl()) : nullptr;
      return v && v->getType()->isArrayType() && isTileStorage(v);
    }
    const auto* oc = dyn_cast<CXXOperatorCallExpr>(e->IgnoreImplicit());
    if (!oc || !isElementAccess(oc)) return false;
    const auto* dr = dyn_cast<DeclRefExpr>(strip(oc->getArg(0)));
    const auto* v = dr ? dyn_cast<VarDecl>(dr->getDecl()) : nullptr;
    if (!v || !(constCopy_.count(v) || (!locals_.count(v) && capturedByCopy(v)))) return false;
    for (unsigned i = 1; i < oc->getNumArgs(); ++i)
      if (!itemPure(oc->getArg(i))) return false;
    return true;
  }

  // v is a const reference bound to a temporary built from uniform values
  // only (`const plus<int>& op = plus<int>();`, the inliner's binding of a
  // functor argument): one such temporary per tile cannot be told from one
  // per work-item (it is const, and its value the same for all).
  bool uniformTemporary(const VarDecl* v) {
    if (!v->getType()->isReferenceType() || !v->getType().getNonReferenceType().isConstQualified()) return false;
    // (IgnoreImplicit looks through the materialisation and the cleanups:
    // what is left is the prvalue the temporary is made of.)
    const Expr* e = v->getInit()->IgnoreImplicit();
    if (const auto* fc = dyn_cast<CXXFunctionalCastExpr>(e)) e = fc->getSubExpr()->IgnoreImplicit();
    if (!e->isPRValue()) return false;
    if (const auto* ce = dyn_cast<CXXConstructExpr>(e)) {
      for (const Expr* a : ce->arguments())
        if (!uniform(a)) return false;
      return true;
    }
    return e->getType()->isScalarType() && uniform(e);
  }

  bool uniformObject(const Expr* e) {
    const auto* dr = dyn_cast<DeclRefExpr>(e->IgnoreParenImpCasts());
    const auto* v = dr ? dyn_cast<VarDecl>(dr->getDecl()) : nullptr;
    if (!v || v == param_) return false;
    if (locals_.count(v)) return tileLevel_.count(v) > 0;
    return true;
  }

  // Written only by its own `for` increment (or never): within one iteration
  // of the loops around it, every read gives the same value.
  bool stable(const VarDecl* v) {
    for (const DeclRefExpr* r : refs_)
      if (r->getDecl() == v && !isRead(r) && !isLoopIncWrite(r, v)) return false;
    return true;
  }
  // A pure function of the work-item and of values that stay put while it is
  // in scope: literals, constants, captures by copy, stable tile-level
  // variables, t.local, t.global, t.tile..., other recomputed values, with
  // arithmetic, comparisons, casts and index/extent accessors. No memory read.
  bool itemPure(const Expr* e) {
    itemMode_ = true;
    const bool r = uniform(e);
    itemMode_ = false;
    return r;
  }

  // Per-work-item values that need no array: a scalar declared `T v = E;`,
  // only read, with E item-pure. Each region that reads it recomputes it
  // (`const T v = E;` at the top of its work-item loop): the value is then a
  // plain function of the loop index, which the compiler can vectorise over,
  // and nothing is stored or loaded per work-item (PoCL re-materialises such
  // values instead of keeping them in context arrays too). A declaration
  // statement is recomputed as a whole or not at all.
  void chooseRecomputed(std::set<const DeclStmt*>& perItemDecls) {
    std::map<std::string, int> names;
    for (const VarDecl* v : locals_) ++names[v->getNameAsString()];
    ++names[param_->getNameAsString()];
    auto candidate = [&](const VarDecl* v) {
      QualType t = v->getType();
      if (!v->getInit() || v->getInitStyle() != VarDecl::CInit || isa<InitListExpr>(v->getInit()->IgnoreImplicit()))
        return false;
      if (names[v->getNameAsString()] != 1) return false; // re-declared at the top of a region: no shadowing games
      // A reference to the work-item's element of a view (`float& c =
      // view[t];`, the inliner's binding of `f(t, view[t])` to `float& c`):
      // re-bound in each region that uses it, to the same element.
      if (t->isReferenceType()) {
        if (!elementRef(v->getInit())) return false;
        for (const DeclRefExpr* r : refs_)
          if (r->getDecl() == v && !inFile(r->getLocation())) return false;
        return true;
      }
      if (!(t->isArithmeticType() || t->isEnumeralType()) || t.isVolatileQualified()) return false;
      for (const DeclRefExpr* r : refs_)
        if (r->getDecl() == v && (!isRead(r) || !inFile(r->getLocation()))) return false;
      return true;
    };
    std::set<const DeclStmt*> cands;
    for (const DeclStmt* ds : perItemDecls) {
      bool ok = true;
      for (const Decl* d : ds->decls())
        if (const auto* v = dyn_cast<VarDecl>(d); !v || !candidate(v)) ok = false;
      if (!ok) continue;
      cands.insert(ds);
      for (const Decl* d : ds->decls()) remat_.insert(cast<VarDecl>(d));
    }
    for (bool changed = true; changed;) {
      changed = false;
      for (auto it = cands.begin(); it != cands.end();) {
        bool ok = true;
        for (const Decl* d : (*it)->decls())
          if (!(cast<VarDecl>(d)->getType()->isReferenceType() ? elementRef(cast<VarDecl>(d)->getInit())
                                                                : itemPure(cast<VarDecl>(d)->getInit())))
            ok = false;
        if (ok) {
          ++it;
          continue;
        }
        for (const Decl* d : (*it)->decls()) remat_.erase(cast<VarDecl>(d));
        it = cands.erase(it);
        changed = true;
      }
    }
    for (const DeclStmt* ds : cands) perItemDecls.erase(ds);
    for (const VarDecl* v : remat_) {
      const Expr* init = v->getInit();
      const unsigned b = off(init->getBeginLoc()), e = endOfToken(init->getEndLoc());
      for (const DeclRefExpr* r : refs_)
        if (const auto* o = dyn_cast<VarDecl>(r->getDecl()); o && remat_.count(o)) {
          const unsigned at = off(r->getLocation());
          if (b <= at && at < e) rematDeps_[v].insert(o);
        }
    }
  }

  // Storage that exists once per tile: tile_static (static thread_local) and
  // static variables, and a reference bound to (a member of) one, which names
  // the same object for every work-item. GPU compiles declare a tile_static
  // of class type as union storage plus such a reference
  // (`auto& s = amp_ts_s.value;`, scripts/gpu_edits.py edit 2).
  static bool isTileStorage(const VarDecl* v) {
    if (v->isStaticLocal() || v->getTLSKind() != VarDecl::TLS_None) return true;
    if (!v->getType()->isReferenceType() || !v->getInit()) return false;
    const Expr* e = v->getInit()->IgnoreParenImpCasts();
    while (const auto* m = dyn_cast<MemberExpr>(e)) {
      if (m->isArrow()) return false;
      e = m->getBase()->IgnoreParenImpCasts();
    }
    const auto* r = dyn_cast<DeclRefExpr>(e);
    const auto* o = r ? dyn_cast<VarDecl>(r->getDecl()) : nullptr;
    return o && !o->getType()->isReferenceType() && (o->isStaticLocal() || o->getTLSKind() != VarDecl::TLS_None);
  }

  // Tile-level variables (a fixpoint: a candidate whose initialiser or
  // increment is not uniform drops out, which may make others non-uniform),
  // then regions and per-work-item arrays.
  void classifyLocals() {
    std::map<const VarDecl*, std::vector<const DeclRefExpr*>> uses;
    for (const DeclRefExpr* r : refs_)
      if (const auto* v = dyn_cast<VarDecl>(r->getDecl()))
        if (locals_.count(v)) uses[v].push_back(r);
    // Candidates until none is added: a reference or copy bound to another
    // (nested inlined calls: `a1 = a0;`) needs that one chosen first, and
    // splitDecl_ is in no source order.
    for (size_t before = static_cast<size_t>(-1); before != tileLevel_.size();) {
    before = tileLevel_.size();
    for (auto& [v, ds] : splitDecl_) {
      if (isTileStorage(v)) {
        tileLevel_.insert(v); // tile_static (and plain statics): once per tile already
        continue;
      }
      QualType t = v->getType();
      if (t->isReferenceType()) {
        // A reference names one object for its whole life; bound to the same
        // object for every work-item (uniformObject), it is bound once per
        // tile (the inliner's bindings of reference parameters, `array<int,
        // 1>& a = a_captured;`, are these).
        if (hasInit(v) && (uniformObject(v->getInit()) || uniformTemporary(v))) refTile_.insert(v), tileLevel_.insert(v);
        continue;
      }
      if (t->getAsCXXRecordDecl() && hasInit(v) && copiedFromUniform(v)) {
        // A copy of an object that is the same for every work-item, only
        // ever used as a const object (const member functions, reads,
        // copies, const references): one copy per tile cannot be told from
        // one per work-item (the inliner's bindings of parameters taken by
        // value, `array_view<int, 1> a = a_captured;`, are these).
        bool onlyConst = true;
        for (const DeclRefExpr* r : uses[v])
          if (!constUse(r)) onlyConst = false;
        if (onlyConst) constCopy_.insert(v), tileLevel_.insert(v);
        continue;
      }
      // A scalar declared without an initialiser (`unsigned stride, k;`)
      // holds no value to read before its first write: tile-level when every
      // write is.
      if (!(t->isArithmeticType() || t->isEnumeralType())) continue;
      // A const variable cannot be written (its uses in a constant
      // expression, an array bound, are not plain reads).
      bool written = false;
      const bool reused = reusedLoopVariable(v, uses[v]);
      for (const DeclRefExpr* r : uses[v])
        if (!isRead(r) && !isLoopIncWrite(r, v) && !updateStmtOf(r) && !forWrite(r) && !t.isConstQualified() &&
            !(reused && itemOwned_.count(r)))
          written = true;
      if (!written) tileLevel_.insert(v);
    }
    }
    for (bool changed = true; changed;) {
      changed = false;
      for (auto& [v, ds] : splitDecl_) {
        if (!tileLevel_.count(v) || isTileStorage(v)) continue;
        // Uses checked when chosen (objects), or unable to write (const).
        const bool object = refTile_.count(v) || constCopy_.count(v) || v->getType().isConstQualified();
        bool ok = refTile_.count(v)    ? uniformObject(v->getInit()) || uniformTemporary(v)
                  : constCopy_.count(v) ? copiedFromUniform(v)
                  : !v->getInit()       ? true
                                        : uniform(v->getInit());
        if (ok && !object)
          for (const DeclRefExpr* r : uses[v])
            if (!isRead(r) && !isLoopIncWrite(r, v) && !isTileUpdate(r) && !forWriteUniform(r) && !itemOwned_.count(r))
              ok = false;
        // A declaration is tile-level as a whole.
        if (ok)
          for (const Decl* d : ds->decls())
            if (const auto* o = dyn_cast<VarDecl>(d); o && !tileLevel_.count(o)) ok = false;
        if (!ok) {
          tileLevel_.erase(v);
          refTile_.erase(v);
          constCopy_.erase(v);
          changed = true;
        }
      }
    }
    for (auto& [v, f] : loopVar_)
      if (!tileLevel_.count(v))
        throw Refused{"the loop variable `" + v->getNameAsString() + "` of a `for` around a barrier (" + where(f) +
                      ") is not uniform over the tile"};
    for (const Stmt* s : withBarrier_)
      if (const auto* f = dyn_cast<ForStmt>(s)) {
        for (const Expr* e : {dyn_cast_or_null<Expr>(f->getInit()), f->getInc()})
          if (e && !tileWrites(e) && !(e == f->getInc() && splitsItemIncrement(f)))
            throw Refused{std::string("the ") + (e == f->getInc() ? "increment" : "init") + " of the `for` at " +
                          where(f) + " around a barrier does more than update tile-level variables with uniform values"};
      }
    for (const Stmt* j : tileJumps_)
      if (const auto* is = dyn_cast<IfStmt>(j); is && !uniform(is->getCond()))
        throw Refused{"the condition of the `break`/`continue` at " + where(j) +
                      " out of a loop with a barrier is not provably uniform over the tile"};
    for (const Stmt* s : withBarrier_) {
      const Expr* cond = nullptr;
      if (const auto* f = dyn_cast<ForStmt>(s)) cond = f->getCond();
      if (const auto* w = dyn_cast<WhileStmt>(s)) cond = w->getCond();
      if (const auto* d = dyn_cast<DoStmt>(s)) cond = d->getCond();
      if (const auto* sw = dyn_cast<SwitchStmt>(s)) cond = sw->getCond();
      if (const auto* i = dyn_cast<IfStmt>(s)) cond = i->getCond();
      if (cond && !uniform(cond))
        throw Refused{"the condition at " + where(s) + " around a barrier is not provably uniform over the tile"};
      if (const auto* f = dyn_cast<ForStmt>(s))
        if (f->getInc() && !isa<UnaryOperator>(f->getInc()->IgnoreParens()) &&
            !isa<BinaryOperator>(f->getInc()->IgnoreParens()))
          throw Refused{"the increment of the `for` at " + where(s) + " is not a plain update of its variable"};
    }
    // Regions: runs of consecutive ordinary statements of a split block.
    // Each block once: body_ is in withBarrier_ too (every barrier's chain of
    // parents ends there), and a block cut twice would give its statements a
    // second region number, which regionAt (the first range holding an
    // offset) does not return: every local of the body read in a statement
    // other than its declaration was then taken for a value living across a
    // barrier and kept in a per-work-item array.
    std::vector<const CompoundStmt*> blocks;
    for (const Stmt* s : withBarrier_)
      if (const auto* cs = dyn_cast<CompoundStmt>(s); cs && cs != body_) blocks.push_back(cs);
    blocks.push_back(body_);
    for (const CompoundStmt* cs : blocks) {
      int cur = -1;
      unsigned start = 0;
      auto close = [&](unsigned end) {
        if (cur >= 0) regionRange_[cur].second = end;
        cur = -1;
      };
      // A macro that expands to several statements of the block (Bolt's
      // `_REDUCE_STEP(...)`: an `if`, then a barrier) gives them one source
      // range, the invocation's: they can share a region, but not be split.
      unsigned prevEnd = 0;
      bool prevOrdinary = true;
      for (const Stmt* c : cs->body()) {
        if (!inFile(c->getBeginLoc())) throw Refused{"a statement of the kernel comes from a macro"};
        const bool ord = isOrdinary(c) && !isa<SwitchCase>(c);
        if (off(c->getBeginLoc()) < prevEnd && !(ord && prevOrdinary))
          throw Refused{"a macro expands to statements on both sides of a barrier (" + where(c) + ")"};
        prevEnd = std::max(prevEnd, stmtEnd(c));
        prevOrdinary = ord;
        if (const auto* sc = dyn_cast<SwitchCase>(c)) {
          // A label ends the region before it; its statement, when
          // ordinary, is a region of its own (a jump target cannot be inside
          // a work-item loop).
          close(off(c->getBeginLoc()));
          const Stmt* sub = sc->getSubStmt();
          while (isa<SwitchCase>(sub)) sub = cast<SwitchCase>(sub)->getSubStmt();
          if (isa<DeclStmt>(sub)) throw Refused{"a declaration labelled `case` (" + where(sub) + ")"};
          if (isOrdinary(sub)) {
            regionOf_[sub] = static_cast<int>(regionRange_.size());
            regionRange_.push_back({off(sub->getBeginLoc()), stmtEnd(sub)});
          }
          continue;
        }
        if (isOrdinary(c)) {
          if (cur < 0) {
            cur = static_cast<int>(regionRange_.size());
            start = off(c->getBeginLoc());
            regionRange_.push_back({start, start});
          }
          regionOf_[c] = cur;
        } else {
          close(off(c->getBeginLoc()));
        }
      }
      close(off(cs->getRBracLoc()));
    }
    // Locals of split blocks used outside their own region: one per work-item.
    std::set<const DeclStmt*> perItemDecls;
    for (auto& [v, ds] : splitDecl_) {
      if (tileLevel_.count(v) || loopVar_.count(v)) continue;
      auto rit = regionOf_.find(ds);
      const int home = rit == regionOf_.end() ? -1 : rit->second;
      for (const DeclRefExpr* r : uses[v])
        if (regionAt(off(sm_.getExpansionLoc(r->getLocation()))) != home) perItemDecls.insert(ds);
    }
    chooseRecomputed(perItemDecls);
    int n = 0;
    for (const DeclStmt* ds : perItemDecls)
      for (const Decl* d : ds->decls()) {
        const auto* v = dyn_cast<VarDecl>(d);
        if (!v) throw Refused{"a declaration of something other than a variable next to a value kept across a barrier"};
        QualType t = v->getType();
        if (t->isReferenceType())
          throw Refused{"`" + v->getNameAsString() + "` (a reference) lives across a barrier"};
        if (t->isArrayType()) {
          // A work-item's own array of scalars (Bolt's radix sort keeps
          // `unsigned int sortData[4]` across its barriers): one row per
          // work-item, `ELEM amp_ht_N_x[amp_ht_n][BOUNDS]`.
          keepArray(v);
          arrays_[v] = "amp_ht_" + std::to_string(n++) + "_" + v->getNameAsString();
          continue;
        }
        const CXXRecordDecl* rd = t->getAsCXXRecordDecl();
        if (rd && (rd->isLambda() || rd->isLocalClass()))
          throw Refused{"`" + v->getNameAsString() + "` lives across a barrier and its type is a lambda or a local class"};
        // Other class types that are not trivially copyable with a default
        // constructor (constructors, destructors, no default constructor)
        // live in item_slots: built by the declaration's own initialiser.
        if (slotsForAll || (rd && (!rd->hasTrivialDestructor() || !t.getUnqualifiedType().isTriviallyCopyableType(ctx_) ||
                                   !rd->hasDefaultConstructor())))
          slots_.insert(v);
        if (!t->isScalarType() && !rd) throw Refused{"`" + v->getNameAsString() + "` has an unsupported type"};
        if (v->getInit() && v->getInitStyle() == VarDecl::CallInit && !isa<CXXConstructExpr>(v->getInit()->IgnoreImplicit()))
          throw Refused{"`" + v->getNameAsString() + "` is initialised with parentheses"};
        for (const DeclRefExpr* r : uses[v]) {
          if (!inFile(r->getLocation()))
            throw Refused{"`" + v->getNameAsString() + "` is used in a macro defined in another file"};
          if (r->getLocation().isFileID()) continue;
          // A use inside a macro expansion cannot be renamed: each region
          // that uses the variable binds its name to the work-item's element.
          if (sameName(v)) throw Refused{"`" + v->getNameAsString() + "` is used inside a macro expansion and its name is declared twice in the kernel"};
          boundByName_.insert(v);
        }
        arrays_[v] = "amp_ht_" + std::to_string(n++) + "_" + v->getNameAsString();
      }
    per_item = n;
    recomputed_count = static_cast<int>(remat_.size());
    // The arrays live on the stack of the thread running the tile (OpenMP
    // worker threads may have small stacks): at most 256 KiB per tile.
    long long items = 1, bytes = 0;
    if (const auto* ts = dyn_cast_or_null<ClassTemplateSpecializationDecl>(
            param_->getType().getNonReferenceType()->getAsCXXRecordDecl()))
      for (const TemplateArgument& a : ts->getTemplateArgs().asArray())
        if (a.getKind() == TemplateArgument::Integral && a.getAsIntegral().getSExtValue() > 0)
          items *= a.getAsIntegral().getSExtValue();
    for (auto& [v, name] : arrays_) bytes += ctx_.getTypeSizeInChars(v->getType()).getQuantity();
    if (bytes * items > 256 * 1024)
      throw Refused{"the values kept across barriers need " + std::to_string(bytes * items / 1024) +
                    " KiB per tile (at most 256 KiB on the stack)"};
  }

  int regionAt(unsigned o) {
    for (size_t i = 0; i < regionRange_.size(); ++i)
      if (regionRange_[i].first <= o && o < regionRange_[i].second) return static_cast<int>(i);
    return -1;
  }

  // A declaration of types or names only (`using T = int;`, `typedef`,
  // `using namespace`): a statement of the tile, visible to every region
  // after it (in a region it would end with the region's loop body). Not
  // when it names a local's type (decltype), which a region may declare.
  bool isTypeDeclStmt(const Stmt* c) {
    const auto* ds = dyn_cast<DeclStmt>(c);
    if (!ds) return false;
    for (const Decl* d : ds->decls()) {
      if (isa<UsingDirectiveDecl>(d) || isa<UsingDecl>(d)) continue;
      const auto* td = dyn_cast<TypedefNameDecl>(d);
      if (!td || td->getUnderlyingType()->isDependentType()) return false;
      const SourceRange r = td->getSourceRange();
      if (!inFile(r.getBegin()) || !inFile(r.getEnd())) return false;
      const char* buf = sm_.getBufferData(fid_).data();
      const std::string w(buf + off(r.getBegin()), buf + endOfToken(r.getEnd()));
      if (w.find("decltype") != std::string::npos || w.find("typeof") != std::string::npos) return false;
    }
    return true;
  }

  bool isOrdinary(const Stmt* c) {
    if (barrierStmts_.count(c) || withBarrier_.count(c) || tileJumps_.count(c) || isTileUpdateStmt(c) ||
        isTypeDeclStmt(c))
      return false;
    if (const auto* ds = dyn_cast<DeclStmt>(c)) {
      for (const Decl* d : ds->decls())
        if (const auto* v = dyn_cast<VarDecl>(d); v && tileLevel_.count(v)) return false;
    }
    return true;
  }

  // ---- emission
  std::string typeName(QualType t) { return spelledType(t.getUnqualifiedType(), lo_); }

  // The type of a per-work-item array: as written when that is a plain type
  // name (so that `T` in a template stays `T` and every instantiation gets
  // the same text), else the printed type.
  // The written type of the inliner's alias `name` in the kernel body, its
  // own aliases replaced the same way; "" when not found.
  std::string aliasText(const std::string& name, int depth = 0) {
    struct Find : RecursiveASTVisitor<Find> {
      std::string name;
      const TypedefNameDecl* found = nullptr;
      bool VisitTypedefNameDecl(TypedefNameDecl* d) {
        if (d->getName() == name) found = d;
        return !found;
      }
    } f;
    f.name = name;
    f.TraverseStmt(const_cast<CompoundStmt*>(body_));
    if (!f.found || depth > 8 || !f.found->getTypeSourceInfo()) return "";
    const SourceRange r = f.found->getTypeSourceInfo()->getTypeLoc().getSourceRange();
    if (!r.isValid() || !r.getBegin().isFileID() || !r.getEnd().isFileID() || !inFile(r.getBegin())) return "";
    const char* buf = sm_.getBufferData(fid_).data();
    std::string w(buf + off(r.getBegin()), buf + endOfToken(r.getEnd())), out;
    for (size_t i = 0; i < w.size();) {
      if (w.compare(i, 8, "amp_ht_t") == 0 && (i == 0 || !(std::isalnum(static_cast<unsigned char>(w[i - 1])) || w[i - 1] == '_'))) {
        size_t j = i;
        while (j < w.size() && (std::isalnum(static_cast<unsigned char>(w[j])) || w[j] == '_')) ++j;
        const std::string inner = aliasText(w.substr(i, j - i), depth + 1);
        if (inner.empty()) return "";
        out += "::std::remove_cv_t<" + inner + ">";
        i = j;
      } else {
        out += w[i++];
      }
    }
    return out;
  }

  // reference: the type of a reference re-bound per region, as written
  // (`result_type &`: one text for every instantiation), its cv kept; else
  // an element type for per-work-item storage, the top-level cv dropped
  // (after the last `*` of a pointer type).
  std::string typeText(const VarDecl* v, bool reference = false) {
    if (const TypeSourceInfo* tsi = v->getTypeSourceInfo()) {
      SourceRange r = tsi->getTypeLoc().getSourceRange();
      if (r.isValid() && r.getBegin().isFileID() && r.getEnd().isFileID() && inFile(r.getBegin())) {
        const char* buf = sm_.getBufferData(fid_).data();
        std::string w(buf + off(r.getBegin()), buf + endOfToken(r.getEnd()));
        static const std::set<std::string> drop = {"const", "volatile"};
        std::string out;
        bool ok = w.find_first_of(reference ? "[(" : "&[(") == std::string::npos;
        if (reference && w.find('&') == std::string::npos) ok = false;
        const size_t lastStar = w.rfind('*');
        for (size_t i = 0; ok && i < w.size();) {
          if (std::isalpha(static_cast<unsigned char>(w[i])) || w[i] == '_') {
            size_t j = i;
            while (j < w.size() && (std::isalnum(static_cast<unsigned char>(w[j])) || w[j] == '_')) ++j;
            const std::string word = w.substr(i, j - i);
            if (word == "auto" || word == "decltype") ok = false;
            // An inliner's alias of a template argument (`using amp_ht_t0_0 =
            // T;`) is declared inside the inlined block, where the arrays at
            // the tile's top cannot see it: its own text instead.
            if (word.rfind("amp_ht_t", 0) == 0) {
              const std::string a = aliasText(word);
              if (a.empty()) ok = false;
              out += "::std::remove_cv_t<" + a + ">";
            } else if (reference || !drop.count(word) || (lastStar != std::string::npos && i < lastStar)) {
              out += word;
            }
            i = j;
          } else {
            out += w[i++];
          }
        }
        if (ok) return out;
      }
    }
    return typeName(v->getType());
  }

  struct Edit {
    unsigned b, e;
    std::string text;        // DeclRef
    const DeclStmt* decl = nullptr; // per-item declaration
    bool ret = false;        // a `return;`
  };
  std::vector<Edit> edits_;

  void buildEdits() {
    for (const DeclRefExpr* r : refs_)
      if (const auto* v = dyn_cast<VarDecl>(r->getDecl()); v && arrays_.count(v) && r->getLocation().isFileID()) {
        const unsigned b = off(r->getLocation());
        edits_.push_back({b, endOfToken(r->getLocation()), "(" + arrays_[v] + "[amp_ht_i])"});
      }
    // A work-item's `return;` ends its part of the region (a jump to the end
    // of the item loop's body) and marks it returned: later regions skip it,
    // and the next barrier checks that all or none of the tile returned.
    for (const ReturnStmt* r : returns_) {
      if (!inFile(r->getBeginLoc()) || !r->getBeginLoc().isFileID()) throw Refused{"a `return` inside a macro"};
      Edit e{off(r->getBeginLoc()), stmtEnd(r), ""};
      e.ret = true;
      edits_.push_back(e);
    }
    std::set<const DeclStmt*> seen;
    for (const VarDecl* v : remat_) {
      const DeclStmt* ds = splitDecl_[v];
      if (seen.insert(ds).second) edits_.push_back({off(ds->getBeginLoc()), endOfToken(ds->getEndLoc()), "", nullptr});
    }
    for (auto& [v, name] : arrays_) {
      const DeclStmt* ds = splitDecl_[v];
      if (!seen.insert(ds).second) continue;
      edits_.push_back({off(ds->getBeginLoc()), endOfToken(ds->getEndLoc()), "", ds});
    }
    std::sort(edits_.begin(), edits_.end(), [](const Edit& a, const Edit& b) { return a.b < b.b; });
  }

  std::string text(unsigned b, unsigned e) {
    const char* buf = sm_.getBufferData(fid_).data();
    std::string out;
    unsigned k = b;
    for (const Edit& ed : edits_) {
      if (ed.b < k || ed.b >= e) continue;
      out.append(buf + k, buf + ed.b);
      out += ed.decl ? declText(ed.decl)
             : ed.ret ? "{ amp_ht_ret[amp_ht_i] = true; ++amp_ht_nret; goto " + label_ + "; }"
                      : ed.text;
      k = ed.e;
    }
    if (k < e) out.append(buf + k, buf + e);
    return out;
  }

  std::string declText(const DeclStmt* ds) {
    std::string out;
    for (const Decl* d : ds->decls()) {
      const auto* v = cast<VarDecl>(d);
      const std::string lhs = arrays_[v] + "[amp_ht_i]";
      const std::string ty = typeText(v);
      if (slots_.count(v)) {
        out += slotInit(v, ty);
        continue;
      }
      const Expr* init = v->getInit();
      if (!init) {
        if (v->getType()->getAsCXXRecordDecl()) out += lhs + " = " + ty + "(); ";
        continue;
      }
      if (v->getInitStyle() == VarDecl::CInit) {
        if (const auto* il = dyn_cast<InitListExpr>(init->IgnoreImplicit()))  // T x = {...}
          out += lhs + " = " + ty + text(off(il->getLBraceLoc()), endOfToken(il->getRBraceLoc())) + "; ";
        else
          out += lhs + " = " + text(off(init->getBeginLoc()), endOfToken(init->getEndLoc())) + "; ";
        continue;
      }
      SourceRange pr;
      if (const auto* ce = dyn_cast<CXXConstructExpr>(init->IgnoreImplicit())) pr = ce->getParenOrBraceRange();
      else if (const auto* il = dyn_cast<InitListExpr>(init->IgnoreImplicit()))
        pr = SourceRange(il->getLBraceLoc(), il->getRBraceLoc());
      if (pr.isInvalid()) {
        out += lhs + " = " + ty + "(); ";
        continue;
      }
      out += lhs + " = " + ty + text(off(pr.getBegin()), endOfToken(pr.getEnd())) + "; ";
    }
    return out;
  }

  // `::new (NAME.slot(i)) T INIT; NAME.made(i);`: work-item i's value of a
  // class kept in item_slots, built as its declaration builds it.
  std::string slotInit(const VarDecl* v, const std::string& ty) {
    const std::string name = arrays_[v];
    std::string init = "()";
    if (const Expr* e = v->getInit()) {
      const Expr* ie = e->IgnoreImplicit();
      SourceRange pr;
      if (const auto* ce = dyn_cast<CXXConstructExpr>(ie)) pr = ce->getParenOrBraceRange();
      else if (const auto* il = dyn_cast<InitListExpr>(ie)) pr = SourceRange(il->getLBraceLoc(), il->getRBraceLoc());
      if (v->getInitStyle() == VarDecl::CInit && !isa<InitListExpr>(ie))
        init = "(" + text(off(e->getBeginLoc()), endOfToken(e->getEndLoc())) + ")";
      else if (pr.isValid())
        init = text(off(pr.getBegin()), endOfToken(pr.getEnd()));
    }
    return "::new (" + name + ".slot(amp_ht_i)) " + ty + init + "; " + name + ".made(amp_ht_i); ";
  }

  std::string pname() { return param_->getNameAsString(); }

  // The recomputed values read in [b, e), with those their initialisers
  // read, declared in source order (each after what it reads).
  std::string recomputed(unsigned b, unsigned e) {
    std::set<const VarDecl*> need;
    std::vector<const VarDecl*> todo;
    for (const DeclRefExpr* r : refs_)
      if (const auto* v = dyn_cast<VarDecl>(r->getDecl()); v && remat_.count(v)) {
        const unsigned at = off(r->getLocation());
        if (b <= at && at < e && need.insert(v).second) todo.push_back(v);
      }
    while (!todo.empty()) {
      const VarDecl* v = todo.back();
      todo.pop_back();
      for (const VarDecl* d : rematDeps_[v])
        if (need.insert(d).second) todo.push_back(d);
    }
    std::vector<const VarDecl*> order(need.begin(), need.end());
    std::sort(order.begin(), order.end(), [&](const VarDecl* x, const VarDecl* y) {
      return off(x->getLocation()) < off(y->getLocation());
    });
    std::string out;
    for (const VarDecl* v : order) {
      const Expr* init = v->getInit();
      out += (v->getType()->isReferenceType() ? " " + typeText(v, true) : " const " + typeText(v)) + " " +
             v->getNameAsString() + " = " + text(off(init->getBeginLoc()), endOfToken(init->getEndLoc())) +
             "; (void)" + v->getNameAsString() + ";";
    }
    return out;
  }

  // Per-work-item values used inside a macro expansion in [b, e): their
  // names bound to the work-item's elements (`auto& tid = amp_ht_0_tid[i];`).
  std::string boundNames(unsigned b, unsigned e) {
    std::string out;
    for (const VarDecl* v : boundByName_) {
      bool used = false;
      for (const DeclRefExpr* r : refs_)
        if (r->getDecl() == v && b <= off(r->getLocation()) && off(r->getLocation()) < e) used = true;
      if (used)
        out += " auto& " + v->getNameAsString() + " = " + arrays_[v] + "[amp_ht_i]; (void)" + v->getNameAsString() + ";";
    }
    return out;
  }
  bool sameName(const VarDecl* v) {
    int n = param_->getName() == v->getName();
    for (const VarDecl* o : locals_) n += o->getName() == v->getName();
    return n != 1;
  }
  // Per-work-item arrays: the element type's text and the bounds' text
  // (`unsigned int`, `[ELEMENTS_PER_WORK_ITEM]`).
  std::map<const VarDecl*, std::pair<std::string, std::string>> arrayDecl_;
  void keepArray(const VarDecl* v) {
    const std::string name = "`" + v->getNameAsString() + "`";
    if (!ctx_.getAsConstantArrayType(v->getType()) || !ctx_.getBaseElementType(v->getType())->isScalarType() ||
        v->getType().isVolatileQualified())
      throw Refused{name + " (an array of other than scalars, or of a size known only at run time) lives across a barrier"};
    if (v->getInit()) throw Refused{name + " (an array with an initialiser) lives across a barrier"};
    const TypeSourceInfo* tsi = v->getTypeSourceInfo();
    if (!tsi) throw Refused{name + " (an array) is declared without a written type"};
    TypeLoc elem = tsi->getTypeLoc();
    while (auto al = elem.getAs<ArrayTypeLoc>()) elem = al.getElementLoc();
    const SourceLocation b = elem.getBeginLoc(), e = elem.getEndLoc(), end = tsi->getTypeLoc().getEndLoc();
    if (!b.isFileID() || !e.isFileID() || !end.isFileID() || !v->getLocation().isFileID() || !inFile(b) ||
        off(e) >= off(v->getLocation()))
      throw Refused{name + " (an array) is declared through a macro or with a declarator around its name"};
    // Uses inside a macro expansion (`AtomInc(SET_HISTOGRAM(setIdx, keys[i]))`)
    // read the work-item's row through its name, bound in each region
    // (`auto& keys = amp_ht_N_keys[amp_ht_i];`), as scalars do.
    for (const DeclRefExpr* r : refs_)
      if (r->getDecl() == v && !r->getLocation().isFileID()) {
        if (!inFile(r->getLocation()))
          throw Refused{name + " (an array kept per work-item) is used in a macro defined in another file"};
        if (sameName(v))
          throw Refused{name + " is used inside a macro expansion and its name is declared twice in the kernel"};
        boundByName_.insert(v);
      }
    const char* buf = sm_.getBufferData(fid_).data();
    arrayDecl_[v] = {std::string(buf + off(b), buf + endOfToken(e)),
                     std::string(buf + endOfToken(v->getLocation()), buf + endOfToken(end))};
  }
  std::set<const VarDecl*> boundByName_; // per-work-item values read by name (used in macro expansions)
  std::set<const VarDecl*> slots_;       // per-work-item values of class type kept in item_slots

  // The tile's rank (tiled_index<D0, D1, D2>: the dimensions above 0).
  int tileRank() {
    int rank = 0;
    if (const auto* ts = dyn_cast_or_null<ClassTemplateSpecializationDecl>(
            param_->getType().getNonReferenceType()->getAsCXXRecordDecl()))
      for (const TemplateArgument& a : ts->getTemplateArgs().asArray())
        if (a.getKind() == TemplateArgument::Integral && a.getAsIntegral().getSExtValue() > 0) ++rank;
    return rank;
  }
  // e is the work-item's local index itself, i.e. the item loop's index
  // (amp_ht_i): t.local[0] of a one-dimensional tile, or a recomputed value
  // initialised with exactly that.
  bool isItemIndex(const Expr* e) {
    e = e->IgnoreParenImpCasts();
    if (const auto* dr = dyn_cast<DeclRefExpr>(e)) {
      const auto* v = dyn_cast<VarDecl>(dr->getDecl());
      return v && remat_.count(v) && ctx_.hasSameUnqualifiedType(v->getType(), ctx_.IntTy) &&
             isItemIndex(v->getInit());
    }
    const auto* oc = dyn_cast<CXXOperatorCallExpr>(e);
    if (!oc || oc->getOperator() != OO_Subscript || oc->getNumArgs() != 2 || tileRank() != 1) return false;
    const auto* me = dyn_cast<MemberExpr>(strip(oc->getArg(0)));
    const auto* base = me ? dyn_cast<DeclRefExpr>(strip(me->getBase())) : nullptr;
    const auto* lit = dyn_cast<IntegerLiteral>(strip(oc->getArg(1)));
    return base && base->getDecl() == param_ && me->getMemberDecl()->getName() == "local" && lit &&
           lit->getValue() == 0;
  }

  // ---- work-items of a region that cannot see each other (#pragma GCC ivdep)
  //
  // A region loop runs its work-items in order 0, 1, ..., n-1, as fibers do,
  // and the differential test holds the compiled path to fibers' bytes. The
  // loop is marked `#pragma GCC ivdep` (GCC may then run consecutive
  // work-items together in SIMD lanes, and vectorises the outer loop of a
  // nest such as the reduction's `for (k) sum += data[g + k * S]` across
  // work-items, which it otherwise refuses: "runtime alias check not
  // supported for outer loop") only where no work-item of the region reads
  // or writes memory another work-item of the same region writes, so that
  // any interleaving of the work-items gives the same bytes:
  //  * writes go to the work-item's own storage: locals that are not
  //    tile-level (declared in the region or kept in per-work-item arrays),
  //    a tile_static array element at the work-item's own slot (`s[l]`,
  //    `tile[ly][lx]`: each index exactly the work-item's local coordinate
  //    of that dimension, as many indices as the tile has dimensions), or
  //    one array_view/array element access whose index is injective over
  //    the tile (`out[t.global]`, `out[g + U]`, `out(U0 + ly, U1 + lx)`,
  //    U uniform: each dimension its own coordinate plus a tile-uniform
  //    offset; in-range accesses assumed, as AMP does);
  //  * a tile_static array written in the region is read there only at the
  //    work-item's own slot, or, in a region guarded by `if (l < U)`, at
  //    `l + U` (every such read is at U or above, every write below U: the
  //    tree reduction's `s[l] += s[l + U]`);
  //  * array_view/array elements are read only in regions that write none
  //    (views may alias each other), and one element is written at most;
  //  * no calls other than element accessors, index/extent arithmetic and
  //    trivial constructors (a called function could write anything), no
  //    pointers (`*p`, `&x`, arrays decayed to pointers anywhere in the
  //    kernel: a view made from a tile_static array's address could alias
  //    it), no references declared, no `return` in the kernel.
  // Anything else leaves the loop unmarked (its work-items still run in
  // order); the pragma changes no result, only what GCC may vectorise.

  // e is coordinate d of the work-item: t.local[d] (or t.global[d] when
  // global), or a recomputed int initialised with exactly that.
  bool isCoord(const Expr* e, int d, bool global) {
    e = e->IgnoreParenImpCasts();
    if (const auto* dr = dyn_cast<DeclRefExpr>(e)) {
      const auto* v = dyn_cast<VarDecl>(dr->getDecl());
      return v && remat_.count(v) && ctx_.hasSameUnqualifiedType(v->getType(), ctx_.IntTy) &&
             isCoord(v->getInit(), d, global);
    }
    const auto* oc = dyn_cast<CXXOperatorCallExpr>(e);
    if (!oc || oc->getOperator() != OO_Subscript || oc->getNumArgs() != 2) return false;
    const auto* me = dyn_cast<MemberExpr>(strip(oc->getArg(0)));
    const auto* base = me ? dyn_cast<DeclRefExpr>(strip(me->getBase())) : nullptr;
    const auto* lit = dyn_cast<IntegerLiteral>(strip(oc->getArg(1)));
    if (!base || base->getDecl() != param_ || !lit || lit->getValue() != static_cast<uint64_t>(d)) return false;
    const llvm::StringRef n = me->getMemberDecl()->getName();
    return n == "local" || (global && n == "global");
  }
  // e is coordinate d plus (or minus) tile-uniform int offsets, in int.
  bool isCoordPlusUniform(const Expr* e, int d, bool global) {
    e = e->IgnoreParenImpCasts();
    if (!ctx_.hasSameUnqualifiedType(e->getType(), ctx_.IntTy)) return false;
    if (isCoord(e, d, global)) return true;
    const auto* b = dyn_cast<BinaryOperator>(e);
    if (!b || (b->getOpcode() != BO_Add && b->getOpcode() != BO_Sub)) return false;
    if (uniform(b->getRHS()) && isCoordPlusUniform(b->getLHS(), d, global)) return true;
    return b->getOpcode() == BO_Add && uniform(b->getLHS()) && isCoordPlusUniform(b->getRHS(), d, global);
  }
  static bool sameUniform(const Expr* a, const Expr* b) {
    a = a->IgnoreParenImpCasts(), b = b->IgnoreParenImpCasts();
    if (const auto* x = dyn_cast<DeclRefExpr>(a))
      if (const auto* y = dyn_cast<DeclRefExpr>(b)) return x->getDecl() == y->getDecl();
    if (const auto* x = dyn_cast<IntegerLiteral>(a))
      if (const auto* y = dyn_cast<IntegerLiteral>(b)) return x->getValue() == y->getValue();
    return false;
  }
  // Kernel-wide: no pointer can reach a local or tile_static array.
  bool noPointersKnown_ = false, noPointers_ = false;
  bool noPointers() {
    if (noPointersKnown_) return noPointers_;
    noPointersKnown_ = true;
    struct V : RecursiveASTVisitor<V> {
      Kernel& k;
      bool ok = true;
      explicit V(Kernel& kk) : k(kk) {}
      bool VisitUnaryOperator(UnaryOperator* u) {
        if (u->getOpcode() == UO_AddrOf || u->getOpcode() == UO_Deref) ok = false;
        return true;
      }
      bool VisitImplicitCastExpr(ImplicitCastExpr* c) {
        if (c->getCastKind() != CK_ArrayToPointerDecay) return true;
        const Stmt* p = k.parentOf(c);
        const auto* as = dyn_cast_or_null<ArraySubscriptExpr>(p);
        if (!as || as->getBase() != c) ok = false;
        return true;
      }
    } v(*this);
    v.TraverseStmt(body_);
    noPointers_ = v.ok;
    return noPointers_;
  }
  const VarDecl* tileStaticVar(const Expr* e) {
    const auto* dr = dyn_cast<DeclRefExpr>(e->IgnoreParenImpCasts());
    const auto* v = dr ? dyn_cast<VarDecl>(dr->getDecl()) : nullptr;
    return v && locals_.count(v) && (v->isStaticLocal() || v->getTLSKind() != VarDecl::TLS_None) ? v : nullptr;
  }
  // Region-analysis state: one region at a time.
  struct Access {
    int globalWrites = 0;
    bool globalReads = false;
    bool fail = false;
    std::set<const VarDecl*> tsWritten, tsReadElsewhere;
  };
  // The outermost subscript chain s[i0][i1]... of a kernel-local array:
  // the array and its indices, outermost first.
  const VarDecl* subscriptChain(const ArraySubscriptExpr* a, std::vector<const Expr*>& idx) {
    const Expr* e = a;
    while (const auto* as = dyn_cast<ArraySubscriptExpr>(e->IgnoreParenImpCasts())) {
      idx.insert(idx.begin(), as->getIdx());
      e = as->getBase();
    }
    const auto* dr = dyn_cast<DeclRefExpr>(e->IgnoreParenImpCasts());
    const auto* v = dr ? dyn_cast<VarDecl>(dr->getDecl()) : nullptr;
    return v && locals_.count(v) && v->getType()->isConstantArrayType() ? v : nullptr;
  }
  // s[i0]... with each index the work-item's own coordinate, as many as the
  // tile has dimensions and the array has, each within the array's bound.
  bool ownSlot(const VarDecl* v, const std::vector<const Expr*>& idx) {
    const int rank = tileRank();
    if (static_cast<int>(idx.size()) != rank) return false;
    QualType t = v->getType();
    for (int d = 0; d < rank; ++d) {
      const auto* at = ctx_.getAsConstantArrayType(t);
      if (!at || !isCoord(idx[d], d, false) || tileDim(d) > at->getSize().getSExtValue()) return false;
      t = at->getElementType();
    }
    return t->isScalarType();
  }
  int tileDim(int d) {
    int k = 0;
    if (const auto* ts = dyn_cast_or_null<ClassTemplateSpecializationDecl>(
            param_->getType().getNonReferenceType()->getAsCXXRecordDecl()))
      for (const TemplateArgument& a : ts->getTemplateArgs().asArray())
        if (a.getKind() == TemplateArgument::Integral && a.getAsIntegral().getSExtValue() > 0 && k++ == d)
          return static_cast<int>(a.getAsIntegral().getSExtValue());
    return 1 << 30;
  }
  static bool isElementAccess(const CXXOperatorCallExpr* oc) {
    if (oc->getOperator() != OO_Subscript && oc->getOperator() != OO_Call) return false;
    if (oc->getNumArgs() < 2) return false;
    QualType obj = oc->getArg(0)->IgnoreParenImpCasts()->getType();
    return (isAmpClass(obj, "array_view") || isAmpClass(obj, "array")) && oc->getType()->isScalarType() &&
           oc->isLValue();
  }
  // An array_view/array element index that is injective over the tile's work-items.
  bool injectiveIndex(const CXXOperatorCallExpr* oc) {
    const int rank = tileRank();
    const unsigned nargs = oc->getNumArgs() - 1;
    if (nargs == 1 && !oc->getArg(1)->getType()->isIntegerType()) {
      const Expr* a = oc->getArg(1)->IgnoreParenImpCasts();
      if (const auto* c = dyn_cast<CXXConstructExpr>(a); c && c->getNumArgs() == 1) a = c->getArg(0)->IgnoreParenImpCasts();
      if (const auto* me = dyn_cast<MemberExpr>(a))
        if (const auto* dr = dyn_cast<DeclRefExpr>(strip(me->getBase())); dr && dr->getDecl() == param_)
          return me->getMemberDecl()->getName() == "global" || me->getMemberDecl()->getName() == "local";
      return false;
    }
    if (static_cast<int>(nargs) != rank) return false;
    for (int d = 0; d < rank; ++d)
      if (!isCoordPlusUniform(oc->getArg(d + 1), d, true)) return false;
    return true;
  }
  // How the value of e is used: 0 read, 1 written only (the LHS of `=`),
  // 2 read and written (compound assignment, ++, --), -1 anything else.
  int useOf(const Expr* e) {
    const Stmt* p = parentSkipping(e);
    if (const auto* ice = dyn_cast_or_null<ImplicitCastExpr>(p))
      return ice->getCastKind() == CK_LValueToRValue ? 0 : -1;
    if (const auto* b = dyn_cast_or_null<BinaryOperator>(p)) {
      if (!b->isAssignmentOp()) return -1;
      if (strip(b->getLHS()) != e && b->getLHS()->IgnoreParens() != e) return -1;
      return b->getOpcode() == BO_Assign ? 1 : 2;
    }
    if (const auto* u = dyn_cast_or_null<UnaryOperator>(p)) return u->isIncrementDecrementOp() ? 2 : -1;
    return -1;
  }
  // Work-items of the statements `stmts` (one region; guard: the U of its
  // `if (l < U)` when it became the loop's bounds) never touch memory
  // another of them writes.
  bool independent(const std::vector<const Stmt*>& stmts, const Expr* guard) {
    if (!returns_.empty() || !noPointers()) return false;
    struct V : RecursiveASTVisitor<V> {
      Kernel& k;
      const Expr* guard;
      Access a;
      V(Kernel& kk, const Expr* g) : k(kk), guard(g) {}
      bool shouldVisitImplicitCode() const { return false; }
      bool VisitVarDecl(VarDecl* v) {
        if (v->getType()->isReferenceType() || v->getType()->isPointerType()) a.fail = true;
        return true;
      }
      bool VisitCallExpr(CallExpr* c) {
        if (const auto* oc = dyn_cast<CXXOperatorCallExpr>(c)) {
          if (isElementAccess(oc)) {
            const int use = k.useOf(oc);
            if (use < 0) a.fail = true;
            if (use != 0) {
              ++a.globalWrites;
              if (!k.injectiveIndex(oc)) a.fail = true;
            }
            if (use != 1) a.globalReads = true;
            return true;
          }
          if (oc->getNumArgs() > 0 && isValueClass(strip(oc->getArg(0))->getType())) {
            if (oc->isAssignmentOp()) a.fail = true;
            return true;
          }
          a.fail = true;
          return true;
        }
        if (const auto* mc = dyn_cast<CXXMemberCallExpr>(c)) {
          const CXXMethodDecl* m = mc->getMethodDecl();
          const Expr* obj = strip(mc->getImplicitObjectArgument());
          const bool param = isa<DeclRefExpr>(obj) && cast<DeclRefExpr>(obj)->getDecl() == k.param_;
          if (m && m->isConst() && (isValueClass(obj->getType()) || param)) return true;
          if (m && isa<CXXConversionDecl>(m) && param) return true;
        }
        a.fail = true;
        return true;
      }
      bool VisitCXXConstructExpr(CXXConstructExpr* c) {
        const CXXConstructorDecl* ctor = c->getConstructor();
        if (!isValueClass(c->getType()) && !(ctor && ctor->isTrivial())) a.fail = true;
        return true;
      }
      bool VisitCXXNewExpr(CXXNewExpr*) { return a.fail = true; }
      bool VisitCXXDeleteExpr(CXXDeleteExpr*) { return a.fail = true; }
      bool VisitCXXThrowExpr(CXXThrowExpr*) { return a.fail = true; }
      bool VisitDeclRefExpr(DeclRefExpr* r) {
        const auto* v = dyn_cast<VarDecl>(r->getDecl());
        if (!v) return true;
        // A reference to a view's element (recomputed per region): memory
        // the proof does not follow.
        if (v->getType()->isReferenceType() && k.locals_.count(v) && !k.tileLevel_.count(v)) return a.fail = true;
        const int use = k.useOf(r);
        if (use == 0) return true;
        if (use < 0) {
          // The base of a subscript or a member access is classified there.
          const Stmt* p = k.parentSkipping(r);
          if (const auto* ice = dyn_cast_or_null<ImplicitCastExpr>(p);
              ice && ice->getCastKind() == CK_ArrayToPointerDecay)
            return true;
          if (isa_and_nonnull<MemberExpr>(p) || isa_and_nonnull<CXXOperatorCallExpr>(p) ||
              isa_and_nonnull<CXXMemberCallExpr>(p))
            return true;
          if (v->getType()->isArrayType() || isValueClass(v->getType())) return true;
          a.fail = true;
          return true;
        }
        // Written: a private local only.
        if (!k.locals_.count(v) || v->isStaticLocal() || v->getTLSKind() != VarDecl::TLS_None ||
            k.tileLevel_.count(v))
          a.fail = true;
        return true;
      }
      bool VisitMemberExpr(MemberExpr* m) {
        if (m->isArrow()) return a.fail = true;
        const int use = k.useOf(m);
        if (use <= 0) return true;
        // A member of a private local (x.a = ...), nothing else.
        const auto* dr = dyn_cast<DeclRefExpr>(strip(m->getBase()));
        const auto* v = dr ? dyn_cast<VarDecl>(dr->getDecl()) : nullptr;
        if (!v || !k.locals_.count(v) || v->isStaticLocal() || v->getTLSKind() != VarDecl::TLS_None ||
            k.tileLevel_.count(v))
          a.fail = true;
        return true;
      }
      bool VisitArraySubscriptExpr(ArraySubscriptExpr* as) {
        // The inner part of a chain s[a][b] (s[a] decays to the base of [b]) is classified with it.
        const Stmt* p = k.parentOf(as);
        while (p && (isa<ImplicitCastExpr>(p) || isa<ParenExpr>(p))) p = k.parentOf(p);
        if (const auto* outer = dyn_cast_or_null<ArraySubscriptExpr>(p); outer && strip(outer->getBase()) == as)
          return true;
        std::vector<const Expr*> idx;
        const VarDecl* v = k.subscriptChain(as, idx);
        if (!v) return a.fail = true;
        const int use = k.useOf(as);
        const bool shared = v->isStaticLocal() || v->getTLSKind() != VarDecl::TLS_None;
        if (!shared) {
          if (k.tileLevel_.count(v) || use < 0) a.fail = true;
          return true;
        }
        if (use < 0) return a.fail = true;
        const bool own = k.ownSlot(v, idx);
        if (use > 0) {
          if (!own) a.fail = true;
          a.tsWritten.insert(v);
        }
        if (use != 1 && !own) {
          // s[l + U] under `if (l < U)`: above every slot the region writes.
          bool above = false;
          if (guard && idx.size() == 1 && k.tileRank() == 1)
            if (const auto* b = dyn_cast<BinaryOperator>(idx[0]->IgnoreParenImpCasts()); b && b->getOpcode() == BO_Add)
              above = (k.isCoord(b->getLHS(), 0, false) && sameUniform(b->getRHS(), guard)) ||
                      (k.isCoord(b->getRHS(), 0, false) && sameUniform(b->getLHS(), guard));
          if (!above) a.tsReadElsewhere.insert(v);
        }
        return true;
      }
    } v(*this, guard);
    for (const Stmt* s : stmts) v.TraverseStmt(const_cast<Stmt*>(s));
    const Access& a = v.a;
    if (a.fail || a.globalWrites > 1 || (a.globalWrites && a.globalReads)) return false;
    for (const VarDecl* w : a.tsWritten)
      if (a.tsReadElsewhere.count(w)) return false;
    return true;
  }
  std::string ivdep(const std::vector<const Stmt*>& stmts, const Expr* guard) {
    if (ivdepOff || !independent(stmts, guard)) return "";
    ++independent_;
    return "\n#pragma GCC ivdep\n";
  }

  // A region that is one `if (L < U) S` (or <=, >, >=, ==, either way round)
  // with L the work-item's local index and U uniform, all in int: the
  // condition becomes the item loop's bounds, so S runs for the same
  // work-items in the same order and the loop has no branch left (which is
  // what lets the compiler vectorise `if (i < n) a[i] = ...`, the common
  // GPU guard, across work-items). "" when the region is not of that form.
  std::string guardedRegion(const Stmt* c) {
    const auto* is = dyn_cast<IfStmt>(c);
    if (!is || is->getElse() || is->getInit() || is->getConditionVariable() || is->isConstexpr()) return "";
    // Written by a macro, the branch's text is the whole invocation's.
    if (!is->getBeginLoc().isFileID() || !is->getThen()->getBeginLoc().isFileID()) return "";
    const auto* b = dyn_cast<BinaryOperator>(is->getCond()->IgnoreParens());
    if (!b || !(b->isRelationalOp() || b->getOpcode() == BO_EQ)) return "";
    if (!ctx_.hasSameUnqualifiedType(b->getLHS()->getType(), ctx_.IntTy) ||
        !ctx_.hasSameUnqualifiedType(b->getRHS()->getType(), ctx_.IntTy))
      return "";
    BinaryOperatorKind op = b->getOpcode();
    const Expr* u = nullptr;
    if (isItemIndex(b->getLHS()) && uniform(b->getRHS())) {
      u = b->getRHS();
    } else if (isItemIndex(b->getRHS()) && uniform(b->getLHS())) {
      u = b->getLHS();
      op = op == BO_LT ? BO_GT : op == BO_GT ? BO_LT : op == BO_LE ? BO_GE : op == BO_GE ? BO_LE : op;
    } else {
      return "";
    }
    if (!inFile(u->getBeginLoc()) || !inFile(u->getEndLoc())) return "";
    const std::string ut = "static_cast<long long>(" + text(off(u->getBeginLoc()), endOfToken(u->getEndLoc())) + ")";
    std::string lo = "0", hi = "amp_ht_n";
    if (op == BO_LT) hi = ut;
    if (op == BO_LE) hi = ut + " + 1";
    if (op == BO_GT) lo = ut + " + 1";
    if (op == BO_GE) lo = ut;
    if (op == BO_EQ) lo = ut, hi = ut + " + 1"; // one work-item at most (`if (l == 0)`): no empty loop left
    const Stmt* then = is->getThen();
    const unsigned tb = off(then->getBeginLoc()), te = stmtEnd(then);
    return "{ const long long amp_ht_l = " + lo + ", amp_ht_h = " + hi +
           ";\nconst int amp_ht_lo = amp_ht_l > 0 ? static_cast<int>(amp_ht_l) : 0;\n"
           "const int amp_ht_hi = amp_ht_h < amp_ht_n ? static_cast<int>(amp_ht_h) : amp_ht_n;\n" +
           ivdep({then}, op == BO_LT ? u : nullptr) +
           "for (int amp_ht_i = amp_ht_lo; amp_ht_i < amp_ht_hi; ++amp_ht_i) {" +
           itemBody(tb, te, then->getBeginLoc()) + "\n}\n}\n";
  }

  // The body of a work-item loop running source [b, e) for item amp_ht_i.
  std::string itemBody(unsigned b, unsigned e, SourceLocation at) {
    std::string out;
    if (!returns_.empty()) out += " if (amp_ht_nret && amp_ht_ret[amp_ht_i]) continue;";
    // Not const: a helper may take the tiled_index by non-const reference
    // (its members are const, so nothing can change it).
    out += " auto " + pname() + " = amp_ht_arg.item(" + (nest2() ? "amp_ht_r, amp_ht_c" : "amp_ht_i") + "); (void)" +
           pname() + ";" + recomputed(b, e) + boundNames(b, e);
    bool ret = false;
    for (const ReturnStmt* r : returns_)
      if (const unsigned o = off(r->getBeginLoc()); b <= o && o < e) ret = true;
    if (!ret) return out + lineDirective(at) + text(b, e);
    label_ = "amp_ht_next_" + std::to_string(labels_++);
    return out + " {" + lineDirective(at) + text(b, e) + "\n} " + label_ + ": ;";
  }

  // The work-item loop of a region: source [b, e), its statements `stmts`.
  // Over a two-dimensional tile the loop is a nest (rows outside, columns
  // inside: the same row-major order), the work-item's column the inner
  // loop's index (tile_group::item(r, c)); the pragma, if any, on the inner loop.
  // after: text that ends each work-item's part (`;` after an expression).
  std::string region(unsigned b, unsigned e, SourceLocation at, const std::vector<const Stmt*>& stmts,
                     const std::string& after = "") {
    if (nest2()) {
      nested_ = true;
      const std::string head = "for (int amp_ht_r = 0; amp_ht_r < amp_ht_d0; ++amp_ht_r) {" + ivdep(stmts, nullptr) +
                               "for (int amp_ht_c = 0; amp_ht_c < amp_ht_d1; ++amp_ht_c) { const int amp_ht_i = "
                               "amp_ht_r * amp_ht_d1 + amp_ht_c; (void)amp_ht_i;";
      return head + itemBody(b, e, at) + after + "\n}\n}\n";
    }
    return ivdep(stmts, nullptr) + "for (int amp_ht_i = 0; amp_ht_i < amp_ht_n; ++amp_ht_i) {" + itemBody(b, e, at) +
           after + "\n}\n";
  }
  bool nested_ = false; // amp_ht_d0/amp_ht_d1 are used
  bool nest2() { return tileRank() == 2; } // guarded regions (item-index bounds) are one-dimensional only

  std::string emitBlock(const CompoundStmt* cs) {
    std::string out;
    const auto children = cs->body();
    for (auto it = children.begin(); it != children.end(); ++it) {
      const Stmt* c = *it;
      if (isa<SwitchCase>(c)) {
        // The labels, then their statement as one of the block's.
        while (const auto* sc = dyn_cast<SwitchCase>(c)) {
          if (const auto* cs = dyn_cast<CaseStmt>(sc))
            out += lineDirective(c->getBeginLoc()) + "case " +
                   text(off(cs->getLHS()->getBeginLoc()), endOfToken(cs->getLHS()->getEndLoc())) + ":;\n";
          else
            out += lineDirective(c->getBeginLoc()) + "default:;\n"; // `;`: a label may end the block
          c = sc->getSubStmt();
        }
        if (regionOf_.count(c)) {
          out += region(regionRange_[regionOf_[c]].first, regionRange_[regionOf_[c]].second, c->getBeginLoc(), {c});
          continue;
        }
      }
      if (barrierStmts_.count(c)) {
        if (!returns_.empty())
          out += "if (amp_ht_nret) { if (amp_ht_nret == amp_ht_n) return; "
                 "::Concurrency::detail::host_tiles::diverged(amp_ht_arg, amp_ht_ret, !amp_ht_waited); }\n"
                 "amp_ht_waited = true;\n";
        continue;
      }
      if (regionOf_.count(c)) {
        const int r = regionOf_[c];
        if (std::next(it) == children.end() || !regionOf_.count(*std::next(it)))
          if (std::string g = guardedRegion(c); !g.empty()) {
            ++guarded;
            out += g;
            continue;
          }
        std::vector<const Stmt*> stmts = {c};
        while (std::next(it) != children.end() && regionOf_.count(*std::next(it))) stmts.push_back(*++it);
        out += region(regionRange_[r].first, regionRange_[r].second, c->getBeginLoc(), stmts);
        continue;
      }
      if (isa<DeclStmt>(c) || isTileUpdateStmt(c) || tileJumps_.count(c)) { // tile-level declaration, update or jump
        out += lineDirective(c->getBeginLoc()) + text(off(c->getBeginLoc()), stmtEnd(c)) + "\n";
        continue;
      }
      out += emitSplit(c);
    }
    return out;
  }

  // A loop body or an if branch: split when it holds a barrier, else one region.
  std::string branch(const Stmt* s) {
    if (const auto* cs = dyn_cast<CompoundStmt>(s); cs && withBarrier_.count(cs)) return "{\n" + emitBlock(cs) + "}\n";
    if (splitStmt(s)) return "{\n" + emitSplit(s) + "}\n";
    return "{\n" + region(off(s->getBeginLoc()), stmtEnd(s), s->getBeginLoc(), {s}) + "}\n";
  }

  std::string emitSplit(const Stmt* c) {
    if (const auto* cs = dyn_cast<CompoundStmt>(c)) return branch(cs);
    if (const auto* f = dyn_cast<ForStmt>(c)) {
      auto it = itemIncParts_.find(f);
      if (it == itemIncParts_.end())
        return lineDirective(c->getBeginLoc()) + "for " + text(off(f->getLParenLoc()), endOfToken(f->getRParenLoc())) +
               "\n" + branch(f->getBody());
      // The header keeps the tile-level parts of the increment; the
      // per-item ones end the body, in a work-item loop each.
      std::vector<const Expr*> parts;
      commaParts(f->getInc(), parts);
      std::string inc, tail;
      for (const Expr* p : parts) {
        const unsigned b = off(p->getBeginLoc()), e = endOfToken(p->getEndLoc());
        if (std::find(it->second.begin(), it->second.end(), p) == it->second.end()) {
          inc += (inc.empty() ? "" : ", ") + text(b, e);
          continue;
        }
        tail += region(b, e, p->getBeginLoc(), {}, ";");
      }
      const std::string head = "for (" + text(off(f->getLParenLoc()) + 1, f->getInc() ? off(f->getInc()->getBeginLoc()) : 0);
      return lineDirective(c->getBeginLoc()) + head + inc + ")\n{\n" + branch(f->getBody()) + tail + "}\n";
    }
    if (const auto* w = dyn_cast<WhileStmt>(c))
      return lineDirective(c->getBeginLoc()) + "while " +
             text(off(w->getLParenLoc()), endOfToken(w->getRParenLoc())) + "\n" + branch(w->getBody());
    if (const auto* sw = dyn_cast<SwitchStmt>(c))
      return lineDirective(c->getBeginLoc()) + "switch " +
             text(off(sw->getLParenLoc()), endOfToken(sw->getRParenLoc())) + "\n{\n" +
             emitBlock(cast<CompoundStmt>(sw->getBody())) + "}\n";
    if (const auto* d = dyn_cast<DoStmt>(c))
      return lineDirective(c->getBeginLoc()) + "do\n" + branch(d->getBody()) + lineDirective(d->getWhileLoc()) +
             text(off(d->getWhileLoc()), endOfToken(d->getRParenLoc())) + ";\n";
    const auto* i = dyn_cast<IfStmt>(c);
    if (!i) throw Refused{"internal: an unexpected statement at " + where(c)};
    std::string out = lineDirective(c->getBeginLoc()) + (i->isConstexpr() ? "if constexpr " : "if ") +
                      text(off(i->getLParenLoc()), endOfToken(i->getRParenLoc())) + "\n" + branch(i->getThen());
    if (i->getElse()) out += "else\n" + branch(i->getElse());
    return out;
  }

  std::string emitAll() {
    buildEdits();
    dirCursor_ = off(body_->getLBracLoc()) + 1;
    std::string out = "constexpr int amp_ht_n = ::std::remove_reference_t<decltype(amp_ht_arg)>::size; (void)amp_ht_n;\n";
    out += "auto " + pname() + " = amp_ht_arg.item(0); (void)" + pname() + ";\n";
    for (auto& [v, name] : arrays_)
      out += slots_.count(v)      ? "::Concurrency::detail::host_tiles::item_slots<" + typeText(v) + ", amp_ht_n> " + name + ";\n"
             : arrayDecl_.count(v) ? arrayDecl_[v].first + " " + name + "[amp_ht_n]" + arrayDecl_[v].second + ";\n"
                                   : typeText(v) + " " + name + "[amp_ht_n];\n";
    if (!returns_.empty())
      out += "bool amp_ht_ret[amp_ht_n] = {}; int amp_ht_nret = 0; bool amp_ht_waited = false; "
             "(void)amp_ht_waited;\n";
    const std::string body = emitBlock(body_);
    if (nested_)
      out += "constexpr int amp_ht_d0 = ::std::remove_reference_t<decltype(amp_ht_arg)>::dim0, amp_ht_d1 = "
             "::std::remove_reference_t<decltype(amp_ht_arg)>::dim1;\n";
    out += body + macrosUpTo(off(body_->getRBracLoc()));
    // Each region redeclares the parameter for its work-item, shadowing the
    // tile-level one (which only serves the uniform conditions).
    return "_Pragma(\"GCC diagnostic push\") _Pragma(\"GCC diagnostic ignored \\\"-Wshadow\\\"\")\n" + out +
           "_Pragma(\"GCC diagnostic pop\")\n";
  }
};

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

// A declaration as both parses see it: qualified name and where it is written.
std::string declKey(SourceManager& sm, const Decl* d) {
  std::string k;
  if (const auto* nd = dyn_cast<NamedDecl>(d)) k = nd->getQualifiedNameAsString();
  if (const auto* fd = dyn_cast<FunctionDecl>(d)) k += "(" + fd->getType().getCanonicalType().getAsString() + ")";
  const PresumedLoc p = sm.getPresumedLoc(sm.getExpansionLoc(d->getLocation()));
  if (p.isValid()) k += std::string("@") + p.getFilename() + ":" + std::to_string(p.getLine());
  return k;
}
std::string canon(QualType t) { return t.getCanonicalType().getAsString(); }

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
  std::string key(const ValueDecl* d) {
    std::string n = name(d);
    return n.empty() ? declKey(sm, d) : n;
  }
  void walk(const Stmt* s) {
    if (!s) return;
    if (call(s, out)) return;
    if (const auto* sn = dyn_cast<SubstNonTypeTemplateParmExpr>(s)) {
      out += "N" + std::to_string(sn->getParameter()->getIndex()) + " ";
      return;
    }
    if (const auto* dr = dyn_cast<DeclRefExpr>(s)) {
      const std::string k = key(dr->getDecl());
      out += (k[0] == 'N' ? "" : "DeclRefExpr ") + k + " ";
      return;
    }
    if (!isa<ImplicitCastExpr>(s) && !isa<ParenExpr>(s) && !isa<FullExpr>(s) && !isa<MaterializeTemporaryExpr>(s) &&
        !isa<CXXBindTemporaryExpr>(s))
      out += std::string(s->getStmtClassName()) + " ";
    if (const auto* me = dyn_cast<MemberExpr>(s)) out += key(me->getMemberDecl()) + " ";
    if (const auto* ce = dyn_cast<CXXConstructExpr>(s)) out += declKey(sm, ce->getConstructor()) + " ";
    if (const auto* ec = dyn_cast<ExplicitCastExpr>(s)) out += canon(ec->getType()) + " ";
    if (const auto* ut = dyn_cast<UnaryExprOrTypeTraitExpr>(s); ut && ut->isArgumentType())
      out += canon(ut->getArgumentType()) + " ";
    if (const auto* ds = dyn_cast<DeclStmt>(s))
      for (const Decl* d : ds->decls())
        if (const auto* v = dyn_cast<VarDecl>(d))
          out += "V" + v->getNameAsString() + ":" + canon(v->getType()) + (v->isStaticLocal() ? ":static " : " ");
    for (const Stmt* c : s->children()) walk(c);
  }
};

// The source text of [b, e) of file fid with edits applied (edits inside an
// earlier edit are dropped: the outer one emitted them itself).
struct TextEdit {
  unsigned b, e;
  std::string text;
};
std::string editedText(SourceManager& sm, FileID fid, unsigned b, unsigned e, std::vector<TextEdit> edits) {
  std::sort(edits.begin(), edits.end(), [](const TextEdit& x, const TextEdit& y) {
    return x.b != y.b ? x.b < y.b : x.e > y.e;
  });
  const char* buf = sm.getBufferData(fid).data();
  std::string out;
  unsigned k = b;
  for (const TextEdit& ed : edits) {
    if (ed.b < k || ed.b >= e || ed.e > e) continue;
    out.append(buf + k, buf + ed.b);
    out += ed.text;
    k = ed.e;
  }
  if (k < e) out.append(buf + k, buf + e);
  return out;
}

class Inliner {
public:
  Inliner(ASTContext& ctx, const std::set<std::string>& headers, LambdaExpr* l, ParmVarDecl* p,
          Preprocessor* pp = nullptr)
      : ctx_(ctx), sm_(ctx.getSourceManager()), lo_(ctx.getLangOpts()), headers_(headers), lambda_(l), param_(p),
        pp_(pp) {
    dependent_ = l->getLambdaClass()->getDeclContext()->isDependentContext() ||
                 l->getCallOperator()->getTemplateInstantiationPattern() != nullptr;
    for (const DeclContext* c = l->getLambdaClass()->getDeclContext(); c; c = c->getParent())
      if (const auto* fd = dyn_cast<FunctionDecl>(c))
        if (fd->isTemplateInstantiation() || fd->getDescribedFunctionTemplate()) dependent_ = true;
  }

  int expanded = 0; // macro invocations holding a barrier, replaced by their expansion

  std::string keys; // the binding keys of every inlined call, in order
  int calls = 0;    // call statements inlined (nested ones included)

  // The kernel body's text between its braces with its waiting calls
  // inlined; "" when it has none. Throws Refused.
  std::string run() {
    const CompoundStmt* body = lambda_->getCompoundStmtBody();
    const FileID fid = sm_.getFileID(body->getLBracLoc());
    std::vector<TextEdit> edits;
    std::vector<const CallExpr*> found;
    waitingCalls(body, param_, found);
    edits = restarts(body, found, fid);
    for (TextEdit& e : expandBarrierMacros(body, fid)) edits.push_back(std::move(e));
    if (found.empty() && edits.empty()) return "";
    for (const CallExpr* c : found) {
      std::string k;
      // `T v = f(t, ...);` in a block of the kernel: the callee's value is
      // assigned to a variable declared before its inlined body
      // (`RT amp_ht_rv0; {...; amp_ht_rv0 = (E);} T v = amp_ht_rv0;`).
      if (const DeclStmt* ds = initialisedBy(c)) {
        const std::string rv = "amp_ht_rv" + std::to_string(ids_);
        std::string rt;
        const std::string block = inlineCall(c, ds, fid, {}, param_, 0, dependent_, {}, k, rv, &rt);
        const std::string decl = editedText(sm_, fid, off(ds->getBeginLoc()), stmtEnd(ds, fid),
                                            {{off(c->getBeginLoc()), endOfToken(c->getEndLoc()), rv}});
        edits.push_back({off(ds->getBeginLoc()), stmtEnd(ds, fid), rt + " " + rv + "; " + block + " " + decl});
        keys += k;
        continue;
      }
      const Stmt* st = statementOf(c);
      edits.push_back({off(st->getBeginLoc()), stmtEnd(st, fid), inlineCall(c, st, fid, {}, param_, 0, dependent_, {}, k)});
      keys += k;
    }
    for (auto& [f, n] : sites_)
      if (n > 1 && hasStatic_.count(f))
        throw Refused{"`" + f->getNameAsString() + "` has tile_static (or static) variables and is called at " +
                      std::to_string(n) + " places (inlined, each place would get its own)"};
    return editedText(sm_, fid, off(body->getLBracLoc()) + 1, off(body->getRBracLoc()), edits);
  }

  int restarted = 0; // variables whose later live range got a name of its own

private:
  // ---- macros that hold a barrier (Bolt's `_REDUCE_STEP(len, i, w);`: an
  // `if`, then `t_idx.barrier.wait();`): statements from one invocation share
  // its source range and cannot be split into regions. Each such invocation
  // in the kernel's own text is replaced by its expansion, one level deep:
  // the definition active there, its parameters replaced by the arguments as
  // written (the compiler rescans the text, as the preprocessor would have);
  // macros inside stay as they are. Refused: `#`, `##`, variadic macros,
  // __LINE__-like names, invocations inside other macros.
  std::vector<TextEdit> expandBarrierMacros(const CompoundStmt* body, FileID fid) {
    std::vector<TextEdit> out;
    if (!pp_) return out;
    struct B : RecursiveASTVisitor<B> {
      const ParmVarDecl* p;
      std::vector<const CXXMemberCallExpr*> waits;
      bool VisitCXXMemberCallExpr(CXXMemberCallExpr* c) {
        const CXXMethodDecl* m = c->getMethodDecl();
        if (m && m->getParent() && m->getParent()->getName() == "tile_barrier" && m->getName().starts_with("wait") &&
            c->getBeginLoc().isMacroID())
          waits.push_back(c);
        return true;
      }
    } b;
    b.p = param_;
    b.TraverseStmt(const_cast<CompoundStmt*>(body));
    std::set<unsigned> done;
    for (const CXXMemberCallExpr* c : b.waits) {
      const SourceLocation at = c->getBeginLoc();
      if (sm_.isMacroArgExpansion(at)) continue; // written in the file, as an argument
      const CharSourceRange r = sm_.getExpansionRange(at);
      if (sm_.getFileID(r.getBegin()) != fid) continue;
      const unsigned b0 = off(r.getBegin());
      if (!done.insert(b0).second) continue;
      const unsigned e0 = r.isTokenRange() ? endOfToken(r.getEnd()) : off(r.getEnd());
      std::string why;
      const std::string text = expansionText(r.getBegin(), b0, e0, fid, why);
      if (text.empty())
        throw Refused{"a macro expands to statements on both sides of a barrier (" + where(at) + "): " + why};
      out.push_back({b0, e0, text});
      ++expanded;
    }
    return out;
  }

  // The text invocation [b, e) of file fid (its name at `name`) expands to;
  // "" with `why` when it cannot be written out.
  std::string expansionText(SourceLocation name, unsigned b, unsigned e, FileID fid, std::string& why) {
    const llvm::StringRef buf = sm_.getBufferData(fid);
    unsigned i = b;
    while (i < e && (std::isalnum(static_cast<unsigned char>(buf[i])) || buf[i] == '_')) ++i;
    const std::string id = buf.substr(b, i - b).str();
    IdentifierInfo* ii = pp_->getIdentifierInfo(id);
    const MacroInfo* mi = ii ? pp_->getMacroDefinitionAtLoc(ii, name).getMacroInfo() : nullptr;
    if (!mi) return why = "no definition of `" + id + "` found", "";
    if (mi->isVariadic()) return why = "`" + id + "` is variadic", "";
    // The arguments: split at the commas outside parentheses, strings and
    // character literals.
    std::vector<std::string> args;
    if (mi->isFunctionLike()) {
      while (i < e && std::isspace(static_cast<unsigned char>(buf[i]))) ++i;
      if (i >= e || buf[i] != '(' || buf[e - 1] != ')') return why = "`" + id + "`'s arguments are not plain", "";
      int depth = 0;
      std::string cur;
      for (unsigned k = i + 1; k < e - 1; ++k) {
        const char ch = buf[k];
        if (ch == '"' || ch == '\'') {
          const unsigned s0 = k;
          for (++k; k < e - 1 && buf[k] != ch; ++k)
            if (buf[k] == '\\') ++k;
          cur += buf.substr(s0, k - s0 + 1).str();
          continue;
        }
        if (ch == '(') ++depth;
        if (ch == ')') --depth;
        if (ch == ',' && depth == 0) {
          args.push_back(cur);
          cur.clear();
          continue;
        }
        cur += ch;
      }
      if (!cur.empty() || mi->getNumParams() > 0) args.push_back(cur);
      if (args.size() != mi->getNumParams()) return why = "`" + id + "` is called with another number of arguments", "";
    }
    std::string text;
    for (const Token& t : mi->tokens()) {
      if (t.is(tok::hash) || t.is(tok::hashhash)) return why = "`" + id + "` uses `#` or `##`", "";
      std::string piece;
      if (const IdentifierInfo* ti = t.getIdentifierInfo()) {
        const llvm::StringRef n = ti->getName();
        if (n == "__LINE__" || n == "__FILE__" || n == "__COUNTER__" || n == "__VA_ARGS__" || n == "__VA_OPT__")
          return why = "`" + id + "` uses " + n.str(), "";
        int k = 0;
        for (const IdentifierInfo* param : mi->params()) {
          if (param == ti) piece = "(" + args[k] + ")";
          ++k;
        }
        if (piece.empty()) piece = n.str();
      } else {
        piece = pp_->getSpelling(t);
      }
      if (!text.empty()) text += ' ';
      text += piece;
    }
    // No line breaks: the lines after the invocation keep their numbers.
    for (char& ch : text)
      if (ch == '\n' || ch == '\r') ch = ' ';
    return text;
  }

private:
  // A local of the kernel's body re-assigned by a statement `v = E;` of the
  // body's own block (run once by every work-item, in no loop or branch;
  // E not reading v) starts a new live range there: the uses after it are
  // renamed to a variable that statement declares
  // (`decltype(v) amp_ht_r0_v = E;`), which the analysis then judges on its
  // own. So Bolt's scans' `offset`, per work-item before `offset = 1;` and
  // uniform after it, becomes two variables. Not done when a later use is
  // written through a macro or inside a waiting call (whose text is replaced).
  std::vector<TextEdit> restarts(const CompoundStmt* body, const std::vector<const CallExpr*>& calls, FileID fid) {
    std::vector<TextEdit> out;
    std::set<const VarDecl*> top, done;
    for (const Stmt* c : body->body())
      if (const auto* ds = dyn_cast<DeclStmt>(c))
        for (const Decl* d : ds->decls())
          // Any value type (a kernel template's `iType` is int in one
          // instantiation, a user's class in another: both must rename).
          if (const auto* v = dyn_cast<VarDecl>(d); v && !v->isStaticLocal() && !v->getType()->isReferenceType() &&
                                                    !v->getType()->isArrayType() && !v->getType().isConstQualified())
            top.insert(v);
    struct Refs : RecursiveASTVisitor<Refs> {
      std::vector<const DeclRefExpr*> all;
      bool VisitDeclRefExpr(DeclRefExpr* r) {
        all.push_back(r);
        return true;
      }
    } refs;
    refs.TraverseStmt(const_cast<CompoundStmt*>(body));
    std::vector<std::pair<unsigned, unsigned>> callRanges;
    for (const CallExpr* c : calls) {
      const Stmt* st = initialisedBy(c);
      if (!st) st = statementOf(c);
      callRanges.push_back({off(st->getBeginLoc()), stmtEnd(st, fid)});
    }
    for (const Stmt* c : body->body()) {
      // `v = E;`: a built-in assignment, or a class's operator= (the same
      // text in another instantiation).
      const Expr *le = nullptr, *re = nullptr;
      if (const auto* b = dyn_cast<BinaryOperator>(c); b && b->getOpcode() == BO_Assign) le = b->getLHS(), re = b->getRHS();
      if (const auto* oc = dyn_cast<CXXOperatorCallExpr>(c); oc && oc->getOperator() == OO_Equal && oc->getNumArgs() == 2)
        le = oc->getArg(0), re = oc->getArg(1);
      if (!le || !c->getBeginLoc().isFileID() || !re->getBeginLoc().isFileID()) continue;
      const Expr* a = cast<Expr>(c);
      const auto* lhs = dyn_cast<DeclRefExpr>(le->IgnoreParenImpCasts());
      const auto* v = lhs ? dyn_cast<VarDecl>(lhs->getDecl()) : nullptr;
      if (!v || !top.count(v) || done.count(v)) continue;
      const unsigned sb = off(a->getBeginLoc()), se = stmtEnd(a, fid);
      bool before = false, ok = true;
      std::vector<const DeclRefExpr*> after;
      for (const DeclRefExpr* r : refs.all) {
        if (r->getDecl() != v) continue;
        const unsigned o = off(r->getLocation());
        if (o < sb) before = true;
        else if (r != lhs && o < se) ok = false; // E reads v
        else if (o >= se) {
          if (!r->getLocation().isFileID()) ok = false;
          for (auto [b, e] : callRanges)
            if (b <= o && o < e) ok = false;
          after.push_back(r);
        }
      }
      // The new variable's type as v's declaration writes it (a plain type
      // name: the same text in every instantiation of a kernel template).
      std::string ty;
      if (const TypeSourceInfo* tsi = v->getTypeSourceInfo()) {
        const SourceRange tr = tsi->getTypeLoc().getSourceRange();
        if (tr.isValid() && tr.getBegin().isFileID() && tr.getEnd().isFileID())
          ty = editedText(sm_, fid, off(tr.getBegin()), endOfToken(tr.getEnd()), {});
      }
      if (ty.empty() || ty.find_first_of("()[]*&<>:") != std::string::npos || ty.find("auto") != std::string::npos ||
          ty.find("decltype") != std::string::npos)
        continue;
      if (!ok || !before || after.empty()) continue;
      done.insert(v);
      const std::string nn = "amp_ht_r" + std::to_string(restarted++) + "_" + v->getNameAsString();
      out.push_back({sb, off(re->getBeginLoc()), ty + " " + nn + " = "});
      for (const DeclRefExpr* r : after) out.push_back({off(r->getLocation()), endOfToken(r->getLocation()), nn});
    }
    return out;
  }

  ASTContext& ctx_;
  SourceManager& sm_;
  const LangOptions& lo_;
  const std::set<std::string>& headers_;
  LambdaExpr* lambda_;
  ParmVarDecl* param_;
  Preprocessor* pp_; // macro definitions (expandBarrierMacros); may be null
  bool dependent_ = false; // the kernel is in a template: template arguments must be spelled as written
  std::map<const FunctionDecl*, int> sites_;
  std::set<const FunctionDecl*> hasStatic_;
  std::map<const FunctionDecl*, bool> waits_;
  int ids_ = 0;

  unsigned off(SourceLocation l) { return sm_.getFileOffset(sm_.getExpansionLoc(l)); }
  unsigned endOfToken(SourceLocation l) {
    if (l.isMacroID()) l = sm_.getExpansionRange(l).getEnd();
    return sm_.getFileOffset(Lexer::getLocForEndOfToken(l, 0, sm_, lo_));
  }
  std::string where(SourceLocation l) {
    const PresumedLoc p = sm_.getPresumedLoc(sm_.getExpansionLoc(l));
    return std::string(llvm::sys::path::filename(p.getFilename())) + ":" + std::to_string(p.getLine());
  }
  std::string lineDirective(SourceLocation l) {
    const PresumedLoc p = sm_.getPresumedLoc(sm_.getExpansionLoc(l));
    std::string esc;
    for (char c : std::string(p.getFilename())) {
      if (c == '"' || c == '\\') esc += '\\';
      esc += c;
    }
    return "\n#line " + std::to_string(p.getLine()) + " \"" + esc + "\"\n";
  }
  unsigned stmtEnd(const Stmt* s, FileID fid) {
    unsigned e = endOfToken(s->getEndLoc());
    const char* buf = sm_.getBufferData(fid).data();
    unsigned k = e;
    while (buf[k] == ' ' || buf[k] == '\t' || buf[k] == '\n' || buf[k] == '\r') ++k;
    return buf[k] == ';' ? k + 1 : e;
  }
  static const Expr* strip(const Expr* e) { return e->IgnoreParenImpCasts(); }
  const Stmt* parentOf(const Stmt* s) {
    auto ps = ctx_.getParents(*s);
    return ps.empty() ? nullptr : ps[0].get<Stmt>();
  }

  // The argument is the tiled_index `tiled` itself (by value: a copy construction around it).
  static bool isTiled(const Expr* a, const ValueDecl* tiled) {
    const Expr* e = a->IgnoreParenImpCasts();
    if (const auto* m = dyn_cast<MaterializeTemporaryExpr>(e)) e = m->getSubExpr()->IgnoreParenImpCasts();
    if (const auto* ce = dyn_cast<CXXConstructExpr>(e); ce && ce->getNumArgs() == 1)
      e = ce->getArg(0)->IgnoreParenImpCasts();
    const auto* dr = dyn_cast<DeclRefExpr>(e);
    return dr && dr->getDecl() == tiled;
  }

  // f waits on the barrier of its parameter `p` (a tiled_index): a
  // `p.barrier.wait*()` in its body, or p handed to a function that does.
  bool waits(const FunctionDecl* f, const ParmVarDecl* p, int depth) {
    const FunctionDecl* def = nullptr;
    if (depth > 8 || !f->hasBody(def) || !def->getBody()) return false;
    struct V : RecursiveASTVisitor<V> {
      Inliner& in;
      const ParmVarDecl* p;
      int depth;
      bool found = false;
      V(Inliner& i, const ParmVarDecl* pp, int d) : in(i), p(pp), depth(d) {}
      bool VisitCXXMemberCallExpr(CXXMemberCallExpr* c) {
        const CXXMethodDecl* m = c->getMethodDecl();
        if (m && m->getParent() && m->getParent()->getName() == "tile_barrier" && m->getName().starts_with("wait"))
          if (const auto* me = dyn_cast<MemberExpr>(strip(c->getImplicitObjectArgument())))
            if (const auto* dr = dyn_cast<DeclRefExpr>(strip(me->getBase())); dr && dr->getDecl() == p) found = true;
        return true;
      }
      bool VisitCallExpr(CallExpr* c) {
        const FunctionDecl* g = c->getDirectCallee();
        if (!g || isa<CXXMethodDecl>(g)) return true;
        for (unsigned i = 0; i < c->getNumArgs() && i < g->getNumParams(); ++i)
          if (isTiled(c->getArg(i), p) && in.waits(g, g->getParamDecl(i), depth + 1)) found = true;
        return true;
      }
    } v(*this, p, depth);
    // The parameter of the definition (p may be a declaration's).
    const unsigned idx = p->getFunctionScopeIndex();
    if (idx >= def->getNumParams()) return false;
    v.p = def->getParamDecl(idx);
    v.TraverseStmt(def->getBody());
    return v.found;
  }

  // The calls under s that hand `tiled` to a function that waits on it,
  // in source order (those inside another such call's arguments included).
  void waitingCalls(const Stmt* s, const ValueDecl* tiled, std::vector<const CallExpr*>& out) {
    if (!s) return;
    if (const auto* c = dyn_cast<CallExpr>(s))
      if (const FunctionDecl* g = c->getDirectCallee(); g && !isa<CXXOperatorCallExpr>(c))
        for (unsigned i = 0; i < c->getNumArgs() && i < g->getNumParams(); ++i)
          if (isTiled(c->getArg(i), tiled)) {
            if (isa<CXXMemberCallExpr>(c) || isa<CXXMethodDecl>(g)) {
              if (g->hasBody() && waitsAnyTiled(g))
                throw Refused{"a barrier in a called member function (" + where(c->getBeginLoc()) +
                              "): not inlined (its members and `this` would bind differently)"};
              continue;
            }
            if (waits(g, g->getParamDecl(i), 0)) {
              out.push_back(c);
              break;
            }
          }
    for (const Stmt* c : s->children()) waitingCalls(c, tiled, out);
  }
  bool waitsAnyTiled(const FunctionDecl* g) {
    for (const ParmVarDecl* q : g->parameters())
      if (isAmpClass(q->getType(), "tiled_index") && waits(g, q, 0)) return true;
    return false;
  }

  // The declaration `T v = f(...);` (one variable, in a block) whose
  // initialiser is the waiting call c, f returning a scalar; else null.
  const DeclStmt* initialisedBy(const CallExpr* c) {
    const FunctionDecl* f = c->getDirectCallee();
    if (!f || !f->getReturnType()->isScalarType() || f->getReturnType()->isReferenceType()) return nullptr;
    DynTypedNode n = DynTypedNode::create(*static_cast<const Stmt*>(c));
    for (int guard = 0; guard < 8; ++guard) {
      auto ps = ctx_.getParents(n);
      if (ps.empty()) return nullptr;
      n = ps[0];
      if (const auto* vd = n.get<VarDecl>()) {
        if (!vd->getInit() || vd->getInit()->IgnoreImplicit() != c || vd->getInitStyle() != VarDecl::CInit) return nullptr;
        auto dp = ctx_.getParents(*vd);
        const auto* ds = dp.empty() ? nullptr : dp[0].get<DeclStmt>();
        if (!ds || !ds->isSingleDecl() || !ds->getBeginLoc().isFileID() || !ds->getEndLoc().isFileID()) return nullptr;
        const Stmt* blk = parentOf(ds);
        return blk && isa<CompoundStmt>(blk) ? ds : nullptr;
      }
      const Stmt* q = n.get<Stmt>();
      if (!q || !(isa<ImplicitCastExpr>(q) || isa<ExprWithCleanups>(q) || isa<ParenExpr>(q))) return nullptr;
    }
    return nullptr;
  }

  // The statement `v = f(...);` (in a block) whose right-hand side is the
  // waiting call c, f returning a scalar or a class with a default
  // constructor; else null.
  const Stmt* assignedBy(const CallExpr* c) {
    const FunctionDecl* f = c->getDirectCallee();
    if (!f || f->getReturnType()->isReferenceType() || !returnsStorable(f)) return nullptr;
    const Stmt* n = c;
    for (int guard = 0; guard < 8; ++guard) {
      const Stmt* p = parentOf(n);
      if (!p) return nullptr;
      const Expr* rhs = nullptr;
      if (const auto* b = dyn_cast<BinaryOperator>(p); b && b->getOpcode() == BO_Assign) rhs = b->getRHS();
      if (const auto* oc = dyn_cast<CXXOperatorCallExpr>(p); oc && oc->getOperator() == OO_Equal && oc->getNumArgs() == 2)
        rhs = oc->getArg(1);
      if (rhs) {
        if (rhs != n) return nullptr;
        const Stmt* st = p;
        const Stmt* q = parentOf(st);
        if (const auto* ewc = dyn_cast_or_null<ExprWithCleanups>(q)) st = ewc, q = parentOf(ewc);
        return q && isa<CompoundStmt>(q) && st->getBeginLoc().isFileID() ? st : nullptr;
      }
      if (!(isa<ImplicitCastExpr>(p) || isa<ParenExpr>(p) || isa<MaterializeTemporaryExpr>(p) ||
            isa<CXXBindTemporaryExpr>(p) || isa<ExprWithCleanups>(p) ||
            (isa<CXXConstructExpr>(p) && cast<CXXConstructExpr>(p)->getNumArgs() == 1)))
        return nullptr;
      n = p;
    }
    return nullptr;
  }
  // A class value the inlined block can declare first and assign later.
  bool returnsStorable(const FunctionDecl* f) {
    const QualType t = f->getReturnType();
    if (t->isScalarType()) return true;
    const CXXRecordDecl* rd = t->getAsCXXRecordDecl();
    return rd && rd->hasDefaultConstructor() && !rd->isLambda() && !rd->isLocalClass();
  }

  // The statement a waiting call is: a call statement (in a block, or the
  // body or branch of a statement), nothing inside an expression.
  const Stmt* statementOf(const CallExpr* c) {
    const Stmt* s = c;
    const Stmt* p = parentOf(s);
    if (const auto* ewc = dyn_cast_or_null<ExprWithCleanups>(p)) s = ewc, p = parentOf(ewc);
    bool ok = false;
    if (p && isa<CompoundStmt>(p)) ok = true;
    if (const auto* i = dyn_cast_or_null<IfStmt>(p)) ok = i->getThen() == s || i->getElse() == s;
    if (const auto* f = dyn_cast_or_null<ForStmt>(p)) ok = f->getBody() == s;
    if (const auto* w = dyn_cast_or_null<WhileStmt>(p)) ok = w->getBody() == s;
    if (const auto* d = dyn_cast_or_null<DoStmt>(p)) ok = d->getBody() == s;
    if (const auto* sc = dyn_cast_or_null<SwitchCase>(p)) ok = sc->getSubStmt() == s;
    if (!ok)
      throw Refused{"a call to a function that waits on the barrier inside an expression (" + where(c->getBeginLoc()) +
                    "): only call statements are inlined"};
    if (!s->getBeginLoc().isFileID() || !s->getEndLoc().isFileID())
      throw Refused{"a call to a function that waits on the barrier written through a macro (" +
                    where(c->getBeginLoc()) + ")"};
    return s;
  }

  // A type as both parses name it from anywhere (non-dependent kernels).
  std::string typeName(QualType t) { return spelledType(t, lo_); }

  // The names in callee f's body (f an instantiation, its text the
  // pattern's) that are declared in a namespace not enclosing the kernel's
  // (kns), other than std and Concurrency, and written without a qualifier:
  // each gets its namespace written before it (`unpack_byte` ->
  // `::lib::_details::unpack_byte`), so that the inlined text means the same
  // where the kernel is. The entity is the one the callee's own lookup (and
  // overload resolution) chose; a qualified lookup in its namespace finds
  // it again, and dropping the candidates argument-dependent lookup added
  // cannot change a winner. A hidden friend (found only by that lookup) or
  // a name spelled by a macro is refused: `why` says which.
  std::vector<TextEdit> qualifyForeignNames(const FunctionDecl* f, const DeclContext* kns, std::string& why) {
    struct V : RecursiveASTVisitor<V> {
      Inliner& in;
      const DeclContext* kns;
      std::vector<TextEdit> edits;
      std::set<unsigned> seen;
      std::string why;
      V(Inliner& i, const DeclContext* k) : in(i), kns(k) {}
      // "::a::b::" for a namespace member outside the kernel's namespaces;
      // "" for any other declaration.
      std::string qualifier(const Decl* d) {
        const DeclContext* dc = d->getDeclContext();
        if (!dc->isFileContext()) return ""; // members, locals, parameters
        const DeclContext* ns = dc->getEnclosingNamespaceContext();
        if (ns->Equals(kns) || ns->Encloses(kns) || ns->isStdNamespace()) return "";
        std::vector<std::string> parts;
        for (const DeclContext* p = ns; p; p = p->getParent())
          if (const auto* n = dyn_cast<NamespaceDecl>(p)) {
            if (n->getName() == "std" || n->getName() == "Concurrency") return "";
            if (!n->isAnonymousNamespace() && !n->isInline()) parts.push_back(n->getNameAsString());
          }
        std::string q = "::";
        for (auto it = parts.rbegin(); it != parts.rend(); ++it) q += *it + "::";
        return q;
      }
      bool qualified(SourceLocation l) {
        const llvm::StringRef buf = in.sm_.getBufferData(in.sm_.getFileID(l));
        unsigned o = in.sm_.getFileOffset(l);
        while (o > 0 && (buf[o - 1] == ' ' || buf[o - 1] == '\t')) --o;
        return o >= 2 && buf.substr(o - 2, 2) == "::";
      }
      void name(const NamedDecl* d, SourceLocation l) {
        if (!why.empty() || !d) return;
        const std::string q = qualifier(d);
        if (q.empty()) return;
        if (!l.isFileID()) {
          why = "names `" + d->getNameAsString() + "` of another namespace through a macro";
          return;
        }
        if (qualified(l)) return;
        if (d->getFriendObjectKind() != Decl::FOK_None) {
          why = "calls `" + d->getNameAsString() + "`, a friend found only by argument-dependent lookup";
          return;
        }
        if (seen.insert(in.off(l)).second) edits.push_back({in.off(l), in.off(l), q});
      }
      bool VisitDeclRefExpr(DeclRefExpr* r) {
        if (!r->getQualifier()) name(r->getDecl(), r->getLocation());
        return why.empty();
      }
      // `_details::f`: the qualifier's first name is looked up like any
      // other (a namespace or a type; types are seen by VisitTypeLoc).
      bool TraverseNestedNameSpecifierLoc(NestedNameSpecifierLoc q) {
        if (q && q.getNestedNameSpecifier().getKind() == NestedNameSpecifier::Kind::Namespace) {
          auto [ns, prefix] = q.castAsNamespaceAndPrefix();
          if (!prefix) name(ns, q.getLocalBeginLoc());
        }
        return RecursiveASTVisitor<V>::TraverseNestedNameSpecifierLoc(q);
      }
      bool VisitTypeLoc(TypeLoc tl) {
        // The name's own location: a type's begin is its qualifier's
        // (`ns::min<int>` begins at `ns`).
        if (auto t = tl.getAs<TagTypeLoc>()) name(t.getDecl(), t.getNameLoc());
        else if (auto t = tl.getAs<TypedefTypeLoc>()) name(t.getDecl(), t.getNameLoc());
        else if (auto t = tl.getAs<TemplateSpecializationTypeLoc>())
          name(t.getTypePtr()->getTemplateName().getAsTemplateDecl(), t.getTemplateNameLoc());
        return why.empty();
      }
    } v(*this, kns);
    v.TraverseStmt(const_cast<Stmt*>(f->getBody()));
    why = v.why;
    return v.edits;
  }

  // ---- deduced template arguments spelled from the kernel template's text
  // A kernel in a template calls `f(args)` and f's template arguments are
  // deduced: the alias the inlined block declares must name them in the
  // template's own terms (`result_type`, `plus<T>`, `tile_size`), so that
  // every instantiation gets one text. The call as the template's pattern
  // writes it gives the arguments' types as written; f's parameter types are
  // matched against them the way deduction does (references, decay and
  // top-level cv of by-value parameters, pointers, class template
  // arguments). "" when nothing deduces the parameter this way.

  // Whether the last deduced text names a template's parameters.
  bool deducedDependent_ = false;
  // The patterns (template texts) of the callees being inlined, innermost
  // last: a nested call's deduced arguments are read from its caller's.
  std::vector<const FunctionDecl*> patterns_;

  // The call in the template text around it (the kernel's enclosing
  // template, or for a nested call its caller's pattern) written where
  // `call` is; null when that text is no template's.
  const CallExpr* patternCall(const CallExpr* call, int depth) {
    const FunctionDecl* pat = nullptr;
    if (depth == 0) {
      const FunctionDecl* fn = nullptr;
      for (const DeclContext* dc = lambda_->getLambdaClass()->getDeclContext(); dc && !fn; dc = dc->getParent())
        fn = dyn_cast<FunctionDecl>(dc);
      pat = fn ? fn->getTemplateInstantiationPattern() : nullptr;
    } else if (!patterns_.empty()) {
      pat = patterns_.back();
    }
    if (!pat || !pat->getBody()) return nullptr;
    struct F : RecursiveASTVisitor<F> {
      SourceLocation at;
      unsigned n = 0;
      const CallExpr* found = nullptr;
      bool VisitCallExpr(CallExpr* c) {
        if (!found && c->getBeginLoc() == at && c->getNumArgs() == n) found = c;
        return !found;
      }
    } v;
    v.at = call->getBeginLoc();
    v.n = call->getNumArgs();
    v.TraverseStmt(pat->getBody());
    return v.found;
  }

  // The type names the kernel's text can use, with their types in this
  // instantiation: the type template parameters of the functions and classes
  // around it, and the typedefs and aliases declared in those functions
  // before the kernel. For a deduced argument whose expression's type the
  // template's text does not give (`&x - k` in a template is dependent).
  // Another instantiation may name another: the texts must then agree.
  std::vector<std::pair<QualType, std::string>> kernelScopeTypes() {
    std::vector<std::pair<QualType, std::string>> out;
    const SourceLocation at = lambda_->getBeginLoc();
    for (const DeclContext* dc = lambda_->getLambdaClass()->getDeclContext(); dc; dc = dc->getParent())
      if (const auto* fd = dyn_cast<FunctionDecl>(dc))
        for (const Decl* d : fd->decls())
          if (const auto* td = dyn_cast<TypedefNameDecl>(d); td && sm_.isBeforeInTranslationUnit(td->getLocation(), at))
            out.push_back({td->getUnderlyingType(), td->getNameAsString()});
    for (const auto& [param, arg] : enclosingTemplateArgs())
      if (isa<TemplateTypeParmDecl>(param) && arg.getKind() == TemplateArgument::Type)
        out.push_back({arg.getAsType(), param->getNameAsString()});
    return out;
  }

  // The integer template parameters of the functions and classes around the
  // kernel, with their values in this instantiation.
  std::vector<std::pair<llvm::APSInt, std::string>> kernelScopeValues() {
    std::vector<std::pair<llvm::APSInt, std::string>> out;
    for (const auto& [param, arg] : enclosingTemplateArgs())
      if (isa<NonTypeTemplateParmDecl>(param) && arg.getKind() == TemplateArgument::Integral)
        out.push_back({arg.getAsIntegral(), param->getNameAsString()});
    return out;
  }

  // The named template parameters of the functions and classes around the
  // kernel, innermost first, with their arguments in this instantiation.
  std::vector<std::pair<const NamedDecl*, TemplateArgument>> enclosingTemplateArgs() {
    std::vector<std::pair<const NamedDecl*, TemplateArgument>> out;
    for (const DeclContext* dc = lambda_->getLambdaClass()->getDeclContext(); dc; dc = dc->getParent()) {
      const TemplateArgumentList* args = nullptr;
      const TemplateParameterList* params = nullptr;
      if (const auto* fd = dyn_cast<FunctionDecl>(dc)) {
        if (const FunctionTemplateDecl* ft = fd->getPrimaryTemplate())
          args = fd->getTemplateSpecializationArgs(), params = ft->getTemplateParameters();
      } else if (const auto* cs = dyn_cast<ClassTemplateSpecializationDecl>(dc)) {
        args = &cs->getTemplateArgs();
        params = cs->getSpecializedTemplate()->getTemplateParameters();
      }
      if (args && params && args->size() == params->size())
        for (unsigned i = 0; i < params->size(); ++i)
          if (!params->getParam(i)->getName().empty()) out.push_back({params->getParam(i), args->get(i)});
    }
    return out;
  }

  static std::pair<unsigned, unsigned> depthIndex(const NamedDecl* tp) {
    if (const auto* t = dyn_cast<TemplateTypeParmDecl>(tp)) return {t->getDepth(), t->getIndex()};
    const auto* n = cast<NonTypeTemplateParmDecl>(tp);
    return {n->getDepth(), n->getIndex()};
  }

  // `a` desugared a step at a time until its own node is a T (the sugar
  // inside it kept: `result_type *` stays a pointer to `result_type`).
  template <class T> const T* shapeOf(QualType a) {
    for (int i = 0; i < 32; ++i) {
      if (const auto* t = dyn_cast<T>(a.getTypePtr())) return t;
      const QualType n = a.getSingleStepDesugaredType(ctx_);
      if (n == a) return nullptr;
      a = n;
    }
    return nullptr;
  }

  std::string asWritten(QualType t) {
    PrintingPolicy pp(lo_);
    pp.SuppressUnwrittenScope = true;
    return t.getAsString(pp);
  }
  std::string asWritten(const TemplateArgument& a) {
    PrintingPolicy pp(lo_);
    pp.SuppressUnwrittenScope = true;
    std::string s;
    llvm::raw_string_ostream os(s);
    a.print(pp, os, /*IncludeType=*/false);
    return s;
  }

  // The template arguments of class type `a` (as written where it has them).
  std::optional<ArrayRef<TemplateArgument>> classArgs(QualType a, const TemplateDecl* of) {
    if (const auto* s = shapeOf<TemplateSpecializationType>(a)) {
      const TemplateDecl* d = s->getTemplateName().getAsTemplateDecl();
      if (d && of && d->getCanonicalDecl() == of->getCanonicalDecl()) return s->template_arguments();
      return std::nullopt;
    }
    if (const auto* cs = dyn_cast_or_null<ClassTemplateSpecializationDecl>(a->getAsCXXRecordDecl()))
      if (of && cs->getSpecializedTemplate()->getCanonicalDecl() == of->getCanonicalDecl())
        return cs->getTemplateArgs().asArray();
    return std::nullopt;
  }

  // Parameter tp deduced from parameter type p against argument type a.
  std::string deduceFrom(QualType p, QualType a, const NamedDecl* tp, int level) {
    if (level > 8 || p.isNull() || a.isNull()) return "";
    const QualType pc = p.getCanonicalType();
    if (const auto* t = dyn_cast<TemplateTypeParmType>(pc.getTypePtr())) {
      if (!isa<TemplateTypeParmDecl>(tp) || std::make_pair(t->getDepth(), t->getIndex()) != depthIndex(tp)) return "";
      // `const T` against `const X`: T is X.
      Qualifiers q = a.getLocalQualifiers();
      q.removeCVRQualifiers(pc.getCVRQualifiers());
      const QualType r = ctx_.getQualifiedType(a.getLocalUnqualifiedType(), q);
      deducedDependent_ = r->isInstantiationDependentType();
      return asWritten(r);
    }
    if (const auto* pp = dyn_cast<PointerType>(pc.getTypePtr())) {
      const auto* ap = shapeOf<PointerType>(a);
      return ap ? deduceFrom(pp->getPointeeType(), ap->getPointeeType(), tp, level + 1) : "";
    }
    if (const auto* ps = dyn_cast<TemplateSpecializationType>(pc.getTypePtr())) {
      // Arguments as written may omit defaulted ones (`tiled_index<TS>`
      // against the canonical three): the leading ones correspond.
      const auto args = classArgs(a, ps->getTemplateName().getAsTemplateDecl());
      if (!args) return "";
      for (size_t i = 0; i < args->size() && i < ps->template_arguments().size(); ++i) {
        const TemplateArgument& pa = ps->template_arguments()[i];
        const TemplateArgument& aa = (*args)[i];
        if (pa.getKind() == TemplateArgument::Type && aa.getKind() == TemplateArgument::Type) {
          if (std::string r = deduceFrom(pa.getAsType(), aa.getAsType(), tp, level + 1); !r.empty()) return r;
        } else if (pa.getKind() == TemplateArgument::Expression && isa<NonTypeTemplateParmDecl>(tp)) {
          const auto* r = dyn_cast<DeclRefExpr>(pa.getAsExpr()->IgnoreParenImpCasts());
          const auto* np = r ? dyn_cast<NonTypeTemplateParmDecl>(r->getDecl()) : nullptr;
          if (np && depthIndex(np) == depthIndex(tp) &&
              (aa.getKind() == TemplateArgument::Expression || aa.getKind() == TemplateArgument::Integral)) {
            deducedDependent_ = aa.isInstantiationDependent();
            return asWritten(aa);
          }
        }
      }
    }
    return "";
  }

  // Callee template parameter tp of `pattern` (the callee's text), deduced
  // from the arguments of pcall (the kernel template's call).
  std::string deducedAsWritten(const NamedDecl* tp, const FunctionDecl* pattern, const CallExpr* pcall) {
    for (unsigned j = 0; j < pattern->getNumParams() && j < pcall->getNumArgs(); ++j) {
      QualType p = pattern->getParamDecl(j)->getType();
      const Expr* ae = pcall->getArg(j)->IgnoreUnlessSpelledInSource();
      QualType a = ae->getType();
      if (a.isNull() || a->isDependentType() && isa<BuiltinType>(a.getCanonicalType().getTypePtr())) continue;
      if (const auto* r = p->getAs<ReferenceType>()) {
        const QualType pointee = r->getPointeeType();
        // A forwarding reference: T is X& for an lvalue.
        if (isa<RValueReferenceType>(p.getCanonicalType().getTypePtr()) && !pointee.hasQualifiers() &&
            isa<TemplateTypeParmType>(pointee.getCanonicalType().getTypePtr()) && ae->isLValue()) {
          if (std::string t = deduceFrom(pointee, a, tp, 0); !t.empty()) return t + "&";
          continue;
        }
        p = pointee;
      } else {
        if (a->isArrayType()) a = ctx_.getArrayDecayedType(a);
        else if (a->isFunctionType()) a = ctx_.getPointerType(a);
        a = a.getLocalUnqualifiedType();
      }
      if (std::string t = deduceFrom(p, a, tp, 0); !t.empty()) return t;
    }
    return "";
  }

  bool calleeFileOk(SourceLocation l) {
    if (sm_.isWrittenInMainFile(l)) return true;
    OptionalFileEntryRef fe = sm_.getFileEntryRefForID(sm_.getFileID(sm_.getExpansionLoc(l)));
    return fe && headers_.count(fe->getFileEntry().tryGetRealPathName().str());
  }

  // The text replacing call statement `st` (a call to f, written in file
  // cfid with the caller's edits cedits, `tiled` the caller's tiled_index):
  //   {/*amp_ht_call*/ template aliases; parameter bindings;
  //     { the callee's body, its parameters renamed, nested calls inlined } }
  // keys: the binding keys of the call (checked in the second pass).
  std::string inlineCall(const CallExpr* call, const Stmt* st, FileID cfid, const std::vector<TextEdit>& cedits,
                         const ValueDecl* tiled, int depth, bool spelled,
                         const std::vector<std::pair<QualType, std::string>>& outer, std::string& keys,
                         const std::string& result = "", std::string* resultType = nullptr) {
    const FunctionDecl* f = call->getDirectCallee();
    const std::string fname = "`" + f->getNameAsString() + "`";
    const std::string at = " (" + where(call->getBeginLoc()) + ")";
    if (depth > 8) throw Refused{"calls that wait on the barrier nested more than 8 deep" + at};
    const FunctionDecl* def = nullptr;
    if (!f->hasBody(def) || !def->getBody()) throw Refused{"the body of " + fname + " is not visible" + at};
    f = def;
    if (f->isVariadic()) throw Refused{fname + " is variadic" + at};
    // A callee that returns a value is inlined where the call is a statement
    // of its own (the value discarded: statementOf refuses calls inside
    // expressions) and its only `return` is its last statement, whose value
    // has no side effects (dropped with it, below).
    const bool valued = !f->getReturnType()->isVoidType();
    if (!f->getLexicalDeclContext()->isFileContext())
      throw Refused{fname + " is defined inside a class" + at};
    const FunctionDecl* pattern = f->getTemplateInstantiationPattern();
    if (!pattern) pattern = f;
    const auto* body = dyn_cast<CompoundStmt>(f->getBody());
    const auto* pbody = dyn_cast_or_null<CompoundStmt>(pattern->getBody());
    if (!body || !pbody || !pbody->getLBracLoc().isFileID() || !pbody->getRBracLoc().isFileID())
      throw Refused{"the body of " + fname + " is written through a macro" + at};
    if (!calleeFileOk(pbody->getLBracLoc()))
      throw Refused{fname + " is defined outside the main file and the project's headers" + at};
    if (!sm_.isBeforeInTranslationUnit(pbody->getRBracLoc(), lambda_->getBeginLoc()))
      throw Refused{fname + " is defined after the kernel" + at};
    // Names the callee's text uses unqualified are looked up from the
    // kernel: only where the kernel's scope sees all the callee's scope sees
    // (the callee's namespace is the kernel's or encloses it). The second
    // pass checks each name for shadowing by the kernel's own.
    // A callee in another namespace (a library's `_details`) is inlined
    // when every name of its own namespace it uses is written qualified, so
    // that its text means the same where the kernel is.
    const FileID ffid = sm_.getFileID(pbody->getLBracLoc());
    std::vector<TextEdit> edits; // on the callee's text
    const DeclContext* kns = lambda_->getLambdaClass()->getDeclContext()->getEnclosingNamespaceContext();
    const DeclContext* fns = f->getDeclContext()->getEnclosingNamespaceContext();
    if (!fns->Equals(kns) && !fns->Encloses(kns)) {
      std::string why;
      edits = qualifyForeignNames(f, kns, why);
      if (!why.empty()) throw Refused{fname + " is in another namespace than the kernel and " + why + at};
    }
    const int id = ids_++;
    ++calls;
    ++sites_[f];
    std::string head;            // aliases and bindings
    std::map<const NamedDecl*, std::string> argText; // a type template parameter's argument, as the alias names it
    std::vector<std::pair<QualType, std::string>> aliases; // this call's type aliases (for nested calls)
    keys += "CALL(";

    // Template arguments: aliases `using amp_ht_t<id>_<i> = ARG;` (or a
    // constexpr variable for a non-type one), every use of the template
    // parameter in the callee's text renamed.
    if (const FunctionTemplateDecl* ft = f->getPrimaryTemplate()) {
      const TemplateParameterList* tpl = ft->getTemplateParameters();
      const TemplateArgumentList* args = f->getTemplateSpecializationArgs();
      const auto* ref = dyn_cast<DeclRefExpr>(strip(call->getCallee()));
      if (!args || args->size() != tpl->size()) throw Refused{"the template arguments of " + fname + " are not plain" + at};
      for (unsigned i = 0; i < tpl->size(); ++i) {
        const NamedDecl* tp = tpl->getParam(i);
        if (tp->isImplicit() || tp->isTemplateParameterPack() || isa<TemplateTemplateParmDecl>(tp))
          throw Refused{fname + " has a template parameter pack, template template or `auto` parameter" + at};
        std::string spelledText;
        const TemplateArgument& a = args->get(i);
        if (spelled) {
          // In a template the caller's own text must name the argument: as
          // written, or, deduced, as the caller's own template argument of
          // the same type (the caller an inlined template too; checked
          // across instantiations: the text must come out the same).
          if (ref && i < ref->getNumTemplateArgs()) {
            const SourceRange r = ref->template_arguments()[i].getSourceRange();
            if (!r.getBegin().isFileID() || !r.getEnd().isFileID())
              throw Refused{"a template argument of " + fname + " is written through a macro" + at};
            spelledText = editedText(sm_, cfid, off(r.getBegin()), endOfToken(r.getEnd()), cedits);
          } else if (const CallExpr* pc = patternCall(call, depth)) {
            // In a callee's text (depth > 0) only what names none of its
            // template parameters (they are renamed there): then the
            // argument is the same in every instantiation, and spelled in
            // full (the callee's own names may not be visible at the kernel).
            deducedDependent_ = false;
            spelledText = deducedAsWritten(tp, pattern, pc);
            if (depth > 0 && !spelledText.empty())
              spelledText = deducedDependent_ ? ""
                            : a.getKind() == TemplateArgument::Type ? typeName(a.getAsType())
                            : a.getKind() == TemplateArgument::Integral ? toString(a.getAsIntegral(), 10) : "";
          }
          if (spelledText.empty() && a.getKind() == TemplateArgument::Type && !(ref && i < ref->getNumTemplateArgs())) {
            for (const auto& [t, name] : depth == 0 ? kernelScopeTypes() : outer)
              if (spelledText.empty() && ctx_.hasSameType(t, a.getAsType())) spelledText = name;
          }
          // A deduced integer (the tile size from `tiled_index<tile_size>`):
          // the enclosing template's parameter of that value, by name.
          if (spelledText.empty() && depth == 0 && a.getKind() == TemplateArgument::Integral &&
              !(ref && i < ref->getNumTemplateArgs()))
            for (const auto& [v, name] : kernelScopeValues())
              if (spelledText.empty() && llvm::APSInt::isSameValue(v, a.getAsIntegral())) spelledText = name;
          if (spelledText.empty())
            throw Refused{"the template arguments of " + fname + " are deduced inside a kernel template" + at};
        }
        const std::string alias = "amp_ht_t" + std::to_string(id) + "_" + std::to_string(i);
        if (isa<TemplateTypeParmDecl>(tp)) {
          if (a.getKind() != TemplateArgument::Type) throw Refused{"an unexpected template argument" + at};
          head += "using " + alias + " = " + (spelled ? spelledText : typeName(a.getAsType())) + "; ";
          argText[tp] = spelled ? spelledText : typeName(a.getAsType());
          aliases.push_back({a.getAsType(), alias});
          keys += "A" + canon(a.getAsType()) + " ";
        } else {
          const auto* nt = cast<NonTypeTemplateParmDecl>(tp);
          if (a.getKind() != TemplateArgument::Integral || nt->getType()->isDependentType() ||
              !nt->getType()->isIntegralOrEnumerationType())
            throw Refused{fname + " has a non-type template parameter that is not an integer" + at};
          const std::string ty = typeName(a.getIntegralType());
          head += "constexpr " + ty + " " + alias + " = " +
                  (spelled ? spelledText : "static_cast<" + ty + ">(" + toString(a.getAsIntegral(), 10) + ")") + "; ";
          keys += "N" + canon(a.getIntegralType()) + "=" + toString(a.getAsIntegral(), 10) + " ";
        }
        // Uses of the parameter in the callee's text (its pattern).
        struct V : RecursiveASTVisitor<V> {
          const NamedDecl* tp;
          std::vector<SourceLocation> at;
          bool VisitTemplateTypeParmTypeLoc(TemplateTypeParmTypeLoc tl) {
            if (tl.getDecl() == tp) at.push_back(tl.getNameLoc());
            return true;
          }
          bool VisitDeclRefExpr(DeclRefExpr* r) {
            if (r->getDecl() == tp) at.push_back(r->getLocation());
            return true;
          }
        } v;
        v.tp = tp;
        v.TraverseDecl(const_cast<FunctionDecl*>(pattern));
        std::set<unsigned> seen;
        for (SourceLocation l : v.at) {
          if (!l.isFileID()) throw Refused{"a template parameter of " + fname + " is used inside a macro" + at};
          if (seen.insert(off(l)).second) edits.push_back({off(l), endOfToken(l), alias});
        }
      }
    }

    // Parameters: each bound to a fresh variable declared with the
    // parameter's own type text (references stay references, copies are
    // copy-initialised as the call did); the tiled_index parameter is the
    // caller's tiled_index itself. Arguments with side effects: one at most
    // (C++ leaves the order of evaluation of arguments unspecified).
    if (call->getNumArgs() != f->getNumParams()) throw Refused{"a call to " + fname + " with a parameter pack" + at};
    int effects = 0;
    std::map<const ParmVarDecl*, std::string> rename; // instance parameter -> new name
    std::map<const ValueDecl*, int> pindex;          // instance parameter -> binding number
    const ParmVarDecl* fTiled = nullptr;
    int nb = 0;
    for (unsigned i = 0; i < f->getNumParams(); ++i) {
      const ParmVarDecl* pv = f->getParamDecl(i);
      const ParmVarDecl* ppv = pattern->getParamDecl(i);
      const Expr* arg = call->getArg(i);
      // A default argument: only a literal (its text means the same
      // anywhere), spelled as the callee's declaration spells it.
      std::string argText;
      if (const auto* da = dyn_cast<CXXDefaultArgExpr>(arg)) {
        const Expr* lit = da->getExpr()->IgnoreImplicit();
        const Expr* written = ppv->hasDefaultArg() && !ppv->hasUninstantiatedDefaultArg() ? ppv->getDefaultArg() : nullptr;
        if (!(isa<IntegerLiteral>(lit) || isa<FloatingLiteral>(lit) || isa<CXXBoolLiteralExpr>(lit) ||
              isa<CharacterLiteral>(lit) || isa<CXXNullPtrLiteralExpr>(lit)) ||
            !written || !written->getBeginLoc().isFileID() || !written->getEndLoc().isFileID())
          throw Refused{"a default argument other than a literal in a call to " + fname + at};
        const FileID dfid = sm_.getFileID(written->getBeginLoc());
        argText = editedText(sm_, dfid, off(written->getBeginLoc()), endOfToken(written->getEndLoc()), {});
      }
      if (isAmpClass(pv->getType(), "tiled_index")) {
        if (!isTiled(arg, tiled)) throw Refused{"a tiled_index other than the kernel's passed to " + fname + at};
        if (!ctx_.hasSameUnqualifiedType(pv->getType().getNonReferenceType(), param_->getType().getNonReferenceType()))
          throw Refused{"the tiled_index parameter of " + fname + " has another type than the kernel's" + at};
        // By value, const or non-const reference alike (Microsoft's
        // BinomialOptions sample takes `tiled_index<N>&`): the inlined body
        // names the kernel's own parameter, whose uses pass 2 checks
        // (checkParamUses: members, barriers, never-waiting helpers).
        if (fTiled) throw Refused{fname + " takes the tiled_index twice" + at};
        fTiled = pv;
        rename[pv] = param_->getNameAsString();
        continue;
      }
      // A copy of a variable (a view, an index) counts as no effect: only
      // its constructor runs, whose order changes no value.
      const Expr* ae = arg->IgnoreImplicit();
      if (const auto* ce = dyn_cast<CXXConstructExpr>(ae); ce && ce->getNumArgs() == 1 && ce->getConstructor() &&
          (ce->getConstructor()->isCopyConstructor() || ce->getConstructor()->isMoveConstructor()) &&
          isa<DeclRefExpr>(ce->getArg(0)->IgnoreImplicit()))
        ae = ce->getArg(0)->IgnoreImplicit();
      if (ae->HasSideEffects(ctx_)) ++effects;
      if (ppv->getName().empty()) throw Refused{fname + " has an unnamed parameter" + at};
      if (ppv->isParameterPack()) throw Refused{fname + " has a parameter pack" + at};
      const TypeSourceInfo* tsi = ppv->getTypeSourceInfo();
      // `unsigned int sortData[4]` (a pointer, as C++ adjusts it): bound as
      // `unsigned int * name`, its element type's text before the name.
      TypeLoc ptl = tsi ? tsi->getTypeLoc() : TypeLoc();
      if (auto dl = ptl.getAs<DecayedTypeLoc>()) ptl = dl.getOriginalLoc();
      const auto arrayParam = ptl.getAs<ArrayTypeLoc>();
      const TypeLoc written = arrayParam ? arrayParam.getElementLoc() : ptl;
      // The type may be written through an object-like macro (Bolt's
      // `#define uint_4 Concurrency::graphics::uint_4`): its invocation's
      // text is copied, the macro still defined where the kernel is.
      auto inCallee = [&](SourceLocation l) { return sm_.getFileID(sm_.getExpansionLoc(l)) == ffid; };
      if (!tsi || !inCallee(ppv->getBeginLoc()) || !ppv->getLocation().isFileID() || !inCallee(written.getEndLoc()) ||
          off(written.getEndLoc()) >= off(ppv->getLocation()) ||
          (arrayParam && written.getAs<ArrayTypeLoc>()))
        throw Refused{"the parameter `" + ppv->getNameAsString() + "` of " + fname +
                      " is declared with a declarator around its name or through a macro" + at};
      if (argText.empty() && (!arg->getBeginLoc().isFileID() || !arg->getEndLoc().isFileID()))
        throw Refused{"an argument of the call to " + fname + " is written through a macro" + at};
      const std::string nn = "amp_ht_c" + std::to_string(id) + "_" + ppv->getNameAsString();
      rename[pv] = nn;
      pindex[pv] = nb++;
      // The type text, the template parameters in it renamed.
      std::vector<TextEdit> te;
      for (const TextEdit& e : edits)
        if (e.b >= off(ppv->getBeginLoc()) && e.e <= off(ppv->getLocation())) te.push_back(e);
      if (argText.empty()) argText = editedText(sm_, cfid, off(arg->getBeginLoc()), endOfToken(arg->getEndLoc()), cedits);
      head += (arrayParam ? editedText(sm_, ffid, off(ppv->getBeginLoc()), endOfToken(written.getEndLoc()), te) + " *"
                          : editedText(sm_, ffid, off(ppv->getBeginLoc()), off(ppv->getLocation()), te)) +
              " " + nn + " = " + argText + "; ";
      keys += "P" + canon(pv->getType()) + " ";
    }
    if (!fTiled) throw Refused{"internal: no tiled_index parameter in " + fname + at};
    if (effects > 1) throw Refused{"two or more arguments with side effects in a call to " + fname + at};

    // The body: parameter uses renamed, the final `return;` dropped, other
    // returns refused, nested waiting calls inlined.
    struct B : RecursiveASTVisitor<B> {
      Inliner& in;
      const FunctionDecl* f;
      std::map<const ParmVarDecl*, std::string>& rename;
      std::vector<TextEdit>& edits;
      const Stmt* last;
      std::string fname, at;
      B(Inliner& i, const FunctionDecl* ff, std::map<const ParmVarDecl*, std::string>& r, std::vector<TextEdit>& e)
          : in(i), f(ff), rename(r), edits(e) {}
      bool VisitDeclRefExpr(DeclRefExpr* r) {
        const auto* pv = dyn_cast<ParmVarDecl>(r->getDecl());
        if (!pv || !rename.count(pv)) return true;
        if (!r->getLocation().isFileID())
          throw Refused{"the parameter `" + pv->getNameAsString() + "` of " + fname + " is used inside a macro" + at};
        edits.push_back({in.off(r->getLocation()), in.endOfToken(r->getLocation()), rename[pv]});
        return true;
      }
      bool VisitReturnStmt(ReturnStmt* r) {
        if (r != last)
          throw Refused{"a `return` in " + fname + " before its end (" + in.where(r->getBeginLoc()) +
                        "): not inlined"};
        return true;
      }
      bool VisitVarDecl(VarDecl* v) {
        if (v->isStaticLocal()) {
          if (v->getTLSKind() == VarDecl::TLS_None && !v->getType().isConstQualified())
            throw Refused{fname + " has a `static` variable (" + in.where(v->getLocation()) + "): not inlined"};
          in.hasStatic_.insert(f);
        }
        return true;
      }
      bool VisitLambdaExpr(LambdaExpr* l) {
        throw Refused{"a lambda in " + fname + " (" + in.where(l->getBeginLoc()) + ")"};
      }
    } bv(*this, f, rename, edits);
    bv.last = body->body_empty() ? nullptr : body->body_back();
    if (bv.last && !isa<ReturnStmt>(bv.last)) bv.last = nullptr;
    if (!valued && !result.empty()) throw Refused{"internal: " + fname + " returns no value" + at};
    if (valued) {
      const auto* rs = dyn_cast_or_null<ReturnStmt>(bv.last);
      if (!rs || !rs->getRetValue())
        throw Refused{fname + " returns a value other than by a last `return`" + at};
      if (result.empty() && rs->getRetValue()->HasSideEffects(ctx_))
        throw Refused{fname + " returns a value with side effects, which the call discards" + at};
    }
    bv.fname = fname;
    bv.at = at;
    bv.TraverseStmt(const_cast<CompoundStmt*>(body));
    if (bv.last && result.empty()) edits.push_back({off(bv.last->getBeginLoc()), stmtEnd(bv.last, ffid), ""});
    const Expr* retValue = nullptr;
    if (!result.empty()) {
      const auto* rs = dyn_cast_or_null<ReturnStmt>(bv.last);
      if (!rs || !rs->getRetValue() || !resultType) throw Refused{"internal: no value to assign from " + fname + at};
      retValue = rs->getRetValue();
      // (Its first or last token may be an object-like macro's, `HB_PAIR(...)`:
      // the invocation's text is copied.)
      if (sm_.getFileID(sm_.getExpansionLoc(retValue->getBeginLoc())) != ffid ||
          sm_.getFileID(sm_.getExpansionLoc(retValue->getEndLoc())) != ffid ||
          (!retValue->getBeginLoc().isFileID() && !sm_.isAtStartOfImmediateMacroExpansion(retValue->getBeginLoc())) ||
          (!retValue->getEndLoc().isFileID() && !sm_.isAtEndOfImmediateMacroExpansion(retValue->getEndLoc())))
        throw Refused{"the value " + fname + " returns is written through a macro" + at};
      // The callee's return type as written, its template parameters named
      // by their arguments' text (the aliases are declared inside the block).
      const SourceRange rr = pattern->getReturnTypeSourceRange();
      if (rr.isInvalid() || sm_.getFileID(sm_.getExpansionLoc(rr.getBegin())) != ffid ||
          sm_.getFileID(sm_.getExpansionLoc(rr.getEnd())) != ffid)
        throw Refused{"the return type of " + fname + " is not written plainly" + at};
      struct R : RecursiveASTVisitor<R> {
        std::map<const NamedDecl*, std::string>& args;
        Inliner& in;
        std::vector<TextEdit> e;
        bool bad = false;
        R(std::map<const NamedDecl*, std::string>& a, Inliner& i) : args(a), in(i) {}
        bool VisitTemplateTypeParmTypeLoc(TemplateTypeParmTypeLoc tl) {
          auto it = args.find(tl.getDecl());
          if (it == args.end()) bad = true;
          else e.push_back({in.off(tl.getNameLoc()), in.endOfToken(tl.getNameLoc()), "::std::remove_cv_t<" + it->second + ">"});
          return true;
        }
      } rv(argText, *this);
      rv.TraverseTypeLoc(pattern->getFunctionTypeLoc().getReturnLoc());
      if (rv.bad) throw Refused{"the return type of " + fname + " names a template parameter it cannot spell" + at};
      *resultType = editedText(sm_, ffid, off(rr.getBegin()), endOfToken(rr.getEnd()), rv.e);
      if (resultType->find_first_of("&") != std::string::npos || resultType->find("auto") != std::string::npos)
        throw Refused{"the return type of " + fname + " is a reference or deduced" + at};
      edits.push_back({off(bv.last->getBeginLoc()), stmtEnd(bv.last, ffid),
                       result + " = (" +
                           editedText(sm_, ffid, off(retValue->getBeginLoc()), endOfToken(retValue->getEndLoc()), edits) +
                           ");"});
    }
    // Nested waiting calls (on the callee's tiled_index).
    std::vector<const CallExpr*> nested;
    waitingCalls(body, fTiled, nested);
    std::map<const Stmt*, std::string> nestedKeys;
    std::map<const Stmt*, const CallExpr*> nestedCall;
    std::set<const Stmt*> valuedNested;
    for (const CallExpr* c : nested) {
      // A call whose value initialises a declaration or is assigned
      // (`unsigned rank = scan(...);`, `prefixSum = localPrefixSum(...);`):
      // `RT amp_ht_rvN; {inlined; amp_ht_rvN = (E);} /*amp_ht_valued*/ STMT`,
      // STMT the statement with the call replaced by amp_ht_rvN.
      const Stmt* vs = initialisedBy(c);
      if (vs && !returnsStorable(c->getDirectCallee())) vs = nullptr;
      if (!vs) vs = assignedBy(c);
      const Stmt* s = vs ? vs : statementOf(c);
      nestedCall[s] = c;
      std::string k;
      // Template arguments of a nested call are spelled as written when the
      // callee's text is a template's, in a kernel that is a template too.
      struct Push {
        std::vector<const FunctionDecl*>& v;
        ~Push() { v.pop_back(); }
      } push{patterns_};
      patterns_.push_back(pattern);
      if (vs) {
        const std::string rv = "amp_ht_rv" + std::to_string(ids_);
        std::string rt;
        const std::string block =
            inlineCall(c, vs, ffid, edits, fTiled, depth + 1, dependent_ && pattern != f, aliases, k, rv, &rt);
        std::vector<TextEdit> se = edits;
        se.push_back({off(c->getBeginLoc()), endOfToken(c->getEndLoc()), rv});
        const std::string stmt = editedText(sm_, ffid, off(vs->getBeginLoc()), stmtEnd(vs, ffid), se);
        edits.push_back({off(vs->getBeginLoc()), stmtEnd(vs, ffid), rt + " " + rv + "; " + block + " /*amp_ht_valued*/ " + stmt});
        valuedNested.insert(vs);
      } else {
        const std::string text = inlineCall(c, s, ffid, edits, fTiled, depth + 1, dependent_ && pattern != f, aliases, k);
        edits.push_back({off(s->getBeginLoc()), stmtEnd(s, ffid), text});
      }
      nestedKeys[s] = k;
    }
    // The keys of the body, as the second pass will compute them on the
    // inlined block.
    // A nested call: the keys of its arguments (the callee's text, read
    // where the kernel is, like the rest of its body), then its own.
    std::function<std::string(const ValueDecl*)> nameFn = [&](const ValueDecl* d) -> std::string {
      if (d == fTiled) return "T";
      if (const auto* pv = dyn_cast<ParmVarDecl>(d); pv && pindex.count(pv)) return "P" + std::to_string(pindex[pv]);
      if (const auto* v = dyn_cast<VarDecl>(d); v && !isa<ParmVarDecl>(v) && v->getDeclContext() == f)
        return "L" + v->getNameAsString();
      return "";
    };
    std::function<bool(const Stmt*, std::string&)> callFn = [&](const Stmt* s, std::string& out) {
      if (s == bv.last) {
        if (retValue) {
          KeyWalker sub{sm_, nameFn, callFn, ""};
          sub.walk(retValue);
          out += "RET " + sub.out;
        }
        return true;
      }
      auto it = nestedKeys.find(s);
      if (it == nestedKeys.end()) return false;
      const CallExpr* c = nestedCall[s];
      const FunctionDecl* g = c->getDirectCallee();
      // A valued call: the second pass sees its declaration of amp_ht_rvN
      // (VALUED), its block, and the statement using the value, whose keys
      // are not compared (only its call's are).
      if (valuedNested.count(s)) out += "VALUED ";
      for (unsigned i = 0; i < c->getNumArgs() && i < g->getNumParams(); ++i) {
        if (isAmpClass(g->getParamDecl(i)->getType(), "tiled_index")) continue;
        KeyWalker sub{sm_, nameFn, callFn, ""};
        const Expr* a = c->getArg(i);
        if (const auto* da = dyn_cast<CXXDefaultArgExpr>(a)) a = da->getExpr(); // bound to its literal
        sub.walk(a);
        out += "ARG " + sub.out;
      }
      out += it->second;
      return true;
    };
    KeyWalker kw{sm_, nameFn, callFn, ""};
    kw.walk(body);
    keys += kw.out + ")";
    const std::string inner =
        editedText(sm_, ffid, off(pbody->getLBracLoc()) + 1, off(pbody->getRBracLoc()), edits);
    return "{/*amp_ht_call*/" + lineDirective(st->getBeginLoc()) + head + "{" + lineDirective(pbody->getLBracLoc()) +
           inner + "\n}" + lineDirective(st->getEndLoc()) + "}";
  }
};

// The second pass: the binding keys of the inlined calls of a kernel
// instance's INLINED block (each `{/*amp_ht_call*/ ...}` block), computed
// as Inliner computed them on the callees.
struct InlinedKeys {
  ASTContext& ctx;
  SourceManager& sm;
  const ParmVarDecl* param;
  bool isCall(const Stmt* s) {
    const auto* cs = dyn_cast<CompoundStmt>(s);
    if (!cs || !cs->getLBracLoc().isFileID()) return false;
    const llvm::StringRef buf = sm.getBufferData(sm.getFileID(cs->getLBracLoc()));
    const unsigned o = sm.getFileOffset(cs->getLBracLoc());
    return buf.substr(o + 1, 14) == "/*amp_ht_call*";
  }
  // Keys of one call block: its aliases and bindings, then its inner block.
  std::string call(const CompoundStmt* cs) {
    std::string k = "CALL(";
    std::map<const ValueDecl*, std::string> names;
    int nb = 0;
    const CompoundStmt* inner = nullptr;
    for (const Stmt* c : cs->body()) {
      if (const auto* ds = dyn_cast<DeclStmt>(c)) {
        for (const Decl* d : ds->decls()) {
          if (const auto* ta = dyn_cast<TypedefNameDecl>(d)) {
            k += "A" + canon(ta->getUnderlyingType()) + " ";
          } else if (const auto* v = dyn_cast<VarDecl>(d)) {
            const std::string n = v->getNameAsString();
            if (n.rfind("amp_ht_t", 0) == 0) {
              const APValue* val = const_cast<VarDecl*>(v)->evaluateValue();
              const size_t us = n.rfind('_');
              names[v] = "N" + n.substr(us + 1);
              k += "N" + canon(v->getType().getUnqualifiedType()) + "=" +
                   (val && val->isInt() ? toString(val->getInt(), 10) : std::string("?")) + " ";
            } else {
              names[v] = "P" + std::to_string(nb++);
              k += "P" + canon(v->getType()) + " ";
            }
          }
        }
      } else if (const auto* b = dyn_cast<CompoundStmt>(c)) {
        inner = b;
      }
    }
    if (!inner) return k + "?)";
    const unsigned ib = sm.getFileOffset(inner->getLBracLoc()), ie = sm.getFileOffset(inner->getRBracLoc());
    std::function<std::string(const ValueDecl*)> nameFn = [&](const ValueDecl* d) -> std::string {
      if (d == param) return "T";
      if (auto it = names.find(d); it != names.end()) return it->second;
      if (const auto* v = dyn_cast<VarDecl>(d); v && v->getLocation().isFileID()) {
        const unsigned o = sm.getFileOffset(v->getLocation());
        if (sm.getFileID(v->getLocation()) == sm.getFileID(inner->getLBracLoc()) && ib < o && o < ie &&
            v->isLocalVarDecl())
          return "L" + v->getNameAsString();
      }
      return "";
    };
    // A nested call block: its bindings' initialisers (the arguments, read
    // in this block's names), then its own keys.
    std::function<bool(const Stmt*, std::string&)> callFn = [&](const Stmt* s, std::string& out) {
      // The callee's last `return E;` assigned to the caller's variable
      // (`amp_ht_rvN = (E);`): E's keys, as the first pass took them.
      const Expr *lhs = nullptr, *rhs = nullptr;
      if (const auto* b = dyn_cast<BinaryOperator>(s); b && b->getOpcode() == BO_Assign) lhs = b->getLHS(), rhs = b->getRHS();
      if (const auto* oc = dyn_cast<CXXOperatorCallExpr>(s); oc && oc->getOperator() == OO_Equal && oc->getNumArgs() == 2)
        lhs = oc->getArg(0), rhs = oc->getArg(1); // a class value
      if (lhs)
        if (const auto* l = dyn_cast<DeclRefExpr>(lhs->IgnoreParenImpCasts());
            l && l->getDecl()->getName().starts_with("amp_ht_rv")) {
          KeyWalker sub{sm, nameFn, callFn, ""};
          sub.walk(rhs);
          out += "RET " + sub.out;
          return true;
        }
      // A valued call inside the block: `RT amp_ht_rvN;` (VALUED), its call
      // block (below), then `/*amp_ht_valued*/ STMT`, whose keys the first
      // pass does not take either.
      if (const auto* ds = dyn_cast<DeclStmt>(s); ds && ds->isSingleDecl())
        if (const auto* v = dyn_cast<VarDecl>(ds->getSingleDecl()); v && v->getName().starts_with("amp_ht_rv")) {
          out += "VALUED ";
          return true;
        }
      if (s->getBeginLoc().isFileID()) {
        const llvm::StringRef buf = sm.getBufferData(sm.getFileID(s->getBeginLoc()));
        const llvm::StringRef before = buf.substr(0, sm.getFileOffset(s->getBeginLoc())).rtrim();
        if (before.ends_with("/*amp_ht_valued*/")) return true;
      }
      if (!isCall(s)) return false;
      for (const Stmt* c : cast<CompoundStmt>(s)->body())
        if (const auto* ds = dyn_cast<DeclStmt>(c))
          for (const Decl* d : ds->decls())
            if (const auto* v = dyn_cast<VarDecl>(d); v && v->getNameAsString().rfind("amp_ht_t", 0) != 0) {
              KeyWalker sub{sm, nameFn, callFn, ""};
              sub.walk(v->getInit());
              out += "ARG " + sub.out;
            }
      out += call(cast<CompoundStmt>(s));
      return true;
    };
    KeyWalker kw{sm, nameFn, callFn, ""};
    kw.walk(inner);
    return k + kw.out + ")";
  }
  // Every outermost call block under s, in source order.
  void all(const Stmt* s, std::string& out) {
    if (!s) return;
    if (isCall(s)) {
      out += call(cast<CompoundStmt>(s));
      return;
    }
    for (const Stmt* c : s->children()) all(c, out);
  }
};

std::string quote(const std::string& s) {
  std::string o = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') o += '\\';
    o += c;
  }
  return o + "\"";
}

class Consumer : public ASTConsumer {
public:
  Consumer(CompilerInstance& ci, std::string out, bool report, std::set<std::string> headers, std::string overlay,
           int pass, bool inl, std::set<std::string> fibers)
      : ci_(ci), out_(std::move(out)), report_(report), headers_(std::move(headers)), overlay_(std::move(overlay)),
        pass_(pass), inline_(inl), fibers_(std::move(fibers)) {}

  void HandleTranslationUnit(ASTContext& ctx) override {
    SourceManager& sm = ctx.getSourceManager();
    Rewriter rw(sm, ctx.getLangOpts());
    if (ci_.getDiagnostics().hasErrorOccurred()) return; // the launcher compiles the original
    // Template instantiations too: a kernel in a template is analysed in
    // each instantiation (concrete types) and rewritten once, when every
    // instantiation gives the same text.
    struct V : RecursiveASTVisitor<V> {
      std::vector<LambdaExpr*> lambdas;
      bool shouldVisitTemplateInstantiations() const { return true; }
      bool VisitLambdaExpr(LambdaExpr* l) {
        lambdas.push_back(l);
        return true;
      }
    } v;
    v.TraverseDecl(ctx.getTranslationUnitDecl());
    std::vector<SourceLocation> order;
    std::map<SourceLocation, std::vector<LambdaExpr*>> groups;
    for (LambdaExpr* l : v.lambdas) {
      auto& g = groups[l->getBeginLoc()];
      if (g.empty()) order.push_back(l->getBeginLoc());
      g.push_back(l);
    }
    for (SourceLocation at : order) handle(ctx, rw, groups[at]);
    std::error_code ec;
    llvm::raw_fd_ostream os(out_, ec);
    if (ec) {
      llvm::errs() << "tile_compiler: cannot write " << out_ << ": " << ec.message() << "\n";
      return;
    }
    if (const llvm::RewriteBuffer* b = rw.getRewriteBufferFor(sm.getMainFileID()))
      b->write(os);
    else
      os << sm.getBufferData(sm.getMainFileID());
    // Project headers with a rewritten kernel: OVERLAY/<the header's path>,
    // naming the original (the launcher puts their folders first).
    for (auto& [path, fid] : headerFile_) {
      const llvm::RewriteBuffer* b = rw.getRewriteBufferFor(fid);
      if (!b) continue;
      const std::string dst = overlay_ + path;
      llvm::sys::fs::create_directories(llvm::sys::path::parent_path(dst));
      llvm::raw_fd_ostream hs(dst, ec);
      if (ec) {
        llvm::errs() << "tile_compiler: cannot write " << dst << ": " << ec.message() << "\n";
        continue;
      }
      hs << "#line 1 " << quote(path) << "\n";
      b->write(hs);
    }
  }

private:
  CompilerInstance& ci_;
  std::string out_;
  bool report_;
  std::set<std::string> headers_;            // project headers whose kernels may be rewritten (real paths)
  std::string overlay_;                      // where their rewritten copies go
  std::map<std::string, FileID> headerFile_; // such a header, as included (its first inclusion)
  int pass_ = 1;       // 2: the second parse, of the first's output (only the kernels it inlined calls into)
  bool inline_ = true; // the first pass inlines calls that wait on the barrier
  std::set<std::string> fibers_; // kernels (keyOf) the launcher takes back to fibers

  // May kernels at `at` (a file location) be rewritten: in the main file, or
  // in the first inclusion of a project header the launcher named.
  bool rewritable(SourceManager& sm, SourceLocation at) {
    if (sm.isWrittenInMainFile(at)) return true;
    if (overlay_.empty()) return false;
    const FileID fid = sm.getFileID(at);
    OptionalFileEntryRef fe = sm.getFileEntryRefForID(fid);
    if (!fe) return false;
    std::string path = fe->getFileEntry().tryGetRealPathName().str();
    // The second parse reads the first's copies of the headers (the script
    // puts the overlay first): a copy stands for its original.
    for (const std::string& o : {overlay_, overlayReal()})
      if (path.rfind(o + "/", 0) == 0) {
        path = path.substr(o.size());
        break;
      }
    if (!headers_.count(path)) {
      // The name Clang keeps may be the one it opened the file by (an -I
      // folder written `../shared/include`): the launcher lists real paths.
      llvm::SmallString<256> real;
      if (llvm::sys::fs::real_path(path, real) || !headers_.count(std::string(real))) return false;
      path = std::string(real);
    }
    auto it = headerFile_.emplace(path, fid).first;
    return it->second == fid;
  }

  std::string overlayReal() {
    llvm::SmallString<256> r;
    return llvm::sys::fs::real_path(overlay_, r) ? overlay_ : std::string(r);
  }

  // A barrier call, or the parameter passed to a function (which may wait).
  // The parameter passed by value counts too (a copy construction around it:
  // `kernel(idx, ...)` with `void kernel(tiled_index<...> idx, ...)`, the
  // conformance suite's usual shape), so that such kernels are wrapped and
  // reported as keeping fibers instead of being skipped without a word.
  static bool containsBarrier(const Stmt* s, const ParmVarDecl* p) {
    if (!s) return false;
    if (const auto* call = dyn_cast<CallExpr>(s))
      for (const Expr* a : call->arguments()) {
        const Expr* e = a->IgnoreParenImpCasts();
        if (const auto* ce = dyn_cast<CXXConstructExpr>(e); ce && ce->getNumArgs() == 1)
          e = ce->getArg(0)->IgnoreParenImpCasts();
        if (const auto* dr = dyn_cast<DeclRefExpr>(e); dr && dr->getDecl() == p && isAmpClass(a->getType(), "tiled_index"))
          return true;
      }
    if (const auto* c = dyn_cast<CXXMemberCallExpr>(s))
      if (const CXXMethodDecl* m = c->getMethodDecl())
        if (m->getParent() && m->getParent()->getName() == "tile_barrier" && m->getName().starts_with("wait"))
          return true;
    for (const Stmt* c : s->children())
      if (containsBarrier(c, p)) return true;
    return false;
  }

  // The kernel's note; ` [lines B-E]` (its lambda's lines) ends it, which
  // the launcher reads to tell which kernel a compile error points into.
  void note(SourceManager& sm, SourceLocation at, const std::string& what) {
    if (!report_) return;
    PresumedLoc p = sm.getPresumedLoc(at);
    llvm::errs() << p.getFilename() << ":" << p.getLine() << ":" << p.getColumn() << ": note: amp host tiles: " << what;
    if (endAt_.isValid()) llvm::errs() << " [lines " << p.getLine() << "-" << sm.getPresumedLoc(endAt_).getLine() << "]";
    llvm::errs() << "\n";
  }
  SourceLocation endAt_; // the end of the kernel being handled

  // FILE:LINE:COL of a kernel, its file's real path: the launcher's name for
  // a kernel it takes back to fibers (fibers=KEY) after its compiled form
  // failed to compile.
  static std::string keyOf(SourceManager& sm, SourceLocation at) {
    PresumedLoc p = sm.getPresumedLoc(at);
    llvm::SmallString<256> real;
    std::string file = p.getFilename();
    if (!llvm::sys::fs::real_path(file, real)) file = std::string(real);
    return file + ":" + std::to_string(p.getLine()) + ":" + std::to_string(p.getColumn());
  }

  void handle(ASTContext& ctx, Rewriter& rw, const std::vector<LambdaExpr*>& group) {
    SourceManager& sm = ctx.getSourceManager();
    std::vector<LambdaExpr*> kernels; // the concrete instances that are tiled kernels with barriers
    for (LambdaExpr* l : group) {
      if (l->getLambdaClass()->isDependentContext()) continue;
      CXXMethodDecl* op = l->getCallOperator();
      if (!op || op->getNumParams() != 1 || op->getDescribedFunctionTemplate()) continue;
      ParmVarDecl* p = op->getParamDecl(0);
      if (!isAmpClass(p->getType(), "tiled_index")) continue;
      if (!containsBarrier(l->getBody(), p)) continue; // runs as a plain loop already
      kernels.push_back(l);
    }
    if (kernels.empty()) return;
    endAt_ = SourceLocation();
    LambdaExpr* l = kernels.front();
    CXXMethodDecl* op = l->getCallOperator();
    ParmVarDecl* p = op->getParamDecl(0);
    const SourceLocation at = l->getBeginLoc();
    const CompoundStmt* body = l->getCompoundStmtBody();
    const LangOptions& lo = ctx.getLangOpts();
    // The second pass takes only the kernels the first inlined calls into.
    const llvm::StringRef marker = "/*amp_ht_inlined:";
    const bool inlined =
        body->getLBracLoc().isFileID() &&
        sm.getBufferData(sm.getFileID(body->getLBracLoc())).substr(sm.getFileOffset(body->getLBracLoc()) + 1).starts_with(marker);
    if (pass_ == 2 && !inlined) return;
    if (!at.isFileID() || !rewritable(sm, at) || !l->getEndLoc().isFileID() ||
        !p->getBeginLoc().isFileID() || !l->getBody()->getBeginLoc().isFileID()) {
      if (sm.isInMainFile(sm.getExpansionLoc(at))) note(sm, at, "tiled kernel keeps fibers: written through a macro");
      return;
    }
    PresumedLoc pl = sm.getPresumedLoc(at);
    const std::string whereText = std::string(pl.getFilename()) + ":" + std::to_string(pl.getLine());
    endAt_ = l->getEndLoc();
    std::string why;
    if (fibers_.count(keyOf(sm, at)))
      why = "its compiled form did not compile (a defect of the tile compiler; the build's warning gives the error)";
    const unsigned lb = sm.getFileOffset(body->getLBracLoc()), rb = sm.getFileOffset(body->getRBracLoc());
    const llvm::StringRef buf = sm.getBufferData(sm.getFileID(body->getLBracLoc()));
    std::string compiled;
    int barriers = 0, per_item = 0, recomputed = 0, guarded = 0, independent = 0;

    // First pass: calls that wait on the barrier inlined (main file only: the
    // second parse reads the main file's rewritten text). The kernel's body
    // becomes `{MARK if constexpr (true) { INLINED } else {ORIG_MARK ORIGINAL}}`.
    // Inlining off (the script's fallback after a failed second parse): a
    // kernel with calls that wait says why it keeps fibers.
    if (pass_ == 1 && !inline_ && why.empty()) {
      try {
        Inliner in(ctx, headers_, l, p, &ci_.getPreprocessor());
        if (!in.run().empty())
          why = "a barrier in a called function, not inlined: the inlined text of this file's kernels did not parse "
                "(tile_compiler's message in the build's output says where)";
      } catch (const Refused& r) {
        why = "a barrier in a called function, not inlined: " + r.why;
      }
    }
    if (pass_ == 1 && inline_ && why.empty()) {
      std::string text, hashes;
      int calls = 0;
      try {
        for (LambdaExpr* inst : kernels) {
          Inliner in(ctx, headers_, inst, inst->getCallOperator()->getParamDecl(0), &ci_.getPreprocessor());
          std::string t = in.run();
          if (inst != l && t != text) {
            if (std::getenv("AMP_TILE_COMPILER_DEBUG"))
              llvm::errs() << "tile_compiler: first instantiation:\n" << text << "\nthis one:\n" << t << "\n";
            throw Refused{"the calls that wait on the barrier differ between template instantiations"};
          }
          text = t;
          calls = in.calls;
          hashes += (hashes.empty() ? "" : ",") + std::to_string(std::hash<std::string>()(in.keys));
        }
      } catch (const Refused& r) {
        why = "a barrier in a called function, not inlined: " + r.why;
      }
      if (why.empty() && !text.empty()) {
        const std::string orig = buf.substr(lb + 1, rb - lb - 1).str();
        PresumedLoc bl = sm.getPresumedLoc(body->getLBracLoc());
        rw.ReplaceText(body->getLBracLoc().getLocWithOffset(1), rb - lb - 1,
                       marker.str() + std::to_string(calls) + ":" + hashes + "*/ if constexpr (true) {" + text +
                           "\n} else {/*amp_ht_orig*/\n#line " + std::to_string(bl.getLine()) + " " +
                           quote(bl.getFilename()) + "\n" + orig + "}");
        return;
      }
    }
    // Second pass: the INLINED block, once each name in it is shown to bind
    // as in the callee; ORIGINAL back for fibers.
    std::vector<std::string> hashes;
    std::string orig, inlinedCalls;
    if (inlined) {
      const size_t hb = lb + 1 + marker.size(), he = buf.find("*/", hb);
      const size_t ob = buf.find("/*amp_ht_orig*/", lb);
      if (he == llvm::StringRef::npos || ob == llvm::StringRef::npos || ob > rb) return; // not ours
      llvm::StringRef h = buf.slice(hb, he);
      inlinedCalls = h.split(':').first.str();
      llvm::SmallVector<llvm::StringRef, 8> parts;
      h.split(':').second.split(parts, ',');
      for (llvm::StringRef x : parts) hashes.push_back(x.str());
      orig = buf.slice(ob + strlen("/*amp_ht_orig*/"), rb - 1).str(); // up to the else block's `}`
    }
    // Instantiations must give one text: when they differ, again with every
    // per-work-item value in item_slots (their types need different storage),
    // then also without ivdep marks (their independence proofs differ).
    int level = 0;
    bool anySlots = false;
    for (size_t i = 0; why.empty() && i < kernels.size(); ++i) {
      LambdaExpr* inst = kernels[i];
      ParmVarDecl* ip = inst->getCallOperator()->getParamDecl(0);
      CompoundStmt* then = nullptr;
      if (inlined) {
        CompoundStmt* ib = inst->getCompoundStmtBody();
        const auto* is = ib->size() == 1 ? dyn_cast<IfStmt>(ib->body_front()) : nullptr;
        then = is ? const_cast<CompoundStmt*>(dyn_cast_or_null<CompoundStmt>(is->getThen())) : nullptr;
        if (!then || i >= hashes.size()) {
          why = "internal: the inlined kernel has an unexpected form";
          break;
        }
        InlinedKeys ik{ctx, sm, ip};
        std::string keys;
        ik.all(then, keys);
        if (std::to_string(std::hash<std::string>()(keys)) != hashes[i]) {
          why = "a barrier in a called function: the inlined text would bind a name differently than the called "
                "function does (a name of the kernel's scope shadows one of the callee's, or another overload is "
                "visible there)";
          break;
        }
      }
      Kernel k(ctx, inst, ip, then);
      k.slotsForAll = level >= 1;
      k.ivdepOff = level >= 2;
      try {
        std::string text = k.compile();
        anySlots = anySlots || k.usedSlots();
        if (inst != l && text != compiled) {
          if (level < 2) {
            level = anySlots || level ? level + 1 : 2;
            i = static_cast<size_t>(-1);
            continue;
          }
          why = "its compiled form differs between template instantiations";
          if (std::getenv("AMP_TILE_COMPILER_DEBUG"))
            llvm::errs() << "tile_compiler: first instantiation:\n" << compiled << "\nthis one:\n" << text << "\n";
          break;
        }
        compiled = text;
        barriers = k.barriers;
        per_item = k.per_item;
        recomputed = k.recomputed_count;
        guarded = k.guarded;
        independent = k.independent_;
      } catch (const Refused& r) {
        why = inlined && inlinedCalls != "0" ? "after inlining " + inlinedCalls + " call(s): " + r.why : r.why;
        break;
      }
    }
    const SourceLocation after = Lexer::getLocForEndOfToken(l->getEndLoc(), 0, sm, lo);
    if (!why.empty()) {
      note(sm, at, "tiled kernel keeps fibers: " + why);
      if (inlined) rw.ReplaceText(body->getLBracLoc().getLocWithOffset(1), rb - lb - 1, orig);
      rw.InsertTextBefore(at, "::Concurrency::detail::host_tiles::make_fiber_kernel(" + quote(whereText) + ", ");
      rw.InsertTextAfter(after, ", " + quote(why) + ")");
      return;
    }
    // The lambda's parameter list becomes (auto&& amp_ht_arg); its declarator
    // gets `-> void` unless it has a trailing return type already.
    const TypeSourceInfo* tsi = op->getTypeSourceInfo();
    const auto ftl = tsi->getTypeLoc().getAsAdjusted<FunctionProtoTypeLoc>();
    if (!ftl || !ftl.getLParenLoc().isFileID() || !ftl.getRParenLoc().isFileID()) {
      note(sm, at, "tiled kernel keeps fibers: its parameter list could not be located");
      if (inlined) rw.ReplaceText(body->getLBracLoc().getLocWithOffset(1), rb - lb - 1, orig);
      return;
    }
    if (!op->getType()->castAs<FunctionType>()->getReturnType()->isVoidType()) {
      note(sm, at, "tiled kernel keeps fibers: it returns a value");
      if (inlined) rw.ReplaceText(body->getLBracLoc().getLocWithOffset(1), rb - lb - 1, orig);
      return;
    }
    // A fault injected for the launcher's never-break test
    // (tests/host_tiles/never_breaks.sh): the compiled form does not compile.
    // Not in the tile compiler's own second parse (which reads the first's
    // output, this text included): only the build's compile fails on it.
    if (const char* f = std::getenv("AMP_TILE_COMPILER_FAULT"); f && std::string(f) == "1")
      compiled += "\n#ifndef AMP_TILE_COMPILER_PASS\namp_ht_injected_fault();\n#endif\n";
    rw.ReplaceText(SourceRange(ftl.getLParenLoc(), ftl.getRParenLoc()), "(auto&& amp_ht_arg)");
    const bool trailing = tsi->getType()->castAs<FunctionProtoType>()->hasTrailingReturn();
    std::string open = trailing ? "" : "-> void ";
    const std::string pn = p->getNameAsString();
    // The fibers branch binds the parameter as the lambda declared it: a
    // copy for one taken by value (its body may hand it on by non-const
    // reference, as Microsoft's BinomialOptions does), else a reference.
    const std::string fibersParam = (p->getType()->isReferenceType() ? "const auto& " : "auto ") + pn;
    PresumedLoc bl = sm.getPresumedLoc(body->getLBracLoc());
    std::string file;
    for (char c : std::string(bl.getFilename())) {
      if (c == '"' || c == '\\') file += '\\';
      file += c;
    }
    rw.InsertTextBefore(body->getLBracLoc(), open);
    const std::string head =
        " if constexpr (::Concurrency::detail::host_tiles::is_tile_group<decltype(amp_ht_arg)>) {\n" + compiled +
        "} else { " + fibersParam + " = amp_ht_arg;\n#line " + std::to_string(bl.getLine()) + " \"" + file + "\"\n";
    if (inlined) {
      rw.ReplaceText(body->getLBracLoc().getLocWithOffset(1), rb - lb - 1, head + orig + "}");
    } else {
      rw.InsertTextAfter(Lexer::getLocForEndOfToken(body->getLBracLoc(), 0, sm, lo), head);
      rw.InsertTextBefore(body->getRBracLoc(), "}");
    }
    rw.InsertTextBefore(at, "::Concurrency::detail::host_tiles::make_compiled_kernel(" + quote(whereText) + ", ");
    PresumedLoc el = sm.getPresumedLoc(l->getEndLoc());
    rw.InsertTextAfter(after, ")\n#line " + std::to_string(el.getLine()) + " \"" + file + "\"\n");
    note(sm, at, "tiled kernel compiled (" + std::to_string(barriers) + " barrier(s), " +
                     std::to_string(per_item) + " value(s) kept per work-item" +
                     (recomputed ? ", " + std::to_string(recomputed) + " recomputed per region" : "") +
                     (guarded ? ", " + std::to_string(guarded) + " guard(s) as loop bounds" : "") +
                     (independent ? ", " + std::to_string(independent) + " region loop(s) marked ivdep" : "") +
                     (kernels.size() > 1 ? ", " + std::to_string(kernels.size()) + " instantiations" : "") +
                     (inlined && inlinedCalls != "0" ? ", " + inlinedCalls + " call(s) inlined" : "") + ")");
  }
};

class Action : public PluginASTAction {
  std::string out_;
  bool report_ = false;
  std::set<std::string> headers_;
  std::string overlay_;
  int pass_ = 1;
  bool inline_ = true;
  std::set<std::string> fibers_;

protected:
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance& ci, llvm::StringRef) override {
    return std::make_unique<Consumer>(ci, out_, report_, headers_, overlay_, pass_, inline_, fibers_);
  }
  bool ParseArgs(const CompilerInstance& ci, const std::vector<std::string>& args) override {
    for (const std::string& a : args) {
      if (a.rfind("out=", 0) == 0) out_ = a.substr(4);
      else if (a == "report=1") report_ = true;
      else if (a.rfind("header=", 0) == 0) headers_.insert(a.substr(7));
      else if (a.rfind("overlay=", 0) == 0) overlay_ = a.substr(8);
      else if (a == "pass=2") pass_ = 2;
      else if (a == "inline=0") inline_ = false;
      else if (a.rfind("fibers=", 0) == 0) fibers_.insert(a.substr(7));
    }
    if (out_.empty()) {
      ci.getDiagnostics().Report(ci.getDiagnostics().getCustomDiagID(DiagnosticsEngine::Error,
                                                                    "tile_compiler: no out=FILE argument"));
      return false;
    }
    return true;
  }
  ActionType getActionType() override { return AddAfterMainAction; }
};

} // namespace

static FrontendPluginRegistry::Add<Action> X("tile-compiler", "compile host tile barriers into loops");
