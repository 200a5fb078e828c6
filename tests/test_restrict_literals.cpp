// A restrict(cpu)/restrict(amp) pair written after the literals that legacy
// Windows code is full of (issue 21, item 7): wide, UTF-16/32 and UTF-8
// character and string literals holding parentheses and quotes, raw strings,
// digit separators, `case'('`, and a directive after a comment on its line.
// The build compiles this file through scripts/restrict_launcher.sh, whose
// rewrite must read them as the compiler does (scripts/amp_driver/cpp_lexer.py): it once
// took the quote of L'(' for a digit separator, left the pairs below
// unrewritten, and the build failed with "redefinition of int side(int)".
// The literals are also checked for their values: the rewrite must not change
// a character of them.
#include "amp_test_util.h"

#include <cstring>
#include <cwchar>

using namespace concurrency;

namespace {

const wchar_t wide_open = L'(';
const wchar_t wide_quote = L'\'';
const wchar_t* const wide_text = L"(\"";
const char16_t utf16_open = u'(';
const char32_t utf32_close = U')';
const auto utf8_open = u8'(';  // char in C++17, char8_t in C++20
const char* const raw_path = R"win(C:\dir\"quoted" (x) ')win";
const wchar_t* const wide_raw = LR"(" ( ')";
const auto* const raw_lines = u8R"x(one (
two ")x";
const long million = 1'000'000;
const unsigned mask16 = 0xFF'FF;
/* configuration */ #define AMP_LITERALS_OPEN '('

int depth(char c) {
  switch (c) {
    case'(': return 1;
    case')': return -1;
    default: return 0;
  }
}

int side(int x) restrict(cpu) { return 1000 + x; }
int side(int x) restrict(amp) { return 2000 + x; }

struct widget {
  int n;
  int get(int d) const restrict(cpu) { return n * 10 + d; }
  int get(int d) const restrict(amp) { return n * 100 + d; }
};

}  // namespace

TEST(RestrictLiterals, LiteralsKeepTheirValues) {
  EXPECT_EQ(wide_open, static_cast<wchar_t>(0x28));
  EXPECT_EQ(wide_quote, static_cast<wchar_t>(0x27));
  EXPECT_EQ(std::wcscmp(wide_text, L"\x28\x22"), 0);
  EXPECT_EQ(utf16_open, static_cast<char16_t>(0x28));
  EXPECT_EQ(utf32_close, static_cast<char32_t>(0x29));
  EXPECT_EQ(static_cast<char>(utf8_open), '(');
  EXPECT_STREQ(raw_path, "C:\\dir\\\"quoted\" (x) '");
  EXPECT_EQ(std::wcscmp(wide_raw, L"\" ( '"), 0);
  EXPECT_STREQ(reinterpret_cast<const char*>(raw_lines), "one (\ntwo \"");
  EXPECT_EQ(million, 1000000L);
  EXPECT_EQ(mask16, 65535u);
  EXPECT_EQ(AMP_LITERALS_OPEN, '(');
  EXPECT_EQ(depth('(') + depth(')') + depth('x'), 0);
}

TEST(RestrictLiterals, PairsAfterTheLiteralsAreRewritten) {
  EXPECT_EQ(side(1), 1001);
  EXPECT_EQ(widget{4}.get(2), 42);
  const int n = 16;
  std::vector<int> a(n), b(n);
  array_view<int, 1> av(n, a), bv(n, b);
  const widget w{3};
  parallel_for_each(av.extent, [=](index<1> i) restrict(amp) {
    av[i] = side(i[0]);
    bv[i] = w.get(i[0]);
  });
  av.synchronize();
  bv.synchronize();
  for (int i = 0; i < n; ++i) {
    EXPECT_EQ(a[i], 2000 + i);
    EXPECT_EQ(b[i], 300 + i);
  }
}
