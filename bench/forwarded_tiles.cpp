// A library's launcher that only forwards its tiled_index to the function
// object it is given (a particle library's forEachTiledWithBarrier shape),
// against the same kernel launched directly: tile sums of N floats in tiles
// of 256 (a tree reduction in tile_static memory, 8 barriers), the kernel
// run RUNS times, each timed. Run once with AMP_HOST_TILES=compiled and once
// with AMP_HOST_TILES=fibers (bench/RESULTS.md, "Host tiles, eleventh step").
//
//   forwarded_tiles [log2 N [runs]]     (default 2^24 floats, 5 runs)
// Prints a checksum (every path must agree) and per-run milliseconds of the
// direct and the forwarded launch.
#include <amp.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

using namespace concurrency;

namespace {

constexpr int TS = 256;

// The library's launcher: its kernel hands the tiled_index to `function`.
template <typename F> void for_each_tile(int n, const F& function) {
  parallel_for_each(extent<1>(n).tile<TS>(), [=](tiled_index<TS> t) restrict(amp) { function(t); });
}

double ms_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

} // namespace

int main(int argc, char** argv) {
  const int lg = argc > 1 ? std::atoi(argv[1]) : 24, runs = argc > 2 ? std::atoi(argv[2]) : 5;
  if (lg < 8 || lg > 28 || runs < 1) {
    std::fprintf(stderr, "usage: forwarded_tiles [log2 N (8..28) [runs]]\n");
    return 2;
  }
  const int n = 1 << lg, tiles = n / TS;
  std::vector<float> in(n), direct(tiles), forwarded(tiles);
  for (int i = 0; i < n; ++i) in[i] = float(i % 1000) * 0.125f;
  array_view<const float, 1> a(n, in);
  array_view<float, 1> od(tiles, direct), of(tiles, forwarded);
  // The user's kernel: launched directly, and given to the launcher.
  auto kernel_into = [=](const array_view<float, 1>& out) {
    return [=](tiled_index<TS> t) restrict(amp) {
      tile_static float s[TS];
      const int li = t.local[0];
      s[li] = a[t.global];
      t.barrier.wait();
      for (int stride = TS / 2; stride > 0; stride /= 2) {
        if (li < stride) s[li] += s[li + stride];
        t.barrier.wait();
      }
      if (li == 0) out[t.tile] = s[0];
    };
  };
  for (int r = 0; r < runs; ++r) {
    auto t0 = std::chrono::steady_clock::now();
    parallel_for_each(extent<1>(n).tile<TS>(), kernel_into(od));
    od.synchronize();
    const double d = ms_since(t0);
    t0 = std::chrono::steady_clock::now();
    for_each_tile(n, kernel_into(of));
    of.synchronize();
    const double f = ms_since(t0);
    std::fprintf(stderr, "[timing] run %d: direct %.3f ms, forwarded %.3f ms\n", r + 1, d, f);
  }
  double sd = 0, sf = 0;
  for (int i = 0; i < tiles; ++i) sd += direct[i], sf += forwarded[i];
  std::printf("tiles %d checksum direct %.3f forwarded %.3f %s\n", tiles, sd, sf, sd == sf ? "same" : "DIFFER");
  return sd == sf ? 0 : 1;
}
