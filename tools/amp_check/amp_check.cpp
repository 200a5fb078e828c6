// amp_check: the rules of C++ AMP's restrict(amp) that a library cannot see,
// checked by a Clang plugin over the user's source.
//
// Microsoft's compiler refuses, inside restrict(amp) code, constructs that
// DirectX 11 cannot run: unsupported types (char, short, long long, pointers
// to pointers, bit-fields, virtual functions...), calls to restrict(cpu)
// functions, features DirectX cannot express (goto, try/throw, typeid,
// dynamic_cast, new/delete, recursion), global and static variables, string literals,
// by-reference lambda captures, and tile_static misuse. amp_compat compiles
// such code with GCC or Clang, which know nothing of these rules, so a
// program that MSVC rejected would build and run on the host. This plugin
// restores the diagnostics.
//
// How it sees restrictions: in the check pass (AMP_CHECK_PASS=1, see
// amp_compat/detail/restrict.h) `restrict(...)`, AMP_HD and tile_static carry
// `annotate` attributes: "amp_restrict:<list>" and "amp_tile_static". A
// function without one is restrict(cpu), as in AMP; the checker infers the
// restrictions of implicit special members from their subobjects (AMP spec
// 2.3.2) and lets constexpr functions and compiler builtins be called from
// both sides. Only user code is checked: declarations in system headers and
// in amp_compat's own headers (the plugin argument `lib=DIR`) are trusted
// (the GPU build compiles the library's device side).
//
// Every diagnostic names the MSVC error it stands for (C3581, C3930...), so a
// message can be matched with Microsoft's documentation and the conformance
// suite's expectations.
#include "clang/AST/ASTConsumer.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendPluginRegistry.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"

#include <functional>
#include <map>
#include <string>
#include <vector>

using namespace clang;

namespace {

enum : unsigned { kCpu = 1, kAmp = 2, kBoth = 3 };

// ------------------------------------------------------------ restrictions
// The words this declaration's restrict(...) wrote ("amp_restrict:<list>"
// annotations). Clang copies a declaration's attributes onto its
// redeclarations; only what this declaration wrote counts.
SmallVector<StringRef, 4> restrictionWords(const Decl *D) {
  SmallVector<StringRef, 4> words;
  for (const auto *A : D->specific_attrs<AnnotateAttr>()) {
    StringRef s = A->getAnnotation();
    if (A->isInherited() || !s.consume_front("amp_restrict:"))
      continue;
    SmallVector<StringRef, 4> parts;
    s.split(parts, ',');
    for (StringRef p : parts)
      words.push_back(p.trim());
  }
  return words;
}

unsigned annotated(const Decl *D) {
  unsigned r = 0;
  for (StringRef p : restrictionWords(D)) {
    if (p == "cpu")
      r |= kCpu;
    else if (p == "amp" || p == "direct3d")
      r |= kAmp;
    else if (p == "auto")
      r |= kBoth;
  }
  return r;
}

bool hasAnnotation(const Decl *D, StringRef what) {
  for (const auto *A : D->specific_attrs<AnnotateAttr>())
    if (A->getAnnotation() == what)
      return true;
  return false;
}

// The restriction written on any declaration of FD or of the template it was
// instantiated from; 0 when none is written.
unsigned written(const FunctionDecl *FD) {
  unsigned r = 0;
  for (const FunctionDecl *R : FD->redecls())
    r |= annotated(R);
  if (!r)
    if (const FunctionDecl *P = FD->getTemplateInstantiationPattern())
      for (const FunctionDecl *R : P->redecls())
        r |= annotated(R);
  return r;
}

bool isTileStatic(const VarDecl *V) { return hasAnnotation(V, "amp_tile_static"); }

const char *restrictName(unsigned r) {
  switch (r) {
  case kCpu: return "restrict(cpu)";
  case kAmp: return "restrict(amp)";
  default: return "restrict(cpu, amp)";
  }
}

// ------------------------------------------------------------------ checker
class Checker {
public:
  Checker(ASTContext &ctx, std::string lib) : ctx_(ctx), sm_(ctx.getSourceManager()), lib_(std::move(lib)) {}

  ASTContext &ctx() { return ctx_; }

  bool isUser(const Decl *D) {
    SourceLocation L = sm_.getExpansionLoc(D->getLocation());
    if (L.isInvalid() || sm_.isInSystemHeader(L))
      return false;
    if (lib_.empty())
      return true;
    StringRef file = sm_.getFilename(L);
    return !file.starts_with(lib_);
  }

  // F refers to an array_view, or points to an array or an array_view
  // (concurrency::array& is allowed).
  static bool isContainerMember(const FieldDecl *F) {
    QualType T = F->getType();
    if (!T->isReferenceType() && !T->isPointerType())
      return false;
    const CXXRecordDecl *P = T->getPointeeType()->getAsCXXRecordDecl();
    return P && (isAmpContainer(P, "array_view") || (T->isPointerType() && isAmpContainer(P, "array")));
  }
  static const FieldDecl *containerMember(const CXXRecordDecl *RD) {
    if (!(RD = RD->getDefinition()))
      return nullptr;
    for (const FieldDecl *F : RD->fields())
      if (isContainerMember(F))
        return F;
    return nullptr;
  }
  std::set<const CXXRecordDecl *> containerReported_;
  // P is concurrency::NAME (a specialization of the library's class template).
  static bool isAmpContainer(const CXXRecordDecl *P, StringRef name) {
    if (P->getName() != name)
      return false;
    const auto *NS = dyn_cast<NamespaceDecl>(P->getDeclContext()->getRedeclContext());
    return NS && (NS->getName() == "Concurrency" || NS->getName() == "concurrency") &&
           NS->getDeclContext()->getRedeclContext()->isTranslationUnit();
  }

  void error(SourceLocation loc, StringRef code, const Twine &msg) {
    auto &D = ctx_.getDiagnostics();
    unsigned id = D.getCustomDiagID(DiagnosticsEngine::Error, "%0 [C++ AMP %1]");
    D.Report(loc, id) << msg.str() << code;
  }
  void note(SourceLocation loc, const Twine &msg) {
    auto &D = ctx_.getDiagnostics();
    unsigned id = D.getCustomDiagID(DiagnosticsEngine::Note, "%0");
    D.Report(loc, id) << msg.str();
  }

