// The secure CRT and MSVC-only runtime names of crt_compat.h (force-included
// through the amp_compat_windows target), and std::wcout's UTF-8 bridge.
#include <gtest/gtest.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <iostream>
#include <sstream>
#include <string>

namespace {

// Records the invalid-parameter reports of a test and restores the default.
struct handler_guard {
  static int calls;
  static std::wstring function;
  static void record(const wchar_t*, const wchar_t* f, const wchar_t*, unsigned, std::uintptr_t) {
    ++calls;
    function = f ? f : L"";
  }
  _invalid_parameter_handler old;
  handler_guard() : old(_set_invalid_parameter_handler(&record)) { calls = 0; function.clear(); }
  ~handler_guard() { _set_invalid_parameter_handler(old); }
};
int handler_guard::calls = 0;
std::wstring handler_guard::function;

std::string read_file(std::FILE* f) {
  std::rewind(f);
  std::string s;
  char buf[256];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) s.append(buf, n);
  return s;
}

}  // namespace

TEST(Crt, CountofAndMinMax) {
  int a[7];
  wchar_t w[13];
  static_assert(_countof(a) == 7, "_countof of an int array");
  EXPECT_EQ(_countof(w), 13u);
  int x = 3, y = -4;
  EXPECT_EQ(__max(x, y), 3);
  EXPECT_EQ(__min(x, y), -4);
  EXPECT_DOUBLE_EQ(__max(1.5, 2.5), 2.5);
}

TEST(Crt, SprintfSFormatsAndReturnsLength) {
  char buf[40];
  EXPECT_EQ(sprintf_s(buf, sizeof buf, "%d-%s", 42, "x"), 4);
  EXPECT_STREQ(buf, "42-x");
  const int n = sprintf_s(buf, "%I64d|%I64u", -(1LL << 40), 1ULL << 63);
  EXPECT_STREQ(buf, "-1099511627776|9223372036854775808");
  EXPECT_EQ(n, static_cast<int>(std::strlen(buf)));
}

TEST(Crt, SprintfSTooSmallGoesToTheHandler) {
  handler_guard g;
  char buf[4] = "old";
  errno = 0;
  EXPECT_EQ(sprintf_s(buf, "%s", "too long"), -1);
  EXPECT_EQ(buf[0], '\0');
  EXPECT_EQ(errno, ERANGE);
  EXPECT_EQ(handler_guard::calls, 1);
  EXPECT_EQ(handler_guard::function, L"sprintf_s");
}

TEST(CrtDeathTest, SprintfSTooSmallStopsTheProgramByDefault) {
  char buf[4];
  EXPECT_DEATH(sprintf_s(buf, "%s", "too long"), "invalid parameter passed to sprintf_s: buffer too small");
}

TEST(Crt, SnprintfSTruncateAndCount) {
  char buf[6];
  EXPECT_EQ(_snprintf_s(buf, _TRUNCATE, "%s", "abcdefgh"), -1);
  EXPECT_STREQ(buf, "abcde");
  EXPECT_EQ(_snprintf_s(buf, sizeof buf, 2, "%s", "abcdefgh"), -1);
  EXPECT_STREQ(buf, "ab");
  EXPECT_EQ(_snprintf_s(buf, sizeof buf, 5, "%d", 123), 3);
  EXPECT_STREQ(buf, "123");
  handler_guard g;
  EXPECT_EQ(_snprintf_s(buf, sizeof buf, 10, "%s", "abcdefgh"), -1);  // count fits, buffer does not
  EXPECT_EQ(handler_guard::calls, 1);
  EXPECT_EQ(buf[0], '\0');
}

TEST(Crt, WideFormatsUseMsvcMeanings) {
  wchar_t buf[64];
  // MSVC: in a wide format %s is a wide string, %S a narrow one, %c a wide char.
  const int n = swprintf_s(buf, L"%s|%S|%c|%hs|%ls|%5.1f|%I64d", L"wide", "narrow", L'w', "h", L"l", 2.5, 1LL << 33);
  EXPECT_EQ(std::wstring(buf), L"wide|narrow|w|h|l|  2.5|8589934592");
  EXPECT_EQ(n, static_cast<int>(std::wcslen(buf)));
  EXPECT_EQ(_snwprintf_s(buf, _TRUNCATE, L"%s", L"\u00e9t\u00e9"), 3);
  EXPECT_EQ(std::wstring(buf), L"\u00e9t\u00e9");
}

TEST(Crt, PrintSFamilyWritesUtf8) {
  std::FILE* f = std::tmpfile();
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(fprintf_s(f, "%s %I64d;", "n", 5LL), 4);
  EXPECT_EQ(fwprintf_s(f, L"%s %d", L"\u00e9", 7), 3);
  EXPECT_EQ(read_file(f), "n 5;\xc3\xa9 7");
  std::fclose(f);
}

