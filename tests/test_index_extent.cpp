// index<N>, extent<N> (C++ AMP spec 4.1, 4.2) and tiled_extent (4.3): host-side
// value semantics, rank-generic over ranks 1..4, plus the same operators used
// inside a kernel.
#include "amp_test_util.h"

#include <type_traits>

using namespace concurrency;

namespace {

template <int N> struct Rank {
  static constexpr int value = N;
};
template <class R> class IndexExtentTest : public ::testing::Test {};
using Ranks = ::testing::Types<Rank<1>, Rank<2>, Rank<3>, Rank<4>>;
TYPED_TEST_SUITE(IndexExtentTest, Ranks);

// {base, base+1, base+2, ...}
template <int N> index<N> make_index(int base) {
  int c[N];
  for (int d = 0; d < N; ++d) c[d] = base + d;
  return index<N>(c);
}
template <int N> extent<N> make_extent(int base) {
  int c[N];
  for (int d = 0; d < N; ++d) c[d] = base + d;
  return extent<N>(c);
}

TYPED_TEST(IndexExtentTest, DefaultConstructionIsAllZero) {
  constexpr int N = TypeParam::value;
  index<N> i;
  extent<N> e;
  for (int d = 0; d < N; ++d) {
    EXPECT_EQ(i[d], 0) << "dimension " << d;
    EXPECT_EQ(e[d], 0) << "dimension " << d;
  }
}

TYPED_TEST(IndexExtentTest, ConstructionFromComponentArrayAndCopy) {
  constexpr int N = TypeParam::value;
  int c[N];
  for (int d = 0; d < N; ++d) c[d] = 10 * d + 3;
  const index<N> i(c);
  const extent<N> e(c);
  const index<N> ic(i);
  extent<N> ea;
  ea = e;
  for (int d = 0; d < N; ++d) {
    EXPECT_EQ(i[d], c[d]);
    EXPECT_EQ(e[d], c[d]);
    EXPECT_EQ(ic[d], c[d]);
    EXPECT_EQ(ea[d], c[d]);
  }
  static_assert(index<N>::rank == N, "index::rank");
  static_assert(extent<N>::rank == N, "extent::rank");
  static_assert(std::is_same<typename index<N>::value_type, int>::value, "index::value_type");
}

TYPED_TEST(IndexExtentTest, SubscriptIsWritable) {
  constexpr int N = TypeParam::value;
  index<N> i;
  extent<N> e;
  for (int d = 0; d < N; ++d) {
    i[d] = d + 7;
    e[d] = 2 * d + 1;
  }
  for (int d = 0; d < N; ++d) {
    EXPECT_EQ(i[d], d + 7);
    EXPECT_EQ(e[d], 2 * d + 1);
  }
}

TYPED_TEST(IndexExtentTest, IndexArithmeticWithIndex) {
  constexpr int N = TypeParam::value;
  const index<N> a = make_index<N>(10), b = make_index<N>(3);
  const index<N> sum = a + b, diff = a - b;
  index<N> acc = a;
  acc += b;
  acc += b;
  acc -= a;
  for (int d = 0; d < N; ++d) {
    EXPECT_EQ(sum[d], 13 + 2 * d);
    EXPECT_EQ(diff[d], 7);
    EXPECT_EQ(acc[d], 2 * (3 + d));
  }
}

TYPED_TEST(IndexExtentTest, IndexArithmeticWithScalar) {
  constexpr int N = TypeParam::value;
  const index<N> a = make_index<N>(6); // 6, 7, 8, 9
  const index<N> p1 = a + 2, p2 = 2 + a, m1 = a - 2, m2 = 20 - a;
  const index<N> t1 = a * 3, t2 = 3 * a, q1 = a / 2, q2 = 60 / a, r1 = a % 4, r2 = 13 % a;
  for (int d = 0; d < N; ++d) {
    const int x = 6 + d;
    EXPECT_EQ(p1[d], x + 2);
    EXPECT_EQ(p2[d], x + 2);
    EXPECT_EQ(m1[d], x - 2);
    EXPECT_EQ(m2[d], 20 - x);
    EXPECT_EQ(t1[d], 3 * x);
    EXPECT_EQ(t2[d], 3 * x);
    EXPECT_EQ(q1[d], x / 2);
    EXPECT_EQ(q2[d], 60 / x);
    EXPECT_EQ(r1[d], x % 4);
    EXPECT_EQ(r2[d], 13 % x);
  }
  index<N> c = a;
  c += 5;
  c -= 1;
  c *= 2;
  c /= 4;
  c %= 5;
  for (int d = 0; d < N; ++d) EXPECT_EQ(c[d], ((6 + d + 4) * 2 / 4) % 5);
}

TYPED_TEST(IndexExtentTest, IncrementAndDecrement) {
  constexpr int N = TypeParam::value;
  index<N> a = make_index<N>(0);
  const index<N> old = a++;
  for (int d = 0; d < N; ++d) {
    EXPECT_EQ(old[d], d);
    EXPECT_EQ(a[d], d + 1);
  }
  const index<N> pre = ++a;
  for (int d = 0; d < N; ++d) {
    EXPECT_EQ(pre[d], d + 2);
    EXPECT_EQ(a[d], d + 2);
  }
  const index<N> old2 = a--;
  const index<N> pre2 = --a;
  for (int d = 0; d < N; ++d) {
    EXPECT_EQ(old2[d], d + 2);
    EXPECT_EQ(pre2[d], d);
    EXPECT_EQ(a[d], d);
  }
  extent<N> e = make_extent<N>(5);
  ++e;
  e++;
  --e;
  for (int d = 0; d < N; ++d) EXPECT_EQ(e[d], 6 + d);
}

TYPED_TEST(IndexExtentTest, ExtentArithmetic) {
  constexpr int N = TypeParam::value;
  const extent<N> e = make_extent<N>(10); // 10, 11, ...
  const extent<N> f = make_extent<N>(1);  // 1, 2, ...
  const index<N> i = make_index<N>(2);    // 2, 3, ...
  const extent<N> ee = e + f, ed = e - f, ei = e + i, emi = e - i;
  const extent<N> s1 = e + 1, s2 = 1 + e, s3 = e - 1, s4 = 30 - e, s5 = e * 2, s6 = 2 * e, s7 = e / 2,
                  s8 = e % 3;
  for (int d = 0; d < N; ++d) {
    const int x = 10 + d;
    EXPECT_EQ(ee[d], x + 1 + d);
    EXPECT_EQ(ed[d], 9);
    EXPECT_EQ(ei[d], x + 2 + d);
    EXPECT_EQ(emi[d], 8);
    EXPECT_EQ(s1[d], x + 1);
    EXPECT_EQ(s2[d], x + 1);
    EXPECT_EQ(s3[d], x - 1);
    EXPECT_EQ(s4[d], 30 - x);
    EXPECT_EQ(s5[d], 2 * x);
    EXPECT_EQ(s6[d], 2 * x);
    EXPECT_EQ(s7[d], x / 2);
    EXPECT_EQ(s8[d], x % 3);
  }
  extent<N> c = e;
  c += f;
  c -= i;
  c += 3;
  c *= 2;
  c /= 3;
  c %= 7;
  c -= 0;
  for (int d = 0; d < N; ++d) EXPECT_EQ(c[d], ((10 + d + 1 + d - 2 - d + 3) * 2 / 3) % 7);
  extent<N> g = e;
  g += i;
  g -= f;
  for (int d = 0; d < N; ++d) EXPECT_EQ(g[d], 10 + d + 2 + d - 1 - d);
}

TYPED_TEST(IndexExtentTest, Comparisons) {
  constexpr int N = TypeParam::value;
  const index<N> a = make_index<N>(4), b = make_index<N>(4);
  EXPECT_TRUE(a == b);
  EXPECT_FALSE(a != b);
  for (int d = 0; d < N; ++d) {
    index<N> c = a;
    c[d] += 1;
    EXPECT_FALSE(a == c) << "differs in dimension " << d;
    EXPECT_TRUE(a != c) << "differs in dimension " << d;
    extent<N> e = make_extent<N>(4), f = make_extent<N>(4);
    EXPECT_TRUE(e == f);
    f[d] -= 1;
    EXPECT_TRUE(e != f);
    EXPECT_FALSE(e == f);
  }
}

TYPED_TEST(IndexExtentTest, SizeIsProductOfDimensions) {
  constexpr int N = TypeParam::value;
  const extent<N> e = make_extent<N>(3); // 3, 4, 5, 6
  unsigned expected = 1;
  for (int d = 0; d < N; ++d) expected *= 3 + d;
  EXPECT_EQ(e.size(), expected);
  static_assert(std::is_same<decltype(e.size()), unsigned int>::value, "extent::size() returns unsigned int");
  int ones[N];
  for (int d = 0; d < N; ++d) ones[d] = 1;
  EXPECT_EQ(extent<N>(ones).size(), 1u);
}

TYPED_TEST(IndexExtentTest, Contains) {
  constexpr int N = TypeParam::value;
  const extent<N> e = make_extent<N>(3); // 3, 4, ...
  EXPECT_TRUE(e.contains(index<N>()));
  index<N> last;
  for (int d = 0; d < N; ++d) last[d] = e[d] - 1;
  EXPECT_TRUE(e.contains(last));
  for (int d = 0; d < N; ++d) {
    index<N> past = last;
    past[d] += 1;
    EXPECT_FALSE(e.contains(past)) << "one past the end in dimension " << d;
    index<N> neg;
    neg[d] = -1;
    EXPECT_FALSE(e.contains(neg)) << "negative in dimension " << d;
  }
}

// AMP declares the rank-1 and component-array constructors explicit.
TEST(IndexExtent, SingleComponentConstructorsAreExplicit) {
  EXPECT_FALSE((std::is_convertible<int, index<1>>::value)) << "index<1> i = 5; must not compile (explicit index(int))";
  EXPECT_FALSE((std::is_convertible<int, extent<1>>::value))
      << "extent<1> e = 5; must not compile (explicit extent(int))";
  EXPECT_FALSE((std::is_convertible<const int*, index<2>>::value));
  EXPECT_TRUE((std::is_constructible<index<1>, int>::value));
  EXPECT_TRUE((std::is_constructible<extent<1>, int>::value));
}

TEST(IndexExtent, ThreeComponentConstructors) {
  index<1> i1(4);
  index<2> i2(4, 5);
  index<3> i3(4, 5, 6);
  extent<1> e1(7);
  extent<2> e2(7, 8);
  extent<3> e3(7, 8, 9);
  EXPECT_EQ(i1[0], 4);
  EXPECT_EQ(i2[0], 4);
  EXPECT_EQ(i2[1], 5);
  EXPECT_EQ(i3[2], 6);
  EXPECT_EQ(e1[0], 7);
  EXPECT_EQ(e2[1], 8);
  EXPECT_EQ(e3[0], 7);
  EXPECT_EQ(e3[2], 9);
  EXPECT_EQ(e3.size(), 7u * 8u * 9u);
}

// ---- tile<>() and tiled_extent

// Same-type sums and differences are non-member operators in AMP: callable
// by name, and on the host and in kernels alike.
TEST(IndexExtent, SameTypeOperatorsAreNonMembers) {
  const index<3> a(4, 4, 4), b(2, 3, 1);
  EXPECT_EQ(operator+(a, b), index<3>(6, 7, 5));
  EXPECT_EQ(operator-(a, b), index<3>(2, 1, 3));
  const extent<2> e(5, 6), f(1, 2);
  EXPECT_EQ(operator+(e, f), extent<2>(6, 8));
  EXPECT_EQ(operator-(e, f), extent<2>(4, 4));
  EXPECT_EQ(e + index<2>(1, 1), extent<2>(6, 7)); // extent + index stays a member
  std::vector<int> out(3);
  array_view<int, 1> o(3, out);
  parallel_for_each(extent<1>(1), [=](index<1>) restrict(amp) {
    const index<3> s = operator+(index<3>(1, 2, 3), index<3>(10, 20, 30));
    for (int d = 0; d < 3; ++d) o[d] = s[d];
  });
  o.synchronize();
  EXPECT_EQ(out, std::vector<int>({11, 22, 33}));
}

TEST(TiledExtent, TileReturnsTiledExtentOfSameShape) {
  const extent<1> e1(100);
  const extent<2> e2(64, 48);
  const extent<3> e3(8, 16, 32);
  auto t1 = e1.tile<20>();
  auto t2 = e2.tile<16, 8>();
  auto t3 = e3.tile<2, 4, 8>();
  static_assert(std::is_same<decltype(t1), tiled_extent<20>>::value, "extent<1>::tile<D0>");
  static_assert(std::is_same<decltype(t2), tiled_extent<16, 8>>::value, "extent<2>::tile<D0,D1>");
  static_assert(std::is_same<decltype(t3), tiled_extent<2, 4, 8>>::value, "extent<3>::tile<D0,D1,D2>");
  static_assert(tiled_extent<20>::rank == 1 && tiled_extent<16, 8>::rank == 2 && tiled_extent<2, 4, 8>::rank == 3,
                "tiled_extent::rank");
  static_assert(tiled_extent<16, 8>::tile_dim0 == 16 && tiled_extent<16, 8>::tile_dim1 == 8, "tile_dim0/1");
  static_assert(tiled_extent<2, 4, 8>::tile_dim2 == 8, "tile_dim2");
  // The tiled extent keeps the extent it was made from.
  EXPECT_EQ(static_cast<const extent<1>&>(t1), e1);
  EXPECT_EQ(static_cast<const extent<2>&>(t2), e2);
  EXPECT_EQ(static_cast<const extent<3>&>(t3), e3);
  EXPECT_EQ(t2[0], 64);
  EXPECT_EQ(t2[1], 48);
  EXPECT_EQ(t3.size(), 8u * 16u * 32u);
}

TEST(TiledExtent, TileExtentPropertyAndGetter) {
  const auto t1 = extent<1>(256).tile<64>();
  const auto t2 = extent<2>(32, 32).tile<16, 8>();
  const auto t3 = extent<3>(8, 8, 8).tile<2, 4, 8>();
  EXPECT_EQ(t1.tile_extent, extent<1>(64));
  EXPECT_EQ(t1.get_tile_extent(), extent<1>(64));
  EXPECT_EQ(t2.tile_extent, extent<2>(16, 8));
  EXPECT_EQ(t2.get_tile_extent(), extent<2>(16, 8));
  EXPECT_EQ(t3.tile_extent, extent<3>(2, 4, 8));
  EXPECT_EQ(t3.get_tile_extent(), extent<3>(2, 4, 8));
  EXPECT_EQ(t3.tile_extent[2], 8);
}

TEST(TiledExtent, PadRoundsUpToTileMultiples) {
  const auto p1 = extent<1>(100).tile<64>().pad();
  const auto p2 = extent<2>(10, 17).tile<4, 8>().pad();
  const auto p3 = extent<3>(10, 9, 17).tile<4, 4, 4>().pad();
  static_assert(std::is_same<std::decay_t<decltype(p2)>, tiled_extent<4, 8>>::value, "pad() returns tiled_extent");
  EXPECT_EQ(static_cast<const extent<1>&>(p1), extent<1>(128));
  EXPECT_EQ(static_cast<const extent<2>&>(p2), extent<2>(12, 24));
  EXPECT_EQ(static_cast<const extent<3>&>(p3), extent<3>(12, 12, 20));
  // Already divisible: unchanged.
  EXPECT_EQ(static_cast<const extent<2>&>(extent<2>(16, 32).tile<4, 8>().pad()), extent<2>(16, 32));
  EXPECT_EQ(p2.tile_extent, extent<2>(4, 8));
}

TEST(TiledExtent, TruncateRoundsDownToTileMultiples) {
  const auto t1 = extent<1>(100).tile<64>().truncate();
  const auto t2 = extent<2>(10, 17).tile<4, 8>().truncate();
  const auto t3 = extent<3>(10, 9, 17).tile<4, 4, 4>().truncate();
  static_assert(std::is_same<std::decay_t<decltype(t3)>, tiled_extent<4, 4, 4>>::value,
                "truncate() returns tiled_extent");
  EXPECT_EQ(static_cast<const extent<1>&>(t1), extent<1>(64));
  EXPECT_EQ(static_cast<const extent<2>&>(t2), extent<2>(8, 16));
  EXPECT_EQ(static_cast<const extent<3>&>(t3), extent<3>(8, 8, 16));
  EXPECT_EQ(static_cast<const extent<2>&>(extent<2>(16, 32).tile<4, 8>().truncate()), extent<2>(16, 32));
}

TEST(TiledExtent, ComparisonAndCopy) {
  const auto a = extent<2>(8, 8).tile<4, 4>();
  auto b = extent<2>(8, 8).tile<4, 4>();
  const auto c = extent<2>(8, 12).tile<4, 4>();
  EXPECT_TRUE(a == b);
  EXPECT_FALSE(a != b);
  EXPECT_TRUE(a != c);
  b = c;
  EXPECT_TRUE(b == c);
  EXPECT_EQ(b.tile_extent, extent<2>(4, 4));
  tiled_extent<4, 4> d(extent<2>(16, 4));
  EXPECT_EQ(d[0], 16);
  EXPECT_EQ(d.get_tile_extent(), extent<2>(4, 4));
}

// The same operators compiled for, and run on, the accelerator.
int kernel_value(const index<3>& i, const extent<3>& e) restrict(amp) {
  index<3> j = i + index<3>(1, 2, 3);
  j -= 1;
  j = j * 2;
  j = 1 + j;
  extent<3> f = e + 1;
  const int inside = f.contains(j) ? 1 : 0;
  return j[0] * 10000 + j[1] * 100 + j[2] + (inside << 20) + static_cast<int>(e.size()) * 0;
}

TEST(IndexExtent, OperatorsInsideKernel) {
  const extent<3> e(3, 4, 5);
  std::vector<int> out(e.size());
  array_view<int, 3> av(e, out);
  av.discard_data();
  parallel_for_each(e, [=](index<3> i) restrict(amp) { av[i] = kernel_value(i, av.extent); });
  av.synchronize();
  for (int a = 0; a < 3; ++a)
    for (int b = 0; b < 4; ++b)
      for (int c = 0; c < 5; ++c) {
        const index<3> i(a, b, c);
        EXPECT_EQ(out[(a * 4 + b) * 5 + c], kernel_value(i, e)) << a << "," << b << "," << c;
      }
}

} // namespace