  // The restriction a function is checked under and callable with.
  unsigned restriction(const FunctionDecl *FD) {
    auto it = memo_.find(FD);
    if (it != memo_.end())
      return it->second;
    memo_[FD] = kBoth; // a cycle through implicit members: assume compatible
    unsigned r = compute(FD);
    memo_[FD] = r;
    return r;
  }

  // A generated restrict(cpu)/restrict(amp) pair dispatcher (scripts/
  // amp_driver/passes/restrict_pairs.py): its body names both versions and is not checked.
  bool isPairDispatcher(const FunctionDecl *FD);

  void checkFunction(const FunctionDecl *FD);
  void checkLambda(const LambdaExpr *L, unsigned enclosing);
  void checkRecordForAmp(const CXXRecordDecl *RD, SourceLocation use, StringRef what);
  // Empty when T may appear in amp code; else the reason.
  std::string unsupportedType(QualType T, bool asCapture = false, int depth = 0);
  void checkDeclarationRules(const FunctionDecl *FD);
  void checkRecursion();

  void noteAmpCall(const FunctionDecl *caller, const FunctionDecl *callee) {
    calls_[caller->getCanonicalDecl()].push_back(callee->getCanonicalDecl());
  }
  std::vector<const FunctionDecl *> ampFunctions;

private:
  unsigned compute(const FunctionDecl *FD);
  unsigned implicitMember(const FunctionDecl *FD);
  unsigned subobjectMember(const CXXRecordDecl *RD, const FunctionDecl *like);

