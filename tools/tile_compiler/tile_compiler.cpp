// tile_compiler: a Clang 22 plugin that rewrites the tiled kernels (lambdas,
// and function objects' call operators) of a host translation unit so that a
// tile runs as loops over its work-items between barriers instead of as fibers
// (amp_compat/detail/backend/host/compiled_tiles.h has the runtime side,
// README.md beside this file the design and the rules).
//
// Run on a parse of the source (clang++-22 -fsyntax-only with the host flags):
//   -fplugin=tile_compiler.so -Xclang -plugin-arg-tile-compiler -Xclang out=FILE
//       [-Xclang -plugin-arg-tile-compiler -Xclang report=1]
//       [-Xclang -plugin-arg-tile-compiler -Xclang overlay=DIR
//        -Xclang -plugin-arg-tile-compiler -Xclang header=PATH ...]
// writes the rewritten main file to FILE (the original text when nothing was
// rewritten) and each named project header with a rewritten kernel to
// DIR/PATH; report=1 prints a note per tiled kernel with a barrier: which path
// it takes and why.
//
// What is compiled: a non-mutable lambda taking one tiled_index<...> (or a
// function object's const operator() taking one: its members play the
// captures' role, and its class gets the compiled form as a member template
// beside the operator, which stays as written for fibers), whose
// barriers (t.barrier.wait*() statements on its own parameter) sit at the top
// level of the body or in blocks, `for`, `while` and `if` statements whose
// conditions are uniform over the tile (see Kernel::uniform). Locals declared
// at those levels and used across a barrier are recomputed per region when
// they are pure functions of the work-item, else kept in arrays with one
// element per work-item; tile-uniform scalars and tile_static variables stay
// single. `return` marks the work-item returned (checked at the next barrier),
// uniform break/continue are statements of the tile, and a region that is one
// guard on the local index becomes the item loop's bounds. A region loop whose
// work-items provably touch no memory another of them writes is marked
// `#pragma GCC ivdep`; over a 2-D tile the loop is a row/column nest.
// A call handing the tiled_index to a function that waits on its barrier (a
// statement, or inside an expression whose other operands are quiet) is first inlined (Inliner, a first parse), the result analysed by
// a second parse (pass=2) that also checks each inlined name binds as in the
// callee; the fibers branch keeps the original body.
// Everything else is wrapped with the reason and keeps fibers.
#include "inliner.h"
#include "kernel.h"
#include "keys.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendPluginRegistry.h"
#include "clang/Lex/HeaderSearch.h"
#include "clang/Lex/Preprocessor.h"
#include "clang/Rewrite/Core/Rewriter.h"
#include "llvm/Support/FileSystem.h"

#include <optional>

namespace tile_compiler {

class Consumer : public ASTConsumer {
public:
  Consumer(CompilerInstance& ci, std::string out, bool report, std::set<std::string> headers, std::string overlay,
           int pass, bool inl, std::set<std::string> fibers)
      : ci_(ci), out_(std::move(out)), report_(report), headers_(std::move(headers)), overlay_(std::move(overlay)),
        pass_(pass), inline_(inl), fibers_(std::move(fibers)), cond_(Conditionals::record(ci.getPreprocessor())) {
    keyOverlay(overlay_);
  }

  void HandleTranslationUnit(ASTContext& ctx) override {
    SourceManager& sm = ctx.getSourceManager();
    Rewriter rw(sm, ctx.getLangOpts());
    if (ci_.getDiagnostics().hasErrorOccurred()) return; // the launcher compiles the original
    // Template instantiations too: a kernel in a template is analysed in
    // each instantiation (concrete types) and rewritten once, when every
    // instantiation gives the same text.
    // Declarations written in a system header (the standard library,
    // Kokkos, Google Test, the Windows shims) that is not a project header
    // the launcher named are not entered: no kernel of theirs is reported or
    // rewritten (rewritable), a user's kernel is written in the user's files
    // (where its lambda or its class template is declared first: a template's
    // instantiations are visited from its first declaration), and entering
    // them made Clang read every declaration of a precompiled header.
    struct V : DynamicRecursiveASTVisitor {
      Consumer* self;
      SourceManager* sm;
      std::map<FileID, bool> entered; // per file: whether its declarations are entered
      std::vector<LambdaExpr*> lambdas;
      std::vector<const CXXMethodDecl*> functors; // operator() of classes other than lambdas
      V() { ShouldVisitTemplateInstantiations = true; }
      bool TraverseDecl(Decl* d) override {
        if (d && !isa<TranslationUnitDecl>(d) && !mayHoldKernels(d)) return true;
        return DynamicRecursiveASTVisitor::TraverseDecl(d);
      }
      bool mayHoldKernels(const Decl* d) {
        const SourceLocation at = d->getLocation();
        if (at.isInvalid()) return true;
        const FileID fid = sm->getFileID(sm->getExpansionLoc(at));
        auto it = entered.find(fid);
        if (it == entered.end()) it = entered.emplace(fid, self->mayRewrite(*sm, fid)).first;
        return it->second;
      }
      bool VisitLambdaExpr(LambdaExpr* l) override {
        lambdas.push_back(l);
        return true;
      }
      bool VisitCXXMethodDecl(CXXMethodDecl* m) override {
        if (m->getOverloadedOperator() == OO_Call && !m->getParent()->isLambda() && m->doesThisDeclarationHaveABody() &&
            !m->isDependentContext())
          functors.push_back(m);
        return true;
      }
    } v;
    v.self = this;
    v.sm = &sm;
    v.TraverseDecl(ctx.getTranslationUnitDecl());
    // Kernels grouped by where they are written (a template's instantiations
    // share the place): lambdas, then function objects' call operators.
    std::vector<SourceLocation> order;
    std::map<SourceLocation, std::vector<KernelFn>> groups;
    for (LambdaExpr* l : v.lambdas) {
      auto& g = groups[l->getBeginLoc()];
      if (g.empty()) order.push_back(l->getBeginLoc());
      g.push_back(KernelFn::of(l));
    }
    for (const CXXMethodDecl* m : v.functors) {
      auto& g = groups[m->getBeginLoc()];
      if (g.empty()) order.push_back(m->getBeginLoc());
      g.push_back(KernelFn::of(const_cast<CXXMethodDecl*>(m)));
    }
    for (SourceLocation at : order) handle(ctx, rw, groups[at]);
    std::error_code ec;
    llvm::raw_fd_ostream os(out_, ec);
    if (ec) {
      llvm::errs() << "tile_compiler: cannot write " << out_ << ": " << ec.message() << "\n";
      return;
    }
    if (const llvm::RewriteBuffer* b = rw.getRewriteBufferFor(sm.getMainFileID()))
      b->write(os);
    else
      os << sm.getBufferData(sm.getMainFileID());
    // Project headers with a rewritten kernel: OVERLAY/<the header's path>,
    // naming the original (the launcher puts their folders first).
    for (auto& [path, fid] : headerFile_) {
      const llvm::RewriteBuffer* b = rw.getRewriteBufferFor(fid);
      if (!b) continue;
      const std::string dst = overlay_ + path;
      llvm::sys::fs::create_directories(llvm::sys::path::parent_path(dst));
      llvm::raw_fd_ostream hs(dst, ec);
      if (ec) {
        llvm::errs() << "tile_compiler: cannot write " << dst << ": " << ec.message() << "\n";
        continue;
      }
      hs << "#line 1 " << quote(path) << "\n";
      b->write(hs);
    }
  }

private:
  CompilerInstance& ci_;
  std::string out_;
  bool report_;
  std::set<std::string> headers_;            // project headers whose kernels may be rewritten (real paths)
  std::string overlay_;                      // where their rewritten copies go
  std::map<std::string, FileID> headerFile_; // such a header, as included (its first inclusion)
  int pass_ = 1;       // 2: the second parse, of the first's output (only the kernels it inlined calls into)
  bool inline_ = true; // the first pass inlines calls that wait on the barrier
  std::set<std::string> fibers_; // kernels (keyOf) the launcher takes back to fibers
  std::shared_ptr<Conditionals> cond_; // the parse's preprocessor conditionals (recorded from the start)

