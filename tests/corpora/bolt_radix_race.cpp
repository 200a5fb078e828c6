// Evidence for tests/corpora/README.md (not a CTest): the step of AMD Bolt's
// radix sort (include/bolt/amp/detail/sort.inl, its histogram prefix sum) that
// its own comment marks "may cause race condition": 16 work-items each copy
// their left neighbour's element of a tile_static array in one statement,
// `h[16 + l] = h[16 + l - 1]`, with no barrier between the read and the
// neighbour's write. It relies on the 16 work-items reading before any of
// them writes, which holds for lanes of one GPU wavefront or warp in lockstep
// and which AMP does not promise (nor CUDA since Volta):
//  - "one warp": Bolt's layout (work-items 0-15 of a 64-item tile). On the
//    host accelerators a tile's work-items run one after another, so each
//    copies the value its neighbour just wrote and the shift becomes a fill:
//    every tile wrong on Serial and OpenMP; on an NVIDIA GPU the 16 are lanes
//    of one warp and usually right.
//  - "16 warps": the same statement with the 16 work-items 32 apart (one per
//    warp of a 512-item tile): on a GPU the warps run in any order, and tiles
//    come out wrong there too (bolt_radix_race.cu: the same in hand-written
//    CUDA).
//  - "barrier": the read and the write on either side of a barrier: right
//    everywhere.
// A checked build (./amp c++ --checked) reports the race at once (read-after-
// write on `h`, with the line of the statement).
//   ./amp c++ tests/corpora/bolt_radix_race.cpp -o race && ./race
// (on a GPU: ./amp c++ --gpu ..., AMP_DEFAULT_ACCELERATOR=cuda)
#include <amp.h>
#include <cstdio>
#include <vector>
using namespace concurrency;

constexpr int buckets = 16, tiles = 1024;

// Tiles whose shifted histogram is wrong.
template <int Stride, bool Barrier> int wrong_tiles() {
  constexpr int tile = Stride == 1 ? 64 : 32 * buckets;
  std::vector<unsigned> out(buckets * tiles, 0);
  array_view<unsigned, 1> o(static_cast<int>(out.size()), out);
  parallel_for_each(extent<1>(tile * tiles).tile<tile>(), [=](tiled_index<tile> t) restrict(amp) {
    tile_static unsigned h[buckets * 2];
    const int l = t.local[0] / Stride;
    const bool item = t.local[0] % Stride == 0 && l < buckets;
    if (item) {
      h[l] = 0;
      h[buckets + l] = 100 * (t.tile[0] % 1000 + 1) + l; // each bucket's count
    }
    t.barrier.wait();
    if (Barrier) {
      unsigned left = 0;
      if (item) left = h[buckets + l - 1];
      t.barrier.wait();
      if (item) h[buckets + l] = left;
    } else if (item) {
      h[buckets + l] = h[buckets + l - 1]; // Bolt's statement
    }
    t.barrier.wait();
    if (item) o[t.tile[0] * buckets + l] = h[buckets + l];
  });
  o.synchronize();
  int wrong = 0;
  for (int b = 0; b < tiles; ++b)
    for (int l = 0; l < buckets; ++l)
      if (out[b * buckets + l] != (l == 0 ? 0u : 100u * (b % 1000 + 1) + l - 1)) {
        ++wrong;
        break;
      }
  return wrong;
}

int main() {
  const int warp = wrong_tiles<1, false>(), warps = wrong_tiles<32, false>(), barrier = wrong_tiles<1, true>(),
            barrier16 = wrong_tiles<32, true>();
  std::printf("racy, 16 lanes of one warp (Bolt's layout): %d of %d tiles wrong\n", warp, tiles);
  std::printf("racy, 16 work-items in 16 warps: %d of %d tiles wrong\n", warps, tiles);
  std::printf("barrier: %d and %d of %d tiles wrong\n", barrier, barrier16, tiles);
  return barrier == 0 && barrier16 == 0 ? 0 : 1;
}