  ASTContext &ctx_;
  SourceManager &sm_;
  std::string lib_;
  llvm::DenseMap<const FunctionDecl *, unsigned> memo_;
  llvm::DenseMap<const FunctionDecl *, bool> pair_;
  llvm::DenseMap<const CXXRecordDecl *, bool> recordOk_;
  llvm::DenseMap<const FunctionDecl *, std::vector<const FunctionDecl *>> calls_;

public:
  // The restriction of the code around a lambda that has none of its own.
  llvm::DenseMap<const CXXRecordDecl *, unsigned> lambdaContext;
};

unsigned Checker::compute(const FunctionDecl *FD) {
  if (unsigned id = FD->getBuiltinID())
    return ctx_.BuiltinInfo.isPredefinedLibFunction(id) ? kCpu : kBoth;
  if (unsigned r = written(FD))
    return r;
  if (const auto *MD = dyn_cast<CXXMethodDecl>(FD)) {
    const CXXRecordDecl *RD = MD->getParent();
    if (RD->isLambda() && MD->getOverloadedOperator() == OO_Call) {
      // A lambda without a restriction takes its surroundings'.
      auto it = lambdaContext.find(RD);
      if (it != lambdaContext.end())
        return it->second;
      return kCpu;
    }
    if (MD->isImplicit() || MD->isDefaulted() || (isa<CXXDestructorDecl>(MD) && MD->isTrivial()))
      return implicitMember(MD);
    // Members of a class local to a function take that function's
    // restriction when they have none (restriction inference).
    if (const FunctionDecl *outer = RD->isLocalClass())
      return restriction(outer);
  }
  if (FD->isConstexpr())
    return kBoth;
  return kCpu;
}

// Implicit and defaulted special members are restricted as the members and
// bases they call (AMP spec 2.3.2): the intersection of theirs.
unsigned Checker::implicitMember(const FunctionDecl *FD) {
  const auto *MD = cast<CXXMethodDecl>(FD);
  const CXXRecordDecl *RD = MD->getParent();
  if (!isUser(RD))
    return kBoth; // the library's and the standard's classes: trusted
  unsigned r = kBoth;
  for (const CXXBaseSpecifier &B : RD->bases())
    if (const auto *BR = B.getType()->getAsCXXRecordDecl())
      r &= subobjectMember(BR, FD);
  for (const FieldDecl *F : RD->fields()) {
    QualType T = ctx_.getBaseElementType(F->getType());
    if (const auto *FR = T->getAsCXXRecordDecl())
      r &= subobjectMember(FR, FD);
  }
  return r;
}

unsigned Checker::subobjectMember(const CXXRecordDecl *RD, const FunctionDecl *like) {
  RD = RD->getDefinition();
  if (!RD)
    return kBoth;
  auto pick = [&](const FunctionDecl *M) { return M ? restriction(M) : kBoth; };
  if (isa<CXXDestructorDecl>(like))
    return pick(RD->getDestructor());
  unsigned r = 0;
  bool found = false;
  if (const auto *C = dyn_cast<CXXConstructorDecl>(like)) {
    for (const CXXConstructorDecl *K : RD->ctors()) {
      bool same = (C->isDefaultConstructor() && K->isDefaultConstructor()) ||
                  (C->isCopyConstructor() && K->isCopyConstructor()) ||
                  (C->isMoveConstructor() && (K->isMoveConstructor() || K->isCopyConstructor()));
      if (same && !K->isDeleted()) {
        r |= restriction(K);
        found = true;
      }
    }
  } else if (const auto *M = dyn_cast<CXXMethodDecl>(like)) {
    for (const CXXMethodDecl *K : RD->methods()) {
      bool same = (M->isCopyAssignmentOperator() && K->isCopyAssignmentOperator()) ||
                  (M->isMoveAssignmentOperator() && (K->isMoveAssignmentOperator() || K->isCopyAssignmentOperator()));
      if (same && !K->isDeleted()) {
        r |= restriction(K);
        found = true;
      }
    }
  }
  // Not declared yet (Clang declares implicit members lazily): as the
  // subobject's own subobjects decide.
  if (!found) {
    if (!isUser(RD))
      return kBoth;
    unsigned s = kBoth;
    for (const CXXBaseSpecifier &B : RD->bases())
      if (const auto *BR = B.getType()->getAsCXXRecordDecl())
        s &= subobjectMember(BR, like);
    for (const FieldDecl *F : RD->fields())
      if (const auto *FR = ctx_.getBaseElementType(F->getType())->getAsCXXRecordDecl())
        s &= subobjectMember(FR, like);
    return s;
  }
  return r;
}

// ----------------------------------------------------------------- types
std::string Checker::unsupportedType(QualType T, bool asCapture, int depth) {
  if (T.isNull() || T->isDependentType() || depth > 8)
    return "";
  if (T.isVolatileQualified())
    return "volatile is not supported in amp-restricted code";
  if (const auto *R = T->getAs<ReferenceType>()) {
    QualType P = R->getPointeeType();
    if (P->isFunctionType())
      return "references to functions are not supported";
    return unsupportedType(P, asCapture, depth + 1);
  }
  if (const auto *P = T->getAs<PointerType>()) {
    QualType E = P->getPointeeType();
    if (E->isFunctionType())
      return "function pointers are not supported";
    if (E->isPointerType() || E->isReferenceType())
      return "pointers to pointers are not supported";
    if (asCapture)
      return "pointers cannot be captured by an amp-restricted lambda";
    if (E->isVoidType())
      return "";
    return unsupportedType(E, asCapture, depth + 1);
  }
  if (T->isMemberPointerType())
    return "pointers to members are not supported";
  if (T->isFunctionType())
    return "";
  if (const auto *A = ctx_.getAsArrayType(T)) {
    QualType E = A->getElementType();
    if (E->isBooleanType())
      return "arrays of bool are not supported";
    if (E->isNullPtrType())
      return "arrays of std::nullptr_t are not supported";
    if (E->isPointerType() || E->isReferenceType())
      return "arrays of pointers are not supported";
    if (const auto *ER = E->getAsCXXRecordDecl())
      if (ER->getDefinition() && ER->isEmpty() && isUser(ER))
        return "arrays of an empty class are not supported";
    return unsupportedType(E, asCapture, depth + 1);
  }
  if (const auto *ET = T->getAs<EnumType>()) {
    const EnumDecl *ED = ET->getDecl()->getDefinitionOrSelf();
    if (ED->isComplete()) {
      QualType U = ED->getIntegerType();
      if (!U.isNull() && !(U->isSpecificBuiltinType(BuiltinType::Int) || U->isSpecificBuiltinType(BuiltinType::UInt) ||
                           U->isSpecificBuiltinType(BuiltinType::Long) ||
                           U->isSpecificBuiltinType(BuiltinType::ULong)))
        return "an enumeration must have int, unsigned int, long or unsigned long as its underlying type";
    }
    return "";
  }
  if (const auto *B = T->getAs<BuiltinType>()) {
    switch (B->getKind()) {
    case BuiltinType::Void:
    case BuiltinType::Bool:
    case BuiltinType::Int:
    case BuiltinType::UInt:
    case BuiltinType::Long:
    case BuiltinType::ULong:
    case BuiltinType::Float:
    case BuiltinType::Double:
    case BuiltinType::NullPtr:
      return "";
    default:
      return std::string("type '") + T.getUnqualifiedType().getAsString(ctx_.getPrintingPolicy()) +
             "' is not supported in amp-restricted code (bool, int, unsigned int, long, unsigned long, float, "
             "double are)";
    }
  }
  if (const auto *RD = T->getAsCXXRecordDecl()) {
    RD = RD->getDefinition();
    if (!RD || !isUser(RD) || RD->isLambda())
      return "";
    auto it = recordOk_.find(RD);
    if (it != recordOk_.end() && it->second)
      return "";
    recordOk_[RD] = true; // recursion through pointers: assume fine
    std::string why;
    if (RD->isPolymorphic())
      why = "a class with virtual functions is not supported";
    else if (RD->getNumVBases())
      why = "a class with virtual base classes is not supported";
    if (why.empty())
      for (const CXXBaseSpecifier &B : RD->bases()) {
        std::string w = unsupportedType(B.getType(), asCapture, depth + 1);
        if (!w.empty()) {
          why = "base class: " + w;
          break;
        }
      }
    if (why.empty())
      for (const FieldDecl *F : RD->fields()) {
        QualType FT = F->getType();
        if (F->isBitField()) {
          why = "bit-field '" + F->getNameAsString() + "' is not supported";
          break;
        }
        if (FT->isReferenceType() || FT->isPointerType()) {
          // concurrency::array& and texture& members are the exception; a
          // reference to an array_view, or a pointer to an array or an
          // array_view, is not (Microsoft's Comp_Type/Negative/1d tests).
          const CXXRecordDecl *P = FT->getPointeeType()->getAsCXXRecordDecl();
          if (isContainerMember(F)) {
            why = "member '" + F->getNameAsString() + "' is a " + (FT->isReferenceType() ? "reference" : "pointer") +
                  " to concurrency::" + P->getNameAsString() + ", which amp-restricted code cannot use";
            break;
          }
          if (FT->isReferenceType() && P && !isUser(P))
            continue;
          if (FT->isPointerType() && !asCapture) {
            std::string w = unsupportedType(FT, false, depth + 1);
            if (!w.empty()) {
              why = "member '" + F->getNameAsString() + "': " + w;
              break;
            }
            continue;
          }
          why = "member '" + F->getNameAsString() + "' is a " +
                (FT->isReferenceType() ? "reference" : "pointer") + ", which amp-restricted code cannot use";
          break;
        }
        std::string w = unsupportedType(FT, asCapture, depth + 1);
        if (!w.empty()) {
          why = "member '" + F->getNameAsString() + "': " + w;
          break;
        }
      }
    recordOk_[RD] = why.empty();
    if (!why.empty())
      return "class '" + RD->getNameAsString() + "': " + why;
    return "";
  }
  return "";
}

// ------------------------------------------------------------ body checks
class BodyChecker : public RecursiveASTVisitor<BodyChecker> {
public:
  BodyChecker(Checker &c, const FunctionDecl *fn, unsigned ctx) : c_(c), fn_(fn), ctx_(ctx) {}

  bool shouldVisitTemplateInstantiations() const { return true; }

  // Nested lambdas are checked as functions of their own; their captures'
  // initialisation runs here.
  bool TraverseLambdaExpr(LambdaExpr *L) {
    c_.lambdaContext[L->getLambdaClass()] = ctx_;
    for (Expr *init : L->capture_inits())
      if (init)
        TraverseStmt(init);
    return true;
  }
  // Declarations of local classes are checked on their own.
  bool TraverseCXXRecordDecl(CXXRecordDecl *) { return true; }
  bool TraverseFunctionDecl(FunctionDecl *) { return true; }
  bool TraverseCXXMethodDecl(CXXMethodDecl *) { return true; }
  // Unevaluated operands (sizeof, decltype, noexcept) run nothing.
  bool TraverseUnaryExprOrTypeTraitExpr(UnaryExprOrTypeTraitExpr *) { return true; }
  bool TraverseDecltypeTypeLoc(DecltypeTypeLoc, bool = true) { return true; }

