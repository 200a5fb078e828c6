// The CRT names of compat/detail/crt_extras.h and the debugging / module
// functions of compat/Windows.h (force-included / included through the
// amp_compat_windows target): MSVC's results, checked against values worked
// out by hand from MSVC's documentation.
#include <gtest/gtest.h>

#include <windows.h>
#include <mmsystem.h>
#include <direct.h>
#include <fcntl.h>
#include <io.h>
#include <intrin.h>
#include <strsafe.h>

#include <cerrno>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <string>
#include <thread>
#include <type_traits>

namespace {

struct handler_guard {  // records invalid-parameter reports instead of aborting
  static int calls;
  static void record(const wchar_t*, const wchar_t*, const wchar_t*, unsigned, std::uintptr_t) { ++calls; }
  _invalid_parameter_handler old;
  handler_guard() : old(_set_invalid_parameter_handler(&record)) { calls = 0; }
  ~handler_guard() { _set_invalid_parameter_handler(old); }
};
int handler_guard::calls = 0;

}  // namespace

TEST(CrtExtras, MicrosoftIntegerKeywords) {
  static_assert(std::is_same<__int64, long long>::value, "__int64");
  static_assert(std::is_same<unsigned __int64, unsigned long long>::value, "unsigned __int64");
  static_assert(std::is_same<__int32, int>::value && std::is_same<__int16, short>::value, "__int32/__int16");
  static_assert(std::is_same<unsigned __int8, unsigned char>::value, "unsigned __int8");
  unsigned __int64 big = 1ull << 40;
  EXPECT_EQ(big >> 39, 2u);
}

static __forceinline int __cdecl twice(int x) { return 2 * x; }
static int __stdcall thrice(int x) { return 3 * x; }
// The single-underscore spellings (a DLL's exports).
static int _stdcall four_times(int x) { return 4 * x; }
static int _cdecl five_times(int x) { return 5 * x; }

TEST(CrtExtras, CallingConventionsAndForceinline) {
  EXPECT_EQ(twice(21), 42);
  EXPECT_EQ(thrice(5), 15);
  EXPECT_EQ(four_times(5), 20);
  EXPECT_EQ(five_times(5), 25);
}

TEST(CrtExtras, AlignedMalloc) {
  for (std::size_t a : {1u, 2u, 16u, 64u, 4096u}) {
    void* p = _aligned_malloc(1000, a);
    ASSERT_NE(p, nullptr);
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(p) % a, 0u) << a;
    std::memset(p, 0xAB, 1000);
    _aligned_free(p);
  }
  handler_guard g;
  errno = 0;
  EXPECT_EQ(_aligned_malloc(64, 24), nullptr);  // not a power of two
  EXPECT_EQ(g.calls, 1);
  EXPECT_EQ(errno, EINVAL);
}

TEST(CrtExtras, FloatClassification) {
  const double nan = std::numeric_limits<double>::quiet_NaN(), inf = std::numeric_limits<double>::infinity();
  EXPECT_EQ(_isnan(nan), 1);
  EXPECT_EQ(_isnan(1.0), 0);
  EXPECT_EQ(_finite(1.0), 1);
  EXPECT_EQ(_finite(inf), 0);
  EXPECT_EQ(_finite(nan), 0);
  EXPECT_DOUBLE_EQ(_hypot(3.0, 4.0), 5.0);
  EXPECT_FLOAT_EQ(_hypotf(5.0f, 12.0f), 13.0f);
  EXPECT_DOUBLE_EQ(_copysign(2.0, -1.0), -2.0);
  EXPECT_DOUBLE_EQ(_chgsign(2.5), -2.5);
  EXPECT_DOUBLE_EQ(_logb(8.0), 3.0);
  EXPECT_DOUBLE_EQ(_scalb(3.0, 4), 48.0);
  EXPECT_GT(_nextafter(1.0, 2.0), 1.0);
}

