// parallel_for_each (C++ AMP spec 3.4, 4): the eight overloads, the simple
// model for ranks 1..4 with awkward extents, kernels calling restrict(amp) and
// restrict(cpu, amp) functions, function objects and by-value captures. Every
// result is compared with a plain CPU loop.
#include "amp_test_util.h"

using namespace concurrency;
using amp_test::iota;

namespace {

// ---- the simple model: every point of the domain runs exactly once

// Each work-item adds a value that depends on its index to its own element,
// so a point visited twice or never shows up.
template <int N> void check_simple(const extent<N>& e, bool with_view) {
  std::vector<int> data(e.size(), 1);
  array_view<int, N> av(e, data);
  auto body = [=](index<N> i) restrict(amp) {
    int key = 0;
    for (int d = 0; d < N; ++d) key = key * 31 + i[d];
    av[i] += key;
  };
  if (with_view)
    parallel_for_each(amp_test::default_view(), e, body);
  else
    parallel_for_each(e, body);
  av.synchronize();
  for (unsigned l = 0; l < e.size(); ++l) {
    index<N> i;
    unsigned rest = l;
    for (int d = N - 1; d >= 0; --d) {
      i[d] = static_cast<int>(rest % e[d]);
      rest /= e[d];
    }
    int key = 0;
    for (int d = 0; d < N; ++d) key = key * 31 + i[d];
    ASSERT_EQ(data[l], 1 + key) << "linear position " << l;
  }
}

TEST(ParallelForEach, SimpleRank1) {
  check_simple(extent<1>(1), false);
  check_simple(extent<1>(1000), false);
  check_simple(extent<1>(4099), false); // crosses several 1024-element blocks
  check_simple(extent<1>(777), true);
}

TEST(ParallelForEach, SimpleRank2) {
  check_simple(extent<2>(37, 53), false);
  check_simple(extent<2>(3, 2500), false);
  check_simple(extent<2>(1, 1), false);
  check_simple(extent<2>(100, 1), true);
  check_simple(extent<2>(13, 7), true);
}

TEST(ParallelForEach, SimpleRank3) {
  check_simple(extent<3>(7, 11, 13), false);
  check_simple(extent<3>(2, 3, 1500), false);
  check_simple(extent<3>(5, 1, 9), true);
}

TEST(ParallelForEach, SimpleRank4) {
  // AMP's component constructors stop at rank 3: higher ranks from an int array.
  const int small[] = {3, 5, 7, 2}, large[] = {2, 2, 3, 1100};
  check_simple(extent<4>(small), false);
  check_simple(extent<4>(large), true);
}

TEST(ParallelForEach, LargeDomain) {
  const int n = 1 << 20;
  std::vector<float> x(n), y(n);
  for (int i = 0; i < n; ++i) x[i] = static_cast<float>(i % 1000), y[i] = 1.0f;
  array_view<const float, 1> xv(n, x);
  array_view<float, 1> yv(n, y);
  const float a = 2.0f;
  parallel_for_each(yv.extent, [=](index<1> i) restrict(amp) { yv[i] = a * xv[i] + yv[i]; });
  yv.synchronize();
  for (int i = 0; i < n; ++i) ASSERT_EQ(y[i], 2.0f * static_cast<float>(i % 1000) + 1.0f) << i;
}

// ---- the tiled overloads, ranks 1..3, with and without an accelerator_view

template <int D0, int D1, int D2, int N>
void check_tiled(const tiled_extent<D0, D1, D2>& te, bool with_view) {
  const extent<N>& e = te;
  std::vector<int> glob(e.size(), -1), tile_lin(e.size(), -1);
  array_view<int, N> g(e, glob), t(e, tile_lin);
  g.discard_data();
  t.discard_data();
  auto body = [=](tiled_index<D0, D1, D2> ti) restrict(amp) {
    int key = 0, tk = 0;
    for (int d = 0; d < N; ++d) {
      key = key * 1000 + ti.global[d];
      tk = tk * 100 + ti.tile[d];
    }
    g[ti.global] = key;
    t[ti.global] = tk;
  };
  if (with_view)
    parallel_for_each(amp_test::default_view(), te, body);
  else
    parallel_for_each(te, body);
  g.synchronize();
  t.synchronize();
  const extent<N> tx = te.tile_extent;
  for (unsigned l = 0; l < e.size(); ++l) {
    index<N> i;
    unsigned rest = l;
    for (int d = N - 1; d >= 0; --d) {
      i[d] = static_cast<int>(rest % e[d]);
      rest /= e[d];
    }
    int key = 0, tk = 0;
    for (int d = 0; d < N; ++d) {
      key = key * 1000 + i[d];
      tk = tk * 100 + i[d] / tx[d];
    }
    ASSERT_EQ(glob[l], key) << "linear position " << l;
    ASSERT_EQ(tile_lin[l], tk) << "linear position " << l;
  }
}

TEST(ParallelForEach, TiledRank1) {
  check_tiled<64, 0, 0, 1>(extent<1>(640).tile<64>(), false);
  check_tiled<3, 0, 0, 1>(extent<1>(21).tile<3>(), true);
}

TEST(ParallelForEach, TiledRank2) {
  check_tiled<8, 4, 0, 2>(extent<2>(24, 36).tile<8, 4>(), false);
  check_tiled<5, 3, 0, 2>(extent<2>(15, 9).tile<5, 3>(), true);
}

TEST(ParallelForEach, TiledRank3) {
  check_tiled<2, 3, 4, 3>(extent<3>(4, 9, 8).tile<2, 3, 4>(), false);
  check_tiled<1, 2, 8, 3>(extent<3>(3, 4, 16).tile<1, 2, 8>(), true);
}

// parallel_for_each<D0[, D1[, D2]]>(extent, kernel): naming the tile converts
// the extent to the tiled_extent (one overload per tile rank, as in AMP).
TEST(ParallelForEach, TiledWithExplicitTileArguments) {
  std::vector<int> out(8 * 12);
  array_view<int, 2> o(8, 12, out);
  parallel_for_each<4, 4>(o.extent, [=](tiled_index<4, 4> t) restrict(amp) { o[t] = t.tile[0] * 10 + t.tile[1]; });
  o.synchronize();
  EXPECT_EQ(out[0], 0);
  EXPECT_EQ(out[5 * 12 + 9], 12);
  std::vector<int> out1(32);
  array_view<int, 1> o1(32, out1);
  parallel_for_each<8>(accelerator().default_view, o1.extent,
                       [=](tiled_index<8> t) restrict(amp) { o1[t] = t.local[0]; });
  o1.synchronize();
  EXPECT_EQ(out1[13], 5);
}

// A kernel whose call operator is not const (a `mutable` lambda in AMP
// code; a function object here, as Clang CUDA does not parse `mutable
// __host__ __device__` lambdas): each work-item changes only its own copy.
struct counting_kernel {
  int counter;
  array_view<int, 1> o;
  void operator()(index<1> i) restrict(amp) {
    counter += i[0]; // starts at 100 for every work-item
    o[i] = counter;
  }
};
struct tile_counting_kernel {
  int counter;
  array_view<int, 1> o;
  void operator()(tiled_index<16> t) restrict(amp) {
    counter -= t.local[0];
    o[t] = counter;
  }
};

TEST(ParallelForEach, NonConstKernelHasPerWorkItemCopies) {
  std::vector<int> out(256);
  counting_kernel k{100, array_view<int, 1>(256, out)};
  parallel_for_each(k.o.extent, k);
  k.o.synchronize();
  for (int i = 0; i < 256; ++i) ASSERT_EQ(out[i], 100 + i) << i;
  EXPECT_EQ(k.counter, 100);
  std::vector<int> tout(64);
  tile_counting_kernel tk{100, array_view<int, 1>(64, tout)};
  parallel_for_each(tk.o.extent.tile<16>(), tk);
  tk.o.synchronize();
  for (int i = 0; i < 64; ++i) ASSERT_EQ(tout[i], 100 - i % 16) << i;
}

// ---- what kernels may call

int square(int x) restrict(amp) { return x * x; }
template <class T> T clamp_to(T x, T lo, T hi) restrict(amp) { return x < lo ? lo : (x > hi ? hi : x); }
float lerp(float a, float b, float t) restrict(cpu, amp) { return a + (b - a) * t; }
int nested(int x) restrict(amp) { return square(x) + clamp_to(x, 0, 5); }

struct accumulator {
  int total;
  void add(int x) restrict(amp) { total += x; }
  int get() const restrict(amp) { return total; }
};

TEST(ParallelForEach, KernelCallsRestrictAmpFunctions) {
  std::vector<int> out(20);
  array_view<int, 1> o(20, out);
  o.discard_data();
  parallel_for_each(o.extent, [=](index<1> i) restrict(amp) {
    accumulator acc{0};
    for (int k = 0; k <= i[0]; ++k) acc.add(square(k));
    o[i] = acc.get() * 1000 + nested(i[0]);
  });
  o.synchronize();
  for (int i = 0; i < 20; ++i) {
    int s = 0;
    for (int k = 0; k <= i; ++k) s += k * k;
    EXPECT_EQ(out[i], s * 1000 + i * i + std::min(i, 5)) << i;
  }
}

TEST(ParallelForEach, CpuAmpFunctionCallableFromBoth) {
  std::vector<float> out(11);
  array_view<float, 1> o(11, out);
  o.discard_data();
  parallel_for_each(o.extent, [=](index<1> i) restrict(amp) { o[i] = lerp(10.0f, 20.0f, i[0] / 10.0f); });
  o.synchronize();
  for (int i = 0; i < 11; ++i) EXPECT_EQ(out[i], lerp(10.0f, 20.0f, i / 10.0f)) << i;
  EXPECT_EQ(lerp(0.0f, 4.0f, 0.25f), 1.0f);
}

// ---- captures

struct params {
  int offset;
  float scale;
  char tag;
  double bias;
};

struct with_view {
  int k;
  array_view<int, 1> target;
};

TEST(ParallelForEach, CaptureStructsByValue) {
  const params p{7, 0.5f, 'x', 0.25};
  std::vector<double> out(64);
  array_view<double, 1> o(64, out);
  o.discard_data();
  parallel_for_each(o.extent, [=](index<1> i) restrict(amp) {
    o[i] = (i[0] + p.offset) * p.scale + p.bias + (p.tag == 'x' ? 1000.0 : 0.0);
  });
  o.synchronize();
  for (int i = 0; i < 64; ++i) EXPECT_EQ(out[i], (i + 7) * 0.5f + 0.25 + 1000.0) << i;

  // A struct holding an array_view, captured by value, writes through the view.
  std::vector<int> w(32, 0);
  with_view s{3, array_view<int, 1>(32, w)};
  const char pad = 1; // odd-sized capture before the struct
  parallel_for_each(extent<1>(32), [=](index<1> i) restrict(amp) { s.target[i] = i[0] * s.k + pad; });
  s.target.synchronize();
  for (int i = 0; i < 32; ++i) EXPECT_EQ(w[i], 3 * i + 1) << i;
}

TEST(ParallelForEach, ManyCapturedViews) {
  const int n = 300;
  std::vector<int> a = iota(n), b = iota(n, 1), c(n), d(n);
  array_view<const int, 1> av(n, a), bv(n, b);
  array_view<int, 1> cv(n, c), dv(n, d);
  const int k1 = 3, k2 = 5;
  const short s = 2;
  parallel_for_each(cv.extent, [=](index<1> i) restrict(amp) {
    cv[i] = av[i] * k1 + s;
    dv[i] = bv[i] * k2 - s;
  });
  cv.synchronize();
  dv.synchronize();
  for (int i = 0; i < n; ++i) {
    ASSERT_EQ(c[i], 3 * i + 2);
    ASSERT_EQ(d[i], 5 * (i + 1) - 2);
  }
}

// Views in a C array inside a captured struct.
struct view_set {
  array_view<int, 1> v[3];
};

TEST(ParallelForEach, CaptureArrayOfViewsInStruct) {
  std::vector<int> a(16, 0), b(16, 0), c(16, 0);
  view_set set{{array_view<int, 1>(16, a), array_view<int, 1>(16, b), array_view<int, 1>(16, c)}};
  parallel_for_each(extent<1>(16), [=](index<1> i) restrict(amp) {
    for (int k = 0; k < 3; ++k) set.v[k][i] = (k + 1) * 100 + i[0];
  });
  for (auto& v : set.v) v.synchronize();
  for (int i = 0; i < 16; ++i) {
    EXPECT_EQ(a[i], 100 + i);
    EXPECT_EQ(b[i], 200 + i);
    EXPECT_EQ(c[i], 300 + i);
  }
}

// A closure larger than a GPU's kernel-parameter space (4 KB): a lookup table
// captured by value.
struct table {
  int entries[2048];
};

TEST(ParallelForEach, LargeClosureCapturedByValue) {
  table t;
  for (int k = 0; k < 2048; ++k) t.entries[k] = k * 7 % 2048;
  std::vector<int> out(4096);
  array_view<int, 1> o(4096, out);
  o.discard_data();
  parallel_for_each(o.extent, [=](index<1> i) restrict(amp) { o[i] = t.entries[i[0] % 2048] + t.entries[2047]; });
  o.synchronize();
  for (int i = 0; i < 4096; ++i) ASSERT_EQ(out[i], (i % 2048) * 7 % 2048 + 2047 * 7 % 2048) << i;
  // The same closure in a tiled kernel with a barrier (on a GPU, closures over
  // 4 KB take a different launch path from small ones).
  std::vector<int> out2(4096);
  array_view<int, 1> o2(4096, out2);
  o2.discard_data();
  parallel_for_each(o2.extent.tile<256>(), [=](tiled_index<256> ti) restrict(amp) {
    tile_static int s[256];
    s[ti.local[0]] = t.entries[ti.global[0] % 2048];
    ti.barrier.wait();
    o2[ti.global] = s[255 - ti.local[0]];
  });
  o2.synchronize();
  for (int i = 0; i < 4096; ++i) ASSERT_EQ(out2[i], (i / 256 * 256 + 255 - i % 256) % 2048 * 7 % 2048) << i;
}

TEST(ParallelForEach, TiledDomainWithManyTiles) {
  // More tiles than a GPU grid's y/z limit (65535), each with a barrier.
  const int tiles = 100000, n = 4 * tiles;
  std::vector<int> out(n);
  array_view<int, 1> o(n, out);
  o.discard_data();
  parallel_for_each(o.extent.tile<4>(), [=](tiled_index<4> t) restrict(amp) {
    tile_static int s[4];
    s[t.local[0]] = t.global[0];
    t.barrier.wait();
    o[t] = s[3 - t.local[0]];
  });
  o.synchronize();
  for (int i = 0; i < n; ++i) ASSERT_EQ(out[i], i / 4 * 4 + 3 - i % 4) << i;
  // And a rank-2 simple domain with many short rows.
  std::vector<int> rows(3 << 18);
  array_view<int, 2> r(1 << 18, 3, rows);
  r.discard_data();
  parallel_for_each(r.extent, [=](index<2> i) restrict(amp) { r[i] = i[0] * 3 + i[1]; });
  r.synchronize();
  for (int i = 0; i < (3 << 18); ++i) ASSERT_EQ(rows[i], i);
  // Rows of 40 (wide enough for 2-D GPU blocks), more row groups than the y limit.
  const int nr = 300000;
  std::vector<int> wide((size_t)nr * 40);
  array_view<int, 2> w(nr, 40, wide);
  w.discard_data();
  parallel_for_each(w.extent, [=](index<2> i) restrict(amp) { w[i] = i[0] * 40 + i[1]; });
  w.synchronize();
  for (int i = 0; i < nr * 40; ++i) ASSERT_EQ(wide[i], i);
  // A rank-2 tiled domain with more tile rows than the y limit.
  std::vector<int> tt((size_t)70000 * 2 * 4);
  array_view<int, 2> tv(70000 * 2, 4, tt);
  tv.discard_data();
  parallel_for_each(tv.extent.tile<2, 4>(), [=](tiled_index<2, 4> ti) restrict(amp) {
    tile_static int s[2][4];
    s[ti.local[0]][ti.local[1]] = ti.tile[0];
    ti.barrier.wait();
    tv[ti.global] = s[1 - ti.local[0]][3 - ti.local[1]] * 8 + ti.local[0] * 4 + ti.local[1];
  });
  tv.synchronize();
  for (int i = 0; i < 70000 * 8; ++i) ASSERT_EQ(tt[i], i) << i;
}

// A function object, as AMP allows besides lambdas.
struct saxpy {
  float a;
  array_view<const float, 1> x;
  array_view<float, 1> y;
  void operator()(index<1> i) const restrict(amp) { y[i] = a * x[i] + y[i]; }
};

TEST(ParallelForEach, FunctionObjectKernel) {
  std::vector<float> x = iota<float>(100), y(100, 1.0f);
  saxpy k{3.0f, array_view<const float, 1>(100, x), array_view<float, 1>(100, y)};
  parallel_for_each(k.y.extent, k);
  k.y.synchronize();
  for (int i = 0; i < 100; ++i) EXPECT_EQ(y[i], 3.0f * i + 1.0f);
}

TEST(ParallelForEach, KernelWithLoopsAndBranches) {
  const int n = 200;
  std::vector<int> out(n);
  array_view<int, 1> o(n, out);
  o.discard_data();
  // Collatz step counts: data-dependent loop lengths per work-item.
  parallel_for_each(o.extent, [=](index<1> i) restrict(amp) {
    long long x = i[0] + 1;
    int steps = 0;
    while (x != 1) {
      x = (x % 2) ? 3 * x + 1 : x / 2;
      ++steps;
    }
    o[i] = steps;
  });
  o.synchronize();
  for (int i = 0; i < n; ++i) {
    long long x = i + 1;
    int steps = 0;
    while (x != 1) {
      x = (x % 2) ? 3 * x + 1 : x / 2;
      ++steps;
    }
    ASSERT_EQ(out[i], steps) << i;
  }
}

TEST(ParallelForEach, DoublePrecisionAndMixedTypes) {
  const int n = 256;
  std::vector<double> out(n);
  std::vector<unsigned char> bytes(n);
  array_view<double, 1> o(n, out);
  array_view<unsigned, 1> packed(n / 4, reinterpret_cast<unsigned*>(bytes.data()));
  o.discard_data();
  parallel_for_each(o.extent, [=](index<1> i) restrict(amp) { o[i] = 1.0 / (i[0] + 1); });
  parallel_for_each(packed.extent, [=](index<1> i) restrict(amp) {
    const unsigned b = static_cast<unsigned>(i[0] * 4);
    packed[i] = b | ((b + 1) << 8) | ((b + 2) << 16) | ((b + 3) << 24);
  });
  o.synchronize();
  packed.synchronize();
  for (int i = 0; i < n; ++i) {
    EXPECT_EQ(out[i], 1.0 / (i + 1));
    EXPECT_EQ(bytes[i], static_cast<unsigned char>(i)); // little-endian on every supported target
  }
}

} // namespace
