// Kernel's analysis (kernel.h): what a compiled kernel may be. Its barriers
// and the control around them (uniform conditions, splittable statements),
// the uses of its tiled_index (calls that never wait), which values are
// uniform over the tile, and where each local lives: tile-level, recomputed
// per region, or kept per work-item. Throws Refused with the reason.
#include "kernel.h"

namespace tile_compiler {

namespace {

// The call or constructor call (other than a copy or move) that receives
// expression e (a use of a tiled_index, perhaps copied) as its argument j;
// null when e is used any other way.
const Expr* receiving(ASTContext& ctx, const Expr* e, unsigned& j) {
  DynTypedNode n = DynTypedNode::create(*static_cast<const Stmt*>(e));
  const Stmt* child = e;
  for (int guard = 0; guard < 12; ++guard) {
    auto ps = ctx.getParents(n);
    if (ps.empty()) return nullptr;
    const Stmt* p = ps[0].get<Stmt>();
    if (!p) return nullptr;
    const auto* ce = dyn_cast<CXXConstructExpr>(p);
    const bool copy = ce && ce->getNumArgs() == 1 && ce->getConstructor() &&
                      (ce->getConstructor()->isCopyConstructor() || ce->getConstructor()->isMoveConstructor());
    if (isa<CallExpr>(p) || (ce && !copy)) {
      const auto* c = dyn_cast<CallExpr>(p);
      const unsigned n = c ? c->getNumArgs() : ce->getNumArgs();
      for (j = 0; j < n; ++j)
        if ((c ? c->getArg(j) : ce->getArg(j)) == child) return cast<Expr>(p);
      return nullptr;
    }
    if (!(isa<ImplicitCastExpr>(p) || isa<ParenExpr>(p) || isa<MaterializeTemporaryExpr>(p) ||
          isa<CXXBindTemporaryExpr>(p) || copy))
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
// The parent of s outside a function's kernel walk (the AST's parent map),
// through parentheses and no-op casts.
const Stmt* parentThroughParens(ASTContext& ctx, const Stmt* s) {
  auto ps = ctx.getParents(*s);
  const Stmt* q = ps.empty() ? nullptr : ps[0].get<Stmt>();
  while (q && (isa<ParenExpr>(q) || (isa<ImplicitCastExpr>(q) && cast<ImplicitCastExpr>(q)->getCastKind() == CK_NoOp))) {
    auto qs = ctx.getParents(*q);
    q = qs.empty() ? nullptr : qs[0].get<Stmt>();
  }
  return q;
}
bool neverWaits(ASTContext& ctx, const FunctionDecl* f, unsigned idx, int depth);
// r (a use of a tiled_index) is handed to a free function or a constructor
// (a local object built from it, `Worker ant(tidx, ...)`: its members and
// initialisers are read too) that never waits on it.
bool receivedByNeverWaiting(ASTContext& ctx, const Expr* r, int depth) {
  unsigned j = 0;
  const Expr* c = receiving(ctx, r, j);
  if (const auto* call = dyn_cast_or_null<CallExpr>(c)) {
    const FunctionDecl* g = call->getDirectCallee();
    return g && !isa<CXXMethodDecl>(g) && neverWaits(ctx, g, j, depth);
  }
  if (const auto* ce = dyn_cast_or_null<CXXConstructExpr>(c))
    return ce->getConstructor() && neverWaits(ctx, ce->getConstructor(), j, depth);
  return false;
}
bool neverWaits(ASTContext& ctx, const FunctionDecl* f, unsigned idx, int depth) {
  const FunctionDecl* def = nullptr;
  if (depth > 8 || !f->hasBody(def) || !def->getBody() || idx >= def->getNumParams() || def->isVariadic())
    return false;
  struct V : DynamicRecursiveASTVisitor {
    ASTContext& ctx;
    const ParmVarDecl* p;
    int depth;
    bool ok = true;
    V(ASTContext& c, const ParmVarDecl* pp, int d) : ctx(c), p(pp), depth(d) {}
    bool VisitVarDecl(VarDecl* v) override {
      if (v->isStaticLocal()) ok = false;
      return ok;
    }
    bool VisitLambdaExpr(LambdaExpr*) override { return ok = false; }
    bool VisitDeclRefExpr(DeclRefExpr* r) override {
      if (r->getDecl() != p) return true;
      const Stmt* q = parentThroughParens(ctx, r);
      if (const auto* me = dyn_cast_or_null<MemberExpr>(q))
        if (isa<CXXConversionDecl>(me->getMemberDecl()) || isTileInfoMember(me->getMemberDecl()->getName())) return true;
      if (const auto* ic = dyn_cast_or_null<ImplicitCastExpr>(q))
        if (ic->getCastKind() == CK_UserDefinedConversion || ic->getCastKind() == CK_DerivedToBase) return true;
      if (receivedByNeverWaiting(ctx, r, depth + 1)) return true;
      return ok = false;
    }
  } v(ctx, def->getParamDecl(idx), depth);
  v.TraverseStmt(def->getBody());
  if (const auto* cd = dyn_cast<CXXConstructorDecl>(def))
    for (const CXXCtorInitializer* init : cd->inits())
      if (v.ok && init->isWritten()) v.TraverseStmt(init->getInit());
  return v.ok;
}

// std::min / std::max of two values: a reference to one of its own
// arguments, which it only compares (a radix sort's `clamp`).
bool stdMinMax(const FunctionDecl* g) {
  return g->isInStdNamespace() && g->getNumParams() == 2 && (g->getName() == "min" || g->getName() == "max");
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
  struct V : DynamicRecursiveASTVisitor {
    const FunctionDecl* f;
    const std::set<const ParmVarDecl*>& tiled;
    int depth;
    ASTContext& ctx;
    bool ok = true;
    V(const FunctionDecl* ff, const std::set<const ParmVarDecl*>& t, int d, ASTContext& c)
        : f(ff), tiled(t), depth(d), ctx(c) {}
    bool VisitDeclRefExpr(DeclRefExpr* r) override {
      const ValueDecl* d = r->getDecl();
      if (isa<FunctionDecl>(d) || isa<EnumConstantDecl>(d)) return true;
      const auto* v = dyn_cast<VarDecl>(d);
      if (!v) return ok = false;
      if (const auto* pv = dyn_cast<ParmVarDecl>(v); pv && tiled.count(pv)) {
        const auto* me = dyn_cast_or_null<MemberExpr>(parentThroughParens(ctx, r));
        const std::string n = me ? me->getMemberDecl()->getNameAsString() : "";
        if (n.empty() || n == "global" || n == "local" || !isTileInfoMember(n)) ok = false;
        return ok;
      }
      if (v->getDeclContext() == f) return true; // a parameter or local of f
      if (v->isStaticLocal()) return ok = false;
      return ok = v->getType().isConstQualified() && !v->getType().isVolatileQualified() &&
                  !v->getType()->isReferenceType();
    }
    bool VisitVarDecl(VarDecl* v) override {
      if (v->isStaticLocal() || v->getType()->isReferenceType() || v->getType()->isPointerType()) ok = false;
      return ok;
    }
    bool VisitBinaryOperator(BinaryOperator* b) override {
      if (!b->isAssignmentOp()) return true;
      const auto* d = dyn_cast<DeclRefExpr>(b->getLHS()->IgnoreParenImpCasts());
      const auto* v = d ? dyn_cast<VarDecl>(d->getDecl()) : nullptr;
      if (!v || v->getDeclContext() != f || v->getType()->isReferenceType()) ok = false;
      return ok;
    }
    bool VisitUnaryOperator(UnaryOperator* u) override {
      if (u->getOpcode() == UO_Deref || u->getOpcode() == UO_AddrOf) return ok = false;
      if (u->isIncrementDecrementOp()) {
        const auto* d = dyn_cast<DeclRefExpr>(u->getSubExpr()->IgnoreParenImpCasts());
        const auto* v = d ? dyn_cast<VarDecl>(d->getDecl()) : nullptr;
        if (!v || v->getDeclContext() != f || v->getType()->isReferenceType()) ok = false;
      }
      return ok;
    }
    bool VisitMemberExpr(MemberExpr* m) override {
      if (m->isArrow()) ok = false;
      return ok;
    }
    bool VisitCallExpr(CallExpr* c) override {
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
      if (!g || !(g->getBuiltinID() || stdMinMax(g) || sameForSameArgs(g, depth + 1))) ok = false;
      return ok;
    }
    bool VisitCXXConstructExpr(CXXConstructExpr* c) override {
      if (!isValueClass(c->getType()) && !(c->getConstructor() && c->getConstructor()->isTrivial())) ok = false;
      return ok;
    }
    bool VisitCXXThisExpr(CXXThisExpr*) override { return ok = false; }
    bool VisitCXXNewExpr(CXXNewExpr*) override { return ok = false; }
    bool VisitCXXDeleteExpr(CXXDeleteExpr*) override { return ok = false; }
    bool VisitCXXThrowExpr(CXXThrowExpr*) override { return ok = false; }
    bool VisitLambdaExpr(LambdaExpr*) override { return ok = false; }
    bool VisitGCCAsmStmt(GCCAsmStmt*) override { return ok = false; }
  } v(def, tiled, depth, def->getASTContext());
  v.TraverseStmt(def->getBody());
  return v.ok;
}

} // namespace

// ---- analysis
void Kernel::collect() {
  struct V : DynamicRecursiveASTVisitor {
    Kernel& k;
    explicit V(Kernel& kk) : k(kk) { ShouldVisitImplicitCode = false; }
    bool VisitStmt(Stmt* s) override {
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
        // Or the unbraced body or branch of a statement (`if (after)
        // t.barrier.wait();`, AMD's FFT through a macro): split as if braced.
        if (!k.unbracedBody(me, p) && (!block || !isa<CompoundStmt>(block)))
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
    bool VisitVarDecl(VarDecl* v) override {
      if (v != k.param_) k.locals_.insert(v);
      return true;
    }
    // Names in unevaluated operands (`decltype(n)(0)`, `sizeof(x)`): they
    // read and write nothing (a radix sort's `for (auto i =
    // decltype(count)(0); ...)` left `count` counted as written).
    void unevaluated(const Expr* e) {
      struct R : DynamicRecursiveASTVisitor {
        std::set<const DeclRefExpr*>& out;
        explicit R(std::set<const DeclRefExpr*>& o) : out(o) {}
        bool VisitDeclRefExpr(DeclRefExpr* r) override {
          out.insert(r);
          return true;
        }
      } r(k.unevaluated_);
      if (e) r.TraverseStmt(const_cast<Expr*>(e));
    }
    bool VisitDecltypeTypeLoc(DecltypeTypeLoc tl) override {
      unevaluated(tl.getUnderlyingExpr());
      return true;
    }
    bool VisitUnaryExprOrTypeTraitExpr(UnaryExprOrTypeTraitExpr* u) override {
      if (!u->isArgumentType()) unevaluated(u->getArgumentExpr());
      return true;
    }
  } v(*this);
  v.TraverseStmt(body_);
}
// Is s the body of loop p or a branch of `if` p (not its condition,
// init or increment)?
bool Kernel::unbracedBody(const Stmt* s, const Stmt* p) {
  if (const auto* f = dyn_cast_or_null<ForStmt>(p)) return f->getBody() == s;
  if (const auto* w = dyn_cast_or_null<WhileStmt>(p)) return w->getBody() == s;
  if (const auto* d = dyn_cast_or_null<DoStmt>(p)) return d->getBody() == s;
  if (const auto* i = dyn_cast_or_null<IfStmt>(p)) return i->getThen() == s || i->getElse() == s;
  return false;
}
// An unbraced body or branch that is itself a `for`, `while` or `if`
// holding a barrier (`if (U) if (V) { ... }`, `for (...) for (...) { }`):
// split as if it were braced (checked on its own like any such statement).
bool Kernel::splitStmt(const Stmt* b) {
  return withBarrier_.count(b) && (isa<ForStmt>(b) || isa<WhileStmt>(b) || isa<IfStmt>(b) || isa<DoStmt>(b));
}
// A body or branch the split can take: a block, a statement split as if
// braced, or a barrier statement on its own.
bool Kernel::splitBody(const Stmt* b) { return isa<CompoundStmt>(b) || splitStmt(b) || barrierStmts_.count(b); }
// Barriers only in blocks, for/while bodies and if branches with uniform
// conditions; no break/continue leaving a split loop.
void Kernel::checkControl() {
  for (const Stmt* s : withBarrier_) {
    if (isa<CompoundStmt>(s)) continue;
    if (const auto* f = dyn_cast<ForStmt>(s)) {
      if (!splitBody(f->getBody()))
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
      if (!splitBody(w->getBody()))
        throw Refused{"a barrier in a `while` without braces (" + where(s) + ")"};
      if (w->getConditionVariable()) throw Refused{"a `while` condition declaring a variable (" + where(s) + ")"};
      continue;
    }
    if (const auto* i = dyn_cast<IfStmt>(s)) {
      if (i->getInit() || i->getConditionVariable())
        throw Refused{"an `if` with an init statement or a condition variable around a barrier (" + where(s) + ")"};
      for (const Stmt* b : {i->getThen(), i->getElse()})
        if (b && withBarrier_.count(b) == 0 && barrierStmts_.count(b) == 0) continue;
        else if (b && !splitBody(b))
          throw Refused{"a barrier in an `if` branch without braces (" + where(s) + ")"};
      continue;
    }
    // A `do` loop: its body runs first, then the (uniform) condition: the
    // tile runs the same iterations as each of its work-items would.
    if (const auto* d = dyn_cast<DoStmt>(s)) {
      if (!splitBody(d->getBody()))
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
  struct V : DynamicRecursiveASTVisitor {
    Kernel& k;
    explicit V(Kernel& kk) : k(kk) {}
    bool VisitStmt(Stmt* s) override {
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
void Kernel::checkParamUses() {
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
        if (isFenceCall(call)) continue;
        throw Refused{"the tile_barrier is used other than in a barrier statement (" + where(r) + ")"};
      }
    }
    if (const auto* ice = dyn_cast_or_null<ImplicitCastExpr>(p))
      if (ice->getCastKind() == CK_UserDefinedConversion || ice->getCastKind() == CK_DerivedToBase) continue;
    if (receivedByNeverWaiting(ctx_, r, 0)) continue;
    throw Refused{"the tiled_index is passed on or copied (" + where(r) +
                  "): a barrier in a called function cannot be seen"};
  }
}
// A call of AMP's free fence functions on the barrier
// (`tile_static_memory_fence(t.barrier)`, the C++ AMP book's warp-unrolled
// reductions): an ordering of memory accesses, not a wait. Fibers switch
// only at barriers, so the work-items of a region run in the same order on
// both paths and the fence is an ordinary statement of its region.
bool Kernel::isFenceCall(const Stmt* s) {
  const auto* c = dyn_cast_or_null<CallExpr>(s);
  const FunctionDecl* f = c && !isa<CXXMemberCallExpr>(c) && !isa<CXXOperatorCallExpr>(c) ? c->getDirectCallee() : nullptr;
  if (!f || !inConcurrency(f) || f->getNumParams() != 1 || !isAmpClass(f->getParamDecl(0)->getType().getNonReferenceType(), "tile_barrier"))
    return false;
  const std::string n = f->getNameAsString();
  return n == "tile_static_memory_fence" || n == "global_memory_fence" || n == "all_memory_fence";
}
// Is the reference r a plain read (or the object of a const member access)?
// (Through an lvalue `?:`, `_min(a, b)`'s `((a) < (b)) ? (a) : (b)`, and
// the no-op casts that give both branches one type.)
bool Kernel::isRead(const DeclRefExpr* r) {
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
// The ++/--/assignment that writes r (through parentheses), or null.
const Expr* Kernel::writeOf(const DeclRefExpr* r) {
  const Stmt* p = parentOf(r);
  while (p && isa<ParenExpr>(p)) p = parentOf(p);
  const auto* u = dyn_cast_or_null<UnaryOperator>(p);
  const auto* b = dyn_cast_or_null<BinaryOperator>(p);
  if (u && u->isIncrementDecrementOp()) return u;
  return b && b->isAssignmentOp() && strip(b->getLHS()) == r ? b : nullptr;
}
// The allowed writes of a split loop's variable: in its increment, as
// ++v, v++, --v, v--, v op= U or v = U with U uniform.
// r is written by the init or the increment of a `for` around a barrier
// (an assignment or ++/-- there, alone or in a comma list), which runs
// once per tile.
const Expr* Kernel::forWriteExpr(const DeclRefExpr* r) {
  const Expr* p = writeOf(r);
  if (!p) return nullptr;
  const Stmt* top = p;
  for (const Stmt* q = parentOf(top); q; q = parentOf(top)) {
    if (const auto* c = dyn_cast<BinaryOperator>(q); c && c->getOpcode() == BO_Comma) { top = q; continue; }
    if (isa<ParenExpr>(q)) { top = q; continue; }
    const auto* f = dyn_cast<ForStmt>(q);
    if (f && withBarrier_.count(f) && (f->getInit() == top || f->getInc() == top)) return p;
    return nullptr;
  }
  return nullptr;
}
// The condition of a split statement runs once per tile in the compiled
// form (as a `for` increment does) and once per work-item on fibers, each
// on its own copy: with a uniform step, every copy holds the tile-level
// value after it.
const Expr* Kernel::condWriteExpr(const DeclRefExpr* r) {
  const Expr* p = writeOf(r);
  if (!p) return nullptr;
  const Stmt* top = p;
  const Stmt* q = parentOf(top);
  for (; q && isa<Expr>(q); q = parentOf(q)) top = q;
  if (!q || !withBarrier_.count(q)) return nullptr;
  const Expr* cond = nullptr;
  if (const auto* f = dyn_cast<ForStmt>(q)) cond = f->getCond();
  if (const auto* w = dyn_cast<WhileStmt>(q)) cond = w->getCond();
  if (const auto* d = dyn_cast<DoStmt>(q)) cond = d->getCond();
  if (const auto* i = dyn_cast<IfStmt>(q)) cond = i->getCond();
  if (const auto* sw = dyn_cast<SwitchStmt>(q)) cond = sw->getCond();
  return cond && cond == top ? p : nullptr;
}
bool Kernel::condWriteUniform(const DeclRefExpr* r) {
  const Expr* w = condWriteExpr(r);
  if (const auto* b = dyn_cast_or_null<BinaryOperator>(w)) return uniform(b->getRHS());
  return w != nullptr;
}
// e is a tile-level local's update in a split statement's condition, by a
// uniform step: its value is the same for every work-item.
bool Kernel::tileCondUpdate(const Expr* e) {
  const Expr* lhs = nullptr;
  if (const auto* u = dyn_cast<UnaryOperator>(e); u && u->isIncrementDecrementOp()) lhs = u->getSubExpr();
  if (const auto* b = dyn_cast<BinaryOperator>(e); b && b->isAssignmentOp()) lhs = b->getLHS();
  const auto* dr = lhs ? dyn_cast<DeclRefExpr>(strip(lhs)) : nullptr;
  const auto* v = dr ? dyn_cast<VarDecl>(dr->getDecl()) : nullptr;
  return v && locals_.count(v) && tileLevel_.count(v) && !itemMode_ && condWriteExpr(dr) == e &&
         condWriteUniform(dr);
}
bool Kernel::forWriteUniform(const DeclRefExpr* r) {
  const Expr* w = forWriteExpr(r);
  if (const auto* b = dyn_cast_or_null<BinaryOperator>(w)) return uniform(b->getRHS());
  return w != nullptr;
}
// e (a split for's init or increment) only updates tile-level locals with
// uniform values: assignments and ++/-- of them, in a comma list.
bool Kernel::tileWrites(const Expr* e) {
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
void Kernel::commaParts(const Expr* e, std::vector<const Expr*>& out) {
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
const DeclRefExpr* Kernel::updatedRef(const Expr* e) {
  e = e->IgnoreParens();
  const Expr* lhs = nullptr;
  if (const auto* u = dyn_cast<UnaryOperator>(e); u && u->isIncrementDecrementOp()) lhs = u->getSubExpr();
  if (const auto* b = dyn_cast<BinaryOperator>(e); b && b->isAssignmentOp()) lhs = b->getLHS();
  return lhs ? dyn_cast<DeclRefExpr>(strip(lhs)) : nullptr;
}
const VarDecl* Kernel::updatedLocal(const Expr* e) {
  const DeclRefExpr* dr = updatedRef(e);
  const auto* v = dr ? dyn_cast<VarDecl>(dr->getDecl()) : nullptr;
  return v && locals_.count(v) && !isTileStorage(v) && !v->getType()->isReferenceType() ? v : nullptr;
}
bool Kernel::splitsItemIncrement(const ForStmt* f) {
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
  struct Reads : DynamicRecursiveASTVisitor {
    std::set<const VarDecl*>& w;
    bool clash = false;
    explicit Reads(std::set<const VarDecl*>& x) : w(x) {}
    bool VisitDeclRefExpr(DeclRefExpr* r) override {
      if (const auto* v = dyn_cast<VarDecl>(r->getDecl()); v && w.count(v)) clash = true;
      return true;
    }
  };
  for (const Expr* p : item) {
    Reads rd(tileWritten);
    rd.TraverseStmt(const_cast<Expr*>(p));
    if (rd.clash) return false;
  }
  struct Cont : DynamicRecursiveASTVisitor {
    bool found = false;
    int depth = 0;
    bool TraverseForStmt(ForStmt* s) override { ++depth; DynamicRecursiveASTVisitor::TraverseForStmt(s); --depth; return true; }
    bool TraverseWhileStmt(WhileStmt* s) override { ++depth; DynamicRecursiveASTVisitor::TraverseWhileStmt(s); --depth; return true; }
    bool TraverseDoStmt(DoStmt* s) override { ++depth; DynamicRecursiveASTVisitor::TraverseDoStmt(s); --depth; return true; }
    bool TraverseCXXForRangeStmt(CXXForRangeStmt* s) override { ++depth; DynamicRecursiveASTVisitor::TraverseCXXForRangeStmt(s); --depth; return true; }
    bool TraverseLambdaExpr(LambdaExpr*) override { return true; }
    bool VisitContinueStmt(ContinueStmt*) override { if (depth == 0) found = true; return true; }
  } ct;
  ct.TraverseStmt(const_cast<Stmt*>(f->getBody()));
  if (ct.found) return false;
  itemIncParts_[f] = item;
  return true;
}
bool Kernel::initAssigns(const ForStmt* f, const VarDecl* v) {
  const auto* init = dyn_cast_or_null<Expr>(f->getInit());
  if (!init) return false;
  std::vector<const Expr*> parts;
  commaParts(init, parts);
  for (const Expr* e : parts)
    if (const auto* b = dyn_cast<BinaryOperator>(e); b && b->getOpcode() == BO_Assign)
      if (const auto* d = dyn_cast<DeclRefExpr>(strip(b->getLHS())); d && d->getDecl() == v) return true;
  return false;
}
const ForStmt* Kernel::ownerFor(const DeclRefExpr* r, const VarDecl* v) {
  for (const Stmt* q = parentOf(r); q && q != fn_.body(); q = parentOf(q))
    if (const auto* f = dyn_cast<ForStmt>(q); f && initAssigns(f, v)) return f;
  return nullptr;
}
bool Kernel::reusedLoopVariable(const VarDecl* v, const std::vector<const DeclRefExpr*>& uses) {
  std::vector<const DeclRefExpr*> inItemFor;
  for (const DeclRefExpr* r : uses) {
    const ForStmt* f = ownerFor(r, v);
    if (!f) return false;
    if (withBarrier_.count(f)) continue;
    for (const Stmt* q = parentOf(f); q && q != fn_.body(); q = parentOf(q))
      if (const auto* outer = dyn_cast<ForStmt>(q); outer && withBarrier_.count(outer) && initAssigns(outer, v))
        return false;
    inItemFor.push_back(r);
  }
  if (inItemFor.empty()) return false;
  itemOwned_.insert(inItemFor.begin(), inItemFor.end());
  return true;
}
bool Kernel::isLoopIncWrite(const DeclRefExpr* r, const VarDecl* v) {
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
const Stmt* Kernel::updateStmtOf(const DeclRefExpr* r) {
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
// No update or call hidden in an expression a tile loop evaluates (its
// conditions, initialisers and assigned values only read).
static bool readsOnly(const Expr* e) {
  struct V : DynamicRecursiveASTVisitor {
    bool ok = true;
    bool VisitUnaryOperator(UnaryOperator* u) override { return ok = ok && !u->isIncrementDecrementOp(); }
    bool VisitBinaryOperator(BinaryOperator* b) override { return ok = ok && !b->isAssignmentOp(); }
    // Calls: only an index's or extent's subscript (`e[0]`), which reads.
    bool VisitCallExpr(CallExpr* c) override {
      const auto* oc = dyn_cast<CXXOperatorCallExpr>(c);
      return ok = ok && oc && oc->getOperator() == OO_Subscript && oc->getNumArgs() == 2 &&
                  isValueClass(oc->getArg(0)->IgnoreParenImpCasts()->getType());
    }
    bool VisitCXXConstructExpr(CXXConstructExpr*) override { return ok = false; }
    bool VisitLambdaExpr(LambdaExpr*) override { return ok = false; }
  } v;
  v.TraverseStmt(const_cast<Expr*>(e));
  return v.ok;
}
// s has a tile loop's shape (see kernel.h); its updates and own variables.
bool Kernel::tileLoopShape(const Stmt* s, TileLoop& l) {
  std::vector<const Expr*>& updates = l.updates;
  std::vector<const VarDecl*>& own = l.own;
  const Stmt* body = nullptr;
  const Expr* cond = nullptr;
  if (const auto* f = dyn_cast<ForStmt>(s)) {
    if (f->getConditionVariable() || !f->getCond()) return false;
    if (const Stmt* init = f->getInit()) {
      const auto* ds = dyn_cast<DeclStmt>(init);
      if (!ds) return false;
      for (const Decl* d : ds->decls()) {
        const auto* v = dyn_cast<VarDecl>(d);
        if (!v || !v->getType()->isArithmeticType() || !v->getInit() || v->isStaticLocal() ||
            !readsOnly(v->getInit()))
          return false;
        own.push_back(v);
      }
    }
    if (f->getInc()) commaParts(f->getInc(), updates);
    body = f->getBody();
    cond = f->getCond();
  } else if (const auto* w = dyn_cast<WhileStmt>(s)) {
    if (w->getConditionVariable()) return false;
    body = w->getBody();
    cond = w->getCond();
  } else {
    return false;
  }
  if (!readsOnly(cond)) return false;
  std::vector<const Stmt*> stmts;
  if (const auto* cs = dyn_cast<CompoundStmt>(body))
    stmts.assign(cs->body_begin(), cs->body_end());
  else
    stmts.push_back(body);
  for (const Stmt* c : stmts) {
    if (isa<NullStmt>(c)) continue;
    const auto* e = dyn_cast<Expr>(c);
    if (!e) return false;
    commaParts(e, updates);
  }
  for (const Expr* u : updates) {
    const VarDecl* v = updatedLocal(u);
    if (!v || !v->getType()->isArithmeticType()) return false;
    if (std::find(own.begin(), own.end(), v) == own.end() && !splitDecl_.count(v)) return false;
    if (const auto* b = dyn_cast<BinaryOperator>(u->IgnoreParens()); b && !readsOnly(b->getRHS())) return false;
  }
  return !updates.empty();
}
void Kernel::findTileLoops() {
  for (const Stmt* s : withBarrier_) {
    const auto* cs = dyn_cast<CompoundStmt>(s);
    if (!cs) continue;
    for (const Stmt* c : cs->body()) {
      TileLoop l;
      if (withBarrier_.count(c) || !inFile(c->getBeginLoc()) || !tileLoopShape(c, l)) continue;
      for (const VarDecl* v : l.own) tileLoopVar_[v] = c;
      for (const Expr* u : l.updates) tileLoopWrite_[updatedRef(u)] = c; // a variable: tileLoopShape checked
      tileLoops_.emplace(c, std::move(l));
    }
  }
}
// A candidate tile loop, given the tile-level variables as they stand: its
// conditions, initialisers and assigned values uniform, and every variable
// it updates other than its own tile-level.
bool Kernel::tileLoopUniform(const Stmt* s) {
  auto it = tileLoops_.find(s);
  if (it == tileLoops_.end()) return false;
  const TileLoop& l = it->second;
  for (const VarDecl* v : l.own)
    if (!uniform(v->getInit())) return false;
  const Expr* cond = isa<ForStmt>(s) ? cast<ForStmt>(s)->getCond() : cast<WhileStmt>(s)->getCond();
  if (!uniform(cond)) return false;
  for (const Expr* u : l.updates) {
    const VarDecl* v = updatedLocal(u);
    if (!tileLoopVar_.count(v) && !tileLevel_.count(v)) return false;
    if (const auto* b = dyn_cast<BinaryOperator>(u->IgnoreParens()); b && !uniform(b->getRHS())) return false;
  }
  return true;
}
bool Kernel::isTileUpdate(const DeclRefExpr* r) {
  if (auto it = tileLoopWrite_.find(r); it != tileLoopWrite_.end()) return tileLoopUniform(it->second);
  const Stmt* s = updateStmtOf(r);
  if (!s) return false;
  if (const auto* b = dyn_cast<BinaryOperator>(s)) return uniform(b->getRHS());
  return true;
}
bool Kernel::isTileUpdateStmt(const Stmt* c) {
  const Expr* lhs = nullptr;
  if (const auto* u = dyn_cast<UnaryOperator>(c); u && u->isIncrementDecrementOp()) lhs = u->getSubExpr();
  if (const auto* b = dyn_cast<BinaryOperator>(c); b && b->isAssignmentOp()) lhs = b->getLHS();
  const auto* dr = lhs ? dyn_cast<DeclRefExpr>(strip(lhs)) : nullptr;
  const auto* v = dr ? dyn_cast<VarDecl>(dr->getDecl()) : nullptr;
  return v && locals_.count(v) && tileLevel_.count(v) && updateStmtOf(dr) == c;
}
bool Kernel::capturedByCopy(const VarDecl* v) { return fn_.capturedByCopy(v); }
// A function object's member that is what a lambda's capture by copy is:
// `m` (this->m) of a const operator(), m neither a reference nor `mutable`:
// const, and the same value for every work-item.
bool Kernel::ownValueMember(const Expr* e) {
  const FieldDecl* fd = KernelFn::ownField(e);
  return fd && !fn_.lambda && !fd->isMutable() && !fd->getType()->isReferenceType();
}
// Uniform over the tile: the same value for every work-item of the tile at
// the same point of the body. Literals, tile-level locals, values captured
// by copy (const in a non-mutable kernel) and constants, the parameter's
// tile/tile_origin/tile_extent, and arithmetic, comparisons, casts and
// value-class (index/extent) accessors of those.
bool Kernel::uniform(const Expr* e) {
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
    // A tile loop's own variable: one value per tile while it runs.
    if (auto it = tileLoopVar_.find(v); it != tileLoopVar_.end()) return tileLoops_.count(it->second) > 0;
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
    // A function object's member that is const for the kernel (its
    // captures' role): uniform as a capture by copy is.
    if (ownValueMember(me)) return true;
    if (me->isArrow()) return false;
    // The extent of an array or view that is the same object for every
    // work-item (AMD's samples: `integers.extent[0]` of an array captured by
    // reference): AMP's extent is a read-only property, so no kernel
    // changes it.
    if (const auto* fd = dyn_cast<FieldDecl>(me->getMemberDecl());
        fd && fd->getName() == "extent" && inConcurrency(fd) && uniformObject(base))
      return true;
    return (isa<FieldDecl>(me->getMemberDecl()) || isa<VarDecl>(me->getMemberDecl())) && uniform(base);
  }
  if (const auto* b = dyn_cast<BinaryOperator>(e); b && b->isAssignmentOp()) return tileCondUpdate(b);
  if (const auto* b = dyn_cast<BinaryOperator>(e))
    return b->getOpcode() != BO_Comma && uniform(b->getLHS()) && uniform(b->getRHS());
  if (const auto* u = dyn_cast<UnaryOperator>(e)) {
    switch (u->getOpcode()) {
    case UO_Plus: case UO_Minus: case UO_Not: case UO_LNot: return uniform(u->getSubExpr());
    case UO_PreInc: case UO_PreDec: case UO_PostInc: case UO_PostDec: return tileCondUpdate(u);
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
  if (const auto* oc = dyn_cast<CXXOperatorCallExpr>(e); oc && !itemMode_ && isElementAccess(oc))
    return constElement(oc);
  if (const auto* oc = dyn_cast<CXXOperatorCallExpr>(e); oc && unitDimCoord(oc)) return true;
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
      ok = uniform(obj) || (!fn_.lambda && KernelFn::ownField(obj)) ||
           (isa<DeclRefExpr>(strip(obj)) && !locals_.count(dyn_cast<VarDecl>(
                                                                 cast<DeclRefExpr>(strip(obj))->getDecl())));
    if (!ok) return false;
    for (const Expr* a : mc->arguments())
      if (!uniform(a)) return false;
    return true;
  }
  return false;
}
// `t.global[d]` or `t.local[d]` where the tile is one work-item wide in
// dimension d (HPGMG's `tiled_index<1, 4, 8>`, `t.global[0]` naming the
// block): local[d] is 0 and global[d] is tile[d] for every work-item.
bool Kernel::unitDimCoord(const CXXOperatorCallExpr* oc) {
  if (oc->getOperator() != OO_Subscript || oc->getNumArgs() != 2) return false;
  const auto* me = dyn_cast<MemberExpr>(strip(oc->getArg(0)));
  const auto* dr = me ? dyn_cast<DeclRefExpr>(strip(me->getBase())) : nullptr;
  if (!dr || dr->getDecl() != param_) return false;
  const std::string n = me->getMemberDecl()->getNameAsString();
  if (n != "global" && n != "local") return false;
  Expr::EvalResult d;
  if (oc->getArg(1)->isValueDependent() || !oc->getArg(1)->EvaluateAsInt(d, ctx_)) return false;
  const int64_t k = d.Val.getInt().getExtValue();
  return k >= 0 && k < tileRank() && tileDim(static_cast<int>(k)) == 1;
}
// An element of an array or view that is the same object for every
// work-item, at uniform indices, of a scalar type the kernel never writes
// (CUDA ports pass sizes and strides in a small view: `for (z = t.tile[0];
// z < avSize[3]; ...)`): every work-item reads the same value wherever it
// reads it. "Never writes" by type: no store of that type outside the
// kernel's locals, and no pointer or non-const reference to memory of that
// type made or passed on (writesType); a store of another type cannot
// change it (type-based aliasing).
bool Kernel::constElement(const CXXOperatorCallExpr* oc) {
  if (!uniformObject(strip(oc->getArg(0)))) return false;
  for (unsigned i = 1; i < oc->getNumArgs(); ++i)
    if (!uniform(oc->getArg(i))) return false;
  return !writesType(oc->getType());
}
// May the kernel write memory of scalar type t other than its own locals?
bool Kernel::writesType(QualType t) {
  const CanQualType want = ctx_.getCanonicalType(t.getNonReferenceType().getUnqualifiedType());
  auto same = [&](QualType q) { return ctx_.getCanonicalType(q.getNonReferenceType().getUnqualifiedType()) == want; };
  auto local = [&](const Expr* e) {
    const auto* dr = dyn_cast<DeclRefExpr>(e->IgnoreParenImpCasts());
    const auto* v = dr ? dyn_cast<VarDecl>(dr->getDecl()) : nullptr;
    return v && locals_.count(v) && !v->getType()->isReferenceType() && !isTileStorage(v);
  };
  struct W : DynamicRecursiveASTVisitor {
    decltype(same)& is;
    decltype(local)& own;
    bool found = false;
    W(decltype(same)& s, decltype(local)& l) : is(s), own(l) {}
    bool VisitBinaryOperator(BinaryOperator* b) override {
      if (b->isAssignmentOp() && is(b->getLHS()->getType()) && !own(b->getLHS())) found = true;
      return true;
    }
    bool VisitUnaryOperator(UnaryOperator* u) override {
      if (u->isIncrementDecrementOp() && is(u->getSubExpr()->getType()) && !own(u->getSubExpr())) found = true;
      if (u->getOpcode() == UO_AddrOf && is(u->getSubExpr()->getType())) found = true; // a pointer may write
      return true;
    }
    bool VisitImplicitCastExpr(ImplicitCastExpr* c) override {
      if (c->getCastKind() == CK_ArrayToPointerDecay && c->getType()->isPointerType() &&
          is(c->getType()->getPointeeType()) && !c->getType()->getPointeeType().isConstQualified())
        found = true;
      return true;
    }
    // A pointer or non-const reference to such memory handed out or
    // returned (array_view::data(), atomics, an element passed by
    // reference); the bodies of the user's callees (functors' operator()
    // included) are searched too, their locals counting as memory.
    std::set<const FunctionDecl*> seen;
    int depth = 0;
    bool VisitCallExpr(CallExpr* c) override {
      if (c->getType()->isPointerType() && is(c->getType()->getPointeeType()) &&
          !c->getType()->getPointeeType().isConstQualified())
        found = true;
      const FunctionDecl* f = c->getDirectCallee();
      if (!f) return found = true;
      for (const ParmVarDecl* q : f->parameters()) {
        const QualType pt = q->getType();
        if ((pt->isReferenceType() || pt->isPointerType()) && is(pt->getPointeeType()) &&
            !pt->getPointeeType().isConstQualified())
          found = true;
      }
      if (inConcurrency(f) || !seen.insert(f).second) return true;
      const Stmt* b = f->getBody();
      if (!b || depth >= 8) return found = true;
      ++depth;
      TraverseStmt(const_cast<Stmt*>(b));
      --depth;
      return true;
    }
  } w(same, local);
  w.TraverseStmt(const_cast<CompoundStmt*>(body_));
  return w.found;
}
// A call of a function whose result depends only on its arguments
// (sameForSameArgs), each the same for every work-item: uniform values,
// objects that are the same for all (a captured view by const reference),
// or the kernel's tiled_index where the callee reads only the tile's
// members.
bool Kernel::uniformCall(const CallExpr* c) {
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
// e names the same object for every work-item of the tile: a captured
// variable (by copy: the closure's member, shared by the tile's calls on
// the compiled path and equal in every copy on the fibers path; by
// reference: the outer object), a variable outside the kernel, a
// tile_static variable, or a tile-level local or reference.
// v is initialised as a copy (copy or move constructor) of a uniform object.
bool Kernel::copiedFromUniform(const VarDecl* v) {
  // An index or extent made from uniform values with no copy to see (a
  // prvalue: `extent<1> e = t_idx.get_tile_extent();`) is one too.
  if (isValueClass(v->getType()) && uniform(v->getInit())) return true;
  // A value of a trivially copyable class returned by a call whose result
  // depends only on uniform arguments (a radix sort's `const auto blocks =
  // get_blocks_info(n, tile);`, its `blocks.count` a loop bound).
  if (const auto* c = dyn_cast<CallExpr>(v->getInit()->IgnoreImplicit());
      c && !isa<CXXMemberCallExpr>(c) && !isa<CXXOperatorCallExpr>(c) &&
      v->getType().isTriviallyCopyableType(ctx_) && uniformCall(c))
    return true;
  const auto* ce = dyn_cast<CXXConstructExpr>(v->getInit()->IgnoreImplicit());
  if (!ce || ce->getNumArgs() != 1 || !ce->getConstructor() ||
      !(ce->getConstructor()->isCopyConstructor() || ce->getConstructor()->isMoveConstructor()))
    return false;
  const Expr* a = ce->getArg(0)->IgnoreImplicit();
  // An index or extent copied from a uniform value (`index<1> tile_idx =
  // tidx.tile;`, Microsoft's BinomialOptions) is one too.
  return uniformObject(a) || (isValueClass(a->getType()) && uniform(a));
}
// The object e (a variable, or a member of it) is used without being
// modified: read, the object of a const member function or operator, a
// field of it used so, copied, or passed by value or const reference.
bool Kernel::constUse(const Expr* e) {
  const QualType type = e->getType();
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
        // `idx[0]` on a non-const index picks the non-const operator[];
        // read as a value, it changes nothing.
        if (i == 0 && !m->isConst() && m->getOverloadedOperator() == OO_Subscript && isValueClass(type))
          if (const auto* r = dyn_cast_or_null<ImplicitCastExpr>(parentOf(call)))
            return r->getCastKind() == CK_LValueToRValue;
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
bool Kernel::elementRef(const Expr* e) {
  // One of two such elements, chosen by a pure function of the work-item
  // (a BLAS library's `T& a_local = (transposed ? a_tile[col][row] :
  // a_tile[row][col]);`, its condition a template parameter).
  if (const auto* co = dyn_cast<ConditionalOperator>(e->IgnoreParens()))
    return co->isGLValue() && itemPure(co->getCond()) && elementRef(co->getTrueExpr()) &&
           elementRef(co->getFalseExpr());
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
    // (Or a reference to one: GPU builds declare a tile_static of class or
    // dependent type as union storage plus `auto& buf = amp_ts_buf.value;`.)
    return v && v->getType().getNonReferenceType()->isArrayType() && isTileStorage(v);
  }
  const auto* oc = dyn_cast<CXXOperatorCallExpr>(e->IgnoreImplicit());
  if (!oc || !isElementAccess(oc)) return false;
  const auto* dr = dyn_cast<DeclRefExpr>(strip(oc->getArg(0)));
  const auto* v = dr ? dyn_cast<VarDecl>(dr->getDecl()) : nullptr;
  if (!ownValueMember(oc->getArg(0)) && (!v || !(constCopy_.count(v) || (!locals_.count(v) && capturedByCopy(v)))))
    return false;
  for (unsigned i = 1; i < oc->getNumArgs(); ++i)
    if (!itemPure(oc->getArg(i))) return false;
  return true;
}
// v is a const reference bound to a temporary built from uniform values
// only (`const plus<int>& op = plus<int>();`, the inliner's binding of a
// functor argument): one such temporary per tile cannot be told from one
// per work-item (it is const, and its value the same for all).
bool Kernel::uniformTemporary(const VarDecl* v) {
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
bool Kernel::uniformObject(const Expr* e) {
  // A function object's member (a value, or a reference bound when the
  // object was made): the same object for every work-item.
  if (!fn_.lambda && KernelFn::ownField(e)) return true;
  // A member of such an object (`helper.op`, the inliner's binding of a
  // functor argument taken from a captured helper): the same member of the
  // same object.
  if (const auto* me = dyn_cast<MemberExpr>(e->IgnoreParenImpCasts()); me && !me->isArrow() && isa<FieldDecl>(me->getMemberDecl()))
    return uniformObject(me->getBase());
  const auto* dr = dyn_cast<DeclRefExpr>(e->IgnoreParenImpCasts());
  const auto* v = dr ? dyn_cast<VarDecl>(dr->getDecl()) : nullptr;
  if (!v || v == param_) return false;
  if (locals_.count(v)) return tileLevel_.count(v) > 0;
  return true;
}
// Written only by its own `for` increment (or never): within one iteration
// of the loops around it, every read gives the same value.
bool Kernel::stable(const VarDecl* v) {
  for (const DeclRefExpr* r : refs_)
    if (r->getDecl() == v && !isRead(r) && !isLoopIncWrite(r, v)) return false;
  return true;
}
// A pure function of the work-item and of values that stay put while it is
// in scope: literals, constants, captures by copy, stable tile-level
// variables, t.local, t.global, t.tile..., other recomputed values, with
// arithmetic, comparisons, casts and index/extent accessors. No memory read.
bool Kernel::itemPure(const Expr* e) {
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
void Kernel::chooseRecomputed(std::set<const DeclStmt*, SourceOrder>& perItemDecls) {
  std::map<std::string, int> names;
  for (const VarDecl* v : locals_) ++names[v->getNameAsString()];
  ++names[param_->getNameAsString()];
  // A reference bound to a work-item's own variable kept across barriers
  // (`unsigned& last = carry;`, the inliner's binding of a callee's
  // reference parameter to a kernel local): re-bound in each region that
  // uses it, to the same work-item's element.
  auto itemAlias = [&](const Expr* init) {
    const auto* dr = dyn_cast<DeclRefExpr>(init->IgnoreParenImpCasts());
    const auto* o = dr ? dyn_cast<VarDecl>(dr->getDecl()) : nullptr;
    if (!o || o->getType()->isReferenceType() || !locals_.count(o)) return false;
    auto it = splitDecl_.find(o);
    return it != splitDecl_.end() && perItemDecls.count(it->second) && !loopVar_.count(o);
  };
  auto candidate = [&](const VarDecl* v) {
    QualType t = v->getType();
    if (!v->getInit() || v->getInitStyle() != VarDecl::CInit || isa<InitListExpr>(v->getInit()->IgnoreImplicit()))
      return false;
    if (names[v->getNameAsString()] != 1) return false; // re-declared at the top of a region: no shadowing games
    // A reference to the work-item's element of a view (`float& c =
    // view[t];`, the inliner's binding of `f(t, view[t])` to `float& c`):
    // re-bound in each region that uses it, to the same element.
    if (t->isReferenceType()) {
      if (!elementRef(v->getInit()) && !itemAlias(v->getInit())) return false;
      for (const DeclRefExpr* r : refs_)
        if (r->getDecl() == v && !inFile(r->getLocation())) return false;
      return true;
    }
    // An index or extent only used as a value (`index<1> local_idx =
    // tidx.local;`) is recomputed like a scalar.
    if (isValueClass(t) && !t.isVolatileQualified()) {
      for (const DeclRefExpr* r : refs_)
        if (r->getDecl() == v && (!constUse(r) || !inFile(r->getLocation()))) return false;
      return true;
    }
    if (!(t->isArithmeticType() || t->isEnumeralType()) || t.isVolatileQualified()) return false;
    for (const DeclRefExpr* r : refs_)
      if (r->getDecl() == v && (!isRead(r) || !inFile(r->getLocation()))) return false;
    return true;
  };
  std::set<const DeclStmt*, SourceOrder> cands;
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
        if (!(cast<VarDecl>(d)->getType()->isReferenceType()
                  ? elementRef(cast<VarDecl>(d)->getInit()) || itemAlias(cast<VarDecl>(d)->getInit())
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
bool Kernel::isTileStorage(const VarDecl* v) {
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
void Kernel::classifyLocals() {
  findTileLoops();
  std::map<const VarDecl*, std::vector<const DeclRefExpr*>> uses;
  for (const DeclRefExpr* r : refs_)
    if (const auto* v = dyn_cast<VarDecl>(r->getDecl()))
      if (locals_.count(v) && !unevaluated_.count(r)) uses[v].push_back(r);
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
    // write is. Pointers too: an inlined callee's pointer parameter bound to
    // a tile_static array (Bolt's `lmem = sorterSharedMemory`) is one
    // address for the whole tile; a pointer into a work-item's own storage
    // (`&x`, a per-work-item array) is not uniform and stays per work-item.
    if (!(t->isArithmeticType() || t->isEnumeralType() || t->isPointerType())) continue;
    // A const variable cannot be written (its uses in a constant
    // expression, an array bound, are not plain reads).
    bool written = false;
    const bool reused = reusedLoopVariable(v, uses[v]);
    for (const DeclRefExpr* r : uses[v])
      if (!isRead(r) && !isLoopIncWrite(r, v) && !updateStmtOf(r) && !tileLoopWrite_.count(r) && !forWrite(r) &&
          !condWriteExpr(r) &&
          !t.isConstQualified() &&
          !(reused && itemOwned_.count(r)))
        written = true;
    if (!written) tileLevel_.insert(v);
  }
  }
  for (bool changed = true; changed;) {
    changed = false;
    for (auto it = tileLoops_.begin(); it != tileLoops_.end();)
      if (!tileLoopUniform(it->first)) it = tileLoops_.erase(it), changed = true;
      else ++it;
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
          if (!isRead(r) && !isLoopIncWrite(r, v) && !isTileUpdate(r) && !forWriteUniform(r) &&
              !condWriteUniform(r) && !itemOwned_.count(r))
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
  std::set<const DeclStmt*, SourceOrder> perItemDecls;
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
      if (v->getInit() && v->getInitStyle() == VarDecl::CallInit && !t->isScalarType() &&
          !isa<CXXConstructExpr>(v->getInit()->IgnoreImplicit()))
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
int Kernel::regionAt(unsigned o) {
  for (size_t i = 0; i < regionRange_.size(); ++i)
    if (regionRange_[i].first <= o && o < regionRange_[i].second) return static_cast<int>(i);
  return -1;
}
// A declaration of types or names only (`using T = int;`, `typedef`,
// `using namespace`): a statement of the tile, visible to every region
// after it (in a region it would end with the region's loop body). Not
// when it names a local's type (decltype), which a region may declare.
bool Kernel::isTypeDeclStmt(const Stmt* c) {
  const auto* ds = dyn_cast<DeclStmt>(c);
  if (!ds) return false;
  for (const Decl* d : ds->decls()) {
    if (isa<UsingDirectiveDecl>(d) || isa<UsingDecl>(d)) continue;
    const auto* td = dyn_cast<TypedefNameDecl>(d);
    if (!td || td->getUnderlyingType()->isDependentType()) return false;
    const SourceRange r = td->getSourceRange();
    if (!inFile(r.getBegin()) || !inFile(r.getEnd())) return false;
    if (namesLocal(td)) return false;
  }
  return true;
}
// Whether a decltype/typeof in td's type names a local of the kernel (a
// region may declare it); one over captures only (the inliner's alias of a
// functor type deduced from `helper.op`) names the same type everywhere.
bool Kernel::namesLocal(const TypedefNameDecl* td) {
  struct V : DynamicRecursiveASTVisitor {
    const std::set<const VarDecl*>& locals;
    bool found = false;
    explicit V(const std::set<const VarDecl*>& l) : locals(l) {}
    bool VisitDeclRefExpr(DeclRefExpr* r) override {
      const auto* v = dyn_cast<VarDecl>(r->getDecl());
      found = found || (v && locals.count(v));
      return true;
    }
  } v(locals_);
  if (const TypeSourceInfo* tsi = td->getTypeSourceInfo()) v.TraverseTypeLoc(tsi->getTypeLoc());
  else return true;
  return v.found;
}
bool Kernel::isOrdinary(const Stmt* c) {
  if (barrierStmts_.count(c) || withBarrier_.count(c) || tileJumps_.count(c) || isTileUpdateStmt(c) ||
      tileLoops_.count(c) || isTypeDeclStmt(c))
    return false;
  if (const auto* ds = dyn_cast<DeclStmt>(c)) {
    for (const Decl* d : ds->decls())
      if (const auto* v = dyn_cast<VarDecl>(d); v && tileLevel_.count(v)) return false;
  }
  return true;
}

bool constructorNeverWaits(ASTContext& ctx, const CXXConstructorDecl* c, unsigned j) {
  return neverWaits(ctx, c, j, 0);
}
} // namespace tile_compiler
