// Kernels in a library's headers that include each other by relative names
// (relative_include.sh builds this with -I inc).
#include "lib.h"

#include <cstdio>
#include <vector>

int main() {
  std::vector<int> v(256);
  for (int i = 0; i < 256; ++i) v[i] = i * 7 % 31;
  concurrency::array_view<int, 1> a(256, v);
  reverse_tiles<64>(a);
  tile_sums<32>(a, sum_helper{});
  a.synchronize();
  long sum = 0;
  for (int i = 0; i < 256; ++i) sum = sum * 31 + v[i];
  std::printf("%d %d %ld\n", v[0], v[255], sum);
}
