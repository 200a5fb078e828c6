// Reads of tile_static elements no work-item of the tile wrote, in a checked
// build (--checked, amp_compat/detail/checked.h): the shape of AMD Bolt's
// scans (the last tile only partly filled, then a reduction over the whole
// tile), and no report where every element read was written first (through
// the array, or through a pointer the array decayed to) or where the reads
// stay within what was written. Prints one line per case; run.sh compares
// them with the expected reports.
#include <amp.h>

#include "check.h"

#include <vector>

using namespace concurrency;

static void store(int* p, int v) restrict(amp) { *p = v; }

// A tree sum over a 16-item tile of whatever `s` holds (a template, as Bolt
// passes its arrays: the checks see accesses through its parameter).
template <class A> void tree_sum(A& s, int l, const tiled_index<16>& t) restrict(amp) {
  for (int w = 8; w > 0; w /= 2) {
    if (l < w) s[l] += s[l + w];
    t.barrier.wait();
  }
}

int main() {
  const int valid = 58; // the last of 4 tiles holds 10 elements
  std::vector<int> ones(64, 1), sums(4);
  array_view<const int, 1> in(64, ones);
  array_view<int, 1> out(4, sums);
  // Bolt's shape: only work-items with an element load it, every one sums.
  check("partial_tile", [&] {
    parallel_for_each(in.extent.tile<16>(), [=](tiled_index<16> t) restrict(amp) {
      tile_static int s[16];
      const int l = t.local[0];
      if (t.global[0] < valid) s[l] = in[t.global];
      t.barrier.wait();
      tree_sum(s, l, t);
      if (l == 0) out[t.tile] = s[0];
    });
    out.synchronize();
  });
  // The same sum, with the missing elements written as zeros.
  check("padded", [&] {
    parallel_for_each(in.extent.tile<16>(), [=](tiled_index<16> t) restrict(amp) {
      tile_static int s[16];
      const int l = t.local[0];
      s[l] = t.global[0] < valid ? in[t.global] : 0;
      t.barrier.wait();
      tree_sum(s, l, t);
      if (l == 0) out[t.tile] = s[0];
    });
    out.synchronize();
    if (sums[3] != 10) throw runtime_exception("padded: wrong sum", 0);
  });
  // Elements written through a pointer, read through the array.
  check("through_pointer", [&] {
    parallel_for_each(in.extent.tile<16>(), [=](tiled_index<16> t) restrict(amp) {
      tile_static int s[16];
      const int l = t.local[0];
      store(s + l, in[t.global]);
      t.barrier.wait();
      tree_sum(s, l, t);
      if (l == 0) out[t.tile] = s[0];
    });
    out.synchronize();
  });
  // Only what was written is read (the partial tile sums its own elements).
  check("reads_within", [&] {
    parallel_for_each(in.extent.tile<16>(), [=](tiled_index<16> t) restrict(amp) {
      tile_static int s[16];
      const int l = t.local[0];
      const int n = valid - t.tile[0] * 16 < 16 ? valid - t.tile[0] * 16 : 16;
      if (l < n) s[l] = in[t.global];
      t.barrier.wait();
      if (l == 0) {
        int sum = 0;
        for (int i = 0; i < n; ++i) sum += s[i];
        out[t.tile] = sum;
      }
    });
    out.synchronize();
    if (sums[3] != 10) throw runtime_exception("reads_within: wrong sum", 0);
  });
}