  bool amp() const { return ctx_ & kAmp; }

  // AMP resolves an overloaded call once per restriction of the caller: in a
  // restrict(cpu, amp) function, f(x) may call a restrict(cpu) f on the CPU
  // and a restrict(amp) f on the accelerator. Clang resolves it once, so a
  // callee lacking one restriction is accepted when an overload of the same
  // name in the same scope, taking as many arguments, has it.
  bool counterpart(const FunctionDecl *callee, unsigned missing, unsigned nargs) {
    const DeclContext *DC = callee->getDeclContext()->getRedeclContext();
    if (!callee->getDeclName() || !DC)
      return false;
    for (const NamedDecl *ND : DC->lookup(callee->getDeclName())) {
      const FunctionDecl *F = ND->getAsFunction();
      if (!F || F == callee)
        continue;
      unsigned r = c_.restriction(F);
      if ((r & missing) == missing && F->getMinRequiredArguments() <= nargs &&
          (F->isVariadic() || nargs <= F->getNumParams()))
        return true;
    }
    return false;
  }

  void call(const FunctionDecl *callee, SourceLocation loc, bool implicitCall = false, int nargs = -1) {
    if (!callee)
      return;
    unsigned r = c_.restriction(callee);
    if ((r & ctx_) != ctx_ && nargs >= 0 && counterpart(callee, ctx_ & ~r, unsigned(nargs)))
      r |= ctx_;
    if (amp() && !(r & kAmp)) {
      std::string name = callee->getQualifiedNameAsString();
      if (isa<CXXDestructorDecl>(callee))
        c_.error(loc, "C3930", "the destructor '" + name + "' is restrict(cpu); it cannot run in " +
                                   restrictName(ctx_) + " code");
      else
        c_.error(loc, "C3930", "'" + name + "' is " + restrictName(r) + ": it cannot be called from " +
                                   restrictName(ctx_) + " code" + (implicitCall ? " (called implicitly)" : ""));
      return;
    }
    if ((ctx_ & kCpu) && !(r & kCpu)) {
      c_.error(loc, "C3931", "'" + callee->getQualifiedNameAsString() + "' is " + restrictName(r) +
                                 ": it cannot be called from " + restrictName(ctx_) + " code");
      return;
    }
    if (amp() && c_.isUser(callee))
      c_.noteAmpCall(fn_, callee);
  }

  // A tile barrier inside control flow whose condition reads the work-item's
  // own index (idx.global, idx.local): the tile's work-items do not all
  // reach it (MSVC C3561). Syntactic: values computed from those indices
  // and then tested are not followed.
  bool TraverseIfStmt(IfStmt *S) { return branching(S->getCond(), [&] { return Base::TraverseIfStmt(S); }); }
  bool TraverseWhileStmt(WhileStmt *S) {
    return branching(S->getCond(), [&] { return Base::TraverseWhileStmt(S); });
  }
  bool TraverseDoStmt(DoStmt *S) { return branching(S->getCond(), [&] { return Base::TraverseDoStmt(S); }); }
  bool TraverseForStmt(ForStmt *S) { // the loop variable's start counts too (`for (k = t.local[0]; ...)`)
    return branching(S->getCond(), [&] { return Base::TraverseForStmt(S); }, S->getInit());
  }
  bool TraverseSwitchStmt(SwitchStmt *S) {
    return branching(S->getCond(), [&] { return Base::TraverseSwitchStmt(S); });
  }
  template <class Walk> bool branching(const Expr *cond, Walk walk, const Stmt *init = nullptr) {
    const bool d = (cond && readsWorkItemIndex(cond)) || readsWorkItemIndex(init);
    divergent_ += d;
    const bool r = walk();
    divergent_ -= d;
    return r;
  }
  static bool readsWorkItemIndex(const Stmt *S) {
    if (!S)
      return false;
    if (const auto *M = dyn_cast<MemberExpr>(S))
      if (const auto *F = dyn_cast<FieldDecl>(M->getMemberDecl()))
        if ((F->getName() == "global" || F->getName() == "local") && F->getParent()->getName() == "tiled_index")
          return true;
    for (const Stmt *C : S->children())
      if (readsWorkItemIndex(C))
        return true;
    return false;
  }
  void barrierPlacement(const CallExpr *E, const FunctionDecl *callee) {
    const auto *MD = dyn_cast<CXXMethodDecl>(callee);
    if (divergent_ && amp() && MD && MD->getParent()->getName() == "tile_barrier" &&
        MD->getName().starts_with("wait"))
      c_.error(E->getBeginLoc(), "C3561", "a tile barrier in control flow that depends on the work-item's index "
                                          "(idx.global or idx.local): not every work-item of the tile reaches it");
  }