  // May kernels at `at` (a file location) be rewritten: in the main file, or
  // in the first inclusion of a project header the launcher named.
  bool rewritable(SourceManager& sm, SourceLocation at) {
    if (sm.isWrittenInMainFile(at)) return true;
    const FileID fid = sm.getFileID(at);
    std::string path;
    if (!projectHeader(sm, fid, path)) return false;
    auto it = headerFile_.emplace(path, fid).first;
    return it->second == fid;
  }

  // Whether the traversal enters the declarations written in file fid: all
  // but a system header's that is not a project header the launcher named.
  // A system header is one in a system include folder: Clang also marks
  // system every file a system header includes, and `--windows-compat`
  // answers `#include "scan.h"` (the file is Scan.h) with a shim in an
  // -idirafter folder that includes the user's file, whose templates' kernels
  // were then neither compiled nor reported.
  bool mayRewrite(SourceManager& sm, FileID fid) {
    if (fid == sm.getMainFileID() || !sm.getFileEntryRefForID(fid)) return true;
    if (!SrcMgr::isSystem(sm.getFileCharacteristic(sm.getLocForStartOfFile(fid)))) return true;
    std::string path;
    return projectHeader(sm, fid, path) || !inSystemFolder(sm, fid);
  }

  // Whether fid's file (its real path) lies under one of the system include
  // folders of the parse (-isystem, -idirafter, the toolchain's).
  bool inSystemFolder(SourceManager& sm, FileID fid) {
    OptionalFileEntryRef fe = sm.getFileEntryRefForID(fid);
    llvm::SmallString<256> real;
    if (!fe || llvm::sys::fs::real_path(fe->getName(), real)) return true;
    const std::string path(real);
    for (const std::string& d : systemFolders())
      if (path.rfind(d + "/", 0) == 0) return true;
    return false;
  }

  // The real paths of the parse's system include folders, read once.
  const std::vector<std::string>& systemFolders() {
    if (systemFolders_) return *systemFolders_;
    systemFolders_.emplace();
    HeaderSearch& hs = ci_.getPreprocessor().getHeaderSearchInfo();
    for (auto it = hs.system_dir_begin(); it != hs.system_dir_end(); ++it) {
      OptionalDirectoryEntryRef d = it->getDirRef();
      llvm::SmallString<256> real;
      if (d && !llvm::sys::fs::real_path(d->getName(), real)) systemFolders_->push_back(std::string(real));
    }
    return *systemFolders_;
  }
  std::optional<std::vector<std::string>> systemFolders_;

  // Whether fid is one of the project headers the launcher named (headers_);
  // path: its name there (a real path).
  bool projectHeader(SourceManager& sm, FileID fid, std::string& path) {
    if (overlay_.empty()) return false;
    OptionalFileEntryRef fe = sm.getFileEntryRefForID(fid);
    if (!fe) return false;
    // The second parse reads the first's copies of the headers (the script
    // puts the overlay first): a copy stands for its original (keyOverlay).
    path = originalOf(fe->getFileEntry().tryGetRealPathName().str());
    if (!headers_.count(path)) {
      // The name Clang keeps may be the one it opened the file by (an -I
      // folder written `../shared/include`): the launcher lists real paths.
      llvm::SmallString<256> real;
      if (llvm::sys::fs::real_path(path, real) || !headers_.count(std::string(real))) return false;
      path = std::string(real);
    }
    return true;
  }

