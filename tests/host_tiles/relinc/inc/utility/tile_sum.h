// A kernel whose callee waits on the barrier (inlined: the tile compiler's
// second parse), in a header reached by "utility/tile_sum.h" from
// lib_utility.h, whose functor type is deduced from a captured helper's
// member; the functor's class in a header of its own (keyed where it is
// written: the second parse reads a copy of that header).
#pragma once
#include <amp.h>

#include "ops.h"

template <typename T, unsigned int TS, typename F>
void tile_fold(T* const mem, concurrency::tiled_index<TS> tid, const F& op) restrict(amp) {
  for (unsigned int half = TS / 2; half > 0; half /= 2) {
    if (tid.local[0] < static_cast<int>(half)) mem[0] = op(mem[0], mem[half]);
    tid.barrier.wait();
  }
}
struct sum_helper {
  add_op op;
};
template <int N, typename H> void tile_sums(concurrency::array_view<int, 1> a, const H& helper) {
  concurrency::parallel_for_each(a.extent.tile<N>(), [=](concurrency::tiled_index<N> t) restrict(amp) {
    tile_static int s[N];
    int& mine = s[t.local[0]];
    mine = a[t.global];
    t.barrier.wait();
    tile_fold<int, N>(&mine, t, helper.op);
    if (t.local[0] == 0) a[t.global] = mine;
  });
}
