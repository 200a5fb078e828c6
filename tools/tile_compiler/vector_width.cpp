// Which compiled kernels get the wider instruction-set copies (AVX2,
// AVX-512; compiled_tiles.h, "Vector width"): those whose body has
// arithmetic the wider vectors speed up. Each copy costs the build a
// compile of the whole per-tile body again (two copies: most of what the
// tile compiler adds to a library source's compile), and the copies won
// only where the regions multiply or divide values or call math functions
// (bench/RESULTS.md, "Host tiles: AVX2/AVX-512 copies chosen by timing":
// the pricers 3x, tiled matmul 2-5x), never where they only move, add or
// compare them (transposes, reductions, scans, sorts and the barrier
// kernels kept the baseline copy). A kernel without such arithmetic is
// built in the baseline copy only.
#include "common.h"

namespace tile_compiler {
namespace {

// An element read: a subscript of an array or of a class that is not an
// index value (t.tile[0], e.extent[1] are index arithmetic, not data).
bool elementRead(const Expr* e) {
  e = e->IgnoreParenImpCasts();
  if (isa<ArraySubscriptExpr>(e)) return true;
  const auto* oc = dyn_cast<CXXOperatorCallExpr>(e);
  if (!oc || (oc->getOperator() != OO_Subscript && oc->getOperator() != OO_Call) || oc->getNumArgs() == 0)
    return false;
  const QualType obj = oc->getArg(0)->IgnoreImpCasts()->getType(); // index<N>, not its int_tuple base
  return !isValueClass(obj) && !isAmpClass(obj, "tiled_index");
}

bool constantOperand(const Expr* e, const ASTContext& ctx) {
  return !e->isValueDependent() && !e->isTypeDependent() && e->isIntegerConstantExpr(ctx);
}

struct Finder : DynamicRecursiveASTVisitor {
  const ASTContext& ctx;
  bool found = false;
  explicit Finder(const ASTContext& c) : ctx(c) {}

  bool VisitBinaryOperator(BinaryOperator* b) override {
    const BinaryOperatorKind k = b->getOpcode();
    if (k != BO_Mul && k != BO_Div && k != BO_MulAssign && k != BO_DivAssign) return true;
    const auto* ca = dyn_cast<CompoundAssignOperator>(b);
    const QualType t = ca ? ca->getComputationResultType() : b->getType();
    if (t->isRealFloatingType() || t->isVectorType()) found = true;
    // Integer products of data (matmul's int instance), not of indices.
    else if (t->isIntegerType() && !constantOperand(b->getLHS(), ctx) && !constantOperand(b->getRHS(), ctx) &&
             (elementRead(b->getLHS()) || elementRead(b->getRHS())))
      found = true;
    return !found;
  }
  // A user's arithmetic operator (short vectors, complex numbers).
  bool VisitCXXOperatorCallExpr(CXXOperatorCallExpr* c) override {
    const OverloadedOperatorKind k = c->getOperator();
    if (c->getNumArgs() == 2 && (k == OO_Star || k == OO_Slash || k == OO_StarEqual || k == OO_SlashEqual))
      found = true;
    return !found;
  }
  // A math function: floating-point, from amp_math.h's namespaces, the C or
  // C++ library (a system header) or a compiler builtin; not a user's
  // function that only returns a value of the element type (padded_read).
  bool VisitCallExpr(CallExpr* c) override {
    if (isa<CXXOperatorCallExpr>(c) || isa<CXXMemberCallExpr>(c)) return true;
    const FunctionDecl* f = c->getDirectCallee();
    if (f && f->getReturnType()->isRealFloatingType() &&
        (f->getBuiltinID() || ctx.getSourceManager().isInSystemHeader(f->getLocation()) || mathNamespace(f)))
      found = true;
    return !found;
  }
  static bool mathNamespace(const FunctionDecl* f) {
    const auto* ns = dyn_cast<NamespaceDecl>(f->getDeclContext());
    return ns && (ns->getName() == "fast_math" || ns->getName() == "precise_math");
  }
};

} // namespace

bool paysForWideCopies(const Stmt* body, const ASTContext& ctx) {
  Finder f(ctx);
  f.TraverseStmt(const_cast<Stmt*>(body));
  return f.found;
}

} // namespace tile_compiler
