// A race between barriers shown by running a tile's work-items in another
// order (checked builds, AMP_CHECKED_ORDER=reverse, with the race reports off:
// AMP_CHECKED_RACES=0; races.cpp has the reports): AMD Bolt's radix-sort
// step `h[16 + l] = h[16 + l - 1]` (no barrier between the read and the
// neighbour's write) gives different results in the two orders; the same
// step with a barrier gives the same results. Prints both; run.sh compares
// the output of the two orders.
#include <amp.h>
#include <cstdio>
#include <vector>
using namespace concurrency;

template <bool Barrier> void shift(const char* name) {
  std::vector<unsigned> out(16);
  array_view<unsigned, 1> o(16, out);
  parallel_for_each(extent<1>(64).tile<64>(), [=](tiled_index<64> t) restrict(amp) {
    tile_static unsigned h[32];
    const int l = t.local[0];
    if (l < 16) {
      h[l] = 0;
      h[16 + l] = 100 + l;
    }
    t.barrier.wait();
    if (Barrier) {
      unsigned left = 0;
      if (l < 16) left = h[16 + l - 1];
      t.barrier.wait();
      if (l < 16) h[16 + l] = left;
    } else if (l < 16) {
      h[16 + l] = h[16 + l - 1];
    }
    t.barrier.wait();
    if (l < 16) o[l] = h[16 + l];
  });
  o.synchronize();
  std::printf("%s:", name);
  for (unsigned x : out) std::printf(" %u", x);
  std::printf("\n");
}

int main() {
  shift<false>("racy");
  shift<true>("barrier");
}
