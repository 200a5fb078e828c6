// Preprocessor conditionals inside a kernel's body: what the parse decided,
// and the check that the user's compiler decides alike (conditionals.h).
#include "conditionals.h"

namespace tile_compiler {

namespace {

// Keeps each conditional's directives, in order, with the group the parse
// took. Directives inside a skipped group reach no callback; those of the
// conditionals around them do, in nesting order, so a stack of the open
// conditionals names the chain of an `#elifdef` (whose callback for a taken
// branch gives no location of its `#if`).
class Recorder : public PPCallbacks {
public:
  explicit Recorder(std::shared_ptr<Conditionals> c) : c_(std::move(c)) {}

  void If(SourceLocation loc, SourceRange, ConditionValueKind v) override { open(loc, v == CVK_True); }
  void Ifdef(SourceLocation loc, const Token&, const MacroDefinition& md) override { open(loc, bool(md)); }
  void Ifndef(SourceLocation loc, const Token&, const MacroDefinition& md) override { open(loc, !md); }
  void Elif(SourceLocation loc, SourceRange, ConditionValueKind v, SourceLocation) override {
    next(loc, v == CVK_True, false);
  }
  void Elifdef(SourceLocation loc, const Token&, const MacroDefinition& md) override { next(loc, bool(md), false); }
  void Elifdef(SourceLocation loc, SourceRange, SourceLocation) override { next(loc, false, false); }
  void Elifndef(SourceLocation loc, const Token&, const MacroDefinition& md) override { next(loc, !md, false); }
  void Elifndef(SourceLocation loc, SourceRange, SourceLocation) override { next(loc, false, false); }
  void Else(SourceLocation loc, SourceLocation) override { next(loc, true, true); }
  void Endif(SourceLocation loc, SourceLocation) override {
    if (open_.empty()) return;
    chain().push_back({loc, false, false, false, true});
    open_.pop_back();
  }
  void SourceRangeSkipped(SourceRange r, SourceLocation) override { c_->skipped.push_back(r); }

private:
  std::shared_ptr<Conditionals> c_;
  std::vector<SourceLocation::UIntTy> open_;        // the open conditionals, innermost last
  std::map<SourceLocation::UIntTy, bool> anyTaken_; // per open conditional

