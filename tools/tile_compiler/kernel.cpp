// Kernel's helpers (kernel.h): offsets and parents in the kernel's own
// tree, statement ends, #line directives and the macros a region needs;
// compile(), the passes in order.
#include "kernel.h"

namespace tile_compiler {

// The compiled branch (statements inside `if constexpr (tile group) { ... }`).
std::string Kernel::compile() {
  if (fn_.copiesPerItem())
    throw Refused{fn_.lambda ? "the kernel is `mutable` (each work-item owns a copy of the closure)"
                             : "its operator() is not const (each work-item runs on its own copy of the object)"};
  collect();
  checkParamUses();
  if (!barriers) throw Refused{"no barrier"};
  checkControl();
  classifyLocals();
  uniformKept();
  return emitAll();
}
void Kernel::mapParents(const Stmt* s) {
  for (const Stmt* c : s->children())
    if (c) {
      parent_[c] = s;
      mapParents(c);
    }
}
const Stmt* Kernel::parentOf(const Stmt* s) {
  if (parent_.empty()) mapParents(body_);
  if (auto it = parent_.find(s); it != parent_.end()) return it->second;
  auto ps = ctx_.getParents(*s);
  return ps.empty() ? nullptr : ps[0].get<Stmt>();
}
const Stmt* Kernel::parentSkipping(const Stmt* s) { // past parentheses and implicit nodes
  const Stmt* p = parentOf(s);
  while (p && (isa<ParenExpr>(p) || isa<ExprWithCleanups>(p) || isa<MaterializeTemporaryExpr>(p) ||
               (isa<ImplicitCastExpr>(p) && cast<ImplicitCastExpr>(p)->getCastKind() == CK_NoOp)))
    p = parentOf(p);
  return p;
}
unsigned Kernel::endOfToken(SourceLocation l) {
  if (l.isMacroID()) l = sm_.getExpansionRange(l).getEnd();
  return sm_.getFileOffset(Lexer::getLocForEndOfToken(l, 0, sm_, lo_));
}
// End offset of statement s, its `;` included.
unsigned Kernel::stmtEnd(const Stmt* s) {
  if (!inFile(s->getEndLoc())) throw Refused{"a statement ends inside a macro"};
  unsigned e = endOfToken(s->getEndLoc());
  if (isa<CompoundStmt>(s) || isa<DeclStmt>(s)) return e;
  const char* buf = sm_.getBufferData(fid_).data();
  unsigned k = e;
  while (buf[k] == ' ' || buf[k] == '\t' || buf[k] == '\n' || buf[k] == '\r') ++k;
  return buf[k] == ';' ? k + 1 : e;
}
std::string Kernel::lineDirective(SourceLocation l) {
  PresumedLoc p = sm_.getPresumedLoc(l);
  std::string f = p.getFilename();
  std::string esc;
  for (char c : f) {
    if (c == '"' || c == '\\') esc += '\\';
    esc += c;
  }
  return macrosUpTo(off(l)) + "\n#line " + std::to_string(p.getLine()) + " \"" + esc + "\"\n";
}
std::string Kernel::macrosUpTo(unsigned o) {
  if (dirCursor_ == 0 || o <= dirCursor_) return "";
  const llvm::StringRef buf = sm_.getBufferData(fid_);
  std::string out;
  unsigned k = dirCursor_;
  dirCursor_ = o;
  while (k < o) {
    if (const Conditionals::Line* pl = ppLineAt(k)) { // a conditional's line or a skipped group
      if (k == pl->b && !pl->text.empty()) out += "\n" + pl->text + "\n";
      k = pl->e + 1;
      continue;
    }
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
const Conditionals::Line* Kernel::ppLineAt(unsigned o) const {
  auto it = ppLines_.upper_bound(o);
  if (it == ppLines_.begin()) return nullptr;
  --it;
  return o < it->second.e ? &it->second : nullptr;
}
// The text that stands for a conditional's line (or skipped stretch) in the
// compiled body: as many newlines as it had, and for an opening line the
// check, after which a #line gives the following line its number again.
std::string Kernel::ppReplacement(const Conditionals::Line& l) {
  const llvm::StringRef buf = sm_.getBufferData(fid_);
  const std::string nl(static_cast<size_t>(std::count(buf.begin() + l.b, buf.begin() + l.e, '\n')), '\n');
  if (l.text.empty()) return nl;
  PresumedLoc p = sm_.getPresumedLoc(sm_.getComposedLoc(fid_, l.e));
  return nl + l.text + "\n#line " + std::to_string(p.getLine() + 1) + " " + quote(p.getFilename());
}
std::string Kernel::where(const Stmt* s) {
  PresumedLoc p = sm_.getPresumedLoc(s->getBeginLoc());
  return "line " + std::to_string(p.getLine());
}
// A call t.barrier.wait*() on the kernel's own parameter.
bool Kernel::isBarrierCall(const Stmt* s) {
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

} // namespace tile_compiler
