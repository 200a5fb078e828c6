// Included as "tile_kernels.h" (another letter case: a Visual Studio
// project's habit), which `--windows-compat` answers with an include shim.
#pragma once
#include <amp.h>

// A kernel written in this header.
template <int N> void reverse_tiles(concurrency::array_view<int, 1> a) {
  concurrency::parallel_for_each(a.extent.tile<N>(), [=](concurrency::tiled_index<N> t) restrict(amp) {
    tile_static int s[N];
    s[t.local[0]] = a[t.global];
    t.barrier.wait();
    a[t.global] = s[N - 1 - t.local[0]] * 3 + t.local[0];
  });
}

// A kernel template declared here and defined in main.cpp (Microsoft's Scan
// sample does this).
template <int N> void rotate_tiles(concurrency::array_view<int, 1> a, int by);