  // A barrier call, or the parameter passed to a function (which may wait).
  // The parameter passed by value counts too (a copy construction around it:
  // `kernel(idx, ...)` with `void kernel(tiled_index<...> idx, ...)`, the
  // conformance suite's usual shape), so that such kernels are wrapped and
  // reported as keeping fibers instead of being skipped without a word.
  // s waits on p's barrier, or hands p to a function that may: one whose
  // body does (followed 8 calls deep), or whose body is not there to read.
  // A kernel that only hands its tiled_index to helpers that never wait (a
  // radix sort's `flip_float(t_idx, ...)`) is no kernel with barriers.
  static bool containsBarrier(ASTContext& ctx, const Stmt* s, const ParmVarDecl* p, int depth = 0) {
    if (!s) return false;
    // p handed to a constructor (a local object built from it): such an
    // object may wait later through what it keeps, unless the constructor
    // keeps no barrier.
    if (const auto* ce = dyn_cast<CXXConstructExpr>(s); ce && ce->getConstructor() &&
                                                     !ce->getConstructor()->isCopyOrMoveConstructor())
      for (unsigned i = 0; i < ce->getNumArgs(); ++i) {
        const Expr* e = ce->getArg(i)->IgnoreParenImpCasts();
        if (const auto* m = dyn_cast<MaterializeTemporaryExpr>(e)) e = m->getSubExpr()->IgnoreParenImpCasts();
        if (const auto* cc = dyn_cast<CXXConstructExpr>(e); cc && cc->getNumArgs() == 1) e = cc->getArg(0)->IgnoreParenImpCasts();
        if (const auto* dr = dyn_cast<DeclRefExpr>(e); dr && dr->getDecl() == p &&
                                                        !constructorNeverWaits(ctx, ce->getConstructor(), i))
          return true;
      }
    if (const auto* call = dyn_cast<CallExpr>(s))
      for (unsigned i = 0; i < call->getNumArgs(); ++i) {
        const Expr* a = call->getArg(i);
        const Expr* e = a->IgnoreParenImpCasts();
        if (const auto* ce = dyn_cast<CXXConstructExpr>(e); ce && ce->getNumArgs() == 1)
          e = ce->getArg(0)->IgnoreParenImpCasts();
        // (Or p's barrier, handed to a `tile_barrier` parameter; or p itself
        // where p is such a parameter.)
        const bool barrier = isAmpClass(a->getType(), "tile_barrier");
        if (const auto* me = dyn_cast<MemberExpr>(e);
            me && barrier && me->getMemberDecl()->getIdentifier() && me->getMemberDecl()->getName() == "barrier")
          e = me->getBase()->IgnoreParenImpCasts();
        const auto* dr = dyn_cast<DeclRefExpr>(e);
        if (!dr || dr->getDecl() != p || !(isAmpClass(a->getType(), "tiled_index") || barrier)) continue;
        if (const FunctionDecl* g = call->getDirectCallee(); g && inConcurrency(g)) continue; // the fences
        const FunctionDecl* g = call->getDirectCallee();
        const FunctionDecl* def = nullptr;
        if (!g || isa<CXXMethodDecl>(g) || isa<CXXOperatorCallExpr>(call) || !g->hasBody(def) || !def->getBody() ||
            i >= def->getNumParams() || depth >= 8 || containsBarrier(ctx, def->getBody(), def->getParamDecl(i), depth + 1))
          return true;
      }
    if (const auto* c = dyn_cast<CXXMemberCallExpr>(s))
      if (const CXXMethodDecl* m = c->getMethodDecl())
        if (m->getParent() && m->getParent()->getName() == "tile_barrier" && m->getName().starts_with("wait"))
          return true;
    for (const Stmt* c : s->children())
      if (containsBarrier(ctx, c, p, depth)) return true;
    return false;
  }

  // The kernel's note; ` [lines B-E]` (its lambda's lines) ends it, which
  // the launcher reads to tell which kernel a compile error points into.
  void note(SourceManager& sm, SourceLocation at, const std::string& what) {
    if (!report_) return;
    PresumedLoc p = sm.getPresumedLoc(at);
    llvm::errs() << p.getFilename() << ":" << p.getLine() << ":" << p.getColumn() << ": note: amp host tiles: " << what;
    if (endAt_.isValid()) llvm::errs() << " [lines " << p.getLine() << "-" << sm.getPresumedLoc(endAt_).getLine() << "]";
    llvm::errs() << "\n";
  }
  SourceLocation endAt_; // the end of the kernel being handled
  std::set<std::pair<unsigned, unsigned>> slackDone_; // (file, offset) of tile_static declarations given slack

  // FILE:LINE:COL of a kernel, its file's real path: the launcher's name for
  // a kernel it takes back to fibers (fibers=KEY) after its compiled form
  // failed to compile.
  static std::string keyOf(SourceManager& sm, SourceLocation at) {
    PresumedLoc p = sm.getPresumedLoc(at);
    llvm::SmallString<256> real;
    std::string file = p.getFilename();
    if (!llvm::sys::fs::real_path(file, real)) file = std::string(real);
    return file + ":" + std::to_string(p.getLine()) + ":" + std::to_string(p.getColumn());
  }

  // A function object's call operator: the compiled form is a member
  // template beside it (below, "function objects"). Why that cannot be
  // written ("" when it can); markers: whether the class can take the
  // static members that name the kernel (for the run-time report) at all.
  // inClass: for an operator defined outside its class, its declaration in
  // the class (the member template's declaration and the static members go
  // there, its definition beside the operator's).
  static std::string functorShape(const CXXMethodDecl* op, bool& markers, const FunctionDecl*& inClass) {
    const FunctionDecl* pat = op->getTemplateInstantiationPattern();
    const FunctionDecl* def = pat ? pat : op;
    const CXXRecordDecl* rd = op->getParent();
    markers = false;
    inClass = nullptr;
    if (def->isOutOfLine()) {
      inClass = def->getCanonicalDecl();
      if (inClass == def || inClass->isOutOfLine())
        return "a function object whose operator() is defined outside its class and not declared in it";
    }
    if (!rd->getIdentifier()) return "a function object of an unnamed class";
    // (Its template parameters would not be in scope in the member template.)
    if (op->getPrimaryTemplate()) return "a function object whose operator() is a template";
    int tiled = 0;
    for (const CXXMethodDecl* m : rd->methods())
      if (m->getOverloadedOperator() == OO_Call && m->getNumParams() == 1 &&
          isAmpClass(m->getParamDecl(0)->getType(), "tiled_index"))
        ++tiled;
    if (tiled > 1) return "a function object with several operator()s taking a tiled_index";
    markers = true;
    if (rd->isLocalClass())
      return "a function object of a class local to a function (such a class cannot have the member template "
             "the compiled form adds)";
    if (op->isVirtual()) return "a function object whose operator() is virtual";
    if (op->getType()->castAs<FunctionProtoType>()->hasTrailingReturn())
      return "a function object whose operator() has a trailing return type";
    return "";
  }