TEST(CrtExtras, SixtyFourBitConversions) {
  EXPECT_EQ(_atoi64("-9000000000"), -9000000000LL);
  EXPECT_EQ(_wtoi64(L"123456789012"), 123456789012LL);
  char* end = nullptr;
  EXPECT_EQ(_strtoui64("ffffffffffffffff", &end, 16), ULLONG_MAX);
  EXPECT_EQ(*end, '\0');
  EXPECT_EQ(_strtoi64("-0x10", nullptr, 0), -16);
  EXPECT_EQ(_wcstoui64(L"777", nullptr, 8), 511u);

  char b[32];
  EXPECT_EQ(_i64toa_s(-9000000000LL, b, 10), 0);
  EXPECT_STREQ(b, "-9000000000");
  EXPECT_EQ(_i64toa_s(255, b, sizeof b, 16), 0);
  EXPECT_STREQ(b, "ff");
  EXPECT_EQ(_ui64toa_s(ULLONG_MAX, b, 10), 0);
  EXPECT_STREQ(b, "18446744073709551615");
  wchar_t w[16];
  EXPECT_EQ(_itow_s(-42, w, 10), 0);
  EXPECT_STREQ(w, L"-42");
  EXPECT_EQ(_itow_s(-1, w, 16), 0);  // outside radix 10 the 32-bit pattern, as _itoa_s
  EXPECT_STREQ(w, L"ffffffff");

  handler_guard g;
  char tiny[3];
  EXPECT_EQ(_i64toa_s(-12, tiny, 10), ERANGE);  // "-12" needs 4 chars
  EXPECT_STREQ(tiny, "");
  EXPECT_EQ(_i64toa_s(5, tiny, 1), EINVAL);
  EXPECT_EQ(g.calls, 2);
}

TEST(CrtExtras, WideNarrowConversionsAreUtf8) {
  std::size_t n = 0;
  char mb[16];
  EXPECT_EQ(wcstombs_s(&n, mb, L"h\u00e9!", _TRUNCATE), 0);
  EXPECT_STREQ(mb, "h\xc3\xa9!");
  EXPECT_EQ(n, 5u);  // 4 bytes and the null
  EXPECT_EQ(wcstombs_s(&n, nullptr, 0, L"h\u00e9!", _TRUNCATE), 0);  // the size it needs
  EXPECT_EQ(n, 5u);
  EXPECT_EQ(wcstombs_s(&n, mb, sizeof mb, L"abcdef", 3), 0);  // count limits the source
  EXPECT_STREQ(mb, "abc");
  EXPECT_EQ(n, 4u);
  char three[3];
  EXPECT_EQ(wcstombs_s(&n, three, L"a\u00e9", _TRUNCATE), STRUNCATE);  // never half a UTF-8 sequence
  EXPECT_STREQ(three, "a");
  EXPECT_EQ(n, 2u);

  wchar_t w[8];
  EXPECT_EQ(mbstowcs_s(&n, w, "d\xc3\xa9j\xc3\xa0", _TRUNCATE), 0);
  EXPECT_STREQ(w, L"d\u00e9j\u00e0");
  EXPECT_EQ(n, 5u);

  handler_guard g;
  EXPECT_EQ(mbstowcs_s(&n, w, 2, "long text", _TRUNCATE - 1), ERANGE);
  EXPECT_STREQ(w, L"");
  EXPECT_EQ(g.calls, 1);
}

TEST(CrtExtras, LargeFileOffsets) {
  std::FILE* f = std::tmpfile();
  ASSERT_NE(f, nullptr);
  std::fputs("0123456789", f);
  EXPECT_EQ(_fseeki64(f, 4, SEEK_SET), 0);
  EXPECT_EQ(_ftelli64(f), 4);
  EXPECT_EQ(std::fgetc(f), '4');
  EXPECT_GE(_fileno(f), 0);
  std::fclose(f);
}

