// Two habits of Visual Studio AMP programs that a GCC build with
// --windows-compat accepts (the amp_compat_windows target):
//   1. assert(condition, "message"): MSVC drops the extra macro argument
//      (warning C4002); compat/assert.h does the same. The condition is
//      evaluated once, the message never; a false condition aborts with the
//      C library's report ("Assertion `...' failed.").
//   2. A temporary array viewed as an array_view (MSVC binds the temporary
//      to array&): `views.push_back(array<int, 1>(n, first))` and a view
//      constructed from `array<int, 1>(n)`. The view keeps the array's data
//      alive after the temporary is gone.
// Run without arguments it checks both and prints "0 failed checks"; with
// "fail" it then asserts something false (CTest expects the abort).
#include <amp.h>
#include <cassert>

#include <cstdio>
#include <cstring>
#include <numeric>
#include <vector>

using namespace concurrency;

static int failures = 0;
static void check(bool ok, const char* what) {
    if (!ok) {
        std::printf("FAIL %s\n", what);
        ++failures;
    }
}

static int evaluations = 0;
static bool counted(bool v) {
    ++evaluations;
    return v;
}
static const char* never_called() {
    ++evaluations;
    return "message";
}

int main(int argc, char** argv) {
    // 1. assert with a message argument.
    assert(counted(true), "a message MSVC ignores");
    assert(counted(argc >= 1), never_called());
    assert(counted(true));
#ifdef NDEBUG
    check(evaluations == 0, "NDEBUG: nothing evaluated");
#else
    check(evaluations == 3, "each condition evaluated once, the message never");
#endif

    // 2. Temporary arrays as array_views.
    std::vector<int> src(64);
    std::iota(src.begin(), src.end(), 0);
    std::vector<array_view<int, 1>> views;
    views.push_back(array<int, 1>(64, src.begin()));  // the book's multi-GPU habit
    array_view<int, 1> scratch(array<int, 1>(64));    // and the Matrix<T> member habit
    array_view<int, 1> v = views[0];
    parallel_for_each(v.extent, [=](index<1> i) restrict(amp) {
        scratch[i] = v[i] * 2;
        v[i] += 1;
    });
    bool data_ok = true;
    for (int i = 0; i < 64; ++i) data_ok = data_ok && v[i] == i + 1 && scratch[i] == 2 * i;
    check(data_ok, "views of temporary arrays keep their data");

    std::printf("%d failed checks\n", failures);
    std::fflush(stdout);
    if (argc > 1 && std::strcmp(argv[1], "fail") == 0)
        assert(argc == 1, "the run was asked to fail");
    return failures == 0 ? 0 : 1;
}