  // A library's launcher whose kernel only hands its tiled_index to a
  // function object it captured (`[=](tiled_index<N> t) restrict(amp) {
  // function(t); }`, the user's kernel the argument of a launcher template):
  // the captured name, in every instantiation; else null. Such a kernel
  // waits where the function object does, which is compiled on its own.
  static const DeclRefExpr* forwardee(const std::vector<KernelFn>& kernels, SourceManager& sm) {
    const DeclRefExpr* first = nullptr;
    for (const KernelFn& k : kernels) {
      const CompoundStmt* body = k.body();
      if (!k.lambda || !body || body->size() != 1) return nullptr;
      const Expr* e = dyn_cast<Expr>(body->body_front());
      if (const auto* ewc = dyn_cast_or_null<ExprWithCleanups>(e)) e = ewc->getSubExpr();
      const auto* call = dyn_cast_or_null<CXXOperatorCallExpr>(e);
      if (!call || call->getOperator() != OO_Call || call->getNumArgs() != 2) return nullptr;
      const auto* target = dyn_cast<DeclRefExpr>(call->getArg(0)->IgnoreParenImpCasts());
      const ParmVarDecl* p = k.op->getParamDecl(0);
      const Expr* a = call->getArg(1)->IgnoreParenImpCasts();
      if (const auto* m = dyn_cast<MaterializeTemporaryExpr>(a)) a = m->getSubExpr()->IgnoreParenImpCasts();
      if (const auto* ce = dyn_cast<CXXConstructExpr>(a); ce && ce->getNumArgs() == 1) a = ce->getArg(0)->IgnoreParenImpCasts();
      const auto* arg = dyn_cast<DeclRefExpr>(a);
      if (!target || !arg || arg->getDecl() != p || !target->refersToEnclosingVariableOrCapture() ||
          !target->getLocation().isFileID() || !call->getBeginLoc().isFileID() ||
          !target->getType()->getAsCXXRecordDecl())
        return nullptr;
      if (first && sm.getFileOffset(first->getLocation()) != sm.getFileOffset(target->getLocation())) return nullptr;
      if (!first) first = target;
    }
    return first;
  }
  // `make_forward_kernel<F>(where, [=](auto&& amp_ht_arg) restrict(amp) ->
  // void { if constexpr (a tile_group, and F compiled) { function(amp_ht_arg); }
  // else { auto t = amp_ht_arg; BODY } })`. Noted for the launcher's
  // fallback (its lines), not counted in the census: the function object's
  // own entry says whether it is compiled.
  void forward(Rewriter& rw, SourceManager& sm, const LangOptions& lo, const KernelFn& k0, const ParmVarDecl* p,
               const DeclRefExpr* target, const std::string& whereText) {
    const CompoundStmt* body = k0.body();
    const TypeSourceInfo* tsi = k0.op->getTypeSourceInfo();
    const auto ftl = tsi ? tsi->getTypeLoc().getAsAdjusted<FunctionProtoTypeLoc>() : FunctionProtoTypeLoc();
    if (!ftl || !ftl.getLParenLoc().isFileID() || !ftl.getRParenLoc().isFileID()) return;
    const std::string name = target->getDecl()->getNameAsString();
    const std::string type = "::std::remove_cv_t<::std::remove_reference_t<decltype(" + name + ")>>";
    PresumedLoc bl = sm.getPresumedLoc(body->getLBracLoc());
    const std::string pn = p->getNameAsString();
    rw.ReplaceText(SourceRange(ftl.getLParenLoc(), ftl.getRParenLoc()), "(auto&& amp_ht_arg)");
    if (!tsi->getType()->castAs<FunctionProtoType>()->hasTrailingReturn()) rw.InsertTextBefore(body->getLBracLoc(), "-> void ");
    rw.InsertTextAfter(Lexer::getLocForEndOfToken(body->getLBracLoc(), 0, sm, lo),
                       " if constexpr (::Concurrency::detail::host_tiles::is_tile_group<decltype(amp_ht_arg)> && "
                       "::Concurrency::detail::host_tiles::is_compiled_kernel_t<" + type + ">::value) { " + name +
                           "(amp_ht_arg); } else { " + (p->getType()->isReferenceType() ? "const auto& " : "auto ") + pn +
                           " = amp_ht_arg;\n#line " + std::to_string(bl.getLine()) + " " + quote(bl.getFilename()) + "\n");
    rw.InsertTextBefore(body->getRBracLoc(), "}");
    rw.InsertTextBefore(k0.begin(), "::Concurrency::detail::host_tiles::make_forward_kernel<" + type + ">(" +
                                        quote(whereText) + ", ");
    const SourceLocation after = Lexer::getLocForEndOfToken(k0.end(), 0, sm, lo);
    rw.InsertTextAfter(after, ")\n#line " + std::to_string(sm.getPresumedLoc(k0.end()).getLine()) + " " +
                                  quote(sm.getPresumedLoc(k0.end()).getFilename()) + "\n");
    note(sm, k0.begin(), "tiled kernel forwards its tiled_index to the function object `" + name +
                             "` (compiled where that one is)");
  }

