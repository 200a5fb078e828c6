// The shape of AMD Bolt's scan kernel (include/bolt/amp/detail/scan.inl on
// Linux): a tile_static array the size of the tile, into which every
// work-item also writes `lds[local + tile/2]`, past the end for half of them.
// On the host accelerators the writes land somewhere and the results look
// right; on an NVIDIA GPU they fault. A checked build (--checked) must report
// it: kernel, tile, work-item.
#include <amp.h>

#include <cstdio>
#include <cstring>
#include <vector>

using namespace concurrency;

constexpr int tile = 256;

int main() {
  std::vector<int> in(2 * tile, 1), out(2 * tile, 0);
  array_view<const int, 1> a(2 * tile, in);
  array_view<int, 1> b(2 * tile, out);
  try {
    parallel_for_each(b.extent.tile<tile>(), [=](tiled_index<tile> t) restrict(amp) {
      tile_static int lds[tile];
      const int l = t.local[0];
      lds[l] = 0;
      lds[l + tile / 2] = a[t.global]; // past the end for l >= tile / 2
      t.barrier.wait();
      b[t.global] = lds[l];
    });
    b.synchronize();
  } catch (const runtime_exception& e) {
    std::printf("%s\n", e.what());
    return 0;
  }
  std::printf("no report\n");
  return 1;
}
