// tile_compiler: a Clang 22 plugin that rewrites the tiled kernel lambdas of a
// host translation unit so that a tile runs as loops over its work-items
// between barriers instead of as fibers
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
// What is compiled: a non-mutable lambda taking one tiled_index<...>, whose
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
// A call statement handing the tiled_index to a function that waits on its
// barrier is first inlined (Inliner, a first parse), the result analysed by
// a second parse (pass=2) that also checks each inlined name binds as in the
// callee; the fibers branch keeps the original body.
// Everything else is wrapped with the reason and keeps fibers.
#include "inliner.h"
#include "kernel.h"
#include "keys.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendPluginRegistry.h"
#include "clang/Rewrite/Core/Rewriter.h"
#include "llvm/Support/FileSystem.h"

namespace tile_compiler {

std::string quote(const std::string& s) {
  std::string o = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') o += '\\';
    o += c;
  }
  return o + "\"";
}

class Consumer : public ASTConsumer {
public:
  Consumer(CompilerInstance& ci, std::string out, bool report, std::set<std::string> headers, std::string overlay,
           int pass, bool inl, std::set<std::string> fibers)
      : ci_(ci), out_(std::move(out)), report_(report), headers_(std::move(headers)), overlay_(std::move(overlay)),
        pass_(pass), inline_(inl), fibers_(std::move(fibers)) {}

