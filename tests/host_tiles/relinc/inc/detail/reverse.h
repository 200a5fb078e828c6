// A kernel in a header reached by "detail/reverse.h" from lib.h.
#pragma once
#include <amp.h>

template <int N> void reverse_tiles(concurrency::array_view<int, 1> a) {
  concurrency::parallel_for_each(a.extent.tile<N>(), [=](concurrency::tiled_index<N> t) restrict(amp) {
    tile_static int s[N];
    s[t.local[0]] = a[t.global];
    t.barrier.wait();
    a[t.global] = s[N - 1 - t.local[0]];
  });
}
