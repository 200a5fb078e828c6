// Under --windows-compat (this program is built with it), out-of-range element
// accesses in kernels behave as Direct3D's out-of-range buffer accesses, which
// AMP code written on Windows relies on: a write is discarded, a read gives
// zero; the memory around the data is untouched (detail/data.h,
// data_base::at). On every accelerator: the host's thread_local cell, a GPU
// backend's cell per resident thread (backend/backend.h, discarded_element).
#include "../amp_test_util.h"

#include <amp.h>

#include <gtest/gtest.h>

#include <vector>

using namespace concurrency;

TEST(OutOfRange, PaddedTiledKernelWritesPastTheViewAreDiscarded) {
  // A view of the middle of a vector: elements 8..27. The kernel runs over the
  // padded tiled extent (32 threads) and writes without a bounds check.
  std::vector<int> v(40, -1);
  array_view<int, 1> all(40, v);
  array_view<int, 1> mid = all.section(8, 20);
  parallel_for_each(mid.extent.tile<16>().pad(), [=](tiled_index<16> t) restrict(amp) {
    mid[t.global] = t.global[0];           // past the end: discarded
    mid(t.global[0] + 100) = 7;            // far past: discarded
  });
  all.synchronize();
  for (int i = 0; i < 40; ++i) {
    if (i >= 8 && i < 28) EXPECT_EQ(v[i], i - 8) << i;
    else EXPECT_EQ(v[i], -1) << i;  // neither the vector nor its neighbours written
  }
}

TEST(OutOfRange, ReadsPastTheExtentGiveZero) {
  std::vector<float> in(10, 2.5f), out(16, -1.0f);
  array_view<const float, 1> a(10, in);
  array_view<float, 1> b(16, out);
  array<int, 2> m(3, 3);
  parallel_for_each(b.extent, [=, &m](index<1> i) restrict(amp) {
    b[i] = a[i] + static_cast<float>(m(index<2>(i[0], -1)));  // a[10..15] and m(., -1) read as 0
  });
  b.synchronize();
  for (int i = 0; i < 16; ++i) EXPECT_EQ(out[i], i < 10 ? 2.5f : 0.0f) << i;
}

// Many threads at once writing past the data and then reading past it: each
// read must give zero, whatever the others wrote past the data in between
// (the discarded writes must not reach another thread's reads).
TEST(OutOfRange, ConcurrentDiscardedWritesDoNotReachReads) {
  const int n = 100, threads = 1 << 20;
  std::vector<int> data(n, 3);
  array_view<int, 1> d(n, data);
  std::vector<int> bad(1, 0);
  array_view<int, 1> nonzero(1, bad);
  parallel_for_each(extent<1>(threads).tile<256>(), [=](tiled_index<256> t) restrict(amp) {
    const int g = t.global[0];
    int seen = 0;
    for (int k = 0; k < 32; ++k) {
      d[n + g + k] = g + 1;       // discarded
      seen |= d[n + g + k];       // zero
      seen |= d(-1 - k);          // zero
    }
    if (g < n) d[g] += seen;      // in range: unchanged when every read gave zero
    if (seen != 0) atomic_fetch_add(&nonzero[0], 1);
  });
  d.synchronize();
  nonzero.synchronize();
  EXPECT_EQ(bad[0], 0) << "threads that read a discarded value";
  for (int i = 0; i < n; ++i) EXPECT_EQ(data[i], 3) << i;
}

// Host code outside kernels is not Direct3D's: MSVC addresses an element
// linearly without a check, so a 4x3 view's (0, 3) is its element (1, 0)
// (Microsoft's conformance suite has a helper that swaps its loop bounds and
// passes by that). Given while the position is in the view's buffer; beyond
// it, zero. In a kernel the Direct3D rule above stays.
TEST(OutOfRange, HostAccessOutsideKernelsIsLinearInTheBuffer) {
  std::vector<int> v(12);
  for (int k = 0; k < 12; ++k) v[k] = 10 + k;
  array_view<int, 2> a(4, 3, v);
  EXPECT_EQ(a(0, 3), 13);
  EXPECT_EQ(a(1, -1), 12);
  EXPECT_EQ(a(3, 3), 0);  // linear 12: past the buffer
  EXPECT_EQ(a(0, -1), 0); // linear -1
  std::vector<int> out(1, -1);
  array_view<int, 1> o(1, out);
  parallel_for_each(extent<1>(1), [=](index<1>) restrict(amp) { o[0] = a(0, 3); });
  o.synchronize();
  EXPECT_EQ(out[0], 0);
  array_view<int, 2> lower = a.section(index<2>(2, 0)); // rows 2..3 of the buffer
  EXPECT_EQ(lower(-1, 0), 13);
  EXPECT_EQ(lower(1, 3), 0);
}

// AMP's restrict(amp) pointer constructor checks nothing in a kernel (as in
// Microsoft's runtime): an empty view made there as a placeholder is valid.
// (GPU builds do not offer the pointer constructors in kernels yet.)
#if !AMP_HAS_DEVICE_BACKEND
TEST(OutOfRange, EmptyViewFromPointerInsideKernel) {
  std::vector<int> out(4, 0);
  array_view<int, 1> r(4, out);
  parallel_for_each(extent<1>(1), [=](index<1>) restrict(amp) {
    array_view<int, 1> empty(0, static_cast<int*>(nullptr));
    r[0] = empty.extent.size() == 0 ? 1 : 2;
  });
  r.synchronize();
  EXPECT_EQ(out[0], 1);
  // On the host it is still refused.
  EXPECT_THROW((array_view<int, 1>(0, static_cast<int*>(nullptr))), runtime_exception);
}
#endif

// A projection outside the view in a kernel (`src[y][x]` with y past the
// rows, the C++ AMP book's Cartoonizer over a padded tiled extent): its
// elements read as zero and writes to them are discarded, as `src(y, x)`'s
// are; rank 3 through two projections too. On the host outside kernels the
// projection stays AMP's runtime_exception.
TEST(OutOfRange, ProjectionPastTheRowsInKernels) {
  std::vector<int> img(15 * 15, 7), res(16 * 16, -1), cube(2 * 3 * 4, 5), cres(4 * 16, -1);
  array<int, 2> src(15, 15, img.begin());
  array_view<int, 2> out(16, 16, res);
  array_view<int, 3> c(2, 3, 4, cube);
  array_view<int, 2> cout(4, 16, cres);
  parallel_for_each(extent<2>(16, 16).tile<16, 16>(), [=, &src](tiled_index<16, 16> t) restrict(amp) {
    const int y = t.global[0], x = t.global[1];
    out[y][x] = src[y][x] + src(y, x);     // row 15 and column 15 read zero
    out[y + 16][x] = 99;                   // a row past the view: discarded
  });
  parallel_for_each(cout.extent, [=](index<2> i) restrict(amp) {
    cout[i] = c[i[0]][i[1] % 4][i[1] / 4]; // planes 2, 3 and rows 3 past: zero
  });
  out.synchronize();
  cout.synchronize();
  for (int y = 0; y < 16; ++y)
    for (int x = 0; x < 16; ++x) EXPECT_EQ(res[y * 16 + x], y < 15 && x < 15 ? 14 : 0) << y << "," << x;
  for (int p = 0; p < 4; ++p)
    for (int k = 0; k < 16; ++k) EXPECT_EQ(cres[p * 16 + k], p < 2 && k % 4 < 3 ? 5 : 0) << p << "," << k;
  EXPECT_THROW(out[16], runtime_exception);
}
