// Kernel's emission (kernel.h): the compiled branch's text, from the
// analysis' results. Per-work-item arrays and slots, the item loop of each
// region (a guard as its bounds, a row/column nest over a 2-D tile), split
// blocks and statements of the tile.
#include "kernel.h"

namespace tile_compiler {

// The type of a per-work-item array: as written when that is a plain type
// name (so that `T` in a template stays `T` and every instantiation gets
// the same text), else the printed type.
// The written type of the inliner's alias `name` in the kernel body, its
// own aliases replaced the same way; "" when not found.
std::string Kernel::aliasText(const std::string& name, int depth) {
  struct Find : DynamicRecursiveASTVisitor {
    std::string name;
    const TypedefNameDecl* found = nullptr;
    bool VisitTypedefNameDecl(TypedefNameDecl* d) override {
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
std::string Kernel::typeText(const VarDecl* v, bool reference) {
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
void Kernel::buildEdits() {
  // `decltype(v)` of a value kept per work-item (or once per tile): the
  // declared type of v, not that of the storage element the use becomes
  // (`decltype((amp_ht_0_v[amp_ht_i]))` is a reference: `decltype(v)(0)`,
  // a loop counter of v's type, failed to compile). It covers the
  // reference's own edit below (text() skips edits inside an earlier one).
  struct D : DynamicRecursiveASTVisitor {
    Kernel& k;
    explicit D(Kernel& kk) : k(kk) {}
    bool VisitDecltypeTypeLoc(DecltypeTypeLoc tl) override {
      const auto* dr = dyn_cast<DeclRefExpr>(tl.getUnderlyingExpr());
      const auto* v = dr ? dyn_cast<VarDecl>(dr->getDecl()) : nullptr;
      if (!v || !k.arrays_.count(v) || v->getType()->isReferenceType()) return true;
      // Written by a macro (`#define EACH(i, n) for (auto i = decltype(n)(0); ...`):
      // the use is bound by name to the element, a reference, in the region.
      if (!tl.getBeginLoc().isFileID() || !tl.getRParenLoc().isFileID())
        throw Refused{"`decltype(" + v->getNameAsString() + ")` inside a macro expansion, `" +
                      v->getNameAsString() + "` kept per work-item (the macro would name a reference)"};
      const std::string a = k.arrays_[v];
      std::string t = k.oneValue_.count(v) ? "decltype(" + a + ")" : "::std::remove_extent_t<decltype(" + a + ")>";
      if (v->getType().isConstQualified()) t = "::std::add_const_t<" + t + ">";
      k.edits_.push_back({k.off(tl.getBeginLoc()), k.endOfToken(tl.getRParenLoc()), t});
      return true;
    }
  } d(*this);
  d.TraverseStmt(const_cast<CompoundStmt*>(body_));
  for (const DeclRefExpr* r : refs_)
    if (const auto* v = dyn_cast<VarDecl>(r->getDecl()); v && arrays_.count(v) && r->getLocation().isFileID()) {
      const unsigned b = off(r->getLocation());
      edits_.push_back({b, endOfToken(r->getLocation()), "(" + arrays_[v] + (oneValue_.count(v) ? ")" : "[amp_ht_i])")});
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
  for (const auto& [b, l] : ppLines_) edits_.push_back({b, l.e, ppReplacement(l)});
  // The kernel's tile_static arrays get slack after them (slackDecls).
  for (const SlackEdit& x : slackDecls(sm_, lo_, body_)) edits_.push_back({x.b, x.e, x.text});
  std::sort(edits_.begin(), edits_.end(), [](const Edit& a, const Edit& b) { return a.b < b.b; });
}
std::string Kernel::text(unsigned b, unsigned e) {
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
std::string Kernel::declText(const DeclStmt* ds) {
  std::string out;
  for (const Decl* d : ds->decls()) {
    const auto* v = cast<VarDecl>(d);
    const std::string lhs = arrays_[v] + (oneValue_.count(v) ? "" : "[amp_ht_i]");
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
    if (arrayDecl_.count(v)) {
      out += arrayInit(v, lhs);
      continue;
    }
    if (v->getInitStyle() == VarDecl::CInit) {
      if (const auto* il = dyn_cast<InitListExpr>(init->IgnoreImplicit()))  // T x = {...}
        out += lhs + " = " + ty + text(off(il->getLBraceLoc()), endOfToken(il->getRBraceLoc())) + "; ";
      else
        out += lhs + " = " + text(off(init->getBeginLoc()), endOfToken(init->getEndLoc())) + "; ";
      continue;
    }
    // `T x(e);` of a scalar: direct-initialisation, which static_cast<T>(e)
    // is (explicit conversion functions included).
    if (v->getInitStyle() == VarDecl::CallInit && v->getType()->isScalarType() &&
        !isa<CXXConstructExpr, InitListExpr, ParenListExpr>(init->IgnoreImplicit())) {
      out += lhs + " = static_cast<" + ty + ">(" + text(off(init->getBeginLoc()), endOfToken(init->getEndLoc())) + "); ";
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
std::string Kernel::slotInit(const VarDecl* v, const std::string& ty) {
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
// The recomputed values read in [b, e), with those their initialisers
// read, declared in source order (each after what it reads).
std::string Kernel::recomputed(unsigned b, unsigned e) {
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
std::string Kernel::boundNames(unsigned b, unsigned e) {
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
bool Kernel::sameName(const VarDecl* v) {
  int n = param_->getName() == v->getName();
  for (const VarDecl* o : locals_) n += o->getName() == v->getName();
  return n != 1;
}
void Kernel::keepArray(const VarDecl* v) {
  const std::string name = "`" + v->getNameAsString() + "`";
  // Scalars, or values of a class with a default constructor and a
  // trivial destructor (AMD's FFT keeps `float_2 t[8]`): the row is set
  // element by element from a temporary built as the declaration builds
  // the array (declText, arrayInit).
  const QualType base = ctx_.getBaseElementType(v->getType());
  const CXXRecordDecl* rd = base->getAsCXXRecordDecl();
  if (!ctx_.getAsConstantArrayType(v->getType()) ||
      !(base->isScalarType() ||
        (rd && rd->hasDefinition() && rd->hasDefaultConstructor() && rd->hasTrivialDestructor())) ||
      v->getType().isVolatileQualified())
    throw Refused{name + " (an array of other than scalars, or of a size known only at run time) lives across a barrier"};
  // An initialiser (`unsigned h[16] = {0, ...};`, AMD's radix sort) fills
  // the work-item's row each time the declaration runs (declText).
  if (const Expr* init = v->getInit();
      init && !defaultBuilt(v) &&
      (v->getInitStyle() == VarDecl::CallInit || !isa<InitListExpr, StringLiteral>(init->IgnoreImplicit()) ||
               !init->getBeginLoc().isFileID() || !inFile(init->getBeginLoc())))
    throw Refused{name + " (an array with an initialiser other than a braced list in the kernel's text) lives across a barrier"};
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
// The work-item's row `lhs` of array v set as v's declaration sets a fresh
// array (its braced initialiser, or default construction): built in a
// temporary declared as v is, then assigned element by element.
std::string Kernel::arrayInit(const VarDecl* v, const std::string& lhs) {
  std::string value; // `float_2 t[8];`: each element built by its default constructor, as the declaration does
  if (!defaultBuilt(v)) {
    const Expr* init = v->getInit()->IgnoreImplicit();
    const auto* il = dyn_cast<InitListExpr>(init);
    value = " = " + (il ? text(off(il->getLBraceLoc()), endOfToken(il->getRBraceLoc()))
                        : text(off(init->getBeginLoc()), endOfToken(init->getEndLoc())));
  }
  const std::string& e = arrayDecl_[v].first;
  return "{ " + e + " amp_ht_init" + arrayDecl_[v].second + value + "; " + e + "* amp_ht_d = reinterpret_cast<" + e +
         "*>(&" + lhs + "); for (unsigned amp_ht_k = 0; amp_ht_k < sizeof amp_ht_init / sizeof(" + e +
         "); ++amp_ht_k) amp_ht_d[amp_ht_k] = reinterpret_cast<const " + e + "*>(&amp_ht_init)[amp_ht_k]; } ";
}
// An array of a class declared without an initialiser: its elements are
// built by the default constructor (an implicit construction, no arguments).
bool Kernel::defaultBuilt(const VarDecl* v) {
  const auto* ce = v->getInit() ? dyn_cast<CXXConstructExpr>(v->getInit()->IgnoreImplicit()) : nullptr;
  return ce && ce->getNumArgs() == 0 && ce->getParenOrBraceRange().isInvalid() && v->getType()->isArrayType();
}
// The tile's rank (tiled_index<D0, D1, D2>: the dimensions above 0).
int Kernel::tileRank() {
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
bool Kernel::isItemIndex(const Expr* e) {
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
// A region that is one `if (L < U) S` (or <=, >, >=, ==, either way round)
// with L the work-item's local index and U uniform, all in int: the
// condition becomes the item loop's bounds, so S runs for the same
// work-items in the same order and the loop has no branch left (which is
// what lets the compiler vectorise `if (i < n) a[i] = ...`, the common
// GPU guard, across work-items). "" when the region is not of that form.
std::string Kernel::guardedRegion(const Stmt* c) {
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
std::string Kernel::itemBody(unsigned b, unsigned e, SourceLocation at) {
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
// Uniform element reads are read before the loop (hoist.cpp), in a block of
// the region's own (a `case` label may follow it in a switch).
std::string Kernel::region(unsigned b, unsigned e, SourceLocation at, const std::vector<const Stmt*>& stmts,
                           const std::string& after) {
  const std::string hoisted = hoistReads(stmts, b, e);
  std::string loop;
  if (nest2()) {
    nested_ = true;
    const std::string head = "for (int amp_ht_r = 0; amp_ht_r < amp_ht_d0; ++amp_ht_r) {" + ivdep(stmts, nullptr) +
                             "for (int amp_ht_c = 0; amp_ht_c < amp_ht_d1; ++amp_ht_c) { const int amp_ht_i = "
                             "amp_ht_r * amp_ht_d1 + amp_ht_c; (void)amp_ht_i;";
    loop = head + itemBody(b, e, at) + after + "\n}\n}\n";
  } else {
    loop = ivdep(stmts, nullptr) + "for (int amp_ht_i = 0; amp_ht_i < amp_ht_n; ++amp_ht_i) {" + itemBody(b, e, at) +
           after + "\n}\n";
  }
  return hoisted.empty() ? loop : "{\n" + hoisted + loop + "}\n";
}
std::string Kernel::emitBlock(const CompoundStmt* cs) {
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
      out += barrierText();
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
    if (isa<DeclStmt>(c) || isTileUpdateStmt(c) || tileJumps_.count(c) || tileLoops_.count(c)) {
      // A tile-level declaration, update, jump or counting loop: once per tile.
      out += lineDirective(c->getBeginLoc()) + text(off(c->getBeginLoc()), stmtEnd(c)) + "\n";
      continue;
    }
    out += emitSplit(c);
  }
  return out;
}
// A barrier statement of the tile: nothing to wait for (the work-items ran
// in turn), but with work-items returned early, the check fibers make there.
std::string Kernel::barrierText() {
  if (returns_.empty()) return "";
  return "if (amp_ht_nret) { if (amp_ht_nret == amp_ht_n) return; "
         "::Concurrency::detail::host_tiles::diverged(amp_ht_arg, amp_ht_ret, !amp_ht_waited); }\n"
         "amp_ht_waited = true;\n";
}
// A loop body or an if branch: split when it holds a barrier (or is one),
// else one region.
std::string Kernel::branch(const Stmt* s) {
  if (barrierStmts_.count(s)) return "{\n" + barrierText() + "}\n";
  if (const auto* cs = dyn_cast<CompoundStmt>(s); cs && withBarrier_.count(cs)) return "{\n" + emitBlock(cs) + "}\n";
  if (splitStmt(s)) return "{\n" + emitSplit(s) + "}\n";
  return "{\n" + region(off(s->getBeginLoc()), stmtEnd(s), s->getBeginLoc(), {s}) + "}\n";
}
// A statement's head from its keyword to its `)`, as written: `for (...)`,
// or the invocation of the macro that writes it (`EACH(i, n)`, a radix
// sort's `for` over `decltype(n)`), expanded where the kernel is.
std::string Kernel::header(SourceLocation keyword, SourceLocation rparen) {
  return text(off(keyword), endOfToken(rparen));
}
std::string Kernel::emitSplit(const Stmt* c) {
  if (const auto* cs = dyn_cast<CompoundStmt>(c)) return branch(cs);
  if (const auto* f = dyn_cast<ForStmt>(c)) {
    auto it = itemIncParts_.find(f);
    if (it == itemIncParts_.end())
      return lineDirective(c->getBeginLoc()) + header(f->getForLoc(), f->getRParenLoc()) + "\n" + branch(f->getBody());
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
    if (!f->getForLoc().isFileID() || !f->getInc()->getBeginLoc().isFileID())
      throw Refused{"a `for` written through a macro increments a value kept per work-item (" + where(c) + ")"};
    const std::string head = "for (" + text(off(f->getLParenLoc()) + 1, f->getInc() ? off(f->getInc()->getBeginLoc()) : 0);
    return lineDirective(c->getBeginLoc()) + head + inc + ")\n{\n" + branch(f->getBody()) + tail + "}\n";
  }
  if (const auto* w = dyn_cast<WhileStmt>(c))
    return lineDirective(c->getBeginLoc()) + header(w->getWhileLoc(), w->getRParenLoc()) + "\n" + branch(w->getBody());
  if (const auto* sw = dyn_cast<SwitchStmt>(c))
    return lineDirective(c->getBeginLoc()) + header(sw->getSwitchLoc(), sw->getRParenLoc()) + "\n{\n" +
           emitBlock(cast<CompoundStmt>(sw->getBody())) + "}\n";
  if (const auto* d = dyn_cast<DoStmt>(c))
    return lineDirective(c->getBeginLoc()) + "do\n" + branch(d->getBody()) + lineDirective(d->getWhileLoc()) +
           text(off(d->getWhileLoc()), endOfToken(d->getRParenLoc())) + ";\n";
  const auto* i = dyn_cast<IfStmt>(c);
  if (!i) throw Refused{"internal: an unexpected statement at " + where(c)};
  std::string out = lineDirective(c->getBeginLoc()) + header(i->getIfLoc(), i->getRParenLoc()) + "\n" + branch(i->getThen());
  if (i->getElse()) out += "else\n" + branch(i->getElse());
  return out;
}
std::string Kernel::emitAll() {
  for (Conditionals::Line& l : cond_.linesIn(sm_, fid_, off(body_->getLBracLoc()), off(body_->getRBracLoc())))
    ppLines_.emplace(l.b, std::move(l));
  buildEdits();
  dirCursor_ = off(body_->getLBracLoc()) + 1;
  std::string out = "constexpr int amp_ht_n = ::std::remove_reference_t<decltype(amp_ht_arg)>::size; (void)amp_ht_n;\n";
  out += "auto " + pname() + " = amp_ht_arg.item(0); (void)" + pname() + ";\n";
  for (auto& [v, name] : arrays_)
    out += slots_.count(v)      ? "::Concurrency::detail::host_tiles::item_slots<" + typeText(v) + ", amp_ht_n> " + name + ";\n"
           : arrayDecl_.count(v) ? arrayDecl_[v].first + " " + name + "[amp_ht_n]" + arrayDecl_[v].second + ";\n"
           : oneValue_.count(v)  ? typeText(v) + " " + name + " = {};\n"
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

} // namespace tile_compiler
