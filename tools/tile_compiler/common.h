// The tile compiler's shared declarations (tools/tile_compiler; tile_compiler.cpp
// has the plugin's contract, README.md the design): the Clang AST headers, the
// refusal a pass throws (Refused: the kernel keeps fibers, with the reason)
// and the small type helpers of every pass.
#pragma once

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

using namespace clang;

namespace tile_compiler {

std::string spelledType(QualType t, const LangOptions& lo);

struct Refused {
  std::string why;
};

bool inConcurrency(const Decl* d);
bool isAmpClass(QualType t, llvm::StringRef name);
bool isValueClass(QualType t);

} // namespace tile_compiler
