// AMP atomics under heavy contention, checked exactly: every work-item of a
// large domain hits a few locations (array_view elements, array elements
// captured by reference, tile_static variables). On the host the tiles run on
// several OS threads at once and a tile's work-items are fibers of one thread;
// on the GPU every location is hammered by thousands of threads.
#include <amp.h>

#include <algorithm>
#include <climits>
#include <cstring>
#include <gtest/gtest.h>
#include <numeric>
#include <random>
#include <vector>

using namespace concurrency;

namespace {

const int n = 1 << 18;

std::vector<int> random_ints(int count, int lo, int hi, unsigned seed) {
  std::mt19937 g(seed);
  std::uniform_int_distribution<int> d(lo, hi);
  std::vector<int> v(count);
  for (int& x : v) x = d(g);
  return v;
}

TEST(Atomics, HistogramWithFetchAddAndFetchIncIsExact) {
  const int bins = 64;
  const auto data = random_ints(n, 0, 1 << 20, 1);
  std::vector<unsigned> hist_add(bins, 0u);
  std::vector<int> hist_inc(bins, 0);
  array_view<const int, 1> in(n, data);
  array_view<unsigned, 1> ha(bins, hist_add);
  array_view<int, 1> hi(bins, hist_inc);
  parallel_for_each(in.extent, [=](index<1> i) restrict(amp) {
    const int v = in[i];
    atomic_fetch_add(&ha[v % bins], static_cast<unsigned>(v & 3));
    atomic_fetch_inc(&hi[v % bins]);
  });
  std::vector<unsigned> want_add(bins, 0u);
  std::vector<int> want_inc(bins, 0);
  for (int v : data) want_add[v % bins] += v & 3, want_inc[v % bins]++;
  for (int b = 0; b < bins; ++b) {
    EXPECT_EQ(ha[b], want_add[b]) << "bin " << b;
    EXPECT_EQ(hi[b], want_inc[b]) << "bin " << b;
  }
}

// Every old value returned by atomic_fetch_inc/dec on one counter is unique:
// together they are exactly 0..n-1 (and n..1 for dec).
TEST(Atomics, FetchIncAndDecHandOutEveryTicketOnce) {
  std::vector<int> tickets(n), down(n);
  std::vector<int> counters = {0, n};
  array<int, 1> c(2, counters.begin());
  array_view<int, 1> t(n, tickets), d(n, down);
  t.discard_data();
  d.discard_data();
  parallel_for_each(t.extent, [=, &c](index<1> i) restrict(amp) {
    t[i] = atomic_fetch_inc(&c[0]);
    d[i] = atomic_fetch_dec(&c[1]);
  });
  std::vector<int> final_counters = c;
  EXPECT_EQ(final_counters[0], n);
  EXPECT_EQ(final_counters[1], 0);
  std::vector<int> a(tickets.size()), b(down.size());
  for (int i = 0; i < n; ++i) a[i] = t[i], b[i] = d[i];
  std::sort(a.begin(), a.end());
  std::sort(b.begin(), b.end());
  for (int i = 0; i < n; ++i) {
    ASSERT_EQ(a[i], i);
    ASSERT_EQ(b[i], i + 1);
  }
}

TEST(Atomics, MaxMinSubAndBitOperations) {
  const auto data = random_ints(n, INT_MIN / 2, INT_MAX / 2, 2);
  std::vector<int> r = {INT_MIN, INT_MAX, 0, 0, -1, 0};
  std::vector<unsigned> u = {0u, ~0u, 0u};
  array_view<const int, 1> in(n, data);
  array_view<int, 1> ri(6, r);
  array_view<unsigned, 1> ru(3, u);
  parallel_for_each(in.extent, [=](index<1> i) restrict(amp) {
    const int v = in[i];
    atomic_fetch_max(&ri[0], v);
    atomic_fetch_min(&ri[1], v);
    atomic_fetch_sub(&ri[2], v & 0xff);
    atomic_fetch_or(&ri[3], 1 << (i[0] % 31));
    atomic_fetch_and(&ri[4], ~(1 << (i[0] % 29)));
    atomic_fetch_xor(&ri[5], v);
    atomic_fetch_max(&ru[0], static_cast<unsigned>(v));
    atomic_fetch_min(&ru[1], static_cast<unsigned>(v));
    atomic_fetch_xor(&ru[2], static_cast<unsigned>(v) * 2654435761u);
  });
  int mx = INT_MIN, mn = INT_MAX, sub = 0, x = 0;
  unsigned umx = 0, umn = ~0u, ux = 0;
  for (int v : data) {
    mx = std::max(mx, v), mn = std::min(mn, v), sub -= v & 0xff, x ^= v;
    umx = std::max(umx, static_cast<unsigned>(v)), umn = std::min(umn, static_cast<unsigned>(v));
    ux ^= static_cast<unsigned>(v) * 2654435761u;
  }
  EXPECT_EQ(ri[0], mx);
  EXPECT_EQ(ri[1], mn);
  EXPECT_EQ(ri[2], sub);
  EXPECT_EQ(ri[3], 0x7fffffff);
  EXPECT_EQ(ri[4], static_cast<int>(0xe0000000u)); // bits 0..28 cleared
  EXPECT_EQ(ri[5], x);
  EXPECT_EQ(ru[0], umx);
  EXPECT_EQ(ru[1], umn);
  EXPECT_EQ(ru[2], ux);
}

// A float sum and a float max built from atomic_compare_exchange loops on the
// bits (the classic AMP idiom); the sum of n ones is exact in float.
TEST(Atomics, CompareExchangeLoopsAreLinearizable) {
  std::vector<float> vals(n);
  for (int i = 0; i < n; ++i) vals[i] = static_cast<float>((i * 7919) % 100003) * 0.5f;
  std::vector<unsigned> acc = {0u, 0u}; // bits of 0.0f
  array_view<const float, 1> in(n, vals);
  array_view<unsigned, 1> a(2, acc);
  parallel_for_each(in.extent, [=](index<1> i) restrict(amp) {
    unsigned expected = a[0];
    for (;;) {
      float cur;
      const unsigned e = expected;
      __builtin_memcpy(&cur, &e, 4);
      const float next = cur + 1.0f;
      unsigned nb;
      __builtin_memcpy(&nb, &next, 4);
      if (atomic_compare_exchange(&a[0], &expected, nb)) break; // else `expected` holds the value seen
    }
    unsigned m = a[1];
    for (;;) {
      float cur;
      __builtin_memcpy(&cur, &m, 4);
      if (!(in[i] > cur)) break;
      unsigned nb;
      const float v = in[i];
      __builtin_memcpy(&nb, &v, 4);
      if (atomic_compare_exchange(&a[1], &m, nb)) break;
    }
  });
  float sum, mx;
  const unsigned s0 = a[0], s1 = a[1];
  std::memcpy(&sum, &s0, 4);
  std::memcpy(&mx, &s1, 4);
  EXPECT_EQ(sum, static_cast<float>(n));
  EXPECT_EQ(mx, *std::max_element(vals.begin(), vals.end()));
}

// atomic_exchange passes values along a chain: the values returned plus the
// final one are exactly the initial value and every value stored.
TEST(Atomics, ExchangeLosesNoValue) {
  const int m = 1 << 16;
  std::vector<int> olds(m);
  std::vector<float> olds_f(m);
  std::vector<int> slot = {-1};
  std::vector<float> slot_f = {-1.0f};
  array_view<int, 1> o(m, olds), s(1, slot);
  array_view<float, 1> of(m, olds_f), sf(1, slot_f);
  o.discard_data();
  of.discard_data();
  parallel_for_each(o.extent, [=](index<1> i) restrict(amp) {
    o[i] = atomic_exchange(&s[0], i[0]);
    of[i] = atomic_exchange(&sf[0], static_cast<float>(i[0]));
  });
  std::vector<int> all(olds.size() + 1);
  std::vector<float> all_f(olds.size() + 1);
  for (int i = 0; i < m; ++i) all[i] = o[i], all_f[i] = of[i];
  all[m] = s[0];
  all_f[m] = sf[0];
  std::sort(all.begin(), all.end());
  std::sort(all_f.begin(), all_f.end());
  for (int i = 0; i <= m; ++i) {
    ASSERT_EQ(all[i], i - 1);
    ASSERT_EQ(all_f[i], static_cast<float>(i - 1));
  }
}

// tile_static counters: every work-item of a tile increments its tile's
// counter, then the tile adds it to a global total with one atomic.
TEST(Atomics, TileStaticCountersAndGlobalTotals) {
  const int tiles = 512;
  std::vector<int> per_tile(tiles, 0), total(1, 0), order_ok(tiles, 0);
  array_view<int, 1> pt(tiles, per_tile), tot(1, total), ok(tiles, order_ok);
  parallel_for_each(extent<1>(tiles * 256).tile<256>(), [=](tiled_index<256> t) restrict(amp) {
    tile_static int count;
    tile_static unsigned seen;
    if (t.local[0] == 0) count = 0, seen = 0;
    t.barrier.wait();
    const int mine = atomic_fetch_add(&count, 2);
    atomic_fetch_or(&seen, 1u << (mine / 2 % 32));
    t.barrier.wait();
    if (t.local[0] == 0) {
      pt[t.tile[0]] = count;
      ok[t.tile[0]] = seen == ~0u;
      atomic_fetch_add(&tot[0], count);
    }
  });
  for (int i = 0; i < tiles; ++i) {
    EXPECT_EQ(pt[i], 512) << "tile " << i;
    EXPECT_EQ(ok[i], 1) << "tile " << i;
  }
  EXPECT_EQ(tot[0], tiles * 512);
}

} // namespace
