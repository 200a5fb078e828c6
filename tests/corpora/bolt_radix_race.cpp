// Evidence for tests/corpora/README.md (not a CTest): the step of AMD Bolt's
// radix sort (include/bolt/amp/detail/sort.inl, its histogram prefix sum) that
// its own comment marks "may cause race condition": 16 work-items each copy
// their left neighbour's element of a tile_static array in one statement,
// `h[16 + l] = h[16 + l - 1]`, with no barrier between the read and the
// neighbour's write. It relies on the 16 work-items reading before any of
// them writes, which holds for lanes of one GPU wavefront in lockstep and
// which AMP does not promise: on the host accelerators a tile's work-items
// run one after another, so each copies the value its neighbour just wrote,
// and the shift becomes a fill ("racy" prints wrong on Serial and OpenMP). The
// same step with the read and the write on either side of a barrier
// ("barrier") is right everywhere.
//   ./amp c++ tests/corpora/bolt_radix_race.cpp -o race && ./race
// (on a GPU: ./amp c++ --gpu ..., AMP_DEFAULT_ACCELERATOR=cuda)
#include <amp.h>
#include <cstdio>
#include <vector>
using namespace concurrency;

constexpr int buckets = 16, tile = 64;

// out[tile * t + k] = h[buckets + k] after the shift, for k < buckets.
template <bool Barrier> std::vector<unsigned> shift() {
  std::vector<unsigned> out(buckets * 4, 0);
  array_view<unsigned, 1> o(static_cast<int>(out.size()), out);
  parallel_for_each(extent<1>(tile * 4).tile<tile>(), [=](tiled_index<tile> t) restrict(amp) {
    tile_static unsigned h[buckets * 2];
    const int l = t.local[0];
    if (l < buckets) {
      h[l] = 0;
      h[buckets + l] = 100 * (t.tile[0] + 1) + l; // each bucket's count
    }
    t.barrier.wait();
    if (Barrier) {
      unsigned left = 0;
      if (l < buckets) left = h[buckets + l - 1];
      t.barrier.wait();
      if (l < buckets) h[buckets + l] = left;
    } else if (l < buckets) {
      h[buckets + l] = h[buckets + l - 1]; // Bolt's statement
    }
    t.barrier.wait();
    if (l < buckets) o[t.tile[0] * buckets + l] = h[buckets + l];
  });
  o.synchronize();
  return out;
}

static bool right(const std::vector<unsigned>& v) {
  for (int t = 0; t < 4; ++t)
    for (int l = 0; l < buckets; ++l)
      if (v[t * buckets + l] != (l == 0 ? 0u : 100u * (t + 1) + l - 1)) return false;
  return true;
}

int main() {
  const bool racy = right(shift<false>()), fixed = right(shift<true>());
  std::printf("racy (Bolt's statement): %s\nbarrier: %s\n", racy ? "ok" : "WRONG", fixed ? "ok" : "WRONG");
  return fixed ? 0 : 1;
}