  std::vector<Conditionals::Directive>& chain() { return c_->chains[open_.back()]; }
  void open(SourceLocation loc, bool taken) {
    open_.push_back(loc.getRawEncoding());
    anyTaken_[open_.back()] = taken;
    chain().push_back({loc, taken, true, false, false});
  }
  // An #elif-like or #else: taken only where no earlier group was.
  void next(SourceLocation loc, bool taken, bool isElse) {
    if (open_.empty()) return;
    bool& any = anyTaken_[open_.back()];
    taken = taken && !any;
    any = any || taken;
    chain().push_back({loc, taken, false, isElse, false});
  }
};

// [start of the line holding offset o, end of its logical line: up to the
// newline that no backslash continues).
std::pair<unsigned, unsigned> logicalLine(llvm::StringRef buf, unsigned o) {
  size_t b = buf.rfind('\n', o);
  b = b == llvm::StringRef::npos ? 0 : b + 1;
  size_t e = buf.find('\n', o);
  while (e != llvm::StringRef::npos && e > 0 && buf[e - 1] == '\\') e = buf.find('\n', e + 1);
  if (e == llvm::StringRef::npos) e = buf.size();
  return {static_cast<unsigned>(b), static_cast<unsigned>(e)};
}

} // namespace

std::shared_ptr<Conditionals> Conditionals::record(Preprocessor& pp) {
  auto c = std::make_shared<Conditionals>();
  pp.addPPCallbacks(std::make_unique<Recorder>(c));
  return c;
}

std::string Conditionals::check(const SourceManager& sm, const std::vector<Directive>& chain) const {
  const PresumedLoc p = sm.getPresumedLoc(chain.front().at);
  const std::string line = std::to_string(p.getLine());
  // Placed at the conditional's own line: the launcher takes back to fibers
  // the kernel whose lines hold an error.
  const std::string err = "#line " + line + " " + quote(p.getFilename()) + "\n" +
                          "#error \"amp_compat: this compiler decides the preprocessor conditional of line " + line +
                          " otherwise than the tile compiler's parse did\"\n";
  std::string out = "#if !defined(__CUDA_ARCH__) && !defined(__HIP_DEVICE_COMPILE__)\n";
  bool anyTaken = false, hasElse = false;
  for (const Directive& d : chain) {
    if (d.ends) break;
    const FileID fid = sm.getFileID(d.at);
    const llvm::StringRef buf = sm.getBufferData(fid);
    auto [b, e] = logicalLine(buf, sm.getFileOffset(d.at));
    const llvm::StringRef text = buf.slice(b, e);
    // A block comment that runs on past the directive's line would take
    // the lines after it.
    const size_t c = text.rfind("/*");
    if (c != llvm::StringRef::npos && text.find("*/", c) == llvm::StringRef::npos)
      throw Refused{"a comment runs on past the preprocessor conditional of line " + line};
    out += text.str() + "\n";
    if (!d.taken) out += err;
    anyTaken = anyTaken || d.taken;
    hasElse = hasElse || d.isElse;
  }
  if (!hasElse && anyTaken) out += "#else\n" + err;
  return out + "#endif\n#endif";
}

std::vector<Conditionals::Line> Conditionals::linesIn(const SourceManager& sm, FileID fid, unsigned b,
                                                        unsigned e) const {
  const llvm::StringRef buf = sm.getBufferData(fid);
  auto inBody = [&](SourceLocation l) {
    return sm.getFileID(l) == fid && sm.getFileOffset(l) >= b && sm.getFileOffset(l) < e;
  };
  std::vector<Line> lines;
  for (const auto& [key, chain] : chains) {
    const bool any = std::any_of(chain.begin(), chain.end(), [&](const Directive& d) { return inBody(d.at); });
    if (!any) continue;
    for (const Directive& d : chain)
      if (!inBody(d.at))
        throw Refused{"a preprocessor conditional (line " + std::to_string(sm.getPresumedLineNumber(d.at)) +
                      ") begins or ends outside the kernel's body"};
    if (!chain.back().ends)
      throw Refused{"a preprocessor conditional without its #endif in the kernel's body"};
    for (const Directive& d : chain) {
      auto [lb, le] = logicalLine(buf, sm.getFileOffset(d.at));
      lines.push_back({lb, le, d.opens ? check(sm, chain) : ""});
    }
  }
  for (const SourceRange& r : skipped) {
    if (sm.getFileID(r.getBegin()) != fid) continue;
    const unsigned sb = sm.getFileOffset(r.getBegin()), se = sm.getFileOffset(r.getEnd());
    if (se <= b || sb >= e) continue;
    if (sb < b || se > e) throw Refused{"a preprocessor conditional's skipped text crosses the kernel's braces"};
    for (unsigned k = logicalLine(buf, sb).first; k <= se;) {
      auto [lb, le] = logicalLine(buf, k);
      lines.push_back({lb, le, ""});
      k = le + 1;
    }
  }
  std::sort(lines.begin(), lines.end(), [](const Line& x, const Line& y) { return x.b < y.b; });
  // One entry per stretch of text: a directive's line is also the first or
  // last of a skipped range; a check is kept.
  std::vector<Line> merged;
  for (Line& l : lines) {
    if (!merged.empty() && l.b < merged.back().e) {
      merged.back().e = std::max(merged.back().e, l.e);
      if (merged.back().text.empty()) merged.back().text = std::move(l.text);
      continue;
    }
    merged.push_back(std::move(l));
  }
  return merged;
}

} // namespace tile_compiler
