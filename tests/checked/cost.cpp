// The cost of a checked build (bench/RESULTS.md "Checked builds"; not a
// CTest): a tiled sum of 2^22 ints in 256-item tiles, tile_static with a
// barrier after each of its 8 levels, the case where the checks cost most
// (every work-item's tile_static accesses recorded, the guard zones compared
// at every barrier). Prints the CPU time per launch, so that a loaded machine
// does not change it much:
//   ./amp c++ tests/checked/cost.cpp -o plain && ./amp c++ --checked tests/checked/cost.cpp -o checked
//   AMP_DEFAULT_ACCELERATOR=serial ./plain; AMP_HOST_TILES=fibers AMP_DEFAULT_ACCELERATOR=serial ./plain
//   AMP_CHECKED_RACES=0 AMP_DEFAULT_ACCELERATOR=serial ./checked; AMP_DEFAULT_ACCELERATOR=serial ./checked
#include <amp.h>

#include <cstdio>
#include <ctime>
#include <vector>

using namespace concurrency;

int main() {
  const int n = 1 << 22, reps = 3;
  std::vector<int> in(n, 1), out(n / 256);
  array_view<const int, 1> a(n, in);
  array_view<int, 1> o(n / 256, out);
  const std::clock_t c0 = std::clock();
  for (int rep = 0; rep < reps; ++rep)
    parallel_for_each(a.extent.tile<256>(), [=](tiled_index<256> t) restrict(amp) {
      tile_static int s[256];
      const int l = t.local[0];
      s[l] = a[t.global];
      t.barrier.wait();
      for (int w = 128; w > 0; w /= 2) {
        if (l < w) s[l] += s[l + w];
        t.barrier.wait();
      }
      if (l == 0) o[t.tile] = s[0];
    });
  o.synchronize();
  const double ms = 1000.0 * static_cast<double>(std::clock() - c0) / CLOCKS_PER_SEC / reps;
  for (int x : out)
    if (x != 256) {
      std::printf("WRONG\n");
      return 1;
    }
  std::printf("%.0f ms of CPU per launch\n", ms);
}
