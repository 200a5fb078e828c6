// One tiled kernel compiled into loops over its work-items between barriers
// (Kernel; tile_compiler.cpp has the contract, README.md the rules). Its passes,
// each in its own file:
//   kernel.cpp            the kernel's text positions, parents and macros;
//                         compile(), which runs the passes in order
//   kernel_analysis.cpp   what is compiled: barriers, control, parameter
//                         uses, uniformity, locals kept per work-item
//   independence.cpp      region loops whose work-items are independent
//                         (#pragma GCC ivdep)
//   kernel_emit.cpp       the compiled branch's text
// A kernel that cannot be compiled throws Refused (it keeps fibers).
#pragma once

#include "common.h"
#include "conditionals.h"

namespace tile_compiler {

// Constructor c never waits on the barrier of the tiled_index it receives as
// argument j (its body and initialisers read only members other than
// `barrier`, or hand it to functions that never wait): an object built
// from a kernel's tiled_index (`Worker ant(tidx, ...)`) holds no barrier.
bool constructorNeverWaits(ASTContext& ctx, const CXXConstructorDecl* c, unsigned j);

class Kernel {
public:
  // body: the block to compile when it is not the lambda's own body (a
  // kernel whose called functions were inlined by the first pass: the `then`
  // block of its `if constexpr (true) { INLINED } else { ORIGINAL }`).
  // cond: the parse's preprocessor conditionals (conditionals.h).
  Kernel(ASTContext& ctx, const Conditionals& cond, KernelFn k, ParmVarDecl* p, CompoundStmt* body = nullptr)
      : ctx_(ctx), sm_(ctx.getSourceManager()), lo_(ctx.getLangOpts()), cond_(cond), fn_(k), param_(p),
        body_(body ? body : k.body()), fid_(sm_.getFileID(sm_.getExpansionLoc(k.begin()))) {}

  int barriers = 0;
  int per_item = 0;
  int recomputed_count = 0;
  // Every value kept per work-item in item_slots: set when a kernel
  // template's instantiations differ only in which kind of storage their
  // types need (a user's class in one, int in another), so that all give
  // the same text.
  bool slotsForAll = false;
  // No `#pragma GCC ivdep` anywhere: for instantiations whose independence
  // proofs differ (the calls a user's class makes are not proven).
  bool ivdepOff = false;
  bool usedSlots() const { return !slots_.empty(); }
  int guarded = 0;  // regions whose guard became the item loop's bounds
  int independent_ = 0; // region loops marked #pragma GCC ivdep
  int hoisted() const { return hoisted_; } // uniform element reads read once per tile (hoist.cpp)

  // ---- defined in kernel.cpp
  std::string compile();

private:
  ASTContext& ctx_;
  SourceManager& sm_;
  const LangOptions& lo_;
  const Conditionals& cond_;
  KernelFn fn_;
  ParmVarDecl* param_;
  CompoundStmt* body_;
  FileID fid_; // the file the kernel is written in (the main file or a project header)

  std::set<const Stmt*> withBarrier_;              // statements that contain a barrier
  std::set<const Stmt*> barrierStmts_;             // the barrier calls (statements of a block)
  std::set<const VarDecl*> locals_;                // declared in the body
  std::map<const VarDecl*, const DeclStmt*> splitDecl_; // declared directly in a split block or split for's init
  std::map<const VarDecl*, const ForStmt*> loopVar_;    // declared in a split for's init
  std::set<const VarDecl*> tileLevel_;             // one value per tile
  std::set<const VarDecl*> refTile_;               // tile-level references (bound once per tile)
  std::set<const VarDecl*> constCopy_;             // tile-level copies of uniform objects, only used const
  std::map<const VarDecl*, std::string, SourceOrder> arrays_;   // per-work-item arrays: name
  std::set<const VarDecl*, SourceOrder> remat_;                 // recomputed in each region that reads them
  std::map<const VarDecl*, std::set<const VarDecl*>> rematDeps_; // the recomputed values its initialiser reads
  bool itemMode_ = false;                          // uniform() asks "pure per work-item" instead
  std::vector<const DeclRefExpr*> refs_;           // every reference to a variable in the body
  std::set<const DeclRefExpr*> unevaluated_;       // those in decltype/sizeof operands (no read, no write)
  std::vector<const ReturnStmt*> returns_;         // `return;` statements (all inside regions)
  std::set<const Stmt*> tileJumps_;                // `break;` / `if (U) break;` (continue too) of a split block
  std::string label_;                              // the end of the work-item loop being emitted
  int labels_ = 0;
  std::map<const Stmt*, int> regionOf_;            // split-block child -> region number
  std::vector<std::pair<unsigned, unsigned>> regionRange_; // offsets of each region

