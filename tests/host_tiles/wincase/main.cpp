// Kernels reached through a header included with another letter case
// (runs_compiled.sh builds this with --windows-compat: host_tiles.windows_case).
#include "tile_kernels.h"

#include <cstdio>
#include <vector>

template <int N> void rotate_tiles(concurrency::array_view<int, 1> a, int by) {
  concurrency::parallel_for_each(a.extent.tile<N>(), [=](concurrency::tiled_index<N> t) restrict(amp) {
    tile_static int s[N];
    s[t.local[0]] = a[t.global];
    t.barrier.wait();
    a[t.global] = s[(t.local[0] + by) % N] - by;
  });
}

int main() {
  std::vector<int> v(256);
  for (int i = 0; i < 256; ++i) v[i] = i * 7 % 31;
  concurrency::array_view<int, 1> a(256, v);
  reverse_tiles<64>(a);
  rotate_tiles<32>(a, 5);
  a.synchronize();
  long sum = 0;
  for (int i = 0; i < 256; ++i) sum = sum * 31 + v[i];
  std::printf("%d %d %ld\n", v[0], v[255], sum);
}
