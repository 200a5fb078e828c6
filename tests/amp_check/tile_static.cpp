// amp_check: reject C3584
// tile_static (AMP spec 2.4.3.5.1): restrict(amp) code only, no initializer,
// no pointers or std::nullptr_t.
#include <amp.h>
using namespace concurrency;
void cpu_side() { tile_static int shared; (void)shared; }  // error: C3584
int main() {
  std::vector<int> data(64);
  array_view<int, 1> out(64, data);
  parallel_for_each(out.extent.tile<16>(), [=](tiled_index<16> t) restrict(amp) {
    tile_static int initialised = 1;  // error: C3584
    tile_static int* pointer;  // error: C3584
    out[t.global] = initialised + (pointer ? 1 : 0);
  });
  return 0;
}