  // ---- helpers
  // The parent of s in this kernel's body. In a template instantiation,
  // statements that need no change (`break;`, a reference to a global) are
  // shared with the template's pattern, so the AST's parent map gives them
  // two parents, the pattern's first: the kernel's own tree is walked instead.
  std::map<const Stmt*, const Stmt*> parent_;
  void mapParents(const Stmt* s);
  const Stmt* parentOf(const Stmt* s);
  const Stmt* parentSkipping(const Stmt* s);
  // Offsets in the main file; a location inside a macro expansion counts as
  // the expansion's (its start, or for endOfToken the end of its last token).
  unsigned off(SourceLocation l) { return sm_.getFileOffset(sm_.getExpansionLoc(l)); }
  bool inFile(SourceLocation l) { return l.isValid() && sm_.getFileID(sm_.getExpansionLoc(l)) == fid_; }
  unsigned endOfToken(SourceLocation l);
  unsigned stmtEnd(const Stmt* s);
  std::string lineDirective(SourceLocation l);
  // `#define`/`#undef` lines of the kernel body between the last point
  // emitted and offset o, in order: the compiled body is emitted in source
  // order from pieces of the body, and a macro the kernel defines (ported
  // CUDA code's `#define CELL(i) buf[...]`) must be defined where its uses
  // land. Directives inside a region's text come with it and are replayed
  // here once more, in order, which leaves the same macros defined.
  // Preprocessor conditionals take the parse's decision in the compiled
  // body (conditionals.h): their directive lines and skipped groups inside
  // the body, keyed by offset, are blanked (an opening line becomes the
  // check); macrosUpTo replays no `#define` of a skipped group.
  unsigned dirCursor_ = 0;
  std::map<unsigned, Conditionals::Line> ppLines_;
  const Conditionals::Line* ppLineAt(unsigned o) const;
  std::string ppReplacement(const Conditionals::Line& l);
  std::string macrosUpTo(unsigned o);
  std::string where(const Stmt* s);

  static const Expr* strip(const Expr* e) { return e->IgnoreParenImpCasts(); }

  bool isBarrierCall(const Stmt* s);
  bool isFenceCall(const Stmt* s);
  bool unbracedBody(const Stmt* s, const Stmt* p);
  bool splitBody(const Stmt* b);
  std::string barrierText();

  // ---- defined in kernel_analysis.cpp
  void collect();
  bool splitStmt(const Stmt* b);
  void checkControl();
  void checkParamUses();
  bool isRead(const DeclRefExpr* r);
  const Expr* writeOf(const DeclRefExpr* r);
  const Expr* forWriteExpr(const DeclRefExpr* r);
  bool forWrite(const DeclRefExpr* r) { return forWriteExpr(r) != nullptr; }
  bool forWriteUniform(const DeclRefExpr* r);
  // The update (++/--/an assignment) of r inside the condition of a
  // statement around a barrier (`do { ... } while (--n > 0);`); null if r
  // is not written so.
  const Expr* condWriteExpr(const DeclRefExpr* r);
  bool condWriteUniform(const DeclRefExpr* r);
  bool tileCondUpdate(const Expr* e);
  bool tileWrites(const Expr* e);
  static void commaParts(const Expr* e, std::vector<const Expr*>& out);
  static const DeclRefExpr* updatedRef(const Expr* e); // what ++/--/an assignment e writes, if a variable
  const VarDecl* updatedLocal(const Expr* e);
  // A `for` around a barrier whose increment also advances a work-item's
  // own value (Bolt's radix sort: `iblock++, addr += blockSize`): its
  // per-item parts run in a work-item loop at the end of each iteration
  // (itemIncParts_), the tile-level ones stay in the header. Not when a
  // per-item part reads what a tile-level part writes (their order would
  // change), nor when the body has a `continue` of this loop (it would skip
  // the parts moved into the body).
  std::map<const ForStmt*, std::vector<const Expr*>> itemIncParts_;
  bool splitsItemIncrement(const ForStmt* f);

