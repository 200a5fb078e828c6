// Kernel's uniform reads (kernel.h): an element of a view or array read at
// uniform indices inside a region, such as Microsoft's BinomialOptions
// sample's `pu_by_df[tile_idx] * call_a[tid + 1]` in its innermost loop, is
// read once per tile, before the region's work-item loop, instead of once per
// work-item. Each read was a call through the view's checks (bounds under
// --windows-compat, the host copy's state) that kept the compiler from
// vectorising the loop: that sample's compiled kernel ran about 15 times
// slower than with the read hoisted by hand (bench/RESULTS.md).
//
// Why it gives the same values: every work-item of the region reads the same
// element (uniform object, uniform indices), and the region writes no memory
// but its own locals and tile_static arrays (regionAccess: no element write,
// no call, pointer or reference the proofs do not follow), so no work-item
// of the tile changes the element before another reads it; a write by
// another tile would be a race AMP leaves undefined. The read is one the
// region makes whatever the work-item (not under a condition, a loop or a
// short-circuit), so reading it once before the loop reads nothing the
// original would not have read.
#include "kernel.h"

namespace tile_compiler {

// s is evaluated whenever the region's statements run: no condition, loop,
// switch, conditional or short-circuit operator, lambda or statement
// expression lies between it and the region's statement.
bool Kernel::unconditionalIn(const Stmt* s, const std::vector<const Stmt*>& stmts) {
  for (const Stmt* p = parentOf(s); p; p = parentOf(p)) {
    if (std::find(stmts.begin(), stmts.end(), p) != stmts.end()) return true;
    if (isa<IfStmt>(p) || isa<ForStmt>(p) || isa<WhileStmt>(p) || isa<DoStmt>(p) || isa<SwitchStmt>(p) ||
        isa<CXXForRangeStmt>(p) || isa<AbstractConditionalOperator>(p) || isa<LambdaExpr>(p) ||
        isa<StmtExpr>(p) || isa<CXXTryStmt>(p))
      return false;
    if (const auto* b = dyn_cast<BinaryOperator>(p); b && b->isLogicalOp()) return false;
    // A recomputed value's declaration is emitted again in every region
    // that reads it, where the hoisted name would not exist.
    if (const auto* ds = dyn_cast<DeclStmt>(p))
      for (const Decl* d : ds->decls())
        if (const auto* v = dyn_cast<VarDecl>(d); v && remat_.count(v)) return false;
  }
  return std::find(stmts.begin(), stmts.end(), s) != stmts.end();
}

// Every local that e names is declared before offset b (the region's
// start), so that its name is visible where the hoisted read is emitted.
bool Kernel::namesDeclaredBefore(const Expr* e, unsigned b) {
  struct N : DynamicRecursiveASTVisitor {
    Kernel& k;
    unsigned b;
    bool ok = true;
    N(Kernel& kk, unsigned bb) : k(kk), b(bb) {}
    bool VisitDeclRefExpr(DeclRefExpr* r) override {
      if (const auto* v = dyn_cast<VarDecl>(r->getDecl()); v && k.locals_.count(v))
        if (!v->getLocation().isValid() || k.off(v->getLocation()) >= b || !k.tileLevel_.count(v)) ok = false;
      return ok;
    }
  } n(*this, b);
  n.TraverseStmt(const_cast<Expr*>(e));
  return n.ok;
}

// The read [lb, le] as text of the kernel's file: written there, or the
// whole expansion of one macro invocation written there (`#define COEF
// pu[t.tile]`), whose body is defined before the region (offset b) or in
// another file; lb and le become the text's first and last token.
bool Kernel::wholeText(SourceLocation& lb, SourceLocation& le, unsigned b) {
  if (lb.isMacroID() || le.isMacroID()) {
    SourceLocation mb, me;
    if (!Lexer::isAtStartOfMacroExpansion(lb, sm_, lo_, &mb) || !Lexer::isAtEndOfMacroExpansion(le, sm_, lo_, &me))
      return false;
    const SourceLocation body = sm_.getSpellingLoc(lb);
    if (sm_.getFileID(body) == fid_ && sm_.getFileOffset(body) >= b) return false;
    lb = mb, le = me;
  }
  return lb.isFileID() && le.isFileID() && inFile(lb) && inFile(le);
}

// oc reads one element, the same for every work-item of the region
// (statements stmts) and not changed by it: uniform object and indices, a
// read the region makes whatever the work-item, and a region that writes no
// memory but its locals and tile_static arrays (the conditions above).
bool Kernel::sameForAllItems(const CXXOperatorCallExpr* oc, const std::vector<const Stmt*>& stmts) {
  if (stmts.empty() || !returns_.empty() || !isElementAccess(oc) || useOf(oc) != 0 ||
      !uniformObject(strip(oc->getArg(0))))
    return false;
  for (unsigned i = 1; i < oc->getNumArgs(); ++i)
    if (!uniform(oc->getArg(i))) return false;
  const Access a = regionAccess(stmts, nullptr);
  return !a.fail && !a.globalWrites && unconditionalIn(oc, stmts);
}

// A value kept per work-item that every work-item sets to the same element
// (`const float pu = up[option], pd = down[option];` in a pricer, before
// its loops of barriers): const, a scalar, its whole initialiser a read
// that sameForAllItems holds for in its declaration's region. All
// amp_ht_n copies would be equal (each work-item read the same unchanged
// element, and none can change its own copy), so one scalar of the tile
// holds it: the region loops that use it read a value the compiler keeps
// in a register instead of a row (2 of binomial_macro's 4 loads per
// element).
void Kernel::uniformKept() {
  for (auto& [v, name] : arrays_) {
    if (slots_.count(v) || arrayDecl_.count(v) || boundByName_.count(v) || !v->getType().isConstQualified() ||
        !v->getType()->isScalarType() || !v->getInit())
      continue;
    const auto* oc = dyn_cast<CXXOperatorCallExpr>(strip(v->getInit()));
    auto ds = splitDecl_.find(v);
    if (!oc || ds == splitDecl_.end() || !regionOf_.count(ds->second)) continue;
    const int r = regionOf_[ds->second];
    std::vector<const Stmt*> stmts;
    for (const auto& [s, rr] : regionOf_)
      if (rr == r) stmts.push_back(s);
    if (sameForAllItems(oc, stmts)) oneValue_.insert(v);
  }
  per_item -= static_cast<int>(oneValue_.size());
}

// The declarations `const auto amp_ht_hN = READ;` of the region [b, e)
// (statements `stmts`), each read replaced by its name in the region's
// text; "" when nothing is hoisted.
std::string Kernel::hoistReads(const std::vector<const Stmt*>& stmts, unsigned b, unsigned e) {
  // (A pointer the kernel makes elsewhere cannot write here: regionAccess
  // fails on any dereference, pointer or call in the region.)
  if (ivdepOff || stmts.empty() || !returns_.empty()) return "";
  const Access a = regionAccess(stmts, nullptr);
  if (a.fail || a.globalWrites) return "";
  struct C : DynamicRecursiveASTVisitor {
    Kernel& k;
    std::vector<const CXXOperatorCallExpr*> found;
    explicit C(Kernel& kk) : k(kk) { ShouldVisitImplicitCode = false; }
    bool VisitCXXOperatorCallExpr(CXXOperatorCallExpr* oc) override {
      if (!isElementAccess(oc) || k.useOf(oc) != 0 || !k.uniformObject(strip(oc->getArg(0)))) return true;
      for (unsigned i = 1; i < oc->getNumArgs(); ++i)
        if (!k.uniform(oc->getArg(i))) return true;
      found.push_back(oc);
      return true;
    }
  } c(*this);
  for (const Stmt* s : stmts) c.TraverseStmt(const_cast<Stmt*>(s));
  std::string out;
  unsigned lastEnd = 0;
  for (const CXXOperatorCallExpr* oc : c.found) {
    SourceLocation lb = oc->getBeginLoc(), le = oc->getEndLoc();
    if (!wholeText(lb, le, b)) continue;
    const unsigned ob = off(lb), oe = endOfToken(le);
    if (ob < b || oe > e || ob < lastEnd) continue; // outside the region's text, or inside a hoisted read
    if (!unconditionalIn(oc, stmts) || !namesDeclaredBefore(oc, b)) continue;
    const std::string name = "amp_ht_h" + std::to_string(hoisted_++);
    out += lineDirective(lb) + "const auto " + name + " = " + text(ob, oe) + ";\n";
    Edit ed{ob, oe, name};
    edits_.insert(std::upper_bound(edits_.begin(), edits_.end(), ed,
                                   [](const Edit& x, const Edit& y) { return x.b < y.b; }),
                  ed);
    lastEnd = oe;
  }
  return out;
}

} // namespace tile_compiler
