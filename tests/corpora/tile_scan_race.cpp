// Evidence for tests/corpora/README.md (not a CTest): the AMP Algorithms
// Library's tile scan called the way two of its own tests call it, with the
// tile_static array filled and then read by neighbouring work-items without a
// barrier in between ("racy"), and with the barrier its library callers all
// have ("barrier"). AMP leaves the racy form undefined. On the host
// accelerators both print "ok"; on the H100 (2026-11-26,
// bench/results-gpu-h100/2026-11-26/scan-race-repro.log) the racy form is
// wrong at every tile size (the compiler schedules the neighbour's read before
// the write) and the form with the barrier is right.
//   ./amp c++ --gpu tests/corpora/tile_scan_race.cpp -o race && ./race
#include <amp.h>
#include <cstdio>
#include <vector>
using namespace concurrency;

template <int TileSize, typename Op, typename T>
inline T tile_scan(T* const data, tiled_index<TileSize> tidx, const Op& op) restrict(amp) {
  const int l = tidx.local[0];
  for (int stride = 1; stride <= TileSize / 2; stride *= 2) {
    if ((l + 1) % (stride * 2) == 0) data[l] = op(data[l], data[l - stride]);
    tidx.barrier.wait_with_tile_static_memory_fence();
  }
  if (l == 0) data[TileSize - 1] = 0;
  tidx.barrier.wait_with_tile_static_memory_fence();
  for (int stride = TileSize / 2; stride >= 1; stride /= 2) {
    if ((l + 1) % (stride * 2) == 0) {
      auto tmp = data[l];
      data[l] = op(data[l], data[l - stride]);
      data[l - stride] = tmp;
    }
    tidx.barrier.wait_with_tile_static_memory_fence();
  }
  return data[TileSize - 1];
}
template <typename T> struct add_op {
  T operator()(const T& a, const T& b) const restrict(cpu, amp) { return a + b; }
};

template <int TS, bool Wait> int run(const char* name) {
  std::vector<unsigned> in(16), out(16, 99), want(16);
  for (int i = 0; i < 16; ++i) in[i] = (i * 7 + 3) % 11;
  for (int t = 0; t < 16; t += TS) { unsigned s = 0; for (int i = 0; i < TS; ++i) { want[t + i] = s; s += in[t + i]; } }
  array_view<const unsigned> a(16, in);
  array_view<unsigned> o(16, out);
  parallel_for_each(o.extent.template tile<TS>(), [=](tiled_index<TS> t) restrict(amp) {
    tile_static int d[TS];
    d[t.local[0]] = a[t.global];
    if (Wait) t.barrier.wait();
    tile_scan<TS>(d, t, add_op<int>());
    t.barrier.wait();
    o[t.global] = d[t.local[0]];
  });
  o.synchronize();
  int bad = 0;
  for (int i = 0; i < 16; ++i) bad += out[i] != want[i];
  std::printf("%s tile %d: %s:", name, TS, bad ? "WRONG" : "ok");
  for (int i = 0; i < 16; ++i) std::printf(" %u", out[i]);
  std::printf("\n");
  return bad != 0;
}
int main() {
  run<4, false>("racy") + run<8, false>("racy") + run<16, false>("racy");
  return run<4, true>("barrier") + run<8, true>("barrier") + run<16, true>("barrier");
}