  bool VisitCallExpr(CallExpr *E) {
    if (E->isTypeDependent())
      return true;
    const FunctionDecl *callee = E->getDirectCallee();
    if (callee)
      barrierPlacement(E, callee);
    if (!callee) {
      if (amp() && !isa<CXXPseudoDestructorExpr>(E->getCallee()->IgnoreParenImpCasts()))
        c_.error(E->getBeginLoc(), "C3581", "calls through function pointers or pointers to members are not "
                                            "supported in amp-restricted code");
      return true;
    }
    calleeRefs_.insert(E->getCallee()->IgnoreParenImpCasts());
    if (auto *ME = dyn_cast<MemberExpr>(E->getCallee()->IgnoreParenImpCasts())) {
      const auto *MD = dyn_cast<CXXMethodDecl>(callee);
      if (amp() && MD && MD->isVirtual() && !ME->hasQualifier() && !MD->hasAttr<FinalAttr>())
        c_.error(E->getBeginLoc(), "C3581", "virtual function calls are not supported in amp-restricted code");
    }
    unsigned nargs = E->getNumArgs();
    if (isa<CXXOperatorCallExpr>(E) && isa<CXXMethodDecl>(callee) && !cast<CXXMethodDecl>(callee)->isStatic() &&
        nargs > 0)
      --nargs; // the object argument
    call(callee, E->getBeginLoc(), false, int(nargs));
    return true;
  }
  bool VisitCXXConstructExpr(CXXConstructExpr *E) {
    call(E->getConstructor(), E->getBeginLoc(), E->getParenOrBraceRange().isInvalid());
    return true;
  }
  bool VisitCXXBindTemporaryExpr(CXXBindTemporaryExpr *E) {
    if (const CXXDestructorDecl *D = E->getTemporary()->getDestructor())
      call(D, E->getBeginLoc(), true);
    return true;
  }
  bool VisitDeclRefExpr(DeclRefExpr *E) {
    if (!amp()) {
      // A function named but not called in restrict(cpu) code becomes a
      // pointer or reference to a restrict(cpu) function: one without the
      // cpu restriction cannot (MSVC C2440).
      const auto *F = dyn_cast<FunctionDecl>(E->getDecl());
      if (F && !calleeRefs_.count(E) && !(c_.restriction(F) & kCpu))
        c_.error(E->getBeginLoc(), "C2440", "'" + F->getQualifiedNameAsString() + "' is " +
                                                restrictName(c_.restriction(F)) +
                                                ": it cannot be converted to a pointer or reference to a "
                                                "restrict(cpu) function");
      return true;
    }
    if (isa<FunctionDecl>(E->getDecl()) && !calleeRefs_.count(E))
      c_.error(E->getBeginLoc(), "C3581", "taking the address of or a reference to a function is not supported "
                                          "in amp-restricted code");
    if (const auto *V = dyn_cast<VarDecl>(E->getDecl())) {
      if (V->hasGlobalStorage() && !isTileStatic(V) && E->isNonOdrUse() == NOUR_None &&
          !V->getType()->isDependentType() && c_.isUser(V))
        c_.error(E->getBeginLoc(), "C3586", "'" + V->getNameAsString() +
                                                "': global and static variables cannot be used in "
                                                "amp-restricted code");
    }
    return true;
  }
  bool VisitMemberExpr(MemberExpr *E) {
    if (!amp())
      return true;
    if (const auto *V = dyn_cast<VarDecl>(E->getMemberDecl()))
      if (V->hasGlobalStorage() && E->isNonOdrUse() == NOUR_None && c_.isUser(V))
        c_.error(E->getBeginLoc(), "C3586", "static data member '" + V->getNameAsString() +
                                                "' cannot be used in amp-restricted code");
    if (isa<CXXMethodDecl>(E->getMemberDecl()) && !calleeRefs_.count(E) &&
        cast<CXXMethodDecl>(E->getMemberDecl())->isStatic())
      c_.error(E->getBeginLoc(), "C3581", "taking the address of a function is not supported in "
                                          "amp-restricted code");
    return true;
  }
  bool VisitUnaryOperator(UnaryOperator *E) {
    if (!amp())
      return true;
    if (E->getOpcode() == UO_AddrOf && E->getType()->isMemberPointerType())
      c_.error(E->getBeginLoc(), "C3581", "pointers to members are not supported in amp-restricted code");
    if (E->isIncrementDecrementOp() && boolPointer(E->getSubExpr()->getType()))
      c_.error(E->getBeginLoc(), "C3599", "pointer arithmetic on bool* is not supported in amp-restricted code");
    return true;
  }
  bool VisitBinaryOperator(BinaryOperator *E) {
    if (!amp())
      return true;
    if ((E->isAdditiveOp() || E->getOpcode() == BO_AddAssign || E->getOpcode() == BO_SubAssign) &&
        (boolPointer(E->getLHS()->getType()) || boolPointer(E->getRHS()->getType())))
      c_.error(E->getBeginLoc(), "C3599", "pointer arithmetic on bool* is not supported in amp-restricted code");
    if (E->isPtrMemOp())
      c_.error(E->getBeginLoc(), "C3581", "pointers to members are not supported in amp-restricted code");
    return true;
  }
  bool VisitArraySubscriptExpr(ArraySubscriptExpr *E) {
    if (amp() && boolPointer(E->getBase()->IgnoreImpCasts()->getType()) &&
        !E->getBase()->IgnoreImpCasts()->getType()->isArrayType())
      c_.error(E->getBeginLoc(), "C3599", "indexing a bool* is not supported in amp-restricted code");
    return true;
  }
  static bool boolPointer(QualType T) {
    const auto *P = T->getAs<PointerType>();
    return P && P->getPointeeType()->isBooleanType();
  }
  bool VisitCastExpr(CastExpr *E) {
    if (!amp())
      return true;
    switch (E->getCastKind()) {
    case CK_IntegralToPointer:
    case CK_PointerToIntegral:
      c_.error(E->getBeginLoc(), "C3588", "casts between integers and pointers are not supported in "
                                          "amp-restricted code");
      break;
    case CK_LValueBitCast:
    case CK_LValueToRValueBitCast:
      c_.error(E->getBeginLoc(), "C3588", "this reinterpreting cast is not supported in amp-restricted code");
      break;
    default:
      break;
    }
    if (auto *X = dyn_cast<ExplicitCastExpr>(E)) {
      std::string w = c_.unsupportedType(X->getTypeAsWritten());
      if (!w.empty())
        c_.error(E->getBeginLoc(), "C3581", "cast to an unsupported type: " + w);
    }
    return true;
  }
  bool VisitIntegerLiteral(IntegerLiteral *E) {
    if (!amp())
      return true;
    QualType T = E->getType();
    if (T->isSpecificBuiltinType(BuiltinType::LongLong) || T->isSpecificBuiltinType(BuiltinType::ULongLong))
      c_.error(E->getBeginLoc(), "C3595", "64-bit integer literals are not supported in amp-restricted code");
    return true;
  }
  bool VisitStringLiteral(StringLiteral *E) {
    if (amp())
      c_.error(E->getBeginLoc(), "C3589", "string literals are not supported in amp-restricted code");
    return true;
  }
  // __func__ and friends name the function; they are not string literals of
  // the program.
  bool TraversePredefinedExpr(PredefinedExpr *) { return true; }
  bool VisitCXXDynamicCastExpr(CXXDynamicCastExpr *E) {
    if (amp())
      c_.error(E->getBeginLoc(), "C3587", "dynamic_cast is not supported in amp-restricted code");
    return true;
  }
  bool VisitCXXTypeidExpr(CXXTypeidExpr *E) {
    if (amp())
      c_.error(E->getBeginLoc(), "C3591", "typeid is not supported in amp-restricted code");
    return true;
  }
  bool VisitCXXNewExpr(CXXNewExpr *E) {
    if (amp())
      c_.error(E->getBeginLoc(), "C3581", "new is not supported in amp-restricted code");
    return true;
  }
  bool VisitCXXDeleteExpr(CXXDeleteExpr *E) {
    if (amp())
      c_.error(E->getBeginLoc(), "C3581", "delete is not supported in amp-restricted code");
    return true;
  }
  bool VisitCXXThrowExpr(CXXThrowExpr *E) {
    if (amp())
      c_.error(E->getBeginLoc(), "C3594", "throw is not supported in amp-restricted code");
    return true;
  }
  bool VisitCXXTryStmt(CXXTryStmt *S) {
    if (amp())
      c_.error(S->getBeginLoc(), "C3594", "try/catch is not supported in amp-restricted code");
    return true;
  }
  bool VisitGotoStmt(GotoStmt *S) {
    if (amp())
      c_.error(S->getBeginLoc(), "C3593", "goto is not supported in amp-restricted code");
    return true;
  }
  bool VisitIndirectGotoStmt(IndirectGotoStmt *S) {
    if (amp())
      c_.error(S->getBeginLoc(), "C3593", "goto is not supported in amp-restricted code");
    return true;
  }
  bool VisitLabelStmt(LabelStmt *S) {
    if (amp())
      c_.error(S->getBeginLoc(), "C3593", "labels are not supported in amp-restricted code");
    return true;
  }
  bool VisitAsmStmt(AsmStmt *S) {
    if (amp())
      c_.error(S->getBeginLoc(), "C3581", "inline assembly is not supported in amp-restricted code");
    return true;
  }
  bool VisitVAArgExpr(VAArgExpr *E) {
    if (amp())
      c_.error(E->getBeginLoc(), "C3581", "va_arg is not supported in amp-restricted code");
    return true;
  }
  bool VisitVarDecl(VarDecl *V) {
    if (isa<ParmVarDecl>(V))
      return true;
    bool ts = isTileStatic(V);
    if (ts && !amp()) {
      c_.error(V->getLocation(), "C3584", "tile_static '" + V->getNameAsString() +
                                              "' is only allowed in restrict(amp) code");
      return true;
    }
    if (!amp()) {
      // A local of a class whose destructor lacks the cpu restriction (an
      // implicit one inherits it from the subobjects', AMP spec 2.3.2) cannot
      // be destroyed here.
      if (V->isLocalVarDecl() && !V->isStaticLocal())
        destroy(V);
      return true;
    }
    if (ts) {
      checkTileStatic(V);
      return true;
    }
    if (V->isStaticLocal())
      c_.error(V->getLocation(), "C3586", "static local variables are not supported in amp-restricted code");
    std::string w = c_.unsupportedType(V->getType());
    if (!w.empty())
      c_.error(V->getLocation(), "C3581", "'" + V->getNameAsString() + "': " + w);
    destroy(V);
    return true;
  }
  // The destructor call that ends local V's lifetime.
  void destroy(const VarDecl *V) {
    if (const CXXRecordDecl *RD = V->getType()->getAsCXXRecordDecl())
      if (const CXXDestructorDecl *D = RD->getDestructor())
        if (!V->getType()->isReferenceType())
          call(D, V->getLocation(), true);
    if (const auto *A = c_.ctx().getAsArrayType(V->getType()))
      if (const CXXRecordDecl *RD = c_.ctx().getBaseElementType(QualType(A, 0))->getAsCXXRecordDecl())
        if (const CXXDestructorDecl *D = RD->getDestructor())
          call(D, V->getLocation(), true);
  }
  void checkTileStatic(const VarDecl *V) {
    if (!(ctx_ == kAmp))
      c_.error(V->getLocation(), "C3584", "tile_static '" + V->getNameAsString() +
                                              "' is only allowed in restrict(amp) code");
    QualType T = V->getType();
    QualType E = c_.ctx().getBaseElementType(T);
    if (T->isPointerType() || E->isPointerType() || T->isReferenceType() || E->isNullPtrType() ||
        T->isNullPtrType())
      c_.error(V->getLocation(), "C3584", "tile_static '" + V->getNameAsString() +
                                              "': pointers, references and std::nullptr_t cannot be tile_static");
    const Expr *init = V->getInit();
    if (init) {
      const auto *CE = dyn_cast<CXXConstructExpr>(init->IgnoreImplicit());
      bool defaultConstruct = CE && CE->getNumArgs() == 0 && CE->getParenOrBraceRange().isInvalid();
      if (!defaultConstruct)
        c_.error(V->getLocation(), "C3584", "tile_static '" + V->getNameAsString() +
                                                "' cannot have an initializer");
    }
    std::string w = c_.unsupportedType(T);
    if (!w.empty())
      c_.error(V->getLocation(), "C3581", "'" + V->getNameAsString() + "': " + w);
  }

