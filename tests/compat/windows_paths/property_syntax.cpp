// MSVC's property syntax on an array and a texture (__declspec(property)): a
// GCC build fails and the driver's note names the habit and --msvc; --msvc
// builds it and the properties are the getters' values.
#include <amp.h>
#include <amp_graphics.h>
#include <cstdio>

using namespace concurrency;
using namespace concurrency::graphics;

int main() {
    array<int, 1> a(16);
    parallel_for_each(a.extent, [&a](index<1> i) restrict(amp) { a[i] = i[0]; });
    a.accelerator_view.wait();
    std::printf("%d\n", int(a.get_extent().size()));
    texture<int, 2> t(4, 8, 16u);
    std::printf("%u %u %u %u %d\n", t.data_length, t.bits_per_scalar_element, t.mipmap_levels, t.row_pitch,
                int(t.accelerator_view.accelerator.description == a.accelerator_view.accelerator.description));
    return 0;
}
