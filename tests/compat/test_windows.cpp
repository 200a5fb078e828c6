// <Windows.h> / <windows.h> / <SDKDDKVer.h> of the companions: timers, types,
// system information, interlocked operations, critical sections.
#include <windows.h>  // the lower-case spelling reaches the same header
#include <Windows.h>
#include <SDKDDKVer.h>

#include <gtest/gtest.h>

#include <chrono>
#include <thread>
#include <type_traits>
#include <vector>

#if defined(_WIN32) || defined(_MSC_VER) || defined(min) || defined(max)
#error "the companions must not define _WIN32, _MSC_VER or the min/max macros"
#endif
static_assert(_WIN32_WINNT >= _WIN32_WINNT_WIN7, "SDKDDKVer.h picks a recent Windows");
static_assert(sizeof(DWORD) == 4 && sizeof(LONG) == 4 && sizeof(WORD) == 2 && sizeof(LONGLONG) == 8,
              "Windows integer sizes (LLP64) whatever the Linux data model");
static_assert(std::is_same<TCHAR, char>::value, "TCHAR is char unless UNICODE is defined");
static_assert(std::is_same<byte, unsigned char>::value && std::is_same<boolean, unsigned char>::value,
              "rpcndr.h's byte and boolean, which Windows.h brings in");

TEST(Windows, PerformanceCounterMeasuresSleep) {
  LARGE_INTEGER freq, t0, t1;
  ASSERT_TRUE(QueryPerformanceFrequency(&freq));
  EXPECT_EQ(freq.QuadPart, 1000000000LL);
  ASSERT_TRUE(QueryPerformanceCounter(&t0));
  const auto c0 = std::chrono::steady_clock::now();
  const ULONGLONG k0 = GetTickCount64();
  const DWORD d0 = GetTickCount();
  Sleep(30);
  ASSERT_TRUE(QueryPerformanceCounter(&t1));
  const auto c1 = std::chrono::steady_clock::now();
  const double ms = (t1.QuadPart - t0.QuadPart) * 1000.0 / freq.QuadPart;
  EXPECT_GE(ms, 30.0);
  const double chrono_ms = std::chrono::duration<double, std::milli>(c1 - c0).count();
  EXPECT_LE(ms, chrono_ms + 1.0);
  EXPECT_GE(GetTickCount64() - k0, 29u);  // millisecond ticks, truncated
  EXPECT_GE(static_cast<DWORD>(GetTickCount() - d0), 29u);
  EXPECT_FALSE(QueryPerformanceCounter(nullptr));
}

TEST(Windows, LargeIntegerLayout) {
  LARGE_INTEGER li;
  li.QuadPart = (3LL << 32) | 7;
  EXPECT_EQ(li.LowPart, 7u);
  EXPECT_EQ(li.HighPart, 3);
  EXPECT_EQ(li.u.LowPart, 7u);
  li.HighPart = -1;
  EXPECT_LT(li.QuadPart, 0);
}

TEST(Windows, SystemInfo) {
  SYSTEM_INFO si;
  GetSystemInfo(&si);
  EXPECT_EQ(si.dwNumberOfProcessors, std::max(1u, std::thread::hardware_concurrency()));
  EXPECT_EQ(si.dwPageSize, static_cast<DWORD>(sysconf(_SC_PAGESIZE)));
  EXPECT_NE(GetCurrentThreadId(), 0u);
  DWORD other = 0;
  std::thread([&] { other = GetCurrentThreadId(); }).join();
  EXPECT_NE(other, GetCurrentThreadId());
}

TEST(Windows, InterlockedFromSixteenThreads) {
  volatile LONG counter = 0;
  volatile LONGLONG sum = 0;
  std::vector<std::thread> threads;
  for (int t = 0; t < 16; ++t)
    threads.emplace_back([&] {
      for (int i = 0; i < 10000; ++i) {
        InterlockedIncrement(&counter);
        InterlockedExchangeAdd64(&sum, 3);
      }
    });
  for (auto& th : threads) th.join();
  EXPECT_EQ(counter, 160000);
  EXPECT_EQ(sum, 480000);
  EXPECT_EQ(InterlockedDecrement(&counter), 159999);  // returns the new value
  EXPECT_EQ(InterlockedExchange(&counter, 5), 159999);  // returns the old value
  EXPECT_EQ(InterlockedCompareExchange(&counter, 9, 4), 5);  // no match: unchanged
  EXPECT_EQ(counter, 5);
  EXPECT_EQ(InterlockedCompareExchange(&counter, 9, 5), 5);
  EXPECT_EQ(counter, 9);
}

TEST(Windows, CriticalSectionIsRecursiveAndExcludes) {
  CRITICAL_SECTION cs;
  InitializeCriticalSection(&cs);
  EnterCriticalSection(&cs);
  EXPECT_TRUE(TryEnterCriticalSection(&cs));  // recursive, as on Windows
  bool other_got_it = true;
  std::thread([&] { other_got_it = TryEnterCriticalSection(&cs); }).join();
  EXPECT_FALSE(other_got_it);
  LeaveCriticalSection(&cs);
  LeaveCriticalSection(&cs);
  long plain = 0;
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t)
    threads.emplace_back([&] {
      for (int i = 0; i < 5000; ++i) {
        EnterCriticalSection(&cs);
        ++plain;
        LeaveCriticalSection(&cs);
      }
    });
  for (auto& th : threads) th.join();
  EXPECT_EQ(plain, 40000);
  DeleteCriticalSection(&cs);
}

TEST(Windows, MemoryMacrosAndHresult) {
  int a[4] = {1, 2, 3, 4}, b[4];
  CopyMemory(b, a, sizeof a);
  EXPECT_EQ(b[2], 3);
  ZeroMemory(a, sizeof a);
  EXPECT_EQ(a[0] + a[3], 0);
  FillMemory(a, sizeof a, 0xFF);
  EXPECT_EQ(a[1], -1);
  EXPECT_TRUE(SUCCEEDED(S_OK));
  EXPECT_TRUE(SUCCEEDED(S_FALSE));
  EXPECT_TRUE(FAILED(E_FAIL));
  EXPECT_TRUE(FAILED(-1L));
  EXPECT_FALSE(SUCCEEDED(E_FAIL));
}

TEST(Windows, ConsoleHandles) {
  EXPECT_NE(GetStdHandle(STD_OUTPUT_HANDLE), INVALID_HANDLE_VALUE);
  EXPECT_EQ(GetStdHandle(42), INVALID_HANDLE_VALUE);
  EXPECT_TRUE(SetConsoleTextAttribute(GetStdHandle(STD_ERROR_HANDLE), FOREGROUND_GREEN));
  EXPECT_TRUE(SetConsoleTextAttribute(GetStdHandle(STD_ERROR_HANDLE), 7));
  EXPECT_FALSE(SetConsoleTextAttribute(GetStdHandle(STD_INPUT_HANDLE), 7));
}