  // A scalar declared once and reused as the loop variable of several
  // `for`s (Microsoft's BinomialOptions: `int i;`, `for (i = tid; ...)`
  // with no barrier, later `for (i = NUM_STEPS; ...; i -= D)` around
  // barriers). Each `for` whose init assigns v owns v while it runs; when
  // every reference lies inside such an owner, a barrier-free owner's
  // per-work-item values never cross a barrier (it runs inside one region)
  // and v can stay one scalar of the tile, provided no barrier-free owner
  // sits inside an owner around a barrier (which would read v after it).
  // itemOwned_: the references inside barrier-free owners (never uniform).
  std::set<const DeclRefExpr*> itemOwned_;
  bool initAssigns(const ForStmt* f, const VarDecl* v); // f's init assigns v (`for (v = E; ...)`)
  const ForStmt* ownerFor(const DeclRefExpr* r, const VarDecl* v);
  bool reusedLoopVariable(const VarDecl* v, const std::vector<const DeclRefExpr*>& uses);
  bool isLoopIncWrite(const DeclRefExpr* r, const VarDecl* v);
  const Stmt* updateStmtOf(const DeclRefExpr* r);
  // Barrier-free loops that run once per tile: a `for` or `while` that is a
  // statement of a split block and only counts (a bitonic sort's
  // `for (int t = n; t > 1; t >>= 1) ++numStages;` before the loops around
  // its barriers). Its body is updates (++/--/assignments) of tile-level
  // scalars of the kernel and of its own variables (declared in its init);
  // its conditions and every value it assigns are uniform. Run once per
  // tile, it leaves each work-item's view of those scalars as fibers would.
  // tileLoops_: candidates by shape with their updates and own variables
  // (findTileLoops), then those proven (classifyLocals removes the others);
  // tileLoopVar_: a candidate's own variables; tileLoopWrite_: the
  // references a candidate's updates write.
  struct TileLoop {
    std::vector<const Expr*> updates;
    std::vector<const VarDecl*> own;
  };
  std::map<const Stmt*, TileLoop> tileLoops_;
  std::map<const VarDecl*, const Stmt*> tileLoopVar_;
  std::map<const DeclRefExpr*, const Stmt*> tileLoopWrite_;
  void findTileLoops();
  bool tileLoopShape(const Stmt* s, TileLoop& l);
  bool tileLoopUniform(const Stmt* s);
  bool isTileUpdate(const DeclRefExpr* r);
  bool isTileUpdateStmt(const Stmt* c);
  bool capturedByCopy(const VarDecl* v);
  bool ownValueMember(const Expr* e);
  bool uniform(const Expr* e);
  bool uniformCall(const CallExpr* c);
  bool constElement(const CXXOperatorCallExpr* oc);
  bool unitDimCoord(const CXXOperatorCallExpr* oc);
  bool writesType(QualType t);

  bool hasInit(const VarDecl* v) { return v->getInit() != nullptr; }

  bool copiedFromUniform(const VarDecl* v);
  bool constUse(const Expr* e);
  bool elementRef(const Expr* e);
  bool uniformTemporary(const VarDecl* v);
  bool uniformObject(const Expr* e);
  bool stable(const VarDecl* v);
  bool itemPure(const Expr* e);
  void chooseRecomputed(std::set<const DeclStmt*, SourceOrder>& perItemDecls);
  static bool isTileStorage(const VarDecl* v);
  void classifyLocals();
  int regionAt(unsigned o);
  bool isTypeDeclStmt(const Stmt* c);
  bool namesLocal(const TypedefNameDecl* td);
  bool isOrdinary(const Stmt* c);

  // ---- emission
  std::string typeName(QualType t) { return spelledType(t.getUnqualifiedType(), lo_); }

  // ---- defined in kernel_emit.cpp
  std::string aliasText(const std::string& name, int depth = 0);
  std::string typeText(const VarDecl* v, bool reference = false);

  struct Edit {
    unsigned b, e;
    std::string text;        // DeclRef
    const DeclStmt* decl = nullptr; // per-item declaration
    bool ret = false;        // a `return;`
  };
  std::vector<Edit> edits_;

