// Tiled kernels written in a project header (tests/host_tiles/kernels.cpp
// includes it): the launcher rewrites the kernels of the project headers a
// source includes, not only those of the source itself.
#pragma once
#include <amp.h>

// A tile-wide sum per tile: a function template, instantiated by the includer.
template <int TS>
void header_tile_sums(const concurrency::array_view<const int, 1>& a, const concurrency::array_view<int, 1>& out) {
  using namespace concurrency;
  parallel_for_each(a.extent.template tile<TS>(), [=](tiled_index<TS> t) restrict(amp) { // expect: compiled
    tile_static int s[TS];
    const int i = t.local[0];
    s[i] = a[t.global];
    for (int w = TS / 2; w > 0; w /= 2) {
      t.barrier.wait();
      if (i < w) s[i] += s[i + w];
    }
    t.barrier.wait();
    out[t.global] = s[0] - s[TS - 1 - i];
  });
}

// A kernel whose callee waits on the barrier, both in this header (Bolt's
// sort.inl shape): inlined by the first parse and checked by the second,
// which reads this header through the launcher's copy.
// (The callee names another function of the header: its key holds the file's name.)
inline int header_step(int k) restrict(amp, cpu) { return k + 1; }
template <int TS> int header_rotate(concurrency::tiled_index<TS> t, int v, int k) restrict(amp) {
  tile_static int s[TS];
  s[t.local[0]] = v;
  t.barrier.wait();
  return s[(t.local[0] + header_step(k)) % TS];
}
template <int TS>
void header_calls_waiting(const concurrency::array_view<const int, 1>& a, const concurrency::array_view<int, 1>& out) {
  using namespace concurrency;
  parallel_for_each(a.extent.template tile<TS>(), [=](tiled_index<TS> t) restrict(amp) { // expect: compiled
    const int r = header_rotate<TS>(t, a[t.global], 3);
    out[t.global] = r * 2 + t.local[0];
  });
}

// An inline function; its kernel keeps fibers (the barrier's condition reads memory).
inline void header_memory_cond(const concurrency::array_view<const int, 1>& a,
                               const concurrency::array_view<int, 1>& out) {
  using namespace concurrency;
  parallel_for_each(a.extent.tile<64>(), [=](tiled_index<64> t) restrict(amp) { // expect: fibers: not provably uniform
    tile_static int s[64];
    s[t.local[0]] = a[t.global];
    t.barrier.wait();
    if (a[t.tile_origin] > 1000) {
      t.barrier.wait();
    }
    out[t.global] = s[63 - t.local[0]];
  });
}

// A function object declared here, its operator() defined by the includer
// (kernels.cpp, `header_functor<TS>::operator()`): the member template the
// compiled form adds is declared in this header's rewritten copy.
template <int TS> struct header_functor {
  concurrency::array_view<int, 1> out;
  int shift;
  void operator()(concurrency::tiled_index<TS> t) const restrict(amp);
};