TEST(WindowsDebugging, ModuleFileNameIsTheProgram) {
  char path[MAX_PATH];
  const DWORD n = GetModuleFileNameA(NULL, path, MAX_PATH);
  ASSERT_GT(n, 0u);
  EXPECT_EQ(std::strlen(path), n);
  EXPECT_NE(std::string(path).find("compat_windows_tests"), std::string::npos) << path;
  char small[5];
  EXPECT_EQ(GetModuleFileNameA(NULL, small, 5), 5u);  // cut: returns the size, still terminated
  EXPECT_EQ(std::strlen(small), 4u);
  EXPECT_EQ(std::string(path, 4), small);
  wchar_t wpath[MAX_PATH];
  EXPECT_EQ(GetModuleFileNameW(NULL, wpath, MAX_PATH), n);
  EXPECT_EQ(GetModuleFileNameA(reinterpret_cast<HMODULE>(0x1000), path, MAX_PATH), 0u);  // no DLLs here
}

TEST(WindowsDebugging, OutputDebugStringGoesToStderrOnlyOnRequest) {
  const bool debugger = IsDebuggerPresent() != FALSE;
  testing::internal::CaptureStderr();
  OutputDebugStringA("not shown\n");
  std::string quiet = testing::internal::GetCapturedStderr();
  EXPECT_EQ(quiet, debugger ? "not shown\n" : "");
  setenv("AMP_DEBUG_OUTPUT", "1", 1);
  testing::internal::CaptureStderr();
  OutputDebugStringW(L"wide \u00e9\n");
  std::string shown = testing::internal::GetCapturedStderr();
  unsetenv("AMP_DEBUG_OUTPUT");
  EXPECT_EQ(shown, "wide \xc3\xa9\n");
}

TEST(WindowsDebugging, DebugBreakRaisesSigtrap) {
  EXPECT_EXIT(__debugbreak(), testing::KilledBySignal(SIGTRAP), "");
  EXPECT_EXIT(DebugBreak(), testing::KilledBySignal(SIGTRAP), "");
}

TEST(CrtExtras, LimitsAndMacros) {
  char path[_MAX_PATH];
  static_assert(sizeof path == 260 && _MAX_FNAME == 256 && _MAX_DRIVE == 3, "stdlib.h sizes");
  const std::wstring file = __FILEW__;
  EXPECT_NE(file.find(L"test_crt_extras.cpp"), std::wstring::npos);
  const std::string sig = __FUNCSIG__;
  EXPECT_NE(sig.find("TestBody"), std::string::npos) << sig;
}

TEST(CrtExtras, SetmodeForWideConsoleOutput) {
  const int out = _fileno(stdout);
  EXPECT_EQ(_setmode(out, _O_U16TEXT), _O_TEXT);  // the habit before std::wcout
  EXPECT_EQ(_setmode(out, _O_TEXT), _O_U16TEXT);  // the previous mode comes back
  handler_guard g;
  errno = 0;
  EXPECT_EQ(_setmode(out, 0x1), -1);  // not a mode
  EXPECT_EQ(errno, EINVAL);
  EXPECT_EQ(g.calls, 1);
}

TEST(CrtExtras, FoldersAndFiles) {
  char cwd[_MAX_PATH];
  ASSERT_NE(_getcwd(cwd, sizeof cwd), nullptr);
  char* heap = _getcwd(nullptr, 0);  // MSVC allocates
  ASSERT_NE(heap, nullptr);
  EXPECT_STREQ(heap, cwd);
  std::free(heap);
  std::string dir = std::string(cwd) + "/crt_extras_dir_" + std::to_string(getpid());
  ASSERT_EQ(_mkdir(dir.c_str()), 0);
  EXPECT_EQ(_access(dir.c_str(), 0), 0);
  std::string file = dir + "/f.bin";
  std::FILE* f = std::fopen(file.c_str(), "wb");
  ASSERT_NE(f, nullptr);
  std::fputs("12345", f);
  std::fflush(f);
  EXPECT_EQ(_filelength(_fileno(f)), 5);
  std::fclose(f);
  EXPECT_EQ(_unlink(file.c_str()), 0);
  EXPECT_EQ(_access(file.c_str(), 0), -1);
  EXPECT_EQ(_rmdir(dir.c_str()), 0);
}

