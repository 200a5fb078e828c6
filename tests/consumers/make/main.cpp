// Program with AMP kernels in two translation units (this one and reduce.cpp)
// that also calls the AMP kernels of libplugin.so, before and after its own.
#include "reduce.h"
#include "tiled_matmul.h"
#include <cstdio>
#include <numeric>

extern "C" int plugin_tiled_matmul(int n);

int main() {
  int bad = consumer_tiled_matmul(32);
  bad += plugin_tiled_matmul(64);
  std::vector<int> v(1000);
  std::iota(v.begin(), v.end(), -300);
  long want = std::accumulate(v.begin(), v.end(), 0L), got = tiled_sum(v);
  std::printf("tiled sum: %ld (want %ld)\n", got, want);
  bad += got != want;
  bad += plugin_tiled_matmul(48);
  bad += consumer_tiled_matmul(16);
  return bad ? 1 : 0;
}
