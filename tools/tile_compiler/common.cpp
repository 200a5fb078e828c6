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

bool slackDecl(SourceManager& sm, const LangOptions& lo, const DeclStmt* ds, unsigned& b, unsigned& e,
               std::string& rep) {
  const auto* v = ds->isSingleDecl() ? dyn_cast<VarDecl>(ds->getSingleDecl()) : nullptr;
  if (!v || v->getTLSKind() == VarDecl::TLS_None || !v->getType()->isConstantArrayType()) return false;
  const SourceLocation begin = sm.getExpansionLoc(ds->getBeginLoc()), name = v->getLocation(), end = ds->getEndLoc();
  if (!name.isFileID() || !end.isFileID() || sm.getFileID(begin) != sm.getFileID(name) ||
      sm.getFileID(name) != sm.getFileID(end))
    return false;
  const llvm::StringRef buf = sm.getBufferData(sm.getFileID(name));
  const unsigned ob = sm.getFileOffset(begin), on = sm.getFileOffset(name), semi = sm.getFileOffset(end);
  if (ob >= on || on >= semi || buf[semi] != ';') return false;
  const unsigned afterName = sm.getFileOffset(Lexer::getLocForEndOfToken(name, 0, sm, lo));
  const std::string head = buf.slice(ob, on).str(), bounds = buf.slice(afterName, semi).str();
  static const std::string kw = "tile_static";
  if (head.compare(0, kw.size(), kw) != 0 || head.size() <= kw.size() || !isspace((unsigned char)head[kw.size()]))
    return false;
  const std::string type = head.substr(kw.size());
  for (const char* bad : {"alignas", "__attribute", "__declspec", "[[", "#", "//", "/*"})
    if (type.find(bad) != std::string::npos || bounds.find(bad) != std::string::npos) return false;
  const size_t lb = bounds.find_first_not_of(" \t\r\n"), rb = bounds.find_last_not_of(" \t\r\n");
  if (lb == std::string::npos || bounds[lb] != '[' || bounds[rb] != ']') return false;
  const std::string store = "amp_ht_ts" + std::to_string(ob); // its offset: the same in every instantiation
  rep = "tile_static ::Concurrency::detail::host_tiles::tile_static_slack<" + type + bounds + "> " + store +
        "; auto& " + v->getNameAsString() + " = " + store + ".value;";
  rep.append(std::count(head.begin(), head.end(), '\n') + std::count(bounds.begin(), bounds.end(), '\n'), '\n');
  b = ob;
  e = semi + 1;
  return true;
}
std::vector<SlackEdit> slackDecls(SourceManager& sm, const LangOptions& lo, const CompoundStmt* body) {
  // The arrays the body names in a decltype or inside a lambda.
  struct R : DynamicRecursiveASTVisitor {
    std::set<const ValueDecl*>& out;
    explicit R(std::set<const ValueDecl*>& o) : out(o) {}
    bool VisitDeclRefExpr(DeclRefExpr* r) override {
      out.insert(r->getDecl());
      return true;
    }
  };
  struct V : DynamicRecursiveASTVisitor {
    std::set<const ValueDecl*> named;
    std::vector<const DeclStmt*> decls;
    bool VisitLambdaExpr(LambdaExpr* l) override {
      R(named).TraverseStmt(l->getBody());
      return true;
    }
    bool VisitDecltypeTypeLoc(DecltypeTypeLoc tl) override {
      R(named).TraverseStmt(tl.getUnderlyingExpr());
      return true;
    }
    bool VisitDeclStmt(DeclStmt* ds) override {
      decls.push_back(ds);
      return true;
    }
  } v;
  v.TraverseStmt(const_cast<CompoundStmt*>(body));
  std::vector<SlackEdit> out;
  const SourceLocation lb = body->getLBracLoc(), rb = body->getRBracLoc();
  if (!lb.isFileID() || !rb.isFileID()) return out;
  for (const DeclStmt* ds : v.decls) {
    SlackEdit x;
    if (ds->isSingleDecl() && !v.named.count(dyn_cast<ValueDecl>(ds->getSingleDecl())) &&
        slackDecl(sm, lo, ds, x.b, x.e, x.text) &&
        sm.getFileID(sm.getExpansionLoc(ds->getBeginLoc())) == sm.getFileID(lb) && x.b > sm.getFileOffset(lb) &&
        x.e <= sm.getFileOffset(rb))
      out.push_back(x);
  }
  std::sort(out.begin(), out.end(), [](const SlackEdit& a, const SlackEdit& b) { return a.b < b.b; });
  return out;
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

std::string quote(const std::string& s) {
  std::string o = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') o += '\\';
    o += c;
  }
  return o + "\"";
}

} // namespace tile_compiler
