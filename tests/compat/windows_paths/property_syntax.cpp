// MSVC's property syntax on an array (__declspec(property)): a GCC build
// fails and the driver's note names the habit and --msvc; --msvc builds it.
#include <amp.h>
#include <cstdio>

using namespace concurrency;

int main() {
    array<int, 1> a(16);
    parallel_for_each(a.extent, [&a](index<1> i) restrict(amp) { a[i] = i[0]; });
    a.accelerator_view.wait();
    std::printf("%d\n", int(a.get_extent().size()));
    return 0;
}
