// Kernels in a library's headers that include each other by relative names
// (runs_compiled.sh builds this with -I inc: host_tiles.relative_include).
#include "lib.h"

#include <cstdio>
#include <vector>

int main() {
  std::vector<int> v(256);
  for (int i = 0; i < 256; ++i) v[i] = i * 7 % 31;
  concurrency::array_view<int, 1> a(256, v);
  swap_pairs<64>(a, 3);
  tile_sums<32>(a, sum_helper{});
  a.synchronize();
  long sum = 0;
  for (int i = 0; i < 256; ++i) sum = sum * 31 + v[i];
  std::printf("%d %d %ld\n", v[0], v[255], sum);
}