TEST(WindowsTimers, TimeGetTimeCountsMilliseconds) {
  EXPECT_EQ(timeBeginPeriod(1), (MMRESULT)TIMERR_NOERROR);
  const DWORD a = timeGetTime();
  Sleep(30);
  const DWORD b = timeGetTime();
  EXPECT_GE(b - a, 30u);
  EXPECT_LT(b - a, 5000u);
  EXPECT_EQ(timeEndPeriod(1), (MMRESULT)TIMERR_NOERROR);
}

TEST(CrtExtras, RotationsAndByteSwaps) {
  EXPECT_EQ(_rotl(0x80000001u, 1), 0x00000003u);
  EXPECT_EQ(_rotr(0x80000001u, 1), 0xC0000000u);
  EXPECT_EQ(_rotl(0x12345678u, 36), 0x23456781u);  // modulo 32
  EXPECT_EQ(_lrotl(0x12345678ul, 8), 0x34567812ul);  // 32-bit, as MSVC's unsigned long
  EXPECT_EQ(_lrotr(0x12345678ul, 8), 0x78123456ul);
  EXPECT_EQ(_rotl64(0x8000000000000001ull, 4), 0x18ull);
  EXPECT_EQ(_rotr64(0x18ull, 4), 0x8000000000000001ull);
  EXPECT_EQ(_byteswap_ushort(0x1234), 0x3412);
  EXPECT_EQ(_byteswap_ulong(0x12345678ul), 0x78563412ul);
  EXPECT_EQ(_byteswap_uint64(0x0102030405060708ull), 0x0807060504030201ull);
}

TEST(Intrin, BitScansAndCounts) {
  unsigned long i = 77;
  EXPECT_EQ(_BitScanForward(&i, 0), 0);
  EXPECT_EQ(i, 77ul);  // untouched for a zero mask
  EXPECT_EQ(_BitScanForward(&i, 0x50), 1);
  EXPECT_EQ(i, 4ul);
  EXPECT_EQ(_BitScanReverse(&i, 0x50), 1);
  EXPECT_EQ(i, 6ul);
  EXPECT_EQ(_BitScanReverse(&i, 0x100000000ul), 0);  // the low 32 bits only, as MSVC's 32-bit long
  EXPECT_EQ(_BitScanReverse64(&i, 1ull << 40), 1);
  EXPECT_EQ(i, 40ul);
  EXPECT_EQ(_BitScanForward64(&i, 3ull << 62), 1);
  EXPECT_EQ(i, 62ul);
  DWORD d = 0;  // a 32-bit index, as Windows code declares it
  EXPECT_EQ(_BitScanReverse(&d, 0x80000000u), 1);
  EXPECT_EQ(d, 31u);
  EXPECT_EQ(__popcnt(0xF0F0u), 8u);
  EXPECT_EQ(__popcnt16(0xFFFF), 16);
  EXPECT_EQ(__popcnt64(~0ull), 64u);
}

TEST(Intrin, CpuidAndInterlocked) {
  int info[4] = {0, 0, 0, 0};
  __cpuid(info, 0);
  EXPECT_GE(info[0], 1);  // the highest standard leaf
  std::string vendor;
  for (int r : {info[1], info[3], info[2]})
    for (int k = 0; k < 4; ++k) vendor += static_cast<char>((r >> (8 * k)) & 0xFF);
  EXPECT_TRUE(vendor == "GenuineIntel" || vendor == "AuthenticAMD" || !vendor.empty()) << vendor;
  long x = 5;
  EXPECT_EQ(_InterlockedCompareExchange(&x, 9, 4), 5);  // no exchange
  EXPECT_EQ(x, 5);
  EXPECT_EQ(_InterlockedCompareExchange(&x, 9, 5), 5);
  EXPECT_EQ(x, 9);
  EXPECT_EQ(_InterlockedIncrement(&x), 10);
  EXPECT_EQ(_InterlockedExchangeAdd(&x, 5), 10);
  EXPECT_EQ(x, 15);
  LONG y = 1;  // <windows.h>'s 32-bit LONG
  EXPECT_EQ(_InterlockedDecrement(&y), 0);
  EXPECT_GT(__rdtsc(), 0ull);
  _ReadWriteBarrier();
}

