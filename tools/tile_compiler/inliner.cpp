// The first pass's inliner (inliner.h): macros holding a barrier expanded,
// live ranges restarted, waiting calls replaced by their callees' bodies
// (names qualified, deduced template arguments spelled as the template
// writes them, binding keys recorded).
#include "inliner.h"

namespace tile_compiler {

// The source text of [b, e) of file fid with edits applied (edits inside an
// earlier edit are dropped: the outer one emitted them itself).
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

// The kernel body's text between its braces with its waiting calls
// inlined; "" when it has none. Throws Refused.
std::string Inliner::run() {
  const CompoundStmt* body = fn_.body();
  const FileID fid = sm_.getFileID(body->getLBracLoc());
  std::vector<TextEdit> edits;
  std::vector<const CallExpr*> found;
  barrierAliases(body);
  waitingCalls(body, param_, found);
  edits = restarts(body, found, fid);
  for (TextEdit& e : aliasEdits(body, found, fid)) edits.push_back(std::move(e));
  for (TextEdit& e : expandBarrierMacros(body, fid)) edits.push_back(std::move(e));
  if (found.empty() && edits.empty()) return "";
  std::set<const Stmt*> hoisted;
  for (const CallExpr* c : found) {
    std::string k;
    // `T v = f(t, ...);` or `x = f(t, ...);` in a block of the kernel: the
    // callee's value is assigned to a variable declared before its inlined
    // body (`RT amp_ht_rv0; {...; amp_ht_rv0 = (E);} T v = amp_ht_rv0;`);
    // the right operand of `=` is sequenced before its left one, so `x`
    // (AMD's radix sort: `histogram[j] = Scan(histogram[j], idx);`) is
    // evaluated after the call, as here.
    if (const Stmt* ds = valuedStatement(c, true)) {
      if (!hoisted.insert(ds).second)
        throw Refused{"two calls that wait on the barrier in one statement (" + where(c->getBeginLoc()) + ")"};
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
    if (!hoisted.insert(st).second)
      throw Refused{"two calls that wait on the barrier in one statement (" + where(c->getBeginLoc()) + ")"};
    edits.push_back({off(st->getBeginLoc()), stmtEnd(st, fid), inlineCall(c, st, fid, {}, param_, 0, dependent_, {}, k)});
    keys += k;
  }
  for (auto& [f, n] : sites_)
    if (n > 1 && hasStatic_.count(f))
      throw Refused{"`" + f->getNameAsString() + "` has tile_static (or static) variables and is called at " +
                    std::to_string(n) + " places (inlined, each place would get its own)"};
  return editedText(sm_, fid, off(body->getLBracLoc()) + 1, off(body->getRBracLoc()), edits);
}
// ---- the kernel's own names for its barrier: locals of type tile_barrier
// (references or copies: a copy is the same barrier) initialised with
// `t.barrier` or another such local, in source order.
void Inliner::barrierAliases(const CompoundStmt* body) {
  struct V : DynamicRecursiveASTVisitor {
    Inliner& in;
    explicit V(Inliner& i) : in(i) {}
    bool VisitVarDecl(VarDecl* v) override {
      if (!isa<ParmVarDecl>(v) && v->isLocalVarDecl() && !v->isStaticLocal() && v->getInit() &&
          isAmpClass(v->getType(), "tile_barrier") && in.isTiled(v->getInit(), in.param_))
        in.aliases_.insert(v);
      return true;
    }
  } v(*this);
  v.TraverseStmt(const_cast<CompoundStmt*>(body));
}
// Their declarations dropped (each alone in a statement of a block), and
// each use renamed `t.barrier`: the object of a wait, the argument of a
// fence; a direct argument of a call being inlined needs nothing (the
// callee's parameter is renamed). Any other use is refused: the text would
// name a declaration no longer there.
std::vector<TextEdit> Inliner::aliasEdits(const CompoundStmt* body, const std::vector<const CallExpr*>& calls,
                                          FileID fid) {
  std::vector<TextEdit> out;
  if (aliases_.empty()) return out;
  const std::string barrier = param_->getNameAsString() + ".barrier";
  std::set<const Stmt*> decls;
  for (const VarDecl* v : aliases_) {
    const DeclStmt* ds = nullptr;
    for (const auto& n : ctx_.getParents(*v))
      if ((ds = n.get<DeclStmt>())) break;
    const Stmt* block = ds ? parentOf(ds) : nullptr;
    if (!ds || !ds->isSingleDecl() || !block || !isa<CompoundStmt>(block) || !ds->getBeginLoc().isFileID() ||
        !ds->getEndLoc().isFileID() || sm_.getFileID(ds->getBeginLoc()) != fid)
      throw Refused{"the kernel's tile_barrier `" + v->getNameAsString() + "` is declared other than alone in a "
                    "statement of a block (" + where(v->getLocation()) + ")"};
    decls.insert(ds);
    out.push_back({off(ds->getBeginLoc()), stmtEnd(ds, fid), ""});
  }
  struct U : DynamicRecursiveASTVisitor {
    Inliner& in;
    const std::vector<const CallExpr*>& calls;
    const std::set<const Stmt*>& decls;
    const std::string& barrier;
    std::vector<TextEdit>& out;
    U(Inliner& i, const std::vector<const CallExpr*>& c, const std::set<const Stmt*>& d, const std::string& b,
      std::vector<TextEdit>& o)
        : in(i), calls(c), decls(d), barrier(b), out(o) {}
    bool TraverseDeclStmt(DeclStmt* ds) override {
      return decls.count(ds) ? true : DynamicRecursiveASTVisitor::TraverseDeclStmt(ds);
    }
    bool VisitDeclRefExpr(DeclRefExpr* r) override {
      const auto* v = dyn_cast<VarDecl>(r->getDecl());
      if (!v || !in.aliases_.count(v)) return true;
      const std::string why = "the kernel's tile_barrier `" + v->getNameAsString() + "` is ";
      if (!r->getLocation().isFileID()) throw Refused{why + "named inside a macro (" + in.where(r->getBeginLoc()) + ")"};
      const Stmt* p = in.parentOf(r);
      while (p && (isa<ParenExpr>(p) || isa<ImplicitCastExpr>(p) || isa<MaterializeTemporaryExpr>(p) ||
                   isa<CXXConstructExpr>(p)))
        p = in.parentOf(p);
      bool ok = false;
      if (const auto* me = dyn_cast_or_null<MemberExpr>(p))
        if (const auto* m = dyn_cast<CXXMethodDecl>(me->getMemberDecl());
            m && m->getIdentifier() && isAmpClass(m->getThisType()->getPointeeType(), "tile_barrier") &&
            m->getName().starts_with("wait"))
          ok = true;
      if (const auto* c = dyn_cast_or_null<CallExpr>(p)) {
        if (const FunctionDecl* g = c->getDirectCallee(); g && inConcurrency(g) && !isa<CXXMemberCallExpr>(c)) ok = true;
        if (std::find(calls.begin(), calls.end(), c) != calls.end()) return true; // inlined: nothing to rename
      }
      if (!ok) throw Refused{why + "used other than to wait on it (" + in.where(r->getBeginLoc()) + ")"};
      out.push_back({in.off(r->getLocation()), in.endOfToken(r->getLocation()), barrier});
      return true;
    }
  } u(*this, calls, decls, barrier, out);
  u.TraverseStmt(const_cast<CompoundStmt*>(body));
  return out;
}

// ---- macros that hold a barrier (Bolt's `_REDUCE_STEP(len, i, w);`: an
// `if`, then `t_idx.barrier.wait();`): statements from one invocation share
// its source range and cannot be split into regions. Each such invocation
// in the kernel's own text is replaced by its expansion, one level deep:
// the definition active there, its parameters replaced by the arguments as
// written (the compiler rescans the text, as the preprocessor would have);
// macros inside stay as they are. Refused: `#`, `##`, variadic macros,
// __LINE__-like names, invocations inside other macros.
std::vector<TextEdit> Inliner::expandBarrierMacros(const CompoundStmt* body, FileID fid) {
  std::vector<TextEdit> out;
  if (!pp_) return out;
  struct B : DynamicRecursiveASTVisitor {
    const ParmVarDecl* p;
    std::vector<const CXXMemberCallExpr*> waits;
    bool VisitCXXMemberCallExpr(CXXMemberCallExpr* c) override {
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
std::string Inliner::expansionText(SourceLocation name, unsigned b, unsigned e, FileID fid, std::string& why) {
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
// A local of the kernel's body re-assigned by a statement `v = E;` of the
// body's own block (run once by every work-item, in no loop or branch;
// E not reading v) starts a new live range there: the uses after it are
// renamed to a variable that statement declares
// (`decltype(v) amp_ht_r0_v = E;`), which the analysis then judges on its
// own. So Bolt's scans' `offset`, per work-item before `offset = 1;` and
// uniform after it, becomes two variables. Not done when a later use is
// written through a macro or inside a waiting call (whose text is replaced).
std::vector<TextEdit> Inliner::restarts(const CompoundStmt* body, const std::vector<const CallExpr*>& calls, FileID fid) {
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
  struct Refs : DynamicRecursiveASTVisitor {
    std::vector<const DeclRefExpr*> all;
    bool VisitDeclRefExpr(DeclRefExpr* r) override {
      all.push_back(r);
      return true;
    }
  } refs;
  refs.TraverseStmt(const_cast<CompoundStmt*>(body));
  std::vector<std::pair<unsigned, unsigned>> callRanges;
  for (const CallExpr* c : calls) {
    const Stmt* st = valuedStatement(c, true);
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
unsigned Inliner::endOfToken(SourceLocation l) {
  if (l.isMacroID()) l = sm_.getExpansionRange(l).getEnd();
  return sm_.getFileOffset(Lexer::getLocForEndOfToken(l, 0, sm_, lo_));
}
std::string Inliner::where(SourceLocation l) {
  const PresumedLoc p = sm_.getPresumedLoc(sm_.getExpansionLoc(l));
  return std::string(llvm::sys::path::filename(p.getFilename())) + ":" + std::to_string(p.getLine());
}
std::string Inliner::lineDirective(SourceLocation l) {
  const PresumedLoc p = sm_.getPresumedLoc(sm_.getExpansionLoc(l));
  std::string esc;
  for (char c : std::string(p.getFilename())) {
    if (c == '"' || c == '\\') esc += '\\';
    esc += c;
  }
  return "\n#line " + std::to_string(p.getLine()) + " \"" + esc + "\"\n";
}
unsigned Inliner::stmtEnd(const Stmt* s, FileID fid) {
  unsigned e = endOfToken(s->getEndLoc());
  const char* buf = sm_.getBufferData(fid).data();
  unsigned k = e;
  while (buf[k] == ' ' || buf[k] == '\t' || buf[k] == '\n' || buf[k] == '\r') ++k;
  return buf[k] == ';' ? k + 1 : e;
}
const Stmt* Inliner::parentOf(const Stmt* s) {
  auto ps = ctx_.getParents(*s);
  return ps.empty() ? nullptr : ps[0].get<Stmt>();
}
// The argument is the tiled_index `tiled` itself (by value: a copy
// construction around it), or its barrier (`tiled.barrier`, handed to a
// helper's `tile_barrier&` parameter, as CUDA ports hand on
// __syncthreads), or, where `tiled` is such a parameter, `tiled` itself.
bool Inliner::isTiled(const Expr* a, const ValueDecl* tiled) {
  const Expr* e = a->IgnoreParenImpCasts();
  if (const auto* m = dyn_cast<MaterializeTemporaryExpr>(e)) e = m->getSubExpr()->IgnoreParenImpCasts();
  if (const auto* ce = dyn_cast<CXXConstructExpr>(e); ce && ce->getNumArgs() == 1)
    e = ce->getArg(0)->IgnoreParenImpCasts();
  if (const auto* me = dyn_cast<MemberExpr>(e); me && me->getMemberDecl()->getIdentifier() &&
                                                 me->getMemberDecl()->getName() == "barrier" &&
                                                 isAmpClass(me->getBase()->getType(), "tiled_index"))
    e = me->getBase()->IgnoreParenImpCasts();
  const auto* dr = dyn_cast<DeclRefExpr>(e);
  if (!dr) return false;
  if (const auto* v = dyn_cast<VarDecl>(dr->getDecl()); v && tiled == param_ && aliases_.count(v)) return true;
  return dr->getDecl() == tiled;
}
// f waits on the barrier of its parameter `p` (a tiled_index, or a
// tile_barrier): a `p.barrier.wait*()` (`p.wait*()`) in its body, or p (its
// barrier) handed to a function that does. amp.h's own functions (the
// fences) never wait.
bool Inliner::waits(const FunctionDecl* f, const ParmVarDecl* p, int depth) {
  const FunctionDecl* def = nullptr;
  if (depth > 8 || inConcurrency(f) || !f->hasBody(def) || !def->getBody()) return false;
  struct V : DynamicRecursiveASTVisitor {
    Inliner& in;
    const ParmVarDecl* p;
    int depth;
    bool found = false;
    V(Inliner& i, const ParmVarDecl* pp, int d) : in(i), p(pp), depth(d) {}
    bool VisitCXXMemberCallExpr(CXXMemberCallExpr* c) override {
      const CXXMethodDecl* m = c->getMethodDecl();
      if (m && m->getParent() && m->getParent()->getName() == "tile_barrier" && m->getName().starts_with("wait"))
      {
        const Expr* o = strip(c->getImplicitObjectArgument());
        if (const auto* me = dyn_cast<MemberExpr>(o)) o = strip(me->getBase());
        if (const auto* dr = dyn_cast<DeclRefExpr>(o); dr && dr->getDecl() == p) found = true;
      }
      return true;
    }
    bool VisitCallExpr(CallExpr* c) override {
      const FunctionDecl* g = c->getDirectCallee();
      if (!g || isa<CXXMethodDecl>(g)) return true;
      for (unsigned i = 0; i < c->getNumArgs() && i < g->getNumParams(); ++i)
        if (in.isTiled(c->getArg(i), p) && in.waits(g, g->getParamDecl(i), depth + 1)) found = true;
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
void Inliner::waitingCalls(const Stmt* s, const ValueDecl* tiled, std::vector<const CallExpr*>& out) {
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
bool Inliner::waitsAnyTiled(const FunctionDecl* g) {
  for (const ParmVarDecl* q : g->parameters())
    if ((isAmpClass(q->getType(), "tiled_index") || isAmpClass(q->getType(), "tile_barrier")) && waits(g, q, 0))
      return true;
  return false;
}
// The declaration `T v = f(...);` (one variable, in a block) whose
// initialiser is the waiting call c, f returning a scalar; else null.
const DeclStmt* Inliner::initialisedBy(const CallExpr* c) {
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
// The statement whose value the waiting call c gives: `T v = f(...);` or
// `v = f(...);`, in a block; else null.
const Stmt* Inliner::valuedStatement(const CallExpr* c, bool kernelLevel) {
  if (const Stmt* s = initialisedBy(c)) return s;
  if (const Stmt* s = assignedBy(c)) return s;
  return kernelLevel ? enclosingStatement(c) : nullptr;
}
// A waiting call inside a larger expression of the kernel's own body
// (`x = a + f(t);`, `T v = g(t) * 2;`, `h(f(t), y);`): the statement S (an
// expression statement or a one-variable declaration, in a block) whose
// value it is part of; the call is then evaluated first, into amp_ht_rvN,
// and S reads that. Evaluating the call before everything else of S is one
// of the orders C++ allows where the call is unsequenced (or
// indeterminately sequenced) with the rest, and gives the bytes of any
// other order when the rest is quiet (below: no side effect, no memory
// read the call could change). Null when the call is not in such a
// statement; Refused when it is but that order is not provably the same:
// the call under `&&`, `||`, `?:` branches or a comma's right operand (it
// may not run at all, or runs after), or in the left operand of an
// assignment (C++17 evaluates it after the right), or beside operands
// that are not quiet.
const Stmt* Inliner::enclosingStatement(const CallExpr* c, const ValueDecl* tiled, const FunctionDecl* callee,
                                        const Stmt* lastReturn) {
  if (!tiled) tiled = param_;
  const FunctionDecl* f = c->getDirectCallee();
  if (!f || f->getReturnType()->isReferenceType() || !returnsStorable(f)) return nullptr;
  const std::string at = " (" + where(c->getBeginLoc()) + ")";
  const Stmt* n = c;
  for (int guard = 0; guard < 64; ++guard) {
    auto ps = ctx_.getParents(*n);
    if (ps.empty()) return nullptr;
    if (const auto* vd = ps[0].get<VarDecl>()) { // `T v = E;`, E holding the call
      if (vd->getInitStyle() != VarDecl::CInit) return nullptr;
      auto dp = ctx_.getParents(*vd);
      const auto* ds = dp.empty() ? nullptr : dp[0].get<DeclStmt>();
      const Stmt* blk = ds ? parentOf(ds) : nullptr;
      if (!ds || !ds->isSingleDecl() || !blk || !isa<CompoundStmt>(blk) || !ds->getBeginLoc().isFileID() ||
          !ds->getEndLoc().isFileID())
        return nullptr;
      return ds;
    }
    const Stmt* p = ps[0].get<Stmt>();
    if (!p) return nullptr;
    if (lastReturn && p == lastReturn) return p; // a valued callee's `return E;`, E holding the call
    if (isa<CompoundStmt>(p)) {
      // (The call statement itself, its value discarded: statementOf's.)
      if (!isa<Expr>(n) || cast<Expr>(n)->IgnoreImplicit() == c || !n->getBeginLoc().isFileID() ||
          !n->getEndLoc().isFileID())
        return nullptr;
      return n;
    }
    if (!isa<Expr>(p)) return nullptr; // a condition, a return, a loop header: not this form
    // The operands of p evaluated beside n must be quiet, and n must be
    // evaluated whenever p is.
    if (const auto* b = dyn_cast<BinaryOperator>(p)) {
      if ((b->isLogicalOp() || b->getOpcode() == BO_Comma) && b->getRHS() == n)
        throw Refused{"a call that waits on the barrier in the right operand of `" + b->getOpcodeStr().str() +
                      "`" + at + ": it may not run, or runs after the left one"};
      if (b->isAssignmentOp() && b->getLHS() == n)
        throw Refused{"a call that waits on the barrier on the left of an assignment" + at};
      if (b->isAssignmentOp()) {
        n = p;
        continue; // the left operand is evaluated after the right (C++17)
      }
    }
    if (const auto* co = dyn_cast<AbstractConditionalOperator>(p); co && co->getCond() != n)
      throw Refused{"a call that waits on the barrier in a branch of `?:`" + at + ": it may not run"};
    if (const auto* oc = dyn_cast<CXXOperatorCallExpr>(p); oc && oc->isAssignmentOp()) {
      if (oc->getArg(0) == n) throw Refused{"a call that waits on the barrier on the left of an assignment" + at};
      n = p;
      continue;
    }
    for (const Stmt* o : p->children())
      if (o && o != n && isa<Expr>(o) && !quiet(cast<Expr>(o), c, tiled, callee))
        throw Refused{"a call that waits on the barrier inside an expression whose other operands read memory or "
                      "have side effects" + at + ": the order C++ leaves open could change the result"};
    n = p;
  }
  return nullptr;
}
// e neither has side effects nor reads memory that the waiting call c could
// write: literals, the kernel's tiled_index and its members, local
// variables (not static, not references, not tile_static, not named in c),
// constants, with arithmetic, comparisons, casts and index/extent
// accessors. In an inlined callee's body (callee), only its own parameters
// and locals are names e may use: the second parse does not compare the
// bindings of the statement's other names, and these cannot bind otherwise
// (parameters are renamed, locals declared in the inlined block).
bool Inliner::quiet(const Expr* e, const CallExpr* c, const ValueDecl* tiled, const FunctionDecl* callee) {
  e = e->IgnoreParenImpCasts();
  if (isa<IntegerLiteral>(e) || isa<FloatingLiteral>(e) || isa<CXXBoolLiteralExpr>(e) || isa<CharacterLiteral>(e) ||
      isa<UnaryExprOrTypeTraitExpr>(e) || isa<SubstNonTypeTemplateParmExpr>(e))
    return true;
  if (const auto* dr = dyn_cast<DeclRefExpr>(e)) {
    if (isa<EnumConstantDecl>(dr->getDecl()) || isa<FunctionDecl>(dr->getDecl())) return !callee;
    const auto* v = dyn_cast<VarDecl>(dr->getDecl());
    if (!v) return false;
    if (v == tiled) return true;
    if (callee && v->getDeclContext() != callee) return false;
    if (v->getType()->isReferenceType() || v->isStaticLocal() || v->hasGlobalStorage())
      return v->getType().isConstQualified() && !v->getType()->isReferenceType() && v->hasGlobalStorage();
    // Named in the call only as a value read (a scalar passed by value):
    // the call cannot change it.
    struct Names : DynamicRecursiveASTVisitor {
      const VarDecl* v;
      bool found = false;
      bool VisitImplicitCastExpr(ImplicitCastExpr* ic) override {
        if (ic->getCastKind() == CK_LValueToRValue && isa<DeclRefExpr>(ic->getSubExpr()->IgnoreParens()) &&
            cast<DeclRefExpr>(ic->getSubExpr()->IgnoreParens())->getDecl() == v && v->getType()->isScalarType())
          reads.insert(ic->getSubExpr()->IgnoreParens());
        return true;
      }
      std::set<const Expr*> reads;
      std::vector<const Expr*> all;
      bool VisitDeclRefExpr(DeclRefExpr* r) override {
        if (r->getDecl() == v) all.push_back(r);
        return true;
      }
    } names;
    names.v = v;
    names.TraverseStmt(const_cast<CallExpr*>(c));
    for (const Expr* r : names.all)
      if (!names.reads.count(r)) return false;
    return true;
  }
  if (const auto* me = dyn_cast<MemberExpr>(e)) {
    if (const auto* dr = dyn_cast<DeclRefExpr>(me->getBase()->IgnoreParenImpCasts()); dr && dr->getDecl() == tiled)
      return true;
    if (!isa<FieldDecl>(me->getMemberDecl())) return false;
    // A function object's member of a const operator(): const for the kernel.
    if (isa<CXXThisExpr>(me->getBase()->IgnoreParenImpCasts()))
      return !fn_.lambda && fn_.op->isConst() && !cast<FieldDecl>(me->getMemberDecl())->isMutable() &&
             !me->getType()->isReferenceType();
    return isValueClass(me->getBase()->getType()) && quiet(me->getBase(), c, tiled, callee);
  }
  if (const auto* b = dyn_cast<BinaryOperator>(e))
    return !b->isAssignmentOp() && quiet(b->getLHS(), c, tiled, callee) && quiet(b->getRHS(), c, tiled, callee);
  if (const auto* u = dyn_cast<UnaryOperator>(e)) {
    switch (u->getOpcode()) {
    case UO_Plus: case UO_Minus: case UO_Not: case UO_LNot: return quiet(u->getSubExpr(), c, tiled, callee);
    default: return false;
    }
  }
  if (const auto* co = dyn_cast<ConditionalOperator>(e))
    return quiet(co->getCond(), c, tiled, callee) && quiet(co->getTrueExpr(), c, tiled, callee) && quiet(co->getFalseExpr(), c, tiled, callee);
  if (const auto* ce = dyn_cast<ExplicitCastExpr>(e)) return quiet(ce->getSubExpr(), c, tiled, callee);
  if (const auto* m = dyn_cast<MaterializeTemporaryExpr>(e)) return quiet(m->getSubExpr(), c, tiled, callee);
  if (const auto* oc = dyn_cast<CXXOperatorCallExpr>(e)) {
    // An element of a view or array read (`base[t.tile[0]]` beside
    // `tile_sum(x, t)`, a public radix sort): quiet when no work-item of
    // the kernel writes through that view or array (moving the read after
    // the call's barriers then reads the same value) and the waiting call
    // writes no memory but tile_static memory and locals (no other view
    // over the same data either: writesOnlyTileOrLocal).
    if ((oc->getOperator() == OO_Subscript || oc->getOperator() == OO_Call) && oc->getNumArgs() >= 2 && !callee &&
        (isAmpClass(oc->getArg(0)->getType(), "array_view") || isAmpClass(oc->getArg(0)->getType(), "array"))) {
      const auto* obj = dyn_cast<DeclRefExpr>(oc->getArg(0)->IgnoreParenImpCasts());
      const auto* ov = obj ? dyn_cast<VarDecl>(obj->getDecl()) : nullptr;
      // (A view made inside the kernel, `big.section(...)`, may alias one
      // the kernel writes: not taken.)
      if (!ov || ov->isStaticLocal() || ov->getTLSKind() != VarDecl::TLS_None || ov->getDeclContext() == fn_.op)
        return false;
      for (unsigned i = 1; i < oc->getNumArgs(); ++i)
        if (!quiet(oc->getArg(i), c, tiled, callee)) return false;
      return readOnlyInKernel(ov) && writesOnlyTileOrLocal(c, nullptr, {}, 0);
    }
    if (oc->getNumArgs() == 0 || !isValueClass(oc->getArg(0)->IgnoreParenImpCasts()->getType()) || oc->isAssignmentOp())
      return false;
    for (const Expr* a : oc->arguments())
      if (!quiet(a, c, tiled, callee)) return false;
    return true;
  }
  if (const auto* ce = dyn_cast<CXXConstructExpr>(e)) {
    if (!isValueClass(ce->getType()) && !ce->getType()->isScalarType()) return false;
    for (const Expr* a : ce->arguments())
      if (!quiet(a, c, tiled, callee)) return false;
    return true;
  }
  return false;
}
bool Inliner::readOnlyInKernel(const VarDecl* v) {
  struct U : DynamicRecursiveASTVisitor {
    Inliner& in;
    const VarDecl* v;
    bool ok = true;
    U(Inliner& i, const VarDecl* vv) : in(i), v(vv) {}
    // p, past parentheses and no-op casts.
    const Stmt* up(const Stmt* s) {
      const Stmt* p = in.parentOf(s);
      while (p && (isa<ParenExpr>(p) || (isa<ImplicitCastExpr>(p) && (cast<ImplicitCastExpr>(p)->getCastKind() == CK_NoOp ||
                                                                       cast<ImplicitCastExpr>(p)->getCastKind() == CK_UncheckedDerivedToBase))))
        p = in.parentOf(p);
      return p;
    }
    bool VisitDeclRefExpr(DeclRefExpr* r) override {
      if (r->getDecl() != v) return true;
      const Stmt* p = up(r);
      if (const auto* oc = dyn_cast_or_null<CXXOperatorCallExpr>(p);
          oc && (oc->getOperator() == OO_Subscript || oc->getOperator() == OO_Call)) {
        const auto* rv = dyn_cast_or_null<ImplicitCastExpr>(up(oc));
        if (rv && rv->getCastKind() == CK_LValueToRValue) return true;
      }
      if (const auto* me = dyn_cast_or_null<MemberExpr>(p))
        if (const auto* mc = dyn_cast_or_null<CXXMemberCallExpr>(in.parentOf(me));
            mc && mc->getMethodDecl() && mc->getMethodDecl()->isConst() && !mc->getType()->isReferenceType() &&
            !mc->getType()->isPointerType())
          return true;
      ok = false;
      return false;
    }
  } u(*this, v);
  u.TraverseStmt(const_cast<CompoundStmt*>(fn_.body()));
  return u.ok;
}
bool Inliner::writesOnlyTileOrLocal(const CallExpr* c, const FunctionDecl* caller,
                                    std::set<const ParmVarDecl*> callerRefs, int depth) {
  const FunctionDecl* f = c->getDirectCallee();
  const FunctionDecl* def = nullptr;
  if (!f || depth > 8) return false;
  // A variable the caller owns: its local (not static, not a reference) or
  // a reference parameter known to be bound to one.
  auto owned = [&](const Expr* a) {
    const auto* dr = dyn_cast<DeclRefExpr>(a->IgnoreParenImpCasts());
    const auto* v = dr ? dyn_cast<VarDecl>(dr->getDecl()) : nullptr;
    if (!v) return false;
    if (const auto* pv = dyn_cast<ParmVarDecl>(v)) return callerRefs.count(pv) > 0 || !pv->getType()->isReferenceType();
    if (v->getType()->isReferenceType() || v->isStaticLocal() || v->getTLSKind() != VarDecl::TLS_None) return false;
    return caller ? v->getDeclContext() == caller : v->isLocalVarDecl();
  };
  // The reference parameters bound to such variables; a pointer, or a
  // non-const reference bound to anything else, may reach other memory.
  std::set<const ParmVarDecl*> refs;
  for (unsigned i = 0; i < c->getNumArgs() && i < f->getNumParams(); ++i) {
    const ParmVarDecl* p = f->getParamDecl(i);
    QualType t = p->getType();
    if (isAmpClass(t.getNonReferenceType(), "tiled_index")) continue;
    if (t->isPointerType() || isAmpClass(t.getNonReferenceType(), "array_view") ||
        isAmpClass(t.getNonReferenceType(), "array"))
      return false;
    if (t->isReferenceType() && !t.getNonReferenceType().isConstQualified()) {
      if (!owned(c->getArg(i))) return false;
      refs.insert(p);
    }
  }
  if (!f->hasBody(def) || !def->getBody()) return false;
  f = def;
  // Every write in f's body is to a local of f, tile_static memory or a
  // parameter in refs; every call it makes passes the same test.
  struct W : DynamicRecursiveASTVisitor {
    Inliner& in;
    const FunctionDecl* f;
    std::set<const ParmVarDecl*>& refs;
    int depth;
    bool ok = true;
    W(Inliner& i, const FunctionDecl* ff, std::set<const ParmVarDecl*>& r, int d) : in(i), f(ff), refs(r), depth(d) {}
    bool target(const Expr* e) { // the written lvalue's root is f's own or tile_static
      for (;;) {
        e = e->IgnoreParenImpCasts();
        if (const auto* a = dyn_cast<ArraySubscriptExpr>(e)) {
          if (a->getBase()->IgnoreParenImpCasts()->getType()->isPointerType()) return false; // through a pointer
          e = a->getBase();
        } else if (const auto* m = dyn_cast<MemberExpr>(e)) {
          if (m->isArrow()) return false;
          e = m->getBase();
        } else {
          break;
        }
      }
      const auto* dr = dyn_cast<DeclRefExpr>(e);
      const auto* v = dr ? dyn_cast<VarDecl>(dr->getDecl()) : nullptr;
      if (!v) return false;
      if (v->isStaticLocal() || v->getTLSKind() != VarDecl::TLS_None) return true; // tile_static
      if (const auto* pv = dyn_cast<ParmVarDecl>(v)) return refs.count(pv) || !pv->getType()->isReferenceType();
      return v->getDeclContext() == f && !v->getType()->isReferenceType();
    }
    bool VisitBinaryOperator(BinaryOperator* b) override {
      if (b->isAssignmentOp() && !target(b->getLHS())) ok = false;
      return ok;
    }
    bool VisitUnaryOperator(UnaryOperator* u) override {
      if (u->isIncrementDecrementOp() && !target(u->getSubExpr())) ok = false;
      return ok;
    }
    bool VisitVarDecl(VarDecl* v) override { // a reference or pointer made in f could be written through
      if (v->getType()->isReferenceType() && !v->getType().getNonReferenceType().isConstQualified()) ok = false;
      return ok;
    }
    bool VisitCallExpr(CallExpr* call) override {
      if (const auto* oc = dyn_cast<CXXOperatorCallExpr>(call)) {
        if (oc->isAssignmentOp()) {
          if (!target(oc->getArg(0))) ok = false;
          return ok;
        }
        // AMP's own operators (a view's element, index arithmetic, short
        // vectors) read; a view's element written through the reference
        // one returns is an assignment's or increment's target, tested
        // above. A user's operator (a functor's call) may write anything.
        const FunctionDecl* g = oc->getDirectCallee();
        if (!g || !inConcurrency(g)) ok = false;
        return ok;
      }
      // A const member of AMP's own classes reads (a view's element
      // written through the reference it returns is an assignment's
      // target, above); another member is tested as a call, where a write
      // through `this` is not f's own.
      if (const auto* mc = dyn_cast<CXXMemberCallExpr>(call)) {
        const CXXMethodDecl* m = mc->getMethodDecl();
        const llvm::StringRef cls = m ? m->getParent()->getName() : "";
        if (m && m->isConst() && inConcurrency(m->getParent()) &&
            (cls == "tile_barrier" || cls == "tiled_index" || cls == "index" || cls == "extent" ||
             cls == "array_view" || cls == "array"))
          return ok;
      }
      if (const FunctionDecl* g = call->getDirectCallee(); g && g->getBuiltinID()) return ok;
      if (!in.writesOnlyTileOrLocal(call, f, refs, depth + 1)) ok = false;
      return ok;
    }
  } w(*this, f, refs, depth);
  w.TraverseStmt(const_cast<Stmt*>(f->getBody()));
  return w.ok;
}
// The statement `v = f(...);` (in a block) whose right-hand side is the
// waiting call c, f returning a scalar or a class with a default
// constructor; else null.
const Stmt* Inliner::assignedBy(const CallExpr* c) {
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
bool Inliner::returnsStorable(const FunctionDecl* f) {
  const QualType t = f->getReturnType();
  if (t->isScalarType()) return true;
  const CXXRecordDecl* rd = t->getAsCXXRecordDecl();
  return rd && rd->hasDefaultConstructor() && !rd->isLambda() && !rd->isLocalClass();
}
// The statement a waiting call is: a call statement (in a block, or the
// body or branch of a statement), nothing inside an expression.
const Stmt* Inliner::statementOf(const CallExpr* c) {
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
std::vector<TextEdit> Inliner::qualifyForeignNames(const FunctionDecl* f, const DeclContext* kns, std::string& why) {
  struct V : DynamicRecursiveASTVisitor {
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
    bool VisitDeclRefExpr(DeclRefExpr* r) override {
      if (!r->getQualifier()) name(r->getDecl(), r->getLocation());
      return why.empty();
    }
    // `_details::f`: the qualifier's first name is looked up like any
    // other (a namespace or a type; types are seen by VisitTypeLoc).
    bool TraverseNestedNameSpecifierLoc(NestedNameSpecifierLoc q) override {
      if (q && q.getNestedNameSpecifier().getKind() == NestedNameSpecifier::Kind::Namespace) {
        auto [ns, prefix] = q.castAsNamespaceAndPrefix();
        if (!prefix) name(ns, q.getLocalBeginLoc());
      }
      return DynamicRecursiveASTVisitor::TraverseNestedNameSpecifierLoc(q);
    }
    bool VisitTypeLoc(TypeLoc tl) override {
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

// The call in the template text around it (the kernel's enclosing
// template, or for a nested call its caller's pattern) written where
// `call` is; null when that text is no template's.
const CallExpr* Inliner::patternCall(const CallExpr* call, int depth) {
  const FunctionDecl* pat = nullptr;
  if (depth == 0) {
    const FunctionDecl* fn = nullptr;
    for (const DeclContext* dc = fn_.scope(); dc && !fn; dc = dc->getParent())
      fn = dyn_cast<FunctionDecl>(dc);
    pat = fn ? fn->getTemplateInstantiationPattern() : nullptr;
  } else if (!patterns_.empty()) {
    pat = patterns_.back();
  }
  if (!pat || !pat->getBody()) return nullptr;
  struct F : DynamicRecursiveASTVisitor {
    SourceLocation at;
    unsigned n = 0;
    const CallExpr* found = nullptr;
    bool VisitCallExpr(CallExpr* c) override {
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
std::vector<std::pair<QualType, std::string>> Inliner::kernelScopeTypes() {
  std::vector<std::pair<QualType, std::string>> out;
  const SourceLocation at = fn_.begin();
  for (const DeclContext* dc = fn_.scope(); dc; dc = dc->getParent())
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
std::vector<std::pair<llvm::APSInt, std::string>> Inliner::kernelScopeValues() {
  std::vector<std::pair<llvm::APSInt, std::string>> out;
  for (const auto& [param, arg] : enclosingTemplateArgs())
    if (isa<NonTypeTemplateParmDecl>(param) && arg.getKind() == TemplateArgument::Integral)
      out.push_back({arg.getAsIntegral(), param->getNameAsString()});
  return out;
}
// The named template parameters of the functions and classes around the
// kernel, innermost first, with their arguments in this instantiation.
std::vector<std::pair<const NamedDecl*, TemplateArgument>> Inliner::enclosingTemplateArgs() {
  std::vector<std::pair<const NamedDecl*, TemplateArgument>> out;
  for (const DeclContext* dc = fn_.scope(); dc; dc = dc->getParent()) {
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
std::pair<unsigned, unsigned> Inliner::depthIndex(const NamedDecl* tp) {
  if (const auto* t = dyn_cast<TemplateTypeParmDecl>(tp)) return {t->getDepth(), t->getIndex()};
  const auto* n = cast<NonTypeTemplateParmDecl>(tp);
  return {n->getDepth(), n->getIndex()};
}
// `a` desugared a step at a time until its own node is a T (the sugar
// inside it kept: `result_type *` stays a pointer to `result_type`).
template <class T> const T* Inliner::shapeOf(QualType a) {
  for (int i = 0; i < 32; ++i) {
    if (const auto* t = dyn_cast<T>(a.getTypePtr())) return t;
    const QualType n = a.getSingleStepDesugaredType(ctx_);
    if (n == a) return nullptr;
    a = n;
  }
  return nullptr;
}
std::string Inliner::asWritten(QualType t) {
  PrintingPolicy pp(lo_);
  pp.SuppressUnwrittenScope = true;
  return t.getAsString(pp);
}
std::string Inliner::asWritten(const TemplateArgument& a) {
  PrintingPolicy pp(lo_);
  pp.SuppressUnwrittenScope = true;
  std::string s;
  llvm::raw_string_ostream os(s);
  a.print(pp, os, /*IncludeType=*/false);
  return s;
}
// The template arguments of class type `a` (as written where it has them).
std::optional<ArrayRef<TemplateArgument>> Inliner::classArgs(QualType a, const TemplateDecl* of) {
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
std::string Inliner::deduceFrom(QualType p, QualType a, const NamedDecl* tp, int level) {
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
std::string Inliner::deducedAsWritten(const NamedDecl* tp, const FunctionDecl* pattern, const CallExpr* pcall) {
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
// A type parameter deduced from an argument whose type the kernel
// template's text does not spell (`op(mem, tid, helper.op)` with `helper` of
// the kernel template's type parameter: a dependent member): the deduction
// itself, written over the argument's text in the kernel, where its names
// are visible: for a parameter `T`, `std::decay_t<decltype(ARG)>`; `const
// T&` or `const T`, cv and reference dropped; `T&`, the lvalue's type with
// its cv (`decltype((ARG))`). Other parameter shapes: none ("").
std::string Inliner::deducedFromArgument(const NamedDecl* tp, const FunctionDecl* pattern, const CallExpr* pcall,
                                         FileID cfid, const std::vector<TextEdit>& cedits) {
  auto isParam = [&](QualType t) {
    const auto* tt = dyn_cast<TemplateTypeParmType>(t.getCanonicalType().getUnqualifiedType().getTypePtr());
    return tt && isa<TemplateTypeParmDecl>(tp) && std::make_pair(tt->getDepth(), tt->getIndex()) == depthIndex(tp);
  };
  for (unsigned j = 0; j < pattern->getNumParams() && j < pcall->getNumArgs(); ++j) {
    const QualType p = pattern->getParamDecl(j)->getType();
    const Expr* ae = pcall->getArg(j);
    if (isa<CXXDefaultArgExpr>(ae) || !ae->getBeginLoc().isFileID() || !ae->getEndLoc().isFileID() ||
        sm_.getFileID(ae->getBeginLoc()) != cfid)
      continue;
    const std::string arg = editedText(sm_, cfid, off(ae->getBeginLoc()), endOfToken(ae->getEndLoc()), cedits);
    if (const auto* r = p->getAs<LValueReferenceType>(); r && isParam(r->getPointeeType()))
      return r->getPointeeType().isConstQualified()
                 ? "std::remove_cv_t<std::remove_reference_t<decltype(" + arg + ")>>"
                 : "std::remove_reference_t<decltype((" + arg + "))>";
    if (!p->isReferenceType() && isParam(p))
      return p.isConstQualified() ? "std::remove_cv_t<std::remove_reference_t<decltype(" + arg + ")>>"
                                  : "std::decay_t<decltype(" + arg + ")>";
  }
  return "";
}
bool Inliner::calleeFileOk(SourceLocation l) {
  if (sm_.isWrittenInMainFile(l)) return true;
  OptionalFileEntryRef fe = sm_.getFileEntryRefForID(sm_.getFileID(sm_.getExpansionLoc(l)));
  return fe && headers_.count(fe->getFileEntry().tryGetRealPathName().str());
}
std::string Inliner::declaredAfter(const FunctionDecl* f, const CompoundStmt* body) {
  struct V : DynamicRecursiveASTVisitor {
    SourceManager& sm;
    SourceLocation kernel;
    const FunctionDecl* f;
    SourceRange own; // the callee's text: its parameters and locals
    std::string late;
    V(SourceManager& s, SourceLocation k, const FunctionDecl* ff)
        : sm(s), kernel(k), f(ff), own(ff->getSourceRange()) {}
    bool before(SourceLocation l) {
      return l.isValid() && sm.isBeforeInTranslationUnit(sm.getExpansionLoc(l), kernel);
    }
    bool inOwn(SourceLocation l) {
      l = sm.getExpansionLoc(l);
      return l.isValid() && !sm.isBeforeInTranslationUnit(l, sm.getExpansionLoc(own.getBegin())) &&
             !sm.isBeforeInTranslationUnit(sm.getExpansionLoc(own.getEnd()), l);
    }
    // Declared (in any of its declarations) before the kernel; a member
    // through its class, a specialisation through its template.
    bool visible(const Decl* d) {
      if (!d || d->isImplicit() || inOwn(d->getLocation())) return true;
      if (const auto* fd = dyn_cast<FunctionDecl>(d); fd && fd->getPrimaryTemplate()) d = fd->getPrimaryTemplate();
      if (const auto* cs = dyn_cast<ClassTemplateSpecializationDecl>(d)) d = cs->getSpecializedTemplate();
      if (isa<FieldDecl>(d) || isa<CXXMethodDecl>(d) || isa<EnumConstantDecl>(d))
        return visible(cast<Decl>(d->getDeclContext()));
      for (const Decl* r : d->redecls())
        if (before(r->getLocation())) return true;
      return false;
    }
    void need(const Decl* d) {
      if (late.empty() && !visible(d))
        late = "`" + (isa<NamedDecl>(d) ? cast<NamedDecl>(d)->getNameAsString() : std::string("?")) + "`";
    }
    bool VisitDeclRefExpr(DeclRefExpr* e) override { return need(e->getDecl()), true; }
    bool VisitMemberExpr(MemberExpr* e) override { return need(e->getMemberDecl()), true; }
    bool VisitCXXConstructExpr(CXXConstructExpr* e) override { return need(e->getConstructor()), true; }
    bool VisitTypeLoc(TypeLoc tl) override {
      const Type* t = tl.getTypePtr();
      if (const auto* td = t->getAs<TypedefType>()) need(td->getDecl());
      else if (const TagDecl* tag = t->getAsTagDecl()) need(tag);
      return true;
    }
  } v(sm_, sm_.getExpansionLoc(fn_.begin()), f);
  v.TraverseStmt(const_cast<CompoundStmt*>(body));
  return v.late;
}
// The text replacing call statement `st` (a call to f, written in file
// cfid with the caller's edits cedits, `tiled` the caller's tiled_index):
//   {/*amp_ht_call*/ template aliases; parameter bindings;
//     { the callee's body, its parameters renamed, nested calls inlined } }
// keys: the binding keys of the call (checked in the second pass).
std::string Inliner::inlineCall(const CallExpr* call, const Stmt* st, FileID cfid, const std::vector<TextEdit>& cedits,
                                const ValueDecl* tiled, int depth, bool spelled,
                                const std::vector<std::pair<QualType, std::string>>& outer, std::string& keys,
                                const std::string& result, std::string* resultType) {
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
  // A callee defined after the kernel (declared before it, as a header's
  // prototype) is inlined when everything its body names is declared before
  // the kernel too (the binding keys then check each name in the second
  // parse, as for any callee); a name the kernel's place could not see
  // would fail that parse, and with it every inlined kernel of the file.
  if (!sm_.isBeforeInTranslationUnit(pbody->getRBracLoc(), fn_.begin()))
    if (const std::string late = declaredAfter(f, body); !late.empty())
      throw Refused{fname + " is defined after the kernel and names " + late + ", declared after the kernel too" + at};
  // Names the callee's text uses unqualified are looked up from the
  // kernel: only where the kernel's scope sees all the callee's scope sees
  // (the callee's namespace is the kernel's or encloses it). The second
  // pass checks each name for shadowing by the kernel's own.
  // A callee in another namespace (a library's `_details`) is inlined
  // when every name of its own namespace it uses is written qualified, so
  // that its text means the same where the kernel is.
  const FileID ffid = sm_.getFileID(pbody->getLBracLoc());
  std::vector<TextEdit> edits; // on the callee's text
  const DeclContext* kns = fn_.scope()->getEnclosingNamespaceContext();
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
        if (spelledText.empty() && depth == 0 && a.getKind() == TemplateArgument::Type &&
            !(ref && i < ref->getNumTemplateArgs()))
          if (const CallExpr* pc = patternCall(call, depth)) spelledText = deducedFromArgument(tp, pattern, pc, cfid, cedits);
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
      struct V : DynamicRecursiveASTVisitor {
        const NamedDecl* tp;
        std::vector<SourceLocation> at;
        bool VisitTemplateTypeParmTypeLoc(TemplateTypeParmTypeLoc tl) override {
          if (tl.getDecl() == tp) at.push_back(tl.getNameLoc());
          return true;
        }
        bool VisitDeclRefExpr(DeclRefExpr* r) override {
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
    // A `tile_barrier` (by value or reference) given the kernel's barrier:
    // its uses become the kernel's own `t.barrier` (a copy of a
    // tile_barrier is the same barrier), which pass 2 sees as any barrier
    // statement of the kernel.
    if (isAmpClass(pv->getType(), "tile_barrier")) {
      if (!isTiled(arg, tiled)) throw Refused{"a tile_barrier other than the kernel's passed to " + fname + at};
      if (fTiled) throw Refused{fname + " takes the tiled_index or its barrier twice" + at};
      fTiled = pv;
      rename[pv] = param_->getNameAsString() + ".barrier";
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
  struct B : DynamicRecursiveASTVisitor {
    Inliner& in;
    const FunctionDecl* f;
    std::map<const ParmVarDecl*, std::string>& rename;
    std::vector<TextEdit>& edits;
    const Stmt* last;
    std::string fname, at;
    B(Inliner& i, const FunctionDecl* ff, std::map<const ParmVarDecl*, std::string>& r, std::vector<TextEdit>& e)
        : in(i), f(ff), rename(r), edits(e) {}
    FileID ffid;
    std::vector<std::pair<unsigned, unsigned>> expandedMacros; // barrier macros written out (below)
    bool VisitDeclRefExpr(DeclRefExpr* r) override {
      const auto* pv = dyn_cast<ParmVarDecl>(r->getDecl());
      if (!pv || !rename.count(pv)) return true;
      SourceLocation l = r->getLocation();
      if (!l.isFileID()) {
        // A macro's argument (`EACH(i, count)`): its text is the file's,
        // renamed there (the macro expands the new name where the kernel
        // is). A name in a macro's own definition (`#define BARRIER
        // t_idx.barrier.wait()`, a radix sort's helpers) cannot be renamed:
        // only the tiled_index, named as the kernel names its own, which
        // the macro then names where the kernel is too.
        const SourceLocation sp = in.sm_.getSpellingLoc(l);
        if (in.sm_.isMacroArgExpansion(l) && sp.isFileID() && in.sm_.getFileID(sp) == ffid) {
          l = sp;
        } else if (rename[pv] == pv->getName() && isAmpClass(pv->getType(), "tiled_index")) {
          return true;
        } else {
          throw Refused{"the parameter `" + pv->getNameAsString() + "` of " + fname + " is used inside a macro" +
                        (isAmpClass(pv->getType(), "tiled_index")
                             ? " and named otherwise than the kernel's tiled_index (`" + rename[pv] + "`)"
                             : "") +
                        at};
        }
      }
      if (rename[pv] == pv->getName()) return true; // the kernel's tiled_index, named alike
      const unsigned b = in.off(l);
      for (const auto& [mb, me] : expandedMacros)
        if (mb <= b && b < me)
          throw Refused{"the parameter `" + pv->getNameAsString() + "` of " + fname +
                        " is an argument of a macro that holds a barrier" + at};
      for (const TextEdit& e : edits)
        if (e.b == b && e.text == rename[pv]) return true; // one spelling, several expansions
      edits.push_back({b, in.endOfToken(l), rename[pv]});
      return true;
    }
    std::set<const ReturnStmt*> guards; // guard returns (below)
    bool VisitReturnStmt(ReturnStmt* r) override {
      if (r != last && !guards.count(r))
        throw Refused{"a `return` in " + fname + " before its end (" + in.where(r->getBeginLoc()) +
                      "): not inlined"};
      return true;
    }
    bool VisitVarDecl(VarDecl* v) override {
      if (v->isStaticLocal()) {
        if (v->getTLSKind() == VarDecl::TLS_None && !v->getType().isConstQualified())
          throw Refused{fname + " has a `static` variable (" + in.where(v->getLocation()) + "): not inlined"};
        in.hasStatic_.insert(f);
      }
      return true;
    }
    bool VisitLambdaExpr(LambdaExpr* l) override {
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
  // Guards: `if (C) return X;` (or `{ return X; }`, no else) among the
  // body's statements before its last: the inlined text is `if (C) { RESULT
  // = (X); } else { the statements after it }` (`{ }` where the value is
  // discarded), so that the block ends where the callee returns.
  std::vector<std::pair<const IfStmt*, const ReturnStmt*>> guards;
  for (const Stmt* c : body->body()) {
    if (c == body->body_back()) break;
    const auto* is = dyn_cast<IfStmt>(c);
    if (!is || is->getElse() || is->getInit() || is->getConditionVariable() || is->isConstexpr()) continue;
    const ReturnStmt* r = dyn_cast<ReturnStmt>(is->getThen());
    if (const auto* cs = dyn_cast<CompoundStmt>(is->getThen()); cs && cs->size() == 1)
      r = dyn_cast<ReturnStmt>(cs->body_front());
    if (!r) continue;
    guards.push_back({is, r});
    bv.guards.insert(r);
  }
  bv.ffid = ffid;
  // Macros that hold a barrier in the callee's text (`BARRIER;`) are
  // written out, as in the kernel's own (expandBarrierMacros): the second
  // parse splits at the barrier they hold.
  for (TextEdit& e : expandBarrierMacros(body, ffid)) {
    bv.expandedMacros.push_back({e.b, e.e});
    edits.push_back(std::move(e));
  }
  bv.TraverseStmt(const_cast<CompoundStmt*>(body));
  if (bv.last && result.empty()) edits.push_back({off(bv.last->getBeginLoc()), stmtEnd(bv.last, ffid), ""});
  for (const auto& [is, r] : guards) {
    const Stmt* th = is->getThen();
    if (!th->getBeginLoc().isFileID() || !th->getEndLoc().isFileID())
      throw Refused{"a `return` of " + fname + " is written through a macro" + at};
    const unsigned tb = off(th->getBeginLoc());
    const unsigned te = isa<CompoundStmt>(th) ? endOfToken(cast<CompoundStmt>(th)->getRBracLoc()) : stmtEnd(r, ffid);
    std::string keep;
    if (const Expr* x = r->getRetValue()) {
      if (!result.empty())
        keep = result + " = (" + editedText(sm_, ffid, off(x->getBeginLoc()), endOfToken(x->getEndLoc()), edits) + "); ";
      else if (x->HasSideEffects(ctx_))
        throw Refused{fname + " returns a value with side effects, which the call discards" + at};
    }
    edits.push_back({tb, te, "{ " + keep + "} else {"});
    const unsigned close = stmtEnd(body->body_back(), ffid);
    edits.push_back({close, close, "}"});
  }
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
    struct R : DynamicRecursiveASTVisitor {
      std::map<const NamedDecl*, std::string>& args;
      Inliner& in;
      std::vector<TextEdit> e;
      bool bad = false;
      R(std::map<const NamedDecl*, std::string>& a, Inliner& i) : args(a), in(i) {}
      bool VisitTemplateTypeParmTypeLoc(TemplateTypeParmTypeLoc tl) override {
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
  }
  // Nested waiting calls (on the callee's tiled_index).
  std::vector<const CallExpr*> nested;
  waitingCalls(body, fTiled, nested);
  for (const auto& [is, r] : guards)
    for (const CallExpr* c : nested)
      if (off(is->getBeginLoc()) <= off(c->getBeginLoc()) && off(c->getBeginLoc()) < stmtEnd(is, ffid))
        throw Refused{"a call that waits on the barrier in a guard of " + fname + " (" + where(c->getBeginLoc()) + ")"};
  // The last `return E;` assigned to the caller's variable (`RESULT =
  // (E);`), unless E holds a waiting call: that statement is then written
  // with the nested call's (below).
  bool retHoisted = false;
  if (retValue) {
    const unsigned rb = off(retValue->getBeginLoc()), re = endOfToken(retValue->getEndLoc());
    for (const CallExpr* c : nested)
      if (rb <= off(c->getBeginLoc()) && off(c->getBeginLoc()) < re) retHoisted = true;
    if (!retHoisted)
      edits.push_back({off(bv.last->getBeginLoc()), stmtEnd(bv.last, ffid),
                       result + " = (" + editedText(sm_, ffid, rb, re, edits) + ");"});
  }
  std::set<const Stmt*> hoisted;
  std::map<const Stmt*, std::string> nestedKeys;
  std::map<const Stmt*, const CallExpr*> nestedCall;
  std::set<const Stmt*> valuedNested;
  for (const CallExpr* c : nested) {
    // A call whose value initialises a declaration or is assigned
    // (`unsigned rank = scan(...);`, `prefixSum = localPrefixSum(...);`):
    // `RT amp_ht_rvN; {inlined; amp_ht_rvN = (E);} /*amp_ht_valued*/ STMT`,
    // STMT the statement with the call replaced by amp_ht_rvN.
    // Inside a larger expression (`x = a + g(t, ...);`, `return g(t, ...) *
    // 2;` as the last statement of a valued callee): the same form, when
    // the rest of the statement is quiet and names only the callee's own
    // parameters and locals (enclosingStatement).
    const Stmt* vs = initialisedBy(c);
    if (vs && !returnsStorable(c->getDirectCallee())) vs = nullptr;
    if (!vs) vs = assignedBy(c);
    if (!vs) vs = enclosingStatement(c, fTiled, f, retHoisted ? bv.last : nullptr);
    const Stmt* s = vs ? vs : statementOf(c);
    if (!hoisted.insert(s).second)
      throw Refused{"two calls that wait on the barrier in one statement of " + fname + at};
    if (retHoisted && s != bv.last && !(off(s->getBeginLoc()) >= stmtEnd(bv.last, ffid) ||
                                         stmtEnd(s, ffid) <= off(bv.last->getBeginLoc())))
      throw Refused{"a call that waits on the barrier nested in the value " + fname + " returns" + at};
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
      const std::string stmt =
          vs == bv.last && retHoisted
              ? result + " = (" +
                    editedText(sm_, ffid, off(retValue->getBeginLoc()), endOfToken(retValue->getEndLoc()), se) + ");"
              : editedText(sm_, ffid, off(vs->getBeginLoc()), stmtEnd(vs, ffid), se);
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
  // A returned value as the second pass sees it in `RESULT = (X);`: without
  // the implicit copy or move construction of a class value (`return res;`).
  auto returned = [](const Expr* x) {
    if (const auto* ce = dyn_cast<CXXConstructExpr>(x->IgnoreImplicit());
        ce && ce->getNumArgs() == 1 && ce->getConstructor()->isCopyOrMoveConstructor() &&
        ce->getParenOrBraceRange().isInvalid() && !isa<CXXTemporaryObjectExpr>(ce))
      return static_cast<const Expr*>(ce->getArg(0));
    return x;
  };
  std::function<bool(const Stmt*, std::string&)> callFn = [&](const Stmt* s, std::string& out) {
    // A guard's return, keyed as its inlined block: `{ RESULT = (X); }`
    // and the `else`'s block (the statements after it follow).
    for (const auto& [is, r] : guards)
      if (s == r) {
        if (!isa<CompoundStmt>(is->getThen())) out += "CompoundStmt ";
        if (!result.empty() && r->getRetValue()) {
          KeyWalker sub{sm_, nameFn, callFn, ""};
          sub.walk(returned(r->getRetValue()));
          out += "RET " + sub.out;
        }
        out += "CompoundStmt ";
        return true;
      }
    if (s == bv.last && !retHoisted) {
      if (retValue) {
        KeyWalker sub{sm_, nameFn, callFn, ""};
        sub.walk(returned(retValue));
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

} // namespace tile_compiler
