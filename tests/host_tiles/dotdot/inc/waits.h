// A header kernel whose callee waits on the barrier and names another
// function of the header, reached by the build through paths with `..`
// (dotdot_paths.sh): the tile compiler's two parses must name the header
// alike (tools/tile_compiler/keys.cpp, fileKey), else the kernel keeps
// fibers with "would bind a name differently" (Bolt built by bolt.sh did).
#pragma once
#include <amp.h>

inline int dd_step(int k) restrict(amp, cpu) { return k + 1; }

template <int TS> int dd_rotate(concurrency::tiled_index<TS> t, int v, int k) restrict(amp) {
  tile_static int s[TS];
  s[t.local[0]] = v;
  t.barrier.wait();
  return s[(t.local[0] + dd_step(k)) % TS];
}

template <int TS>
void dd_kernel(const concurrency::array_view<const int, 1>& a, const concurrency::array_view<int, 1>& out) {
  using namespace concurrency;
  parallel_for_each(a.extent.template tile<TS>(), [=](tiled_index<TS> t) restrict(amp) {
    const int r = dd_rotate<TS>(t, a[t.global], 3);
    out[t.global] = r * 2 + t.local[0];
  });
}