// __declspec as GCC reads it (crt_extras.h maps each to its standard or GNU form).
struct __declspec(align(32)) Aligned32 { float v[3]; };
// before the class key, as MSVC code often writes it: the launcher moves it
__declspec(align(16)) struct Aligned16 { float v[3]; };
__declspec(align(64)) static float table64[4];
__declspec(noinline) static int not_inlined(int x) { return x * 3; }
__declspec(thread) static int per_thread = 7;
__declspec(selectany) int declspec_selectany = 11;

TEST(CrtExtras, DeclspecAttributes) {
  static_assert(alignof(Aligned32) == 32, "align(32) on the class");
  static_assert(sizeof(Aligned32) == 32, "padded to its alignment");
  static_assert(alignof(Aligned16) == 16, "align(16) before the class key");
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(table64) % 64, 0u);
  EXPECT_EQ(not_inlined(5), 15);
  per_thread = 8;
  int other = 0;
  std::thread t([&other] { other = per_thread; });  // a new thread sees its own copy
  t.join();
  EXPECT_EQ(other, 7);
  EXPECT_EQ(per_thread, 8);
  EXPECT_EQ(declspec_selectany, 11);
}

TEST(WindowsConsole, CodePagesAreUtf8) {
  EXPECT_EQ(GetConsoleOutputCP(), (UINT)CP_UTF8);
  EXPECT_EQ(SetConsoleOutputCP(CP_UTF8), TRUE);
  EXPECT_EQ(SetConsoleCP(CP_UTF8), TRUE);
  EXPECT_EQ(SetConsoleOutputCP(1252), FALSE);  // the output would still be UTF-8
  testing::internal::CaptureStdout();
  EXPECT_EQ(SetConsoleTitleA("AMP"), TRUE);
  const std::string out = testing::internal::GetCapturedStdout();
  EXPECT_EQ(out, isatty(1) ? "\x1b]0;AMP\x07" : "");  // captured: not a terminal
}

TEST(SecureScanf, BuffersTakeTheirSizes) {
  int n = 0;
  double d = 0;
  char name[8], c[2] = {0, 0};
  EXPECT_EQ(sscanf_s("42 3.5 alice xy", "%d %lf %s %c", &n, &d, name, (unsigned)sizeof name, c, 1u), 4);
  EXPECT_EQ(n, 42);
  EXPECT_DOUBLE_EQ(d, 3.5);
  EXPECT_STREQ(name, "alice");
  EXPECT_EQ(c[0], 'x');
  // a field longer than its buffer: an empty string, and the call ends there
  n = -1;
  EXPECT_EQ(sscanf_s("toolongname 5", "%s %d", name, 8u, &n), 0);
  EXPECT_STREQ(name, "");
  EXPECT_EQ(n, -1);
  EXPECT_EQ(sscanf_s("1234567 9", "%s %d", name, 8u, &n), 2);  // 7 chars and the null fit
  EXPECT_STREQ(name, "1234567");
  wchar_t w[8];
  EXPECT_EQ(sscanf_s("abc:def", "%[a-z]:%S", name, 8u, w, 8u), 2);  // %S: a wide buffer in a narrow call
  EXPECT_STREQ(name, "abc");
  EXPECT_STREQ(w, L"def");
  long long big = 0;
  EXPECT_EQ(sscanf_s("123456789012 skipped", "%I64d %*s", &big), 1);
  EXPECT_EQ(big, 123456789012LL);
  EXPECT_EQ(sscanf_s("", "%d", &n), EOF);
  EXPECT_EQ(sscanf_s("x", "%d", &n), 0);
}