  void HandleTranslationUnit(ASTContext& ctx) override {
    SourceManager& sm = ctx.getSourceManager();
    Rewriter rw(sm, ctx.getLangOpts());
    if (ci_.getDiagnostics().hasErrorOccurred()) return; // the launcher compiles the original
    // Template instantiations too: a kernel in a template is analysed in
    // each instantiation (concrete types) and rewritten once, when every
    // instantiation gives the same text.
    struct V : RecursiveASTVisitor<V> {
      std::vector<LambdaExpr*> lambdas;
      std::vector<const CXXMethodDecl*> functors; // operator() of classes other than lambdas
      bool shouldVisitTemplateInstantiations() const { return true; }
      bool VisitLambdaExpr(LambdaExpr* l) {
        lambdas.push_back(l);
        return true;
      }
      bool VisitCXXMethodDecl(CXXMethodDecl* m) {
        if (m->getOverloadedOperator() == OO_Call && !m->getParent()->isLambda() && m->doesThisDeclarationHaveABody() &&
            !m->isDependentContext())
          functors.push_back(m);
        return true;
      }
    } v;
    v.TraverseDecl(ctx.getTranslationUnitDecl());
    if (pass_ == 1) reportFunctors(sm, v.functors);
    std::vector<SourceLocation> order;
    std::map<SourceLocation, std::vector<LambdaExpr*>> groups;
    for (LambdaExpr* l : v.lambdas) {
      auto& g = groups[l->getBeginLoc()];
      if (g.empty()) order.push_back(l->getBeginLoc());
      g.push_back(l);
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

  // May kernels at `at` (a file location) be rewritten: in the main file, or
  // in the first inclusion of a project header the launcher named.
  bool rewritable(SourceManager& sm, SourceLocation at) {
    if (sm.isWrittenInMainFile(at)) return true;
    if (overlay_.empty()) return false;
    const FileID fid = sm.getFileID(at);
    OptionalFileEntryRef fe = sm.getFileEntryRefForID(fid);
    if (!fe) return false;
    std::string path = fe->getFileEntry().tryGetRealPathName().str();
    // The second parse reads the first's copies of the headers (the script
    // puts the overlay first): a copy stands for its original.
    for (const std::string& o : {overlay_, overlayReal()})
      if (path.rfind(o + "/", 0) == 0) {
        path = path.substr(o.size());
        break;
      }
    if (!headers_.count(path)) {
      // The name Clang keeps may be the one it opened the file by (an -I
      // folder written `../shared/include`): the launcher lists real paths.
      llvm::SmallString<256> real;
      if (llvm::sys::fs::real_path(path, real) || !headers_.count(std::string(real))) return false;
      path = std::string(real);
    }
    auto it = headerFile_.emplace(path, fid).first;
    return it->second == fid;
  }

  std::string overlayReal() {
    llvm::SmallString<256> r;
    return llvm::sys::fs::real_path(overlay_, r) ? overlay_ : std::string(r);
  }

  // A barrier call, or the parameter passed to a function (which may wait).
  // The parameter passed by value counts too (a copy construction around it:
  // `kernel(idx, ...)` with `void kernel(tiled_index<...> idx, ...)`, the
  // conformance suite's usual shape), so that such kernels are wrapped and
  // reported as keeping fibers instead of being skipped without a word.
  static bool containsBarrier(const Stmt* s, const ParmVarDecl* p) {
    if (!s) return false;
    if (const auto* call = dyn_cast<CallExpr>(s))
      for (const Expr* a : call->arguments()) {
        const Expr* e = a->IgnoreParenImpCasts();
        if (const auto* ce = dyn_cast<CXXConstructExpr>(e); ce && ce->getNumArgs() == 1)
          e = ce->getArg(0)->IgnoreParenImpCasts();
        if (const auto* dr = dyn_cast<DeclRefExpr>(e); dr && dr->getDecl() == p && isAmpClass(a->getType(), "tiled_index"))
          return true;
      }
    if (const auto* c = dyn_cast<CXXMemberCallExpr>(s))
      if (const CXXMethodDecl* m = c->getMethodDecl())
        if (m->getParent() && m->getParent()->getName() == "tile_barrier" && m->getName().starts_with("wait"))
          return true;
    for (const Stmt* c : s->children())
      if (containsBarrier(c, p)) return true;
    return false;
  }

  // Function objects whose operator() takes a tiled_index and waits on its
  // barrier: kernels too when launched, which only lambdas are compiled
  // for. Each is counted in the census as keeping fibers (one note per
  // definition, in the main file or a project header), so that the report
  // does not pass over them.
  void reportFunctors(SourceManager& sm, const std::vector<const CXXMethodDecl*>& ms) {
    std::set<SourceLocation> seen;
    for (const CXXMethodDecl* m : ms) {
      if (m->getNumParams() != 1 || !isAmpClass(m->getParamDecl(0)->getType(), "tiled_index")) continue;
      const SourceLocation at = m->getBeginLoc();
      if (!at.isFileID() || !rewritable(sm, at) || !containsBarrier(m->getBody(), m->getParamDecl(0))) continue;
      if (!seen.insert(at).second) continue;
      endAt_ = m->getEndLoc();
      note(sm, at, "tiled kernel keeps fibers: a function object (`" + m->getParent()->getNameAsString() +
                       "::operator()`): only lambda kernels are compiled");
    }
    endAt_ = SourceLocation();
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

  void handle(ASTContext& ctx, Rewriter& rw, const std::vector<LambdaExpr*>& group) {
    SourceManager& sm = ctx.getSourceManager();
    std::vector<LambdaExpr*> kernels; // the concrete instances that are tiled kernels with barriers
    for (LambdaExpr* l : group) {
      if (l->getLambdaClass()->isDependentContext()) continue;
      CXXMethodDecl* op = l->getCallOperator();
      if (!op || op->getNumParams() != 1 || op->getDescribedFunctionTemplate()) continue;
      ParmVarDecl* p = op->getParamDecl(0);
      if (!isAmpClass(p->getType(), "tiled_index")) continue;
      if (!containsBarrier(l->getBody(), p)) continue; // runs as a plain loop already
      kernels.push_back(l);
    }
    if (kernels.empty()) return;
    endAt_ = SourceLocation();
    LambdaExpr* l = kernels.front();
    CXXMethodDecl* op = l->getCallOperator();
    ParmVarDecl* p = op->getParamDecl(0);
    const SourceLocation at = l->getBeginLoc();
    const CompoundStmt* body = l->getCompoundStmtBody();
    const LangOptions& lo = ctx.getLangOpts();
    // The second pass takes only the kernels the first inlined calls into.
    const llvm::StringRef marker = "/*amp_ht_inlined:";
    const bool inlined =
        body->getLBracLoc().isFileID() &&
        sm.getBufferData(sm.getFileID(body->getLBracLoc())).substr(sm.getFileOffset(body->getLBracLoc()) + 1).starts_with(marker);
    if (pass_ == 2 && !inlined) return;
    if (!at.isFileID() || !rewritable(sm, at) || !l->getEndLoc().isFileID() ||
        !p->getBeginLoc().isFileID() || !l->getBody()->getBeginLoc().isFileID()) {
      if (sm.isInMainFile(sm.getExpansionLoc(at))) note(sm, at, "tiled kernel keeps fibers: written through a macro");
      return;
    }
    PresumedLoc pl = sm.getPresumedLoc(at);
    const std::string whereText = std::string(pl.getFilename()) + ":" + std::to_string(pl.getLine());
    endAt_ = l->getEndLoc();
    std::string why;
    if (fibers_.count(keyOf(sm, at)))
      why = "its compiled form did not compile (a defect of the tile compiler; the build's warning gives the error)";
    const unsigned lb = sm.getFileOffset(body->getLBracLoc()), rb = sm.getFileOffset(body->getRBracLoc());
    const llvm::StringRef buf = sm.getBufferData(sm.getFileID(body->getLBracLoc()));
    std::string compiled;
    int barriers = 0, per_item = 0, recomputed = 0, guarded = 0, independent = 0;

    // First pass: calls that wait on the barrier inlined (main file only: the
    // second parse reads the main file's rewritten text). The kernel's body
    // becomes `{MARK if constexpr (true) { INLINED } else {ORIG_MARK ORIGINAL}}`.
    // Inlining off (the script's fallback after a failed second parse): a
    // kernel with calls that wait says why it keeps fibers.
    if (pass_ == 1 && !inline_ && why.empty()) {
      try {
        Inliner in(ctx, headers_, l, p, &ci_.getPreprocessor());
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
        for (LambdaExpr* inst : kernels) {
          Inliner in(ctx, headers_, inst, inst->getCallOperator()->getParamDecl(0), &ci_.getPreprocessor());
          std::string t = in.run();
          if (inst != l && t != text) {
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
        const std::string orig = buf.substr(lb + 1, rb - lb - 1).str();
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
      LambdaExpr* inst = kernels[i];
      ParmVarDecl* ip = inst->getCallOperator()->getParamDecl(0);
      CompoundStmt* then = nullptr;
      if (inlined) {
        CompoundStmt* ib = inst->getCompoundStmtBody();
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
      Kernel k(ctx, inst, ip, then);
      k.slotsForAll = level >= 1;
      k.ivdepOff = level >= 2;
      try {
        std::string text = k.compile();
        anySlots = anySlots || k.usedSlots();
        if (inst != l && text != compiled) {
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
        wide = wide || paysForWideCopies(then ? then : inst->getCompoundStmtBody(), ctx);
        barriers = k.barriers;
        per_item = k.per_item;
        recomputed = k.recomputed_count;
        guarded = k.guarded;
        independent = k.independent_;
      } catch (const Refused& r) {
        why = inlined && inlinedCalls != "0" ? "after inlining " + inlinedCalls + " call(s): " + r.why : r.why;
        break;
      }
    }
    const SourceLocation after = Lexer::getLocForEndOfToken(l->getEndLoc(), 0, sm, lo);
    if (!why.empty()) {
      note(sm, at, "tiled kernel keeps fibers: " + why);
      if (inlined) rw.ReplaceText(body->getLBracLoc().getLocWithOffset(1), rb - lb - 1, orig);
      rw.InsertTextBefore(at, "::Concurrency::detail::host_tiles::make_fiber_kernel(" + quote(whereText) + ", ");
      rw.InsertTextAfter(after, ", " + quote(why) + ")");
      return;
    }
    // The lambda's parameter list becomes (auto&& amp_ht_arg); its declarator
    // gets `-> void` unless it has a trailing return type already.
    const TypeSourceInfo* tsi = op->getTypeSourceInfo();
    const auto ftl = tsi->getTypeLoc().getAsAdjusted<FunctionProtoTypeLoc>();
    if (!ftl || !ftl.getLParenLoc().isFileID() || !ftl.getRParenLoc().isFileID()) {
      note(sm, at, "tiled kernel keeps fibers: its parameter list could not be located");
      if (inlined) rw.ReplaceText(body->getLBracLoc().getLocWithOffset(1), rb - lb - 1, orig);
      return;
    }
    if (!op->getType()->castAs<FunctionType>()->getReturnType()->isVoidType()) {
      note(sm, at, "tiled kernel keeps fibers: it returns a value");
      if (inlined) rw.ReplaceText(body->getLBracLoc().getLocWithOffset(1), rb - lb - 1, orig);
      return;
    }
    // A fault injected for the launcher's never-break test
    // (tests/host_tiles/never_breaks.sh): the compiled form does not compile.
    // Not in the tile compiler's own second parse (which reads the first's
    // output, this text included): only the build's compile fails on it.
    if (const char* f = std::getenv("AMP_TILE_COMPILER_FAULT"); f && std::string(f) == "1")
      compiled += "\n#ifndef AMP_TILE_COMPILER_PASS\namp_ht_injected_fault();\n#endif\n";
    rw.ReplaceText(SourceRange(ftl.getLParenLoc(), ftl.getRParenLoc()), "(auto&& amp_ht_arg)");
    const bool trailing = tsi->getType()->castAs<FunctionProtoType>()->hasTrailingReturn();
    std::string open = trailing ? "" : "-> void ";
    const std::string pn = p->getNameAsString();
    // The fibers branch binds the parameter as the lambda declared it: a
    // copy for one taken by value (its body may hand it on by non-const
    // reference, as Microsoft's BinomialOptions does), else a reference.
    const std::string fibersParam = (p->getType()->isReferenceType() ? "const auto& " : "auto ") + pn;
    PresumedLoc bl = sm.getPresumedLoc(body->getLBracLoc());
    std::string file;
    for (char c : std::string(bl.getFilename())) {
      if (c == '"' || c == '\\') file += '\\';
      file += c;
    }
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
    PresumedLoc el = sm.getPresumedLoc(l->getEndLoc());
    rw.InsertTextAfter(after, ")\n#line " + std::to_string(el.getLine()) + " \"" + file + "\"\n");
    note(sm, at, "tiled kernel compiled (" + std::to_string(barriers) + " barrier(s), " +
                     std::to_string(per_item) + " value(s) kept per work-item" +
                     (recomputed ? ", " + std::to_string(recomputed) + " recomputed per region" : "") +
                     (guarded ? ", " + std::to_string(guarded) + " guard(s) as loop bounds" : "") +
                     (independent ? ", " + std::to_string(independent) + " region loop(s) marked ivdep" : "") +
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