TEST(Crt, StringCopies) {
  char buf[6];
  EXPECT_EQ(strcpy_s(buf, "abc"), 0);
  EXPECT_STREQ(buf, "abc");
  EXPECT_EQ(strcat_s(buf, sizeof buf, "de"), 0);
  EXPECT_STREQ(buf, "abcde");
  EXPECT_EQ(strncpy_s(buf, "xyzuvw", 2), 0);
  EXPECT_STREQ(buf, "xy");
  EXPECT_EQ(strncpy_s(buf, "123456789", _TRUNCATE), STRUNCATE);
  EXPECT_STREQ(buf, "12345");
  wchar_t w[4];
  EXPECT_EQ(wcscpy_s(w, L"\u00e9a"), 0);
  EXPECT_EQ(std::wstring(w), L"\u00e9a");
  EXPECT_EQ(wcscat_s(w, L"b"), 0);
  EXPECT_EQ(std::wstring(w), L"\u00e9ab");

  handler_guard g;
  EXPECT_EQ(strcpy_s(buf, "much too long"), ERANGE);
  EXPECT_EQ(buf[0], '\0');
  EXPECT_EQ(strcat_s(buf, nullptr), EINVAL);
  EXPECT_EQ(wcscat_s(w, L"cd"), ERANGE);
  EXPECT_EQ(handler_guard::calls, 3);
}

TEST(Crt, MemcpyS) {
  int src[4] = {1, 2, 3, 4}, dst[4] = {0, 0, 0, 0};
  EXPECT_EQ(memcpy_s(dst, sizeof dst, src, sizeof src), 0);
  EXPECT_EQ(dst[3], 4);
  handler_guard g;
  EXPECT_EQ(memcpy_s(dst, 2 * sizeof(int), src, sizeof src), ERANGE);
  EXPECT_EQ(dst[0], 0);  // MSVC zeroes the destination
  EXPECT_EQ(handler_guard::calls, 1);
}

TEST(Crt, FopenS) {
  std::FILE* f = reinterpret_cast<std::FILE*>(1);
  EXPECT_EQ(fopen_s(&f, "/nonexistent-dir/amp_compat_x", "r"), ENOENT);
  EXPECT_EQ(f, nullptr);
  char name[] = "/tmp/amp_compat_fopen_s_XXXXXX";
  const int fd = mkstemp(name);
  ASSERT_GE(fd, 0);
  close(fd);
  ASSERT_EQ(fopen_s(&f, name, "w"), 0);
  std::fputs("line", f);
  std::fclose(f);
  const std::wstring wname = amp_compat_crt::from_utf8(name);
  ASSERT_EQ(_wfopen_s(&f, wname.c_str(), L"r"), 0);
  char line[16] = {};
  ASSERT_NE(std::fgets(line, sizeof line, f), nullptr);
  EXPECT_STREQ(line, "line");
  std::fclose(f);
  std::remove(name);
}

TEST(Crt, TimeTokensNumbers) {
  const time_t t = 86400 * 365 + 3600 * 5 + 7;  // 1971-01-01 05:00:07 UTC
  struct tm g{}, l{}, ref{};
  EXPECT_EQ(gmtime_s(&g, &t), 0);
  EXPECT_EQ(g.tm_year, 71);
  EXPECT_EQ(g.tm_hour, 5);
  EXPECT_EQ(g.tm_sec, 7);
  EXPECT_EQ(localtime_s(&l, &t), 0);
  localtime_r(&t, &ref);
  EXPECT_EQ(l.tm_hour, ref.tm_hour);
  EXPECT_EQ(l.tm_yday, ref.tm_yday);

  char text[] = "a, b;;c";
  char* ctx = nullptr;
  std::string joined;
  for (char* tok = strtok_s(text, ",; ", &ctx); tok; tok = strtok_s(nullptr, ",; ", &ctx)) joined += tok;
  EXPECT_EQ(joined, "abc");

  char num[12];
  EXPECT_EQ(_itoa_s(255, num, 16), 0);
  EXPECT_STREQ(num, "ff");
  EXPECT_EQ(_itoa_s(-42, num, 10), 0);
  EXPECT_STREQ(num, "-42");
  EXPECT_EQ(_itoa_s(-1, num, 16), 0);
  EXPECT_STREQ(num, "ffffffff");
  handler_guard h;
  EXPECT_EQ(_itoa_s(-1, num, 4, 2), ERANGE);

  EXPECT_EQ(_stricmp("AbC", "abc"), 0);
  EXPECT_LT(_stricmp("abc", "ABD"), 0);
  EXPECT_EQ(_wcsicmp(L"XyZ", L"xYz"), 0);
  EXPECT_EQ(_wtoi(L"-17"), -17);
  EXPECT_DOUBLE_EQ(_wtof(L"2.5"), 2.5);
}

TEST(Crt, WcoutInterleavesWithCoutAsUtf8) {
  std::ostringstream captured;
  std::streambuf* old = std::cout.rdbuf(captured.rdbuf());
  std::cout << "[";
  std::wcout << L"\u00e9t\u00e9 " << 42 << L' ' << std::wstring(L"\u03c0") << L'\u4e2d';
  std::cout << "]";
  std::wcout << std::endl;
  std::cout.rdbuf(old);
  EXPECT_EQ(captured.str(), "[\xc3\xa9t\xc3\xa9 42 \xcf\x80\xe4\xb8\xad]\n");
  EXPECT_TRUE(std::wcout.good());
}

TEST(Crt, Utf8RoundTripAndInvalidInput) {
  const wchar_t text[] = L"a\u00e9\u4e2d\U0001F600";
  const std::string bytes = amp_compat_crt::to_utf8(text);
  EXPECT_EQ(bytes, "a\xc3\xa9\xe4\xb8\xad\xf0\x9f\x98\x80");
  EXPECT_EQ(amp_compat_crt::from_utf8(bytes.c_str()), std::wstring(text));
  EXPECT_EQ(amp_compat_crt::from_utf8("x\xff" "y\xc3"), L"x\uFFFDy\uFFFD");
}