  llvm::SmallPtrSet<const Expr *, 16> calleeRefs_;

private:
  using Base = RecursiveASTVisitor<BodyChecker>;
  Checker &c_;
  const FunctionDecl *fn_;
  unsigned ctx_;
  unsigned divergent_ = 0; // depth of control flow that depends on the work-item's index
};

bool Checker::isPairDispatcher(const FunctionDecl *FD) {
  auto it = pair_.find(FD);
  if (it != pair_.end())
    return it->second;
  struct Finder : RecursiveASTVisitor<Finder> {
    bool found = false;
    bool VisitCallExpr(CallExpr *E) {
      if (const FunctionDecl *F = E->getDirectCallee())
        if (F->getIdentifier() && F->getName() == "amp_check_pair")
          found = true;
      return !found;
    }
  } f;
  if (FD->getBody())
    f.TraverseStmt(FD->getBody());
  if (const auto *C = dyn_cast<CXXConstructorDecl>(FD))
    for (const CXXCtorInitializer *I : C->inits())
      if (I->getInit() && !f.found)
        f.TraverseStmt(I->getInit());
  pair_[FD] = f.found;
  return f.found;
}

void Checker::checkDeclarationRules(const FunctionDecl *FD) {
  // restrict(...) names cpu, amp, direct3d or auto only (C3936).
  for (StringRef p : restrictionWords(FD))
    if (p != "cpu" && p != "amp" && p != "direct3d" && p != "auto")
      error(FD->getLocation(), "C3936", "'" + p + "': unrecognized restriction specifier (cpu, amp, direct3d or auto)");
  unsigned r = restriction(FD);
  // A redeclaration must repeat the restriction (C3935).
  if (const FunctionDecl *P = FD->getPreviousDecl())
    if (!FD->isImplicit() && !P->isImplicit() && isUser(P) && !FD->getFriendObjectKind() &&
        !P->getFriendObjectKind() && !FD->isTemplateInstantiation()) {
      unsigned a = annotated(FD) ? annotated(FD) : kCpu, b = annotated(P) ? annotated(P) : kCpu;
      // Declared through a typedef of a restricted function type: the
      // restriction is in the typedef, where no annotation reaches.
      auto viaTypedef = [](const FunctionDecl *D) {
        const TypeSourceInfo *TSI = D->getTypeSourceInfo();
        return TSI && !TSI->getTypeLoc().getAsAdjusted<FunctionProtoTypeLoc>();
      };
      if (a != b && !viaTypedef(FD) && !viaTypedef(P))
        error(FD->getLocation(), "C3935", "'" + FD->getNameAsString() + "' was declared " + restrictName(b) +
                                              " and is redeclared " + restrictName(a));
    }
  if (!(r & kAmp) || FD->isImplicit())
    return;
  if (FD->isVariadic())
    error(FD->getLocation(), "C3581", "amp-restricted functions cannot take a variable argument list (...)");
  if (const auto *MD = dyn_cast<CXXMethodDecl>(FD)) {
    if (MD->isVirtual())
      error(FD->getLocation(), "C3581", "amp-restricted functions cannot be virtual");
    // Its class is used in amp-restricted code (`this`): a member that refers
    // to an array_view, or points to an array or array_view, is refused
    // there, once per class (Microsoft's compiler: C3581 for the class).
    if (!MD->isStatic() && isUser(MD->getParent()))
      if (const FieldDecl *F = containerMember(MD->getParent()))
        if (containerReported_.insert(MD->getParent()->getCanonicalDecl()).second)
          error(F->getLocation(), "C3581", "member '" + F->getNameAsString() + "' of '" +
                                               MD->getParent()->getNameAsString() + "' is a " +
                                               (F->getType()->isReferenceType() ? "reference" : "pointer") +
                                               " to a concurrency container, which amp-restricted code cannot use");
    if (MD->getMethodQualifiers().hasVolatile())
      error(FD->getLocation(), "C3581", "volatile member functions are not supported in amp-restricted code");
  }
  if (FD->isExternC() && !FD->getBuiltinID() && r == kBoth)
    error(FD->getLocation(), "C3938", "a restrict(cpu, amp) function cannot have extern \"C\" linkage");
  if (const auto *FPT = FD->getType()->getAs<FunctionProtoType>())
    if (FPT->hasDynamicExceptionSpec())
      error(FD->getLocation(), "C3581", "amp-restricted functions cannot have an exception specification");
  std::string w = unsupportedType(FD->getReturnType());
  if (!w.empty() && !FD->getReturnType()->isVoidType())
    error(FD->getLocation(), "C3581", "return type: " + w);
  for (const ParmVarDecl *P : FD->parameters()) {
    QualType T = P->getType();
    if (T->isFunctionPointerType() || T->isFunctionReferenceType() || T->isMemberFunctionPointerType()) {
      error(P->getLocation(), "C3939", "parameter '" + P->getNameAsString() +
                                           "': pointers and references to functions are not supported in "
                                           "amp-restricted functions");
      continue;
    }
    if (T->isMemberPointerType())
      continue; // a parameter may have one (Microsoft's compiler accepts it); using it in amp code is refused
    std::string pw = unsupportedType(T);
    if (!pw.empty())
      error(P->getLocation(), "C3581", "parameter '" + P->getNameAsString() + "': " + pw);
  }
  // A class with an amp constructor needs an amp destructor (C3933).
  if (const auto *C = dyn_cast<CXXConstructorDecl>(FD))
    if (const CXXDestructorDecl *D = C->getParent()->getDestructor())
      if (!D->isImplicit() && !(restriction(D) & kAmp))
        error(D->getLocation(), "C3933", "the destructor of '" + C->getParent()->getNameAsString() +
                                             "' must be amp-restricted: the class has an amp constructor");
}

void Checker::checkFunction(const FunctionDecl *FD) {
  if (FD->isDependentContext() || FD->isInvalidDecl())
    return;
  checkDeclarationRules(FD);
  if (!FD->doesThisDeclarationHaveABody() || isPairDispatcher(FD))
    return;
  unsigned r = restriction(FD);
  if (r & kAmp)
    ampFunctions.push_back(FD);
  BodyChecker b(*this, FD, r);
  if (const auto *C = dyn_cast<CXXConstructorDecl>(FD)) {
    for (const CXXCtorInitializer *I : C->inits())
      if (I->getInit() && (I->isWritten() || (r & kAmp)))
        b.TraverseStmt(I->getInit());
  }
  b.TraverseStmt(FD->getBody());
}

void Checker::checkLambda(const LambdaExpr *L, unsigned enclosing) {
  const CXXMethodDecl *op = L->getCallOperator();
  if (L->getLambdaClass()->isDependentContext())
    return; // checked in its instantiations
  unsigned r = written(op);
  if (!r)
    return; // no restriction of its own: checked as part of its surroundings' rules
  if (!(r & kAmp))
    return;
  // Inside amp code an amp lambda still cannot capture a pointer (MSVC C3596).
  if (enclosing & kAmp) {
    for (const LambdaCapture &C : L->captures())
      if (C.capturesVariable() && C.getCaptureKind() == LCK_ByCopy &&
          C.getCapturedVar()->getType().getNonReferenceType()->isPointerType())
        error(C.getLocation(), "C3596", "'" + C.getCapturedVar()->getNameAsString() +
                                            "' cannot be captured: pointers cannot be captured by an "
                                            "amp-restricted lambda");
    return;
  }
  // Captures of an amp lambda made in non-amp code cross to the accelerator.
  for (const LambdaCapture &C : L->captures()) {
    if (C.capturesThis()) {
      error(C.getLocation(), "C3590", "an amp-restricted lambda cannot capture 'this'");
      continue;
    }
    if (!C.capturesVariable())
      continue;
    const ValueDecl *V = C.getCapturedVar();
    QualType T = V->getType();
    QualType NR = T.getNonReferenceType();
    const CXXRecordDecl *RD = NR->getAsCXXRecordDecl();
    bool container = RD && !isUser(RD) && (RD->getName() == "array" || RD->getName() == "texture");
    if (C.getCaptureKind() == LCK_ByRef) {
      if (!container)
        error(C.getLocation(), "C3590", "'" + V->getNameAsString() +
                                            "': an amp-restricted lambda can capture by reference only "
                                            "concurrency::array and texture objects");
      continue;
    }
    if (container) {
      error(C.getLocation(), "C3597", "'" + V->getNameAsString() + "': concurrency::" + RD->getNameAsString() +
                                          " must be captured by reference");
      continue;
    }
    std::string w = unsupportedType(NR, /*asCapture=*/true);
    if (!w.empty())
      error(C.getLocation(), "C3596", "'" + V->getNameAsString() + "' cannot be captured: " + w);
  }
}

void Checker::checkRecursion() {
  // Recursion is not supported in amp-restricted code: a cycle in the calls
  // among the user's amp functions.
  std::map<const FunctionDecl *, int> state;
  std::vector<const FunctionDecl *> stack;
  std::function<bool(const FunctionDecl *)> dfs = [&](const FunctionDecl *F) -> bool {
    state[F] = 1;
    stack.push_back(F);
    auto it = calls_.find(F);
    if (it == calls_.end()) {
      stack.pop_back();
      state[F] = 2;
      return false;
    }
    const std::vector<const FunctionDecl *> callees = it->second;
    for (const FunctionDecl *G : callees) {
      if (state[G] == 1) {
        error(G->getLocation(), "C3586", "'" + G->getQualifiedNameAsString() +
                                             "' is recursive: recursion is not supported in amp-restricted code");
        return true;
      }
      if (state[G] == 0 && dfs(G))
        return true;
    }
    stack.pop_back();
    state[F] = 2;
    return false;
  };
  std::vector<const FunctionDecl *> roots;
  for (auto &e : calls_)
    roots.push_back(e.first);
  for (const FunctionDecl *F : roots)
    if (state[F] == 0 && dfs(F))
      return;
}

// ------------------------------------------------------------- collection
class Collector : public RecursiveASTVisitor<Collector> {
public:
  explicit Collector(Checker &c) : c_(c) {}
  bool shouldVisitTemplateInstantiations() const { return true; }
  bool shouldVisitImplicitCode() const { return false; }

