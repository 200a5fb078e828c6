// Each kind of report of a checked build (--checked, amp_compat/detail/checked.h),
// and no report for correct kernels. Prints one line per case; run.sh
// compares them with the expected reports.
#include <amp.h>

#include "check.h"

#include <cstdio>
#include <string>
#include <vector>

using namespace concurrency;


struct item {
  int key;
  float value;
  item() restrict(cpu, amp) : key(7), value(1.0f) {}
};

int main() {
  std::vector<int> v(64, 1);
  array_view<int, 1> av(64, v);
  // A simple kernel reading one element past an array_view.
  check("view_read", [&] {
    std::vector<int> out(64);
    array_view<int, 1> o(64, out);
    parallel_for_each(o.extent, [=](index<1> i) restrict(amp) { o[i] = av[i + 1]; });
    o.synchronize();
  });
  // A tiled kernel writing an array (not a view) of rank 2 past its rows.
  check("array_write", [&] {
    array<int, 2> arr(8, 8);
    parallel_for_each(arr.extent.tile<4, 4>(), [&arr](tiled_index<4, 4> t) restrict(amp) {
      arr(t.global[0] + (t.tile[0] == 1 ? 1 : 0), t.global[1]) = 1;
    });
    arr.get_accelerator_view().wait();
  });
  // tile_static: a write before the start, by one work-item after a barrier.
  check("tile_static_before", [&] {
    parallel_for_each(av.extent.tile<16>(), [=](tiled_index<16> t) restrict(amp) {
      tile_static int s[16];
      s[t.local[0]] = 1;
      t.barrier.wait();
      if (t.local[0] == 3) s[t.local[0] - 5] = 2;
      t.barrier.wait();
      av[t.global] = s[t.local[0]];
    });
    av.synchronize();
  });
  // tile_static of a class type, rank 2, past the end, in a kernel without barriers.
  check("tile_static_class_2d", [&] {
    parallel_for_each(av.extent.tile<16>(), [=](tiled_index<16> t) restrict(amp) {
      tile_static item s[4][4];
      const int l = t.local[0];
      s[l / 4][l % 4 + (l == 15 ? 1 : 0)].key = l;
      av[t.global] = 1;
    });
    av.synchronize();
  });
  // Correct kernels: every element in range, tile_static used to its last element.
  check("correct", [&] {
    parallel_for_each(av.extent.tile<16>(), [=](tiled_index<16> t) restrict(amp) {
      tile_static int s[16];
      tile_static item p[2][16];
      const int l = t.local[0];
      s[l] = av[t.global];
      p[1][15 - l].key = l;
      t.barrier.wait();
      av[t.global] = s[15 - l] + p[1][l].key - (15 - l);
    });
    av.synchronize();
    for (int x : v)
      if (x != 1) throw runtime_exception("correct kernel: wrong result", 0);
  });
  return 0;
}
