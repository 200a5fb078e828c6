// Race reports of a checked build (--checked, amp_compat/detail/checked.h):
// each kind of race between barriers on a tile_static array, and no report
// for race-free kernels (barriers between the accesses, atomics, reads of one
// element by every work-item, an array passed to a function as a pointer or
// a reference to the array). Prints one line
// per case; run.sh compares them with the expected reports.
#include <amp.h>

#include "check.h"

#include <cstdio>
#include <vector>

using namespace concurrency;


struct pair2 {
  int a;
  float b;
};

// A search through a container parameter, as AMD Bolt's merge sort passes its
// tile_static arrays (the report names this line).
template <class C> int first_at_least(C& data, int n, int v) restrict(amp) {
  int i = 0;
  while (i < n && data[i] < v) ++i;
  return i;
}

static int last_of(const int (&a)[16]) restrict(amp) { return a[15]; }

static void sum_into(int* p, int n, int* out) restrict(amp) {
  int s = 0;
  for (int i = 0; i < n; ++i) s += p[i];
  *out = s;
}

int main() {
  std::vector<int> v(64, 1);
  array_view<int, 1> av(64, v);
  // AMD Bolt's radix-sort step: each work-item copies its left neighbour's
  // element, which the neighbour overwrites, with no barrier between.
  check("read_after_write", [&] {
    parallel_for_each(av.extent.tile<64>(), [=](tiled_index<64> t) restrict(amp) {
      tile_static unsigned h[32];
      const int l = t.local[0];
      if (l < 16) h[l] = 0, h[16 + l] = 100 + l;
      t.barrier.wait();
      if (l < 16) h[16 + l] = h[16 + l - 1];
      t.barrier.wait();
      av[t.global] = h[16 + l % 16];
    });
    av.synchronize();
  });
  // Every work-item writes one element.
  check("write_after_write", [&] {
    parallel_for_each(av.extent.tile<16>(), [=](tiled_index<16> t) restrict(amp) {
      tile_static pair2 last[2][4];
      tile_static int cube[2][2][2]; // rank 3: race-free (one element per work-item)
      last[1][2].a = 100 + t.local[0]; // not the value already there (checked.h)
      if (t.local[0] < 8) cube[t.local[0] / 4][t.local[0] / 2 % 2][t.local[0] % 2] = t.local[0];
      t.barrier.wait();
      av[t.global] = last[1][2].a + cube[1][1][1];
    });
    av.synchronize();
  });
  // Each work-item reads its right neighbour's element, which the neighbour
  // then overwrites, with no barrier between.
  check("write_after_read", [&] {
    parallel_for_each(av.extent.tile<16>(), [=](tiled_index<16> t) restrict(amp) {
      tile_static int s[16];
      const int l = t.local[0];
      s[l] = l;
      t.barrier.wait();
      s[l] = s[(l + 1) % 16] + 1;
      t.barrier.wait();
      av[t.global] = s[l];
    });
    av.synchronize();
  });
  // A read inside a function the array is passed to by reference.
  check("read_in_function", [&] {
    parallel_for_each(av.extent.tile<16>(), [=](tiled_index<16> t) restrict(amp) {
      tile_static int s[16];
      const int l = t.local[0];
      s[l] = l;
      av[t.global] = first_at_least(s, 16, 8);
    });
    av.synchronize();
  });
  // Race-free: a tiled sum with barriers between the levels, a histogram of
  // atomic increments, one element read by every work-item, an array passed
  // to a function as a pointer, a second array of the same name.
  check("race_free", [&] {
    std::vector<int> ones(64, 1), sums(4), hist(4);
    array_view<const int, 1> in(64, ones);
    array_view<int, 1> s(4, sums), h(4, hist);
    parallel_for_each(in.extent.tile<16>(), [=](tiled_index<16> t) restrict(amp) {
      tile_static int part[16];
      tile_static unsigned count[4];
      tile_static int total[1];
      const int l = t.local[0];
      part[l] = in[t.global];
      if (l < 4) count[l] = 0;
      t.barrier.wait();
      for (int w = 8; w > 0; w /= 2) {
        if (l < w) part[l] += part[l + w];
        t.barrier.wait();
      }
      atomic_fetch_inc(&count[l % 4]);
      if (l == 0) sum_into(part, 1, &total[0]);
      if (l == 1) *(0 + part + 1) += 0 * *(part + 2); // pointer arithmetic on the array (not recorded)
      t.barrier.wait();
      int all = total[0] + 0 * last_of(part);
      if (l == 0) s[t.tile] = all;
      if (l < 4) h[l] = count[l];
    });
    s.synchronize();
    h.synchronize();
    for (int x : sums)
      if (x != 16) throw runtime_exception("race_free: wrong sum", 0);
    for (int x : hist)
      if (x != 4) throw runtime_exception("race_free: wrong histogram", 0);
  });
}