  void handle(ASTContext& ctx, Rewriter& rw, const std::vector<KernelFn>& group) {
    SourceManager& sm = ctx.getSourceManager();
    std::vector<KernelFn> kernels; // the concrete instances that are tiled kernels with barriers
    for (const KernelFn& f : group) {
      if (f.lambda ? f.lambda->getLambdaClass()->isDependentContext() : f.op->isDependentContext()) continue;
      CXXMethodDecl* op = f.op;
      if (!op || op->getNumParams() != 1 || op->getDescribedFunctionTemplate()) continue;
      ParmVarDecl* p = op->getParamDecl(0);
      if (!isAmpClass(p->getType(), "tiled_index")) continue;
      if (!f.body() || !containsBarrier(ctx, f.body(), p)) continue; // runs as a plain loop already
      kernels.push_back(f);
    }
    if (kernels.empty()) return;
    endAt_ = SourceLocation();
    const KernelFn k0 = kernels.front();
    const bool functor = !k0.lambda;
    CXXMethodDecl* op = k0.op;
    ParmVarDecl* p = op->getParamDecl(0);
    const SourceLocation at = k0.begin();
    const CompoundStmt* body = k0.body();
    const LangOptions& lo = ctx.getLangOpts();
    // The second pass takes only the kernels the first inlined calls into.
    const llvm::StringRef marker = "/*amp_ht_inlined:";
    const bool inlined =
        body->getLBracLoc().isFileID() &&
        sm.getBufferData(sm.getFileID(body->getLBracLoc())).substr(sm.getFileOffset(body->getLBracLoc()) + 1).starts_with(marker);
    if (pass_ == 2 && !inlined) return;
    if (!at.isFileID() || !rewritable(sm, at) || !k0.end().isFileID() ||
        !p->getBeginLoc().isFileID() || !body->getBeginLoc().isFileID()) {
      if (sm.isInMainFile(sm.getExpansionLoc(at))) note(sm, at, "tiled kernel keeps fibers: written through a macro");
      return;
    }
    PresumedLoc pl = sm.getPresumedLoc(at);
    const std::string whereText = std::string(pl.getFilename()) + ":" + std::to_string(pl.getLine());
    endAt_ = k0.end();
    // The original body's tile_static arrays (fibers' storage, whether the
    // kernel is compiled or not) get the slack the compiled branch's get
    // (slackDecl): in place, at the end of this kernel's handling, or, when
    // the first pass replaces the body for the second, in the original text
    // it keeps there (the second pass then finds them done).
    // Not in a GPU build's parse (CUDA, HIP): its original body is also the
    // device pass's kernel, whose tile_static arrays are shared memory.
    std::vector<SlackEdit> slack;
    if (!inlined && !lo.CUDA && !lo.HIP)
      for (SlackEdit& x : slackDecls(sm, lo, body))
        if (slackDone_.insert({sm.getFileID(body->getLBracLoc()).getHashValue(), x.b}).second) slack.push_back(x);
    struct SlackInPlace {
      Rewriter& rw;
      SourceManager& sm;
      FileID fid;
      std::vector<SlackEdit>* edits;
      ~SlackInPlace() {
        if (edits)
          for (const SlackEdit& x : *edits) rw.ReplaceText(sm.getComposedLoc(fid, x.b), x.e - x.b, x.text);
      }
    } slackInPlace{rw, sm, sm.getFileID(body->getLBracLoc()), &slack};
    std::string why;
    bool markers = true; // a function object's class can take the static members naming the kernel
    const FunctionDecl* inClass = nullptr; // an operator defined outside its class: its declaration there
    if (functor) why = functorShape(op, markers, inClass);
    if (inClass && !(inClass->getBeginLoc().isFileID() && rewritable(sm, inClass->getBeginLoc()))) {
      markers = false;
      if (why.empty()) why = "a function object whose class is in a header the tile compiler does not rewrite";
    }
    if (why.empty() && fibers_.count(keyOf(sm, at)))
      why = "its compiled form did not compile (the build's warning gives the error)";
    if (why.empty() && !functor && pass_ == 1)
      if (const DeclRefExpr* target = forwardee(kernels, sm)) return forward(rw, sm, lo, k0, p, target, whereText);
    const unsigned lb = sm.getFileOffset(body->getLBracLoc()), rb = sm.getFileOffset(body->getRBracLoc());
    const llvm::StringRef buf = sm.getBufferData(sm.getFileID(body->getLBracLoc()));
    std::string compiled;
    int barriers = 0, per_item = 0, recomputed = 0, guarded = 0, independent = 0, hoisted = 0;

    // First pass: calls that wait on the barrier inlined (main file only: the
    // second parse reads the main file's rewritten text). The kernel's body
    // becomes `{MARK if constexpr (true) { INLINED } else {ORIG_MARK ORIGINAL}}`.
    // Inlining off (the script's fallback after a failed second parse): a
    // kernel with calls that wait says why it keeps fibers.
    if (pass_ == 1 && !inline_ && why.empty()) {
      try {
        Inliner in(ctx, headers_, k0, p, &ci_.getPreprocessor());
        if (!in.run().empty())
          why = "a barrier in a called function, not inlined: the inlined text of this file's kernels did not parse "
                "(tile_compiler's message in the build's output says where)";
      } catch (const Refused& r) {
        why = "a barrier in a called function, not inlined: " + r.why;
      }
    }
    if (pass_ == 1 && inline_ && why.empty()) {
      std::string text, hashes;
      int calls = 0;
      try {
        for (const KernelFn& inst : kernels) {
          Inliner in(ctx, headers_, inst, inst.op->getParamDecl(0), &ci_.getPreprocessor());
          std::string t = in.run();
          if (inst.op != op && t != text) {
            if (std::getenv("AMP_TILE_COMPILER_DEBUG"))
              llvm::errs() << "tile_compiler: first instantiation:\n" << text << "\nthis one:\n" << t << "\n";
            throw Refused{"the calls that wait on the barrier differ between template instantiations"};
          }
          text = t;
          calls = in.calls;
          hashes += (hashes.empty() ? "" : ",") + std::to_string(std::hash<std::string>()(in.keys));
        }
      } catch (const Refused& r) {
        why = "a barrier in a called function, not inlined: " + r.why;
      }
      if (why.empty() && !text.empty()) {
        std::string orig = buf.substr(lb + 1, rb - lb - 1).str();
        for (auto x = slack.rbegin(); x != slack.rend(); ++x) orig.replace(x->b - lb - 1, x->e - x->b, x->text);
        slackInPlace.edits = nullptr;
        PresumedLoc bl = sm.getPresumedLoc(body->getLBracLoc());
        rw.ReplaceText(body->getLBracLoc().getLocWithOffset(1), rb - lb - 1,
                       marker.str() + std::to_string(calls) + ":" + hashes + "*/ if constexpr (true) {" + text +
                           "\n} else {/*amp_ht_orig*/\n#line " + std::to_string(bl.getLine()) + " " +
                           quote(bl.getFilename()) + "\n" + orig + "}");
        return;
      }
    }
    // Second pass: the INLINED block, once each name in it is shown to bind
    // as in the callee; ORIGINAL back for fibers.
    std::vector<std::string> hashes;
    std::string orig, inlinedCalls;
    if (inlined) {
      const size_t hb = lb + 1 + marker.size(), he = buf.find("*/", hb);
      const size_t ob = buf.find("/*amp_ht_orig*/", lb);
      if (he == llvm::StringRef::npos || ob == llvm::StringRef::npos || ob > rb) return; // not ours
      llvm::StringRef h = buf.slice(hb, he);
      inlinedCalls = h.split(':').first.str();
      llvm::SmallVector<llvm::StringRef, 8> parts;
      h.split(':').second.split(parts, ',');
      for (llvm::StringRef x : parts) hashes.push_back(x.str());
      orig = buf.slice(ob + strlen("/*amp_ht_orig*/"), rb - 1).str(); // up to the else block's `}`
    }
    // Instantiations must give one text: when they differ, again with every
    // per-work-item value in item_slots (their types need different storage),
    // then also without ivdep marks (their independence proofs differ).
    int level = 0;
    bool anySlots = false;
    bool wide = false; // some instantiation has arithmetic the wider copies speed up (vector_width.cpp)
    for (size_t i = 0; why.empty() && i < kernels.size(); ++i) {
      const KernelFn& inst = kernels[i];
      ParmVarDecl* ip = inst.op->getParamDecl(0);
      CompoundStmt* then = nullptr;
      if (inlined) {
        CompoundStmt* ib = inst.body();
        const auto* is = ib->size() == 1 ? dyn_cast<IfStmt>(ib->body_front()) : nullptr;
        then = is ? const_cast<CompoundStmt*>(dyn_cast_or_null<CompoundStmt>(is->getThen())) : nullptr;
        if (!then || i >= hashes.size()) {
          why = "internal: the inlined kernel has an unexpected form";
          break;
        }
        InlinedKeys ik{ctx, sm, ip};
        std::string keys;
        ik.all(then, keys);
        if (std::to_string(std::hash<std::string>()(keys)) != hashes[i]) {
          why = "a barrier in a called function: the inlined text would bind a name differently than the called "
                "function does (a name of the kernel's scope shadows one of the callee's, or another overload is "
                "visible there)";
          break;
        }
      }
      Kernel k(ctx, *cond_, inst, ip, then);
      k.slotsForAll = level >= 1;
      k.ivdepOff = level >= 2;
      try {
        std::string text = k.compile();
        anySlots = anySlots || k.usedSlots();
        if (inst.op != op && text != compiled) {
          if (level < 2) {
            level = anySlots || level ? level + 1 : 2;
            i = static_cast<size_t>(-1);
            continue;
          }
          why = "its compiled form differs between template instantiations";
          if (std::getenv("AMP_TILE_COMPILER_DEBUG"))
            llvm::errs() << "tile_compiler: first instantiation:\n" << compiled << "\nthis one:\n" << text << "\n";
          break;
        }
        compiled = text;
        wide = wide || paysForWideCopies(then ? then : inst.body(), ctx);
        barriers = k.barriers;
        per_item = k.per_item;
        recomputed = k.recomputed_count;
        guarded = k.guarded;
        independent = k.independent_;
        hoisted = k.hoisted();
      } catch (const Refused& r) {
        why = inlined && inlinedCalls != "0" ? "after inlining " + inlinedCalls + " call(s): " + r.why : r.why;
        break;
      }
    }
    const SourceLocation after = Lexer::getLocForEndOfToken(k0.end(), 0, sm, lo);
    PresumedLoc bl = sm.getPresumedLoc(body->getLBracLoc());
    std::string file;
    for (char c : std::string(bl.getFilename())) {
      if (c == '"' || c == '\\') file += '\\';
      file += c;
    }
    // After text inserted behind the kernel: the lines that follow keep their numbers.
    const std::string resume = "\n#line " + std::to_string(sm.getPresumedLoc(k0.end()).getLine()) + " \"" + file + "\"\n";
    auto restore = [&] {
      if (inlined) rw.ReplaceText(body->getLBracLoc().getLocWithOffset(1), rb - lb - 1, orig);
    };
    // A function object's class names its kernel for the run-time report:
    // `amp_ht_where()`, and `amp_ht_why()` with `amp_ht_fibers_self` on
    // fibers, `amp_ht_compiled_self` compiled with `amp_ht_wide` (the wider
    // copies, vector_width.cpp: as for a lambda's make_compiled_kernel<W>);
    // compiled_tiles.h reads them.
    const std::string cls = functor ? op->getParent()->getNameAsString() : "";
    auto nameKernel = [&](const std::string& why) {
      return "\nstatic const char* amp_ht_where() { return " + quote(whereText) + "; }" +
             (why.empty() ? " using amp_ht_compiled_self = " + cls + "; static constexpr bool amp_ht_wide = " +
                                (wide ? "true" : "false") + ";"
                          : " static const char* amp_ht_why() { return " + quote(why) + "; } using amp_ht_fibers_self = " +
                                cls + ";");
    };
    // An operator defined outside its class: where its declaration in the
    // class ends (after its `;`), that declaration's qualifiers (from its
    // parameter list's `)` to the `;`), and the line directive after it.
    SourceLocation declAfter;
    std::string declQuals, declResume;
    if (inClass) {
      const SourceLocation de = sm.getExpansionRange(inClass->getEndLoc()).getEnd();
      const FileID dfid = sm.getFileID(de);
      const llvm::StringRef dbuf = sm.getBufferData(dfid);
      size_t o = sm.getFileOffset(Lexer::getLocForEndOfToken(de, 0, sm, lo));
      // (Past qualifiers that expand to nothing, `restrict(amp)` in a host build.)
      while (o < dbuf.size() && dbuf[o] != ';' && dbuf[o] != '{' && dbuf[o] != '}') ++o;
      const auto dtl = inClass->getTypeSourceInfo()
                           ? inClass->getTypeSourceInfo()->getTypeLoc().getAsAdjusted<FunctionProtoTypeLoc>()
                           : FunctionProtoTypeLoc();
      if (o < dbuf.size() && dbuf[o] == ';' && dtl && dtl.getRParenLoc().isFileID() &&
          sm.getFileID(dtl.getRParenLoc()) == dfid) {
        const size_t qb = sm.getFileOffset(Lexer::getLocForEndOfToken(dtl.getRParenLoc(), 0, sm, lo));
        declAfter = sm.getComposedLoc(dfid, static_cast<unsigned>(o + 1));
        declQuals = qb <= o ? dbuf.slice(qb, o).str() : "";
        std::string dfile;
        for (char c : std::string(sm.getPresumedLoc(de).getFilename())) {
          if (c == '"' || c == '\\') dfile += '\\';
          dfile += c;
        }
        declResume = "\n#line " + std::to_string(sm.getPresumedLoc(declAfter).getLine()) + " \"" + dfile + "\"\n";
      } else {
        markers = false;
        if (why.empty()) why = "a function object whose operator()'s declaration in its class could not be located";
      }
    }
    // The static members naming the kernel: beside the operator, or after
    // its declaration in the class.
    auto insertMarkers = [&](const std::string& why) {
      if (!markers) return;
      if (inClass) rw.InsertTextAfter(declAfter, nameKernel(why) + declResume);
      else rw.InsertTextAfter(after, nameKernel(why) + resume);
    };
    if (!why.empty()) {
      note(sm, at, "tiled kernel keeps fibers: " + why);
      restore();
      if (functor) return insertMarkers(why);
      rw.InsertTextBefore(at, "::Concurrency::detail::host_tiles::make_fiber_kernel(" + quote(whereText) + ", ");
      rw.InsertTextAfter(after, ", " + quote(why) + ")");
      return;
    }
    // The lambda's parameter list becomes (auto&& amp_ht_arg); its declarator
    // gets `-> void` unless it has a trailing return type already.
    // (A function object's: its definition's, the pattern's in a class template.)
    const FunctionDecl* defn = functor && op->getTemplateInstantiationPattern() ? op->getTemplateInstantiationPattern() : op;
    const TypeSourceInfo* tsi = defn->getTypeSourceInfo();
    const auto ftl = tsi->getTypeLoc().getAsAdjusted<FunctionProtoTypeLoc>();
    auto refuse = [&](const std::string& why) {
      note(sm, at, "tiled kernel keeps fibers: " + why);
      restore();
      if (functor) insertMarkers(why);
    };
    if (!ftl || !ftl.getLParenLoc().isFileID() || !ftl.getRParenLoc().isFileID())
      return refuse("its parameter list could not be located");
    if (!op->getType()->castAs<FunctionType>()->getReturnType()->isVoidType()) return refuse("it returns a value");
    // A fault injected for the launcher's never-break test
    // (tests/host_tiles/never_breaks.sh): the compiled form does not compile.
    // Not in the tile compiler's own second parse (which reads the first's
    // output, this text included): only the build's compile fails on it.
    if (const char* f = std::getenv("AMP_TILE_COMPILER_FAULT"); f && std::string(f) == "1")
      compiled += "\n#ifndef AMP_TILE_COMPILER_PASS\namp_ht_injected_fault();\n#endif\n";
    // The compiled body stays in a GPU build's device pass too, where it is
    // a discarded branch: Clang orders a closure's implicit captures by
    // their first mention, discarded branches included, and the order must
    // be the same in both passes (without it there, the device read the
    // host's closure with another layout). A kernel whose compiled text
    // names host-only functions (a conditional's group the host parse took,
    // conditionals.h, under `#if !__CUDA_ARCH__`) fails the device pass and
    // keeps fibers on the host accelerators of that GPU build.
    if (functor) {
      // A function object: its operator() stays as written (fibers, the
      // portable path and AMP_HOST_TILES=fibers call it per work-item); a
      // member template beside it, with the operator's own qualifiers
      // (`const restrict(amp)`), takes the tile_group:
      //   template <class amp_ht_G, enable_if_t<is_tile_group<amp_ht_G>, int> = 0>
      //   void operator()(amp_ht_G&& amp_ht_arg) const restrict(amp) { COMPILED }
      // The class's members are read through `this` in both, as the
      // captures of a lambda are read through its closure.
      const unsigned qb = sm.getFileOffset(Lexer::getLocForEndOfToken(ftl.getRParenLoc(), 0, sm, lo));
      if (sm.getFileID(ftl.getRParenLoc()) != sm.getFileID(body->getLBracLoc()) || qb > lb)
        return refuse("its qualifiers could not be located");
      const std::string quals = buf.slice(qb, lb).str();
      const std::string tparams = "template <class amp_ht_G, ::std::enable_if_t<::Concurrency::detail::host_tiles::"
                                  "is_tile_group<amp_ht_G>, int>";
      if (!inClass) {
        restore();
        rw.InsertTextAfter(after, "\n" + tparams + " = 0>\nvoid operator()(amp_ht_G&& amp_ht_arg)" + quals + "{\n" +
                                      compiled + "}" + nameKernel("") + resume);
      } else {
        // Defined outside the class: the member template declared in the
        // class after the operator's declaration, and defined after the
        // operator's definition with the same template headers (a class
        // template's) and qualifier (`K<T>::`).
        const FunctionDecl* def = op->getTemplateInstantiationPattern() ? op->getTemplateInstantiationPattern() : op;
        std::string heads;
        for (unsigned i = 0; i < def->getNumTemplateParameterLists(); ++i) {
          const SourceRange r = def->getTemplateParameterList(i)->getSourceRange();
          if (!r.getBegin().isFileID() || !r.getEnd().isFileID() || sm.getFileID(r.getBegin()) != sm.getFileID(body->getLBracLoc()))
            return refuse("the template header of its operator()'s definition could not be located");
          heads += buf.slice(sm.getFileOffset(r.getBegin()), sm.getFileOffset(Lexer::getLocForEndOfToken(r.getEnd(), 0, sm, lo))).str() + " ";
        }
        const SourceRange qr = def->getQualifierLoc().getSourceRange();
        if (!qr.isValid() || !qr.getBegin().isFileID() || !qr.getEnd().isFileID() ||
            sm.getFileID(qr.getBegin()) != sm.getFileID(body->getLBracLoc()))
          return refuse("the qualifier of its operator()'s definition could not be located");
        const std::string qual =
            buf.slice(sm.getFileOffset(qr.getBegin()), sm.getFileOffset(Lexer::getLocForEndOfToken(qr.getEnd(), 0, sm, lo))).str();
        restore();
        rw.InsertTextAfter(declAfter, "\n" + tparams + " = 0>\nvoid operator()(amp_ht_G&& amp_ht_arg)" + declQuals + ";" +
                                          nameKernel("") + declResume);
        rw.InsertTextAfter(after, "\n" + heads + tparams + ">\nvoid " + qual + "operator()(amp_ht_G&& amp_ht_arg)" + quals +
                                      "{\n" + compiled + "}" + resume);
      }
    } else {
      rw.ReplaceText(SourceRange(ftl.getLParenLoc(), ftl.getRParenLoc()), "(auto&& amp_ht_arg)");
      const bool trailing = tsi->getType()->castAs<FunctionProtoType>()->hasTrailingReturn();
      std::string open = trailing ? "" : "-> void ";
      const std::string pn = p->getNameAsString();
      // The fibers branch binds the parameter as the lambda declared it: a
      // copy for one taken by value (its body may hand it on by non-const
      // reference, as Microsoft's BinomialOptions does), else a reference.
      const std::string fibersParam = (p->getType()->isReferenceType() ? "const auto& " : "auto ") + pn;
      rw.InsertTextBefore(body->getLBracLoc(), open);
      const std::string head =
          " if constexpr (::Concurrency::detail::host_tiles::is_tile_group<decltype(amp_ht_arg)>) {\n" + compiled +
          "} else { " + fibersParam + " = amp_ht_arg;\n#line " + std::to_string(bl.getLine()) + " \"" + file + "\"\n";
      if (inlined) {
        rw.ReplaceText(body->getLBracLoc().getLocWithOffset(1), rb - lb - 1, head + orig + "}");
      } else {
        rw.InsertTextAfter(Lexer::getLocForEndOfToken(body->getLBracLoc(), 0, sm, lo), head);
        rw.InsertTextBefore(body->getRBracLoc(), "}");
      }
      rw.InsertTextBefore(at, std::string("::Concurrency::detail::host_tiles::make_compiled_kernel") +
                                  (wide ? "(" : "<false>(") + quote(whereText) + ", ");
      rw.InsertTextAfter(after, ")" + resume);
    }
    note(sm, at, "tiled kernel compiled (" + std::to_string(barriers) + " barrier(s), " +
                     std::to_string(per_item) + " value(s) kept per work-item" +
                     (recomputed ? ", " + std::to_string(recomputed) + " recomputed per region" : "") +
                     (guarded ? ", " + std::to_string(guarded) + " guard(s) as loop bounds" : "") +
                     (independent ? ", " + std::to_string(independent) + " region loop(s) marked ivdep" : "") +
                     (hoisted ? ", " + std::to_string(hoisted) + " uniform read(s) hoisted" : "") +
                     (kernels.size() > 1 ? ", " + std::to_string(kernels.size()) + " instantiations" : "") +
                     (inlined && inlinedCalls != "0" ? ", " + inlinedCalls + " call(s) inlined" : "") +
                     (wide ? "" : ", baseline copy only") + ")");
  }
};

class Action : public PluginASTAction {
  std::string out_;
  bool report_ = false;
  std::set<std::string> headers_;
  std::string overlay_;
  int pass_ = 1;
  bool inline_ = true;
  std::set<std::string> fibers_;

protected:
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance& ci, llvm::StringRef) override {
    return std::make_unique<Consumer>(ci, out_, report_, headers_, overlay_, pass_, inline_, fibers_);
  }
  bool ParseArgs(const CompilerInstance& ci, const std::vector<std::string>& args) override {
    for (const std::string& a : args) {
      if (a.rfind("out=", 0) == 0) out_ = a.substr(4);
      else if (a == "report=1") report_ = true;
      else if (a.rfind("header=", 0) == 0) headers_.insert(a.substr(7));
      else if (a.rfind("overlay=", 0) == 0) overlay_ = a.substr(8);
      else if (a == "pass=2") pass_ = 2;
      else if (a == "inline=0") inline_ = false;
      else if (a.rfind("fibers=", 0) == 0) fibers_.insert(a.substr(7));
    }
    if (out_.empty()) {
      ci.getDiagnostics().Report(ci.getDiagnostics().getCustomDiagID(DiagnosticsEngine::Error,
                                                                    "tile_compiler: no out=FILE argument"));
      return false;
    }
    return true;
  }
  ActionType getActionType() override { return AddAfterMainAction; }
};

} // namespace tile_compiler


static FrontendPluginRegistry::Add<tile_compiler::Action> X("tile-compiler", "compile host tile barriers into loops");
