// What MSVC's <amp.h> brings with it (compat/amp_windows_env.h), under
// --windows-compat: this file includes <amp.h> and nothing from the Windows
// companions, then uses their names as printed AMP programs do.
#include <amp.h>

#include <gtest/gtest.h>

#include <limits>

using namespace concurrency;

TEST(AmpWindowsEnv, WindowsNamesThroughUnknwn) {
    LARGE_INTEGER t0, t1, f;
    ASSERT_EQ(QueryPerformanceFrequency(&f), TRUE);
    ASSERT_EQ(QueryPerformanceCounter(&t0), TRUE);
    ASSERT_EQ(QueryPerformanceCounter(&t1), TRUE);
    EXPECT_GE(t1.QuadPart, t0.QuadPart);
    DWORD d = 7;
    BOOL b = FALSE;
    EXPECT_EQ(d, 7u);
    EXPECT_EQ(b, 0);
}

// windef.h's min/max as MSVC programs call them, next to the standard names
// that a macro would have broken.
TEST(AmpWindowsEnv, MinMaxLikeWindowsAndStdStillWorks) {
    EXPECT_EQ(min(3, 4), 3);
    EXPECT_EQ(max(3, 4), 4);
    EXPECT_DOUBLE_EQ(max(1, 2.5), 2.5);  // mixed types: the common type, as the macro
    EXPECT_DOUBLE_EQ(min(2.5f, 1), 1.0);
    EXPECT_EQ(std::numeric_limits<int>::max(), INT_MAX);
    EXPECT_EQ(std::min(5, 6), 5);
    EXPECT_EQ(std::max({1, 9, 3}), 9);
    {
        using namespace std;
        EXPECT_EQ(min(8, 2), 2);  // std::min is the better match: not ambiguous
        EXPECT_EQ(max(8u, 2u), 8u);
    }
    static_assert(min(2, 3) == 2, "constexpr, as the macro is a constant expression");
    // In a kernel, as MSVC's macro works there too.
    std::vector<int> out(8);
    array_view<int, 1> av(8, out);
    parallel_for_each(av.extent, [=](index<1> i) restrict(amp) { av[i] = max(i[0], 4) - min(i[0], 2); });
    av.synchronize();
    for (int i = 0; i < 8; ++i) EXPECT_EQ(out[i], std::max(i, 4) - std::min(i, 2));
}

TEST(AmpWindowsEnv, CrtdbgReleaseMacrosDoNotEvaluate) {
    int evaluated = 0;
    _ASSERTE(++evaluated == 100);  // release: no evaluation, no abort
    _ASSERT(++evaluated == 100);
    _RPT1(_CRT_WARN, "%d\n", ++evaluated);
    EXPECT_EQ(evaluated, 0);
    EXPECT_EQ(_CrtSetDbgFlag(_CRTDBG_ALLOC_MEM_DF | _CRTDBG_LEAK_CHECK_DF), 0);
    EXPECT_EQ(_CrtDumpMemoryLeaks(), 0);
}

// MSVC's <amp.h> includes <future>, which includes <ppltasks.h> (and so
// <ppl.h> and <concrt.h>).
TEST(AmpWindowsEnv, PplThroughFuture) {
    std::vector<int> v(1000);
    parallel_for(0, 1000, [&](int i) { v[i] = 2 * i; });
    EXPECT_EQ(v[999], 1998);
    task<int> t = create_task([] { return 41; }).then([](int x) { return x + 1; });
    EXPECT_EQ(t.get(), 42);
    critical_section cs;
    critical_section::scoped_lock lock(cs);
    std::map<int, int> m{{1, 2}};  // <map>, from amprt.h
    EXPECT_EQ(m[1], 2);
}
