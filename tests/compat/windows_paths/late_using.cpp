// See late_using_timer.h: a GCC build fails and the driver's note names the
// habit and --msvc; --msvc builds it.
#include <amp.h>
#include <cstdio>

#include "late_using_timer.h"

using namespace concurrency;

int main() {
    std::vector<int> v(8, 1);
    array_view<int, 1> av(8, v);
    double t = TimeIt([=]() { parallel_for_each(av.extent, [=](index<1> i) restrict(amp) { av[i] += 1; }); });
    av.synchronize();
    std::printf("%g %d\n", t, v[7]);
    return 0;
}
