// Kernel's independence proof (kernel.h): which region loops are marked
// `#pragma GCC ivdep`, by the rules below.
#include "kernel.h"

namespace tile_compiler {

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
bool Kernel::isCoord(const Expr* e, int d, bool global) {
  e = e->IgnoreParenImpCasts();
  if (const auto* dr = dyn_cast<DeclRefExpr>(e)) {
    const auto* v = dyn_cast<VarDecl>(dr->getDecl());
    return v && remat_.count(v) && ctx_.hasSameUnqualifiedType(v->getType(), ctx_.IntTy) &&
           isCoord(v->getInit(), d, global);
  }
  const auto* oc = dyn_cast<CXXOperatorCallExpr>(e);
  if (!oc || oc->getOperator() != OO_Subscript || oc->getNumArgs() != 2) return false;
  // The index: `t.local`, or a recomputed copy of it (`const index<1>
  // local_idx = t.local;`, Microsoft's BinomialOptions).
  const Expr* obj = strip(oc->getArg(0));
  for (int hop = 0; hop < 4; ++hop) {
    const auto* dr = dyn_cast<DeclRefExpr>(obj);
    const auto* v = dr ? dyn_cast<VarDecl>(dr->getDecl()) : nullptr;
    if (!v || !remat_.count(v) || !isValueClass(v->getType()) || !v->getInit()) break;
    const auto* ce = dyn_cast<CXXConstructExpr>(v->getInit()->IgnoreImplicit());
    if (!ce || ce->getNumArgs() != 1 || !ce->getConstructor() || !ce->getConstructor()->isCopyConstructor()) break;
    obj = strip(ce->getArg(0));
  }
  const auto* me = dyn_cast<MemberExpr>(obj);
  const auto* base = me ? dyn_cast<DeclRefExpr>(strip(me->getBase())) : nullptr;
  const auto* lit = dyn_cast<IntegerLiteral>(strip(oc->getArg(1)));
  if (!base || base->getDecl() != param_ || !lit || lit->getValue() != static_cast<uint64_t>(d)) return false;
  const llvm::StringRef n = me->getMemberDecl()->getName();
  return n == "local" || (global && n == "global");
}
// e is coordinate d plus (or minus) tile-uniform int offsets, in int.
bool Kernel::isCoordPlusUniform(const Expr* e, int d, bool global) {
  e = e->IgnoreParenImpCasts();
  if (!ctx_.hasSameUnqualifiedType(e->getType(), ctx_.IntTy)) return false;
  if (isCoord(e, d, global)) return true;
  const auto* b = dyn_cast<BinaryOperator>(e);
  if (!b || (b->getOpcode() != BO_Add && b->getOpcode() != BO_Sub)) return false;
  if (uniform(b->getRHS()) && isCoordPlusUniform(b->getLHS(), d, global)) return true;
  return b->getOpcode() == BO_Add && uniform(b->getLHS()) && isCoordPlusUniform(b->getRHS(), d, global);
}
bool Kernel::sameUniform(const Expr* a, const Expr* b) {
  a = a->IgnoreParenImpCasts(), b = b->IgnoreParenImpCasts();
  if (const auto* x = dyn_cast<DeclRefExpr>(a))
    if (const auto* y = dyn_cast<DeclRefExpr>(b)) return x->getDecl() == y->getDecl();
  if (const auto* x = dyn_cast<IntegerLiteral>(a))
    if (const auto* y = dyn_cast<IntegerLiteral>(b)) return x->getValue() == y->getValue();
  return false;
}
bool Kernel::noPointers() {
  if (noPointersKnown_) return noPointers_;
  noPointersKnown_ = true;
  struct V : DynamicRecursiveASTVisitor {
    Kernel& k;
    bool ok = true;
    explicit V(Kernel& kk) : k(kk) {}
    bool VisitUnaryOperator(UnaryOperator* u) override {
      if (u->getOpcode() == UO_AddrOf || u->getOpcode() == UO_Deref) ok = false;
      return true;
    }
    bool VisitImplicitCastExpr(ImplicitCastExpr* c) override {
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
const VarDecl* Kernel::tileStaticVar(const Expr* e) {
  const auto* dr = dyn_cast<DeclRefExpr>(e->IgnoreParenImpCasts());
  const auto* v = dr ? dyn_cast<VarDecl>(dr->getDecl()) : nullptr;
  return v && locals_.count(v) && (v->isStaticLocal() || v->getTLSKind() != VarDecl::TLS_None) ? v : nullptr;
}
// The outermost subscript chain s[i0][i1]... of a kernel-local array:
// the array and its indices, outermost first.
const VarDecl* Kernel::subscriptChain(const ArraySubscriptExpr* a, std::vector<const Expr*>& idx) {
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
bool Kernel::ownSlot(const VarDecl* v, const std::vector<const Expr*>& idx) {
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
int Kernel::tileDim(int d) {
  int k = 0;
  if (const auto* ts = dyn_cast_or_null<ClassTemplateSpecializationDecl>(
          param_->getType().getNonReferenceType()->getAsCXXRecordDecl()))
    for (const TemplateArgument& a : ts->getTemplateArgs().asArray())
      if (a.getKind() == TemplateArgument::Integral && a.getAsIntegral().getSExtValue() > 0 && k++ == d)
        return static_cast<int>(a.getAsIntegral().getSExtValue());
  return 1 << 30;
}
bool Kernel::isElementAccess(const CXXOperatorCallExpr* oc) {
  if (oc->getOperator() != OO_Subscript && oc->getOperator() != OO_Call) return false;
  if (oc->getNumArgs() < 2) return false;
  QualType obj = oc->getArg(0)->IgnoreParenImpCasts()->getType();
  return (isAmpClass(obj, "array_view") || isAmpClass(obj, "array")) && oc->getType()->isScalarType() &&
         oc->isLValue();
}
// An array_view/array element index that is injective over the tile's work-items.
bool Kernel::injectiveIndex(const CXXOperatorCallExpr* oc) {
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
int Kernel::useOf(const Expr* e) {
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
bool Kernel::independent(const std::vector<const Stmt*>& stmts, const Expr* guard) {
  if (!returns_.empty() || !noPointers()) return false;
  const Access a = regionAccess(stmts, guard);
  if (a.fail || a.foreignSlot || a.globalWrites > 1 || (a.globalWrites && a.globalReads)) return false;
  for (const VarDecl* w : a.tsWritten)
    if (a.tsReadElsewhere.count(w)) return false;
  return true;
}
// What the statements `stmts` of one region read and write (Access); fail:
// something the proofs do not follow (a call, a pointer, a reference).
Kernel::Access Kernel::regionAccess(const std::vector<const Stmt*>& stmts, const Expr* guard) {
  struct V : DynamicRecursiveASTVisitor {
    Kernel& k;
    const Expr* guard;
    Access a;
    V(Kernel& kk, const Expr* g) : k(kk), guard(g) { ShouldVisitImplicitCode = false; }
    bool VisitVarDecl(VarDecl* v) override {
      if (v->getType()->isReferenceType() || v->getType()->isPointerType()) a.fail = true;
      return true;
    }
    bool VisitCallExpr(CallExpr* c) override {
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
    bool VisitCXXConstructExpr(CXXConstructExpr* c) override {
      const CXXConstructorDecl* ctor = c->getConstructor();
      if (!isValueClass(c->getType()) && !(ctor && ctor->isTrivial())) a.fail = true;
      return true;
    }
    // A store or load through a pointer: memory the proofs do not follow.
    bool VisitUnaryOperator(UnaryOperator* u) override {
      if (u->getOpcode() == UO_Deref) a.fail = true;
      return true;
    }
    bool VisitCXXNewExpr(CXXNewExpr*) override { return a.fail = true; }
    bool VisitCXXDeleteExpr(CXXDeleteExpr*) override { return a.fail = true; }
    bool VisitCXXThrowExpr(CXXThrowExpr*) override { return a.fail = true; }
    bool VisitDeclRefExpr(DeclRefExpr* r) override {
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
    bool VisitMemberExpr(MemberExpr* m) override {
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
    bool VisitArraySubscriptExpr(ArraySubscriptExpr* as) override {
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
        if (!own) a.foreignSlot = true;
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
  return v.a;
}
std::string Kernel::ivdep(const std::vector<const Stmt*>& stmts, const Expr* guard) {
  if (ivdepOff || !independent(stmts, guard)) return "";
  ++independent_;
  return "\n#pragma GCC ivdep\n";
}

} // namespace tile_compiler
