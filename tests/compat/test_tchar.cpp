// <tchar.h> in its narrow form (no _UNICODE); the wide form is the separate
// program tchar_unicode (its own translation units, built with -D_UNICODE).
#include <tchar.h>

#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <type_traits>

static_assert(std::is_same<_TCHAR, char>::value, "_TCHAR without _UNICODE");
static_assert(std::is_same<decltype(_T("x")), const char(&)[2]>::value, "_T() without _UNICODE");

TEST(Tchar, NarrowMappings) {
  _TCHAR buf[16];
  EXPECT_EQ(_tcscpy_s(buf, _T("abc")), 0);
  EXPECT_EQ(_tcscat_s(buf, _T("12")), 0);
  EXPECT_EQ(_tcslen(buf), 5u);
  EXPECT_EQ(_ttoi(buf + 3), 12);
  EXPECT_EQ(_tcsicmp(_T("ABC12"), buf), 0);
  EXPECT_NE(_tcsstr(buf, _T("c1")), nullptr);
  EXPECT_EQ(_stprintf_s(buf, _T("%I64d%s"), 1LL << 40, _T("!")), 14);
  EXPECT_EQ(std::string(buf), "1099511627776!");
  EXPECT_EQ(_totupper('q'), 'Q');
}

TEST(Tchar, PrintfFamilyTakesMsvcFormats) {
  std::FILE* f = std::tmpfile();
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(_ftprintf(f, _T("%s=%I64u %S"), _T("n"), 1ULL << 35, L"\u00e9"), 16);
  std::rewind(f);
  char line[64] = {};
  ASSERT_NE(_fgetts(line, 64, f), nullptr);
  EXPECT_EQ(std::string(line), "n=34359738368 \xc3\xa9");
  std::fclose(f);
}
