// amp_check: reject C3561
// A tile barrier must be reached by every work-item of the tile (MSVC C3561):
// not inside control flow whose condition reads the work-item's own index
// (idx.global, idx.local), in the kernel or in a function it calls.
// Conditions on the tile (idx.tile, idx.tile_origin) or on values every
// work-item shares are fine, as is a barrier after such a branch.
#include <amp.h>
using namespace concurrency;
void half_tile(tiled_index<16> t, const array_view<int, 1>& out) restrict(amp) {
  tile_static int shared[16];
  if (t.global[0] % 2 == 0) {
    shared[t.local[0]] = out[t.global];
    t.barrier.wait();  // error: C3561
  }
}
int main() {
  std::vector<int> data(64);
  array_view<int, 1> out(64, data);
  int rounds = 3;
  parallel_for_each(out.extent.tile<16>(), [=](tiled_index<16> t) restrict(amp) {
    tile_static int shared[16];
    shared[t.local[0]] = t.global[0];
    if (t.tile[0] > 0) t.barrier.wait();
    for (int r = 0; r < rounds; ++r) {
      if (t.local[0] < 8) shared[t.local[0]] += shared[t.local[0] + 8];
      t.barrier.wait();
    }
    for (int k = t.local[0]; k < 16; k += 16) t.barrier.wait_with_tile_static_memory_fence();  // error: C3561
    switch (t.local[0]) {
    case 0: t.barrier.wait_with_all_memory_fence(); break;  // error: C3561
    default: break;
    }
    half_tile(t, out);
    out[t.global] = shared[t.local[0]];
  });
  return 0;
}
