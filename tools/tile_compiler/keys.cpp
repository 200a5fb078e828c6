// Binding keys (keys.h): declaration keys, the walk over a statement tree
// and the second pass's keys of an inlined block.
#include "keys.h"

#include <map>
#include <vector>

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

namespace tile_compiler {

// A file's name as both parses see it: the first reads a header through the
// include path as written (`-I/src/app/../lib/include`), the second through
// the launcher's copy, whose #line names the file as the launcher resolved
// it; the same file must give the same key (else every kernel that inlines
// a callee from such a header kept fibers: Bolt built with `..` in its -I).
static std::vector<std::string>& overlays() {
  static std::vector<std::string> o;
  return o;
}
void keyOverlay(const std::string& overlay) {
  if (overlay.empty()) return;
  overlays().push_back(overlay + "/");
  llvm::SmallString<256> r;
  if (!llvm::sys::fs::real_path(overlay, r)) overlays().push_back(std::string(r) + "/");
}
// A file's name in keys: its real path; a copy in the overlay (the second
// parse reads the first's copies of the project's headers) stands for its
// original, so that both parses key a declaration alike.
static std::string fileKey(const char* name) {
  static std::map<std::string, std::string> seen;
  auto it = seen.find(name);
  if (it != seen.end()) return it->second;
  llvm::SmallString<256> p;
  if (llvm::sys::fs::real_path(name, p)) {
    p = name;
    llvm::sys::path::remove_dots(p, /*remove_dot_dot=*/true);
  }
  return seen[name] = originalOf(std::string(p.str()));
}
std::string originalOf(const std::string& path) {
  for (const std::string& o : overlays())
    if (path.rfind(o, 0) == 0) return path.substr(o.size() - 1);
  return path;
}

// A declaration as both parses see it: qualified name and where it is written.
std::string declKey(SourceManager& sm, const Decl* d) {
  std::string k;
  if (const auto* nd = dyn_cast<NamedDecl>(d)) k = nd->getQualifiedNameAsString();
  if (const auto* fd = dyn_cast<FunctionDecl>(d)) k += "(" + fd->getType().getCanonicalType().getAsString() + ")";
  const PresumedLoc p = sm.getPresumedLoc(sm.getExpansionLoc(d->getLocation()));
  if (p.isValid()) k += "@" + fileKey(p.getFilename()) + ":" + std::to_string(p.getLine());
  return k;
}
std::string canon(QualType t) { return t.getCanonicalType().getAsString(); }

std::string KeyWalker::key(const ValueDecl* d) {
  std::string n = name(d);
  return n.empty() ? declKey(sm, d) : n;
}
void KeyWalker::walk(const Stmt* s) {
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
  // The barrier of the tiled_index ("T"): keyed as "T" itself, since a
  // callee's `tile_barrier&` parameter (keyed "T" in the first parse)
  // becomes the kernel's `t.barrier` in the second.
  if (const auto* me = dyn_cast<MemberExpr>(s);
      me && me->getMemberDecl()->getIdentifier() && me->getMemberDecl()->getName() == "barrier")
    if (const auto* dr = dyn_cast<DeclRefExpr>(me->getBase()->IgnoreParenImpCasts()); dr && name(dr->getDecl()) == "T") {
      out += "DeclRefExpr T ";
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

bool InlinedKeys::isCall(const Stmt* s) {
  const auto* cs = dyn_cast<CompoundStmt>(s);
  if (!cs || !cs->getLBracLoc().isFileID()) return false;
  const llvm::StringRef buf = sm.getBufferData(sm.getFileID(cs->getLBracLoc()));
  const unsigned o = sm.getFileOffset(cs->getLBracLoc());
  return buf.substr(o + 1, 14) == "/*amp_ht_call*";
}
// Keys of one call block: its aliases and bindings, then its inner block.
std::string InlinedKeys::call(const CompoundStmt* cs) {
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
    // (A local named in a macro's argument, `EACH(i, n)`: where its
    // argument is written.)
    if (const auto* v = dyn_cast<VarDecl>(d)) {
      SourceLocation l = v->getLocation();
      if (l.isMacroID() && sm.isMacroArgExpansion(l)) l = sm.getSpellingLoc(l);
      if (l.isFileID() && sm.getFileID(l) == sm.getFileID(inner->getLBracLoc()) && ib < sm.getFileOffset(l) &&
          sm.getFileOffset(l) < ie && v->isLocalVarDecl())
        return "L" + v->getNameAsString();
    }
    return "";
  };
  // A nested call block: its bindings' initialisers (the arguments, read
  // in this block's names), then its own keys.
  std::function<bool(const Stmt*, std::string&)> callFn = [&](const Stmt* s, std::string& out) {
    // A statement using a valued call's value (`/*amp_ht_valued*/ STMT`, the
    // callee's last `return` among them when its value holds the call):
    // its keys are not compared, its call's are.
    if (s->getBeginLoc().isFileID()) {
      const llvm::StringRef buf = sm.getBufferData(sm.getFileID(s->getBeginLoc()));
      const llvm::StringRef before = buf.substr(0, sm.getFileOffset(s->getBeginLoc())).rtrim();
      if (before.ends_with("/*amp_ht_valued*/")) return true;
    }
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
void InlinedKeys::all(const Stmt* s, std::string& out) {
  if (!s) return;
  if (isCall(s)) {
    out += call(cast<CompoundStmt>(s));
    return;
  }
  for (const Stmt* c : s->children()) all(c, out);
}

} // namespace tile_compiler
