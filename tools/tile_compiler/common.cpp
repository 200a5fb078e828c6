// The small type helpers of every pass (common.h): types spelled from
// anywhere in the file, and which classes are Concurrency's.
#include "common.h"

namespace tile_compiler {

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

bool KernelFn::capturedByCopy(const VarDecl* v) const {
  if (!lambda) return false;
  for (const LambdaCapture& c : lambda->captures())
    if (c.capturesVariable() && c.getCapturedVar() == v) return c.getCaptureKind() == LCK_ByCopy;
  return false;
}
const FieldDecl* KernelFn::ownField(const Expr* e) {
  const auto* me = dyn_cast<MemberExpr>(e->IgnoreParenImpCasts());
  if (!me || !isa<CXXThisExpr>(me->getBase()->IgnoreParenImpCasts())) return nullptr;
  return dyn_cast<FieldDecl>(me->getMemberDecl());
}

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

} // namespace tile_compiler
