// Conditional groups the compile drops are no code for the launcher's text
// passes (scripts/amp_driver/pp_conditionals.py). Built through the restrict launcher
// (CTest restrict.inactive_branches), with -DAMP_TEST_WIDE=0 from CMake.
#include <amp.h>
#include <cstdio>
#include <vector>
using namespace concurrency;

// Another declarator in an inactive #else, right after the active one: the
// restriction is followed by the body, not by `int` (the placement check read
// both branches). AMP_TEST_NARROW is defined nowhere the launcher can see, so
// the group is undecided there: the check leaves it to the compiler.
#ifndef AMP_TEST_NARROW
static int twice(int x) restrict(amp, cpu)
#else
int twice(long x) restrict(amp, cpu)
#endif
{
    return 2 * x;
}

// The same with a group the compile decides (-DAMP_TEST_WIDE=0).
#if AMP_TEST_WIDE
long thrice(long x) restrict(amp, cpu)
#else
static int thrice(int x) restrict(amp, cpu)
#endif
{
    return 3 * x;
}

// A restrict(cpu) function whose restrict(amp) twin is in #if 0: no pair (the
// rewrite would otherwise call a function the compiler never sees).
int side(int x) restrict(cpu) { return 1000 + x; }
#if 0
int side(int x) restrict(amp) { return 2000 + x; }
#endif

// A pair split over a group the compile decides: the pair in the kept branch.
#if AMP_TEST_WIDE > 0 || defined(AMP_TEST_NARROW)
int which(int x) restrict(cpu) { return -x; }
#else
int which(int x) restrict(cpu) { return 1000 + x; }
int which(int x) restrict(amp) { return 2000 + x; }
#endif

int main() {
    std::vector<int> v(4, 1);
    array_view<int, 1> a(4, v);
    parallel_for_each(a.extent, [=](index<1> i) restrict(amp) { a[i] = which(thrice(twice(a[i]))); });
    a.synchronize();
    std::printf("%d %d %d\n", v[0], which(1), side(1));
    return 0;
}