TEST(SecureScanf, WideAndStreams) {
  int n = 0;
  wchar_t w[8];
  char narrow[8];
  EXPECT_EQ(swscanf_s(L"7 wide thin", L"%d %s %hs", &n, w, 8u, narrow, 8u), 3);  // wide call: %s wide, %hs narrow
  EXPECT_EQ(n, 7);
  EXPECT_STREQ(w, L"wide");
  EXPECT_STREQ(narrow, "thin");
  std::FILE* f = std::tmpfile();
  ASSERT_NE(f, nullptr);
  std::fputs("10, 20 name\n", f);
  std::rewind(f);
  int a = 0, b = 0;
  char s[16];
  EXPECT_EQ(fscanf_s(f, "%d, %d %s", &a, &b, s, (unsigned)_countof(s)), 3);
  EXPECT_EQ(a + b, 30);
  EXPECT_STREQ(s, "name");
  EXPECT_EQ(fscanf_s(f, "%d", &a), EOF);
  std::fclose(f);
}

TEST(StrSafe, CharacterCountFunctions) {
  char buf[8];
  EXPECT_EQ(StringCchPrintfA(buf, _countof(buf), "%d-%s", 42, "ab"), S_OK);
  EXPECT_STREQ(buf, "42-ab");
  EXPECT_EQ(StringCchPrintfA(buf, _countof(buf), "%I64u", 123456789012ull), STRSAFE_E_INSUFFICIENT_BUFFER);
  EXPECT_STREQ(buf, "1234567");  // cut to cch - 1, terminated
  EXPECT_EQ(StringCchCopyA(buf, _countof(buf), "abc"), S_OK);
  EXPECT_EQ(StringCchCatA(buf, _countof(buf), "defgh"), STRSAFE_E_INSUFFICIENT_BUFFER);
  EXPECT_STREQ(buf, "abcdefg");
  size_t len = 99;
  EXPECT_EQ(StringCchLengthA(buf, _countof(buf), &len), S_OK);
  EXPECT_EQ(len, 7u);
  EXPECT_EQ(StringCchLengthA("toolong", 3, &len), STRSAFE_E_INVALID_PARAMETER);
  EXPECT_EQ(StringCchCopyNA(buf, _countof(buf), "xyz123", 3), S_OK);
  EXPECT_STREQ(buf, "xyz");
  EXPECT_EQ(StringCchCopyA(buf, 0, "x"), STRSAFE_E_INVALID_PARAMETER);
  wchar_t w[16];
  EXPECT_EQ(StringCchPrintfW(w, _countof(w), L"%s=%d", L"n\u00e9", 5), S_OK);  // wide %s: a wide string
  EXPECT_STREQ(w, L"n\u00e9=5");
  EXPECT_TRUE(SUCCEEDED(StringCchCatW(w, _countof(w), L"!")));
  EXPECT_STREQ(w, L"n\u00e9=5!");
}

TEST(WindowsHresult, SucceededAndFailedEvaluateOnce) {
  int calls = 0;
  auto f = [&calls](HRESULT r) { ++calls; return r; };
  EXPECT_TRUE(SUCCEEDED(f(S_OK)));
  EXPECT_TRUE(FAILED(f(E_FAIL)));
  EXPECT_FALSE(FAILED(f(S_FALSE)));
  EXPECT_EQ(calls, 3);
  static_assert(FAILED(0x80070057L) && SUCCEEDED(0), "usable in constant expressions");
}

TEST(CrtExtras, ClockIsWallTimeInMilliseconds) {
  static_assert(CLOCKS_PER_SEC == 1000, "MSVC's CLOCKS_PER_SEC");
  const clock_t start = clock();
  EXPECT_GE(start, 0);
  Sleep(50);  // waiting uses no CPU: glibc's clock() would hardly move
  const clock_t waited = clock() - start;
  EXPECT_GE(waited, 50);
  EXPECT_LT(waited, 5000);
  const clock_t s2 = std::clock();
  EXPECT_GE(s2, start + 50);
  std::chrono::steady_clock::time_point::clock::time_point unaffected{};  // the member name stays
  (void)unaffected;
}