  bool TraverseDecl(Decl *D) {
    if (!D)
      return true;
    if (!isa<TranslationUnitDecl>(D) && !c_.isUser(D) && !isa<NamespaceDecl>(D) && !isa<LinkageSpecDecl>(D))
      return true;
    return RecursiveASTVisitor::TraverseDecl(D);
  }
  bool VisitFunctionDecl(FunctionDecl *FD) {
    if (!FD->isImplicit())
      fns.push_back(FD);
    return true;
  }
  bool VisitLambdaExpr(LambdaExpr *L) {
    lambdas.push_back(L);
    return true;
  }
  std::vector<FunctionDecl *> fns;
  std::vector<LambdaExpr *> lambdas;

private:
  Checker &c_;
};

class Consumer : public ASTConsumer {
public:
  explicit Consumer(std::string lib) : lib_(std::move(lib)) {}
  bool HandleTopLevelDecl(DeclGroupRef G) override {
    for (Decl *D : G)
      top_.push_back(D);
    return true;
  }
  void HandleTranslationUnit(ASTContext &ctx) override {
    if (ctx.getDiagnostics().hasErrorOccurred())
      return;
    Checker c(ctx, lib_);
    Collector col(c);
    for (Decl *D : top_)
      col.TraverseDecl(D);
    // Lambdas take the restriction of the function around them when they
    // have none (so their bodies are checked with it): record the context of
    // every lambda first, outermost first, as the collector found them.
    std::function<unsigned(const DeclContext *)> contextOf = [&](const DeclContext *DC) -> unsigned {
      for (; DC; DC = DC->getParent())
        if (const auto *F = dyn_cast<FunctionDecl>(DC)) {
          if (const auto *M = dyn_cast<CXXMethodDecl>(F))
            if (M->getParent()->isLambda() && !written(M))
              continue;
          return c.restriction(F);
        }
      return kCpu;
    };
    for (LambdaExpr *L : col.lambdas) {
      const CXXRecordDecl *RD = L->getLambdaClass();
      if (!written(L->getCallOperator()))
        c.lambdaContext[RD] = contextOf(RD->getDeclContext());
    }
    for (FunctionDecl *FD : col.fns)
      c.checkFunction(FD);
    for (LambdaExpr *L : col.lambdas) {
      c.checkLambda(L, contextOf(L->getLambdaClass()->getDeclContext()));
      const CXXMethodDecl *op = L->getCallOperator();
      c.checkFunction(op);
      if (const FunctionTemplateDecl *T = op->getDescribedFunctionTemplate()) {
        for (const FunctionDecl *S : T->specializations())
          c.checkFunction(S);
      }
    }
    c.checkRecursion();
  }

private:
  std::string lib_;
  std::vector<Decl *> top_;
};

class Action : public PluginASTAction {
protected:
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &, StringRef) override {
    return std::make_unique<Consumer>(lib_);
  }
  bool ParseArgs(const CompilerInstance &, const std::vector<std::string> &args) override {
    for (const std::string &a : args)
      if (StringRef(a).starts_with("lib="))
        lib_ = a.substr(4);
    return true;
  }
  ActionType getActionType() override { return AddAfterMainAction; }

private:
  std::string lib_;
};

} // namespace

static FrontendPluginRegistry::Add<Action> X("amp-check", "check C++ AMP restrict(amp) rules");