  void buildEdits();
  std::string text(unsigned b, unsigned e);
  std::string declText(const DeclStmt* ds);
  std::string slotInit(const VarDecl* v, const std::string& ty);

  std::string pname() { return param_->getNameAsString(); }

  std::string recomputed(unsigned b, unsigned e);
  std::string boundNames(unsigned b, unsigned e);
  bool sameName(const VarDecl* v);
  // Per-work-item arrays: the element type's text and the bounds' text
  // (`unsigned int`, `[ELEMENTS_PER_WORK_ITEM]`).
  std::map<const VarDecl*, std::pair<std::string, std::string>> arrayDecl_;
  void keepArray(const VarDecl* v);
  std::string arrayInit(const VarDecl* v, const std::string& lhs);
  bool defaultBuilt(const VarDecl* v);
  std::set<const VarDecl*> boundByName_; // per-work-item values read by name (used in macro expansions)
  std::set<const VarDecl*, SourceOrder> slots_;       // per-work-item values of class type kept in item_slots

  int tileRank();
  bool isItemIndex(const Expr* e);

  // ---- defined in independence.cpp
  bool isCoord(const Expr* e, int d, bool global);
  bool isCoordPlusUniform(const Expr* e, int d, bool global);
  static bool sameUniform(const Expr* a, const Expr* b);
  // Kernel-wide: no pointer can reach a local or tile_static array.
  bool noPointersKnown_ = false, noPointers_ = false;
  bool noPointers();
  const VarDecl* tileStaticVar(const Expr* e);
  // Region-analysis state: one region at a time.
  struct Access {
    int globalWrites = 0;
    bool globalReads = false;
    bool fail = false;        // something the proofs do not follow
    bool foreignSlot = false; // a tile_static element other than the work-item's own written
    std::set<const VarDecl*> tsWritten, tsReadElsewhere;
  };
  const VarDecl* subscriptChain(const ArraySubscriptExpr* a, std::vector<const Expr*>& idx);
  bool ownSlot(const VarDecl* v, const std::vector<const Expr*>& idx);
  int tileDim(int d);
  static bool isElementAccess(const CXXOperatorCallExpr* oc);
  bool injectiveIndex(const CXXOperatorCallExpr* oc);
  int useOf(const Expr* e);
  Access regionAccess(const std::vector<const Stmt*>& stmts, const Expr* guard);
  bool independent(const std::vector<const Stmt*>& stmts, const Expr* guard);

  // ---- defined in hoist.cpp
  // Reads of a view or array element at uniform indices, in a region that
  // writes no memory but its own locals and tile_static arrays: read once
  // per tile before the region's item loop (amp_ht_hN), not once per item.
  int hoisted_ = 0;
  std::string hoistReads(const std::vector<const Stmt*>& stmts, unsigned b, unsigned e);
  bool unconditionalIn(const Stmt* s, const std::vector<const Stmt*>& stmts);
  bool namesDeclaredBefore(const Expr* e, unsigned b);
  bool wholeText(SourceLocation& lb, SourceLocation& le, unsigned b);
  bool sameForAllItems(const CXXOperatorCallExpr* oc, const std::vector<const Stmt*>& stmts);
  // Values kept across barriers that are one per tile: a const scalar whose
  // initialiser is such a read (`const float pu = up[option];`): one scalar
  // of the tile instead of a row of amp_ht_n equal copies (uniformKept).
  std::set<const VarDecl*> oneValue_;
  void uniformKept();
  std::string ivdep(const std::vector<const Stmt*>& stmts, const Expr* guard);

  // ---- defined in kernel_emit.cpp
  std::string guardedRegion(const Stmt* c);
  std::string itemBody(unsigned b, unsigned e, SourceLocation at);
  std::string region(unsigned b, unsigned e, SourceLocation at, const std::vector<const Stmt*>& stmts,
                     const std::string& after = "");
  bool nested_ = false; // amp_ht_d0/amp_ht_d1 are used
  bool nest2() { return tileRank() == 2; } // guarded regions (item-index bounds) are one-dimensional only

  std::string emitBlock(const CompoundStmt* cs);
  std::string branch(const Stmt* s);
  std::string emitSplit(const Stmt* c);
  std::string header(SourceLocation keyword, SourceLocation rparen);
  std::string emitAll();
};

} // namespace tile_compiler
