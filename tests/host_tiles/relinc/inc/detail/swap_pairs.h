// A kernel in a header reached by "detail/swap_pairs.h" from lib.h: each
// work-item takes its neighbour's element within the tile.
#pragma once
#include <amp.h>

template <int N> void swap_pairs(concurrency::array_view<int, 1> a, int add) {
  concurrency::parallel_for_each(a.extent.tile<N>(), [=](concurrency::tiled_index<N> t) restrict(amp) {
    tile_static int s[N];
    s[t.local[0]] = a[t.global] + add;
    t.barrier.wait();
    a[t.global] = s[t.local[0] ^ 1];
  });
}
