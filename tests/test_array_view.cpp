// array_view<T,N> and array_view<const T,N> (C++ AMP spec 5.2): data sources,
// sections, projections, reshaping and the coherence operations. Host data
// behind a view is only read after synchronize(), the view's destruction, or
// through the view itself (implicit synchronisation), as AMP requires.
#include "amp_test_util.h"

#include <cstring>
#include <memory>
#include <type_traits>

using namespace concurrency;
using amp_test::iota;

namespace {

struct pair_int_fwd {
  int a, b;
};

// ---- data sources

TEST(ArrayView, OverVectorRank1To3) {
  std::vector<int> v1 = iota(10), v2 = iota(12), v3 = iota(24);
  array_view<int, 1> a1(10, v1);
  array_view<int, 2> a2(3, 4, v2);
  array_view<int, 3> a3(2, 3, 4, v3);
  array_view<int, 2> a2e(extent<2>(4, 3), v2);
  EXPECT_EQ(a1.extent, extent<1>(10));
  EXPECT_EQ(a2.extent, extent<2>(3, 4));
  EXPECT_EQ(a3.extent, extent<3>(2, 3, 4));
  EXPECT_EQ(a2e.extent, extent<2>(4, 3));
  EXPECT_EQ(a1[7], 7);
  EXPECT_EQ(a2(2, 1), 9);
  EXPECT_EQ(a2[index<2>(1, 3)], 7);
  EXPECT_EQ(a2e(3, 0), 9);
  EXPECT_EQ(a3(1, 2, 3), 23);
  EXPECT_EQ(a3[index<3>(1, 0, 2)], 14);
  EXPECT_EQ(a3(index<3>(0, 2, 1)), 9);
}

// C++17 code deduces the view's type from the array (`array_view u =
// *opt_array;`, a public marker solver), as Visual C++'s implicit guide does.
TEST(ArrayView, DeducedFromAnArray) {
  array<int, 2> a(2, 3);
  array_view v = a;
  static_assert(std::is_same<decltype(v), array_view<int, 2>>::value, "deduced from array<int, 2>&");
  const array<int, 2>& ca = a;
  array_view cv = ca;
  static_assert(std::is_same<decltype(cv), array_view<const int, 2>>::value, "const array: a view of const");
  v(1, 2) = 5;
  EXPECT_EQ(cv(1, 2), 5);
  EXPECT_EQ(v.extent, a.extent);
}

TEST(ArrayView, OverPointerAndCArray) {
  std::vector<float> v = iota<float>(12);
  array_view<float, 1> p1(12, v.data());
  array_view<float, 2> p2(3, 4, v.data());
  array_view<float, 2> pe(extent<2>(2, 6), v.data());
  int c[2][3][4];
  for (int i = 0; i < 24; ++i) (&c[0][0][0])[i] = 100 + i;
  array_view<int, 3> c3(2, 3, 4, &c[0][0][0]);
  int flat[6] = {5, 4, 3, 2, 1, 0};
  array_view<int, 1> c1(6, flat);
  EXPECT_EQ(p1[11], 11.0f);
  EXPECT_EQ(p2(1, 1), 5.0f);
  EXPECT_EQ(pe(1, 0), 6.0f);
  EXPECT_EQ(c3(1, 1, 1), 117);
  EXPECT_EQ(c1[0], 5);
  EXPECT_EQ(c1[5], 0);

  parallel_for_each(c3.extent, [=](index<3> i) restrict(amp) { c3[i] *= 2; });
  parallel_for_each(p2.extent, [=](index<2> i) restrict(amp) { p2[i] += 0.5f; });
  c3.synchronize();
  p2.synchronize();
  for (int i = 0; i < 24; ++i) EXPECT_EQ((&c[0][0][0])[i], 2 * (100 + i));
  for (int i = 0; i < 12; ++i) EXPECT_EQ(v[i], i + 0.5f);
}

// Visual Studio 2013's rank-1 constructors: the whole container (its size
// is the extent) and a C array, on the host and inside a kernel.
TEST(ArrayView, WholeContainerAndCArrayRank1) {
  std::vector<int> v = iota(10);
  const std::vector<float> cf = iota<float>(4);
  int raw[6] = {6, 5, 4, 3, 2, 1};
  array_view<int, 1> a(v);
  array_view<const float, 1> b(cf);
  array_view<int, 1> c(raw);
  static_assert(!std::is_convertible<std::vector<int>&, array_view<int, 1>>::value, "explicit, as in Visual Studio");
  EXPECT_EQ(a.extent, extent<1>(10));
  EXPECT_EQ(b.extent, extent<1>(4));
  EXPECT_EQ(c.extent, extent<1>(6));
  parallel_for_each(a.extent, [=](index<1> i) restrict(amp) {
    int local[3] = {i[0], 2 * i[0], 3};
    array_view<int, 1> l(local);
    a[i] += l[1] + static_cast<int>(b[i[0] % 4]) + c[i[0] % 6] + l.extent[0];
  });
  a.synchronize();
  for (int i = 0; i < 10; ++i) EXPECT_EQ(v[i], i + 2 * i + i % 4 + raw[i % 6] + 3);
}

TEST(ArrayView, OverArray) {
  array<int, 2> a(4, 5);
  array_view<int, 2> av(a);
  EXPECT_EQ(av.extent, a.extent);
  parallel_for_each(av.extent, [=](index<2> i) restrict(amp) { av[i] = i[0] * 10 + i[1]; });
  std::vector<int> out = a; // the array holds what was written through the view
  for (int r = 0; r < 4; ++r)
    for (int c = 0; c < 5; ++c) EXPECT_EQ(out[r * 5 + c], r * 10 + c);
  EXPECT_EQ(av(3, 4), 34);
  const array<int, 2>& ca = a;
  array_view<const int, 2> cv(ca);
  EXPECT_EQ(cv(2, 3), 23);
}

// array_view(array&) is restrict(cpu, amp): a kernel that captures arrays by
// reference may make views of them (and of a const array, const views).
TEST(ArrayView, OverArrayInsideAKernel) {
  const std::vector<int> init = iota(64, 1);
  array<int, 1> src(64, init.begin(), init.end());
  array<int, 1> dst(64);
  parallel_for_each(dst.extent, [&src, &dst](index<1> i) restrict(amp) {
    array_view<int, 1> s(src);
    const array<int, 1>& csrc = src;
    array_view<const int, 1> cs(csrc);
    array_view<int, 1> d(dst);
    d[i] = s[i] + cs[i];
    s[i] = -s[i]; // the view writes the array's own storage
  });
  const std::vector<int> got = dst, back = src;
  for (int i = 0; i < 64; ++i) {
    ASSERT_EQ(got[i], 2 * (i + 1)) << i;
    ASSERT_EQ(back[i], -(i + 1)) << i;
  }
}

TEST(ArrayView, WithoutDataSource) {
  array_view<int, 1> a1(1000);
  array_view<double, 2> a2(7, 9);
  array_view<int, 3> a3(extent<3>(2, 3, 5));
  parallel_for_each(a1.extent, [=](index<1> i) restrict(amp) { a1[i] = 3 * i[0]; });
  parallel_for_each(a2.extent, [=](index<2> i) restrict(amp) { a2[i] = i[0] + 0.25 * i[1]; });
  parallel_for_each(a3.extent, [=](index<3> i) restrict(amp) { a3[i] = i[0] * 100 + i[1] * 10 + i[2]; });
  for (int i = 0; i < 1000; ++i) ASSERT_EQ(a1[i], 3 * i);
  for (int r = 0; r < 7; ++r)
    for (int c = 0; c < 9; ++c) ASSERT_EQ(a2(r, c), r + 0.25 * c);
  EXPECT_EQ(a3(1, 2, 4), 124);
  // Host writes through the view are seen by the next kernel.
  a1[5] = -1;
  parallel_for_each(a1.extent, [=](index<1> i) restrict(amp) { a1[i] += 1; });
  EXPECT_EQ(a1[5], 0);
  EXPECT_EQ(a1[6], 19);
}

TEST(ArrayView, SourceSmallerThanExtentThrows) {
  std::vector<int> v(11);
  EXPECT_THROW((array_view<int, 2>(3, 4, v)), runtime_exception);
  EXPECT_THROW((array_view<int, 1>(extent<1>(12), v)), runtime_exception);
  EXPECT_NO_THROW((array_view<int, 2>(2, 5, v))); // a larger container is fine
}

// ---- array_view<const T>

TEST(ArrayView, ConstViewsReadInKernels) {
  const std::vector<int> src = iota(100);
  std::vector<int> dst(100);
  array_view<const int, 1> in(100, src);
  array_view<int, 1> out(100, dst);
  out.discard_data();
  parallel_for_each(out.extent, [=](index<1> i) restrict(amp) { out[i] = in[i] * in[99 - i[0]]; });
  out.synchronize();
  for (int i = 0; i < 100; ++i) EXPECT_EQ(dst[i], i * (99 - i));
  static_assert(std::is_same<decltype(in[0]), const int&>::value, "array_view<const T> yields const T&");
}

TEST(ArrayView, ConstViewFromMutableViewSharesData) {
  std::vector<int> v = iota(16);
  array_view<int, 2> w(4, 4, v);
  array_view<const int, 2> r = w; // implicit conversion
  std::vector<int> sums(4);
  array_view<int, 1> s(4, sums);
  parallel_for_each(w.extent, [=](index<2> i) restrict(amp) { w[i] = w[i] * 2; });
  parallel_for_each(s.extent, [=](index<1> i) restrict(amp) {
    int acc = 0;
    for (int c = 0; c < 4; ++c) acc += r(i[0], c);
    s[i] = acc;
  });
  s.synchronize();
  for (int row = 0; row < 4; ++row) EXPECT_EQ(sums[row], 2 * (4 * row * 4 + 6));
  EXPECT_EQ(r(3, 3), 30);
  array_view<const int, 2> r2(4, 4, v);
  EXPECT_EQ(r2(1, 2), 12);
}

// ---- sections

TEST(ArrayView, SectionOverloadsRank1) {
  std::vector<int> v = iota(20);
  array_view<int, 1> av(20, v);
  auto s1 = av.section(index<1>(5), extent<1>(4));
  auto s2 = av.section(index<1>(15));
  auto s3 = av.section(extent<1>(3));
  auto s4 = av.section(2, 6);
  EXPECT_EQ(s1.extent, extent<1>(4));
  EXPECT_EQ(s2.extent, extent<1>(5));
  EXPECT_EQ(s3.extent, extent<1>(3));
  EXPECT_EQ(s4.extent, extent<1>(6));
  EXPECT_EQ(s1[0], 5);
  EXPECT_EQ(s1[3], 8);
  EXPECT_EQ(s2[4], 19);
  EXPECT_EQ(s3[2], 2);
  EXPECT_EQ(s4[5], 7);
}

TEST(ArrayView, SectionOverloadsRank2And3) {
  std::vector<int> v2 = iota(6 * 8), v3 = iota(4 * 5 * 6);
  array_view<int, 2> a(6, 8, v2);
  array_view<int, 3> b(4, 5, 6, v3);
  auto s1 = a.section(index<2>(1, 2), extent<2>(3, 4));
  auto s2 = a.section(index<2>(4, 5));
  auto s3 = a.section(extent<2>(2, 3));
  auto s4 = a.section(2, 1, 3, 5);
  auto t1 = b.section(index<3>(1, 1, 1), extent<3>(2, 3, 4));
  auto t2 = b.section(index<3>(3, 4, 5));
  auto t3 = b.section(extent<3>(1, 2, 3));
  auto t4 = b.section(1, 2, 3, 3, 3, 3);
  EXPECT_EQ(s1.extent, extent<2>(3, 4));
  EXPECT_EQ(s2.extent, extent<2>(2, 3));
  EXPECT_EQ(s3.extent, extent<2>(2, 3));
  EXPECT_EQ(s4.extent, extent<2>(3, 5));
  EXPECT_EQ(t1.extent, extent<3>(2, 3, 4));
  EXPECT_EQ(t2.extent, extent<3>(1, 1, 1));
  EXPECT_EQ(t3.extent, extent<3>(1, 2, 3));
  EXPECT_EQ(t4.extent, extent<3>(3, 3, 3));
  EXPECT_EQ(s1(2, 3), (1 + 2) * 8 + (2 + 3));
  EXPECT_EQ(s2(1, 2), 5 * 8 + 7);
  EXPECT_EQ(s3(1, 2), 8 + 2);
  EXPECT_EQ(s4(2, 4), 4 * 8 + 5);
  EXPECT_EQ(t1(1, 2, 3), (2 * 5 + 3) * 6 + 4);
  EXPECT_EQ(t2(0, 0, 0), 4 * 5 * 6 - 1);
  EXPECT_EQ(t3(0, 1, 2), 6 + 2);
  EXPECT_EQ(t4(2, 2, 2), (3 * 5 + 4) * 6 + 5);
}

TEST(ArrayView, SectionOfSectionAndKernelWritesThroughSection) {
  std::vector<int> v(10 * 10, 0);
  array_view<int, 2> a(10, 10, v);
  auto inner = a.section(index<2>(2, 3), extent<2>(6, 5));
  auto inner2 = inner.section(index<2>(1, 1), extent<2>(3, 2)); // rows 3..5, cols 4..5 of a
  parallel_for_each(inner.extent, [=](index<2> i) restrict(amp) { inner[i] = 1; });
  parallel_for_each(inner2.extent, [=](index<2> i) restrict(amp) { inner2[i] += 10 + i[0] * 2 + i[1]; });
  a.synchronize();
  for (int r = 0; r < 10; ++r)
    for (int c = 0; c < 10; ++c) {
      int expect = 0;
      if (r >= 2 && r < 8 && c >= 3 && c < 8) expect = 1;
      if (r >= 3 && r < 6 && c >= 4 && c < 6) expect += 10 + (r - 3) * 2 + (c - 4);
      EXPECT_EQ(v[r * 10 + c], expect) << "(" << r << "," << c << ")";
    }
}

TEST(ArrayView, SectionsShareTheSourceState) {
  std::vector<int> v = iota(64);
  array_view<int, 2> a(8, 8, v);
  auto s = a.section(index<2>(4, 0), extent<2>(4, 8));
  // Written through the parent, read through the section on the host, and the
  // other way round.
  parallel_for_each(a.extent, [=](index<2> i) restrict(amp) { a[i] = -a[i]; });
  EXPECT_EQ(s(0, 0), -32);
  EXPECT_EQ(s(3, 7), -63);
  parallel_for_each(s.extent, [=](index<2> i) restrict(amp) { s[i] = 1000 + s[i]; });
  EXPECT_EQ(a(4, 0), 1000 - 32);
  EXPECT_EQ(a(3, 7), -31);
  // Host writes through a section are seen by a kernel over the parent.
  s(1, 1) = 5;
  std::vector<int> out(64);
  array_view<int, 2> o(8, 8, out);
  parallel_for_each(a.extent, [=](index<2> i) restrict(amp) { o[i] = a[i]; });
  o.synchronize();
  EXPECT_EQ(out[5 * 8 + 1], 5);
  EXPECT_EQ(out[7 * 8 + 7], 1000 - 63);
  EXPECT_EQ(out[8 + 1], -9);
}

TEST(ArrayView, CopiesShareData) {
  std::vector<int> v(32, 1);
  array_view<int, 1> a(32, v);
  array_view<int, 1> b = a;
  array_view<int, 1> c(5);
  c = b; // assignment makes c another view of v
  EXPECT_EQ(c.extent, extent<1>(32));
  parallel_for_each(b.extent, [=](index<1> i) restrict(amp) { b[i] += i[0]; });
  parallel_for_each(c.extent, [=](index<1> i) restrict(amp) { c[i] *= 2; });
  EXPECT_EQ(a[31], 64);
  a.synchronize();
  for (int i = 0; i < 32; ++i) EXPECT_EQ(v[i], 2 * (1 + i));
}

TEST(ArrayView, SectionOutOfBoundsThrows) {
  std::vector<int> v(20);
  array_view<int, 2> a(4, 5, v);
  EXPECT_THROW(a.section(index<2>(3, 0), extent<2>(2, 5)), runtime_exception);
  EXPECT_THROW(a.section(index<2>(0, 4), extent<2>(1, 2)), runtime_exception);
  EXPECT_THROW(a.section(index<2>(-1, 0), extent<2>(1, 1)), runtime_exception);
  EXPECT_THROW(a.section(index<2>(5, 0)), runtime_exception);
  EXPECT_NO_THROW(a.section(index<2>(3, 4), extent<2>(1, 1)));
}

// ---- projections

TEST(ArrayView, ProjectionRank2) {
  std::vector<int> v = iota(12);
  array_view<int, 2> a(3, 4, v);
  array_view<int, 1> row = a[1];
  EXPECT_EQ(row.extent, extent<1>(4));
  EXPECT_EQ(row[0], 4);
  EXPECT_EQ(row[3], 7);
  EXPECT_EQ(a[2][1], 9);
  EXPECT_EQ(a(2)[3], 11);
  // Writes through a projection, in a kernel.
  parallel_for_each(row.extent, [=](index<1> i) restrict(amp) { row[i] = -1; });
  // Projection inside a kernel.
  parallel_for_each(extent<1>(3), [=](index<1> r) restrict(amp) { a[r[0]][0] += 100; });
  a.synchronize();
  const std::vector<int> expect = {100, 1, 2, 3, 99, -1, -1, -1, 108, 9, 10, 11};
  EXPECT_EQ(v, expect);
}

TEST(ArrayView, ProjectionRank3) {
  std::vector<int> v = iota(2 * 3 * 4);
  array_view<int, 3> a(2, 3, 4, v);
  array_view<int, 2> plane = a[1];
  array_view<int, 1> line = a[1][2];
  EXPECT_EQ(plane.extent, extent<2>(3, 4));
  EXPECT_EQ(line.extent, extent<1>(4));
  EXPECT_EQ(plane(0, 0), 12);
  EXPECT_EQ(line[3], 23);
  EXPECT_EQ(a[0][1][2], 6);
  parallel_for_each(plane.extent, [=](index<2> i) restrict(amp) { plane[i] = plane[i] * 10; });
  parallel_for_each(extent<2>(2, 3), [=](index<2> i) restrict(amp) { a[i[0]][i[1]][0] = -(i[0] * 3 + i[1]); });
  a.synchronize();
  for (int p = 0; p < 2; ++p)
    for (int r = 0; r < 3; ++r)
      for (int c = 0; c < 4; ++c) {
        const int lin = (p * 3 + r) * 4 + c;
        const int expect = c == 0 ? -(p * 3 + r) : (p == 1 ? lin * 10 : lin);
        EXPECT_EQ(v[lin], expect) << p << "," << r << "," << c;
      }
}

TEST(ArrayView, ProjectionOfSection) {
  std::vector<int> v = iota(6 * 6);
  array_view<int, 2> a(6, 6, v);
  auto s = a.section(index<2>(1, 2), extent<2>(4, 3));
  array_view<int, 1> r = s[2]; // row 3 of a, columns 2..4
  EXPECT_EQ(r.extent, extent<1>(3));
  EXPECT_EQ(r[0], 3 * 6 + 2);
  EXPECT_EQ(r[2], 3 * 6 + 4);
}

// ---- reshaping

TEST(ArrayView, ViewAs) {
  std::vector<int> v(24, 0);
  array_view<int, 1> flat(24, v);
  array_view<int, 2> m = flat.view_as(extent<2>(4, 6));
  array_view<int, 3> c = flat.view_as(extent<3>(2, 3, 4));
  EXPECT_EQ(m.extent, extent<2>(4, 6));
  parallel_for_each(m.extent, [=](index<2> i) restrict(amp) { m[i] = i[0] * 6 + i[1]; });
  EXPECT_EQ(flat[13], 13);
  EXPECT_EQ(c(1, 2, 3), 23);
  EXPECT_EQ(c(1, 0, 1), 13);
  // A smaller extent is allowed; a larger one is not.
  array_view<int, 2> part = flat.view_as(extent<2>(2, 5));
  EXPECT_EQ(part(1, 4), 9);
  EXPECT_THROW(flat.view_as(extent<2>(5, 5)), runtime_exception);
  // view_as of a const view.
  array_view<const int, 1> cf = flat;
  array_view<const int, 2> cm = cf.view_as(extent<2>(6, 4));
  EXPECT_EQ(cm(5, 3), 23);
}

struct pair_int {
  int a, b;
};

TEST(ArrayView, ReinterpretAs) {
  std::vector<float> f = {1.0f, -2.5f, 3.25f, 0.0f};
  array_view<float, 1> fv(4, f);
  array_view<int, 1> bits = fv.reinterpret_as<int>();
  EXPECT_EQ(bits.extent, extent<1>(4));
  for (int i = 0; i < 4; ++i) {
    int expect;
    std::memcpy(&expect, &f[i], sizeof expect);
    EXPECT_EQ(bits[i], expect);
  }
  std::vector<pair_int> p = {{1, 2}, {3, 4}, {5, 6}};
  array_view<pair_int, 1> pv(3, p);
  array_view<int, 1> ints = pv.reinterpret_as<int>();
  EXPECT_EQ(ints.extent, extent<1>(6));
  parallel_for_each(ints.extent, [=](index<1> i) restrict(amp) { ints[i] *= 10; });
  pv.synchronize();
  EXPECT_EQ(p[1].a, 30);
  EXPECT_EQ(p[2].b, 60);
  // From a const view, to a const element type.
  const std::vector<int> m = iota(6);
  array_view<const int, 1> mv(6, m);
  array_view<const pair_int, 1> pairs = mv.reinterpret_as<const pair_int>();
  EXPECT_EQ(pairs.extent, extent<1>(3));
  EXPECT_EQ(pairs[2].a, 4);
  EXPECT_EQ(pairs[2].b, 5);
}

TEST(ArrayView, DataPointer) {
  std::vector<int> v = iota(16);
  array_view<int, 1> a(16, v);
  EXPECT_EQ(a.data(), v.data());
  EXPECT_EQ(a.section(3, 5).data(), v.data() + 3);
  array_view<const int, 1> c = a;
  static_assert(std::is_same<decltype(c.data()), const int*>::value, "array_view<const T>::data() is const T*");
  EXPECT_EQ(c.data()[7], 7);
  // data() inside a kernel addresses the same elements.
  parallel_for_each(a.extent, [=](index<1> i) restrict(amp) { a.data()[i[0]] += 100; });
  EXPECT_EQ(a.data()[15], 115);
  a.synchronize();
  EXPECT_EQ(v[0], 100);
}

// ---- coherence

TEST(ArrayView, ImplicitSynchronisationOnHostAccess) {
  std::vector<int> v(300, 1);
  array_view<int, 2> a(10, 30, v);
  parallel_for_each(a.extent, [=](index<2> i) restrict(amp) { a[i] = i[0] * i[1]; });
  for (int r = 0; r < 10; ++r)
    for (int c = 0; c < 30; ++c) ASSERT_EQ(a(r, c), r * c);
}

TEST(ArrayView, SynchronizeMakesTheSourceCurrent) {
  std::vector<int> v(1000, 3);
  array_view<int, 1> a(1000, v);
  parallel_for_each(a.extent, [=](index<1> i) restrict(amp) { a[i] = a[i] * i[0]; });
  a.synchronize();
  for (int i = 0; i < 1000; ++i) ASSERT_EQ(v[i], 3 * i);
  parallel_for_each(a.extent, [=](index<1> i) restrict(amp) { a[i] += 1; });
  a.synchronize_async().get();
  for (int i = 0; i < 1000; ++i) ASSERT_EQ(v[i], 3 * i + 1);
}

TEST(ArrayView, SynchronizeThroughSectionAndConstView) {
  std::vector<int> v(64, 0);
  array_view<int, 1> a(64, v);
  parallel_for_each(a.extent, [=](index<1> i) restrict(amp) { a[i] = 7; });
  array_view<const int, 1> c = a;
  c.synchronize();
  for (int i = 0; i < 64; ++i) ASSERT_EQ(v[i], 7);
  parallel_for_each(a.extent, [=](index<1> i) restrict(amp) { a[i] = 8; });
  a.section(0, 64).synchronize();
  for (int i = 0; i < 64; ++i) ASSERT_EQ(v[i], 8);
}

TEST(ArrayView, CopyBackWhenLastViewIsDestroyed) {
  std::vector<int> v(500, 0);
  {
    array_view<int, 1> a(500, v);
    parallel_for_each(a.extent, [=](index<1> i) restrict(amp) { a[i] = 2 * i[0]; });
  }
  for (int i = 0; i < 500; ++i) ASSERT_EQ(v[i], 2 * i);

  std::vector<int> w(64, 0);
  {
    std::unique_ptr<array_view<int, 2>> outer;
    {
      array_view<int, 2> a(8, 8, w);
      outer.reset(new array_view<int, 2>(a));
      auto s = a.section(index<2>(2, 2));
      parallel_for_each(s.extent, [=](index<2> i) restrict(amp) { s[i] = 1; });
    }
    // `outer` keeps the data alive; destroying it must copy the results back.
  }
  for (int r = 0; r < 8; ++r)
    for (int c = 0; c < 8; ++c) ASSERT_EQ(w[r * 8 + c], (r >= 2 && c >= 2) ? 1 : 0) << r << "," << c;
}

TEST(ArrayView, CopyBackWhenTheLastViewIsConst) {
  // The writer goes first; the last view is read-only, and its destruction
  // must still bring the kernel's results back to the data source.
  std::vector<int> v(100, 0);
  {
    std::unique_ptr<array_view<const int, 1>> reader;
    {
      array_view<int, 1> writer(100, v);
      reader.reset(new array_view<const int, 1>(writer));
      parallel_for_each(writer.extent, [=](index<1> i) restrict(amp) { writer[i] = i[0] + 1; });
    }
  }
  for (int i = 0; i < 100; ++i) ASSERT_EQ(v[i], i + 1);
}

TEST(ArrayView, CopyBackWhenTheLastViewIsReassigned) {
  std::vector<int> w(50, 0), other(50, 0);
  array_view<int, 1> x(50, w);
  parallel_for_each(x.extent, [=](index<1> i) restrict(amp) { x[i] = 3 * i[0]; });
  x = array_view<int, 1>(50, other); // the last view of w goes away here
  for (int i = 0; i < 50; ++i) ASSERT_EQ(w[i], 3 * i);
  parallel_for_each(x.extent, [=](index<1> i) restrict(amp) { x[i] = -i[0]; });
  x.synchronize();
  EXPECT_EQ(other[49], -49);
  EXPECT_EQ(w[49], 147);
}

TEST(ArrayView, ArrayAndItsViewsStayCoherent) {
  array<int, 2> a(8, 8);
  array_view<int, 2> v(a);
  array_view<const int, 2> c(a);
  parallel_for_each(a.extent, [&a](index<2> i) restrict(amp) { a[i] = i[0] * 8 + i[1]; }); // through the array
  EXPECT_EQ(v(7, 7), 63);                                                                  // read through a view
  v(0, 0) = -1;                                                                            // host write, view
  parallel_for_each(v.extent, [=](index<2> i) restrict(amp) { v[i] += 100; });             // kernel, view
  EXPECT_EQ(c(0, 0), 99);
  EXPECT_EQ(c(1, 1), 109);
  a(2, 2) = 0; // host write through the array
  std::vector<int> out(64);
  array_view<int, 2> o(8, 8, out);
  parallel_for_each(o.extent, [=](index<2> i) restrict(amp) { o[i] = c[i]; }); // kernel reads the const view
  o.synchronize();
  EXPECT_EQ(out[0], 99);
  EXPECT_EQ(out[2 * 8 + 2], 0);
  EXPECT_EQ(out[63], 163);
}

TEST(ArrayView, ViewAsAndReinterpretAsOfASection) {
  std::vector<int> v = iota(20);
  array_view<int, 1> a(20, v);
  array_view<int, 1> s = a.section(4, 12);
  array_view<int, 2> m = s.view_as(extent<2>(3, 4));
  EXPECT_EQ(m(0, 0), 4);
  EXPECT_EQ(m(2, 3), 15);
  array_view<pair_int_fwd, 1> p = s.reinterpret_as<pair_int_fwd>();
  EXPECT_EQ(p.extent, extent<1>(6));
  EXPECT_EQ(p[0].a, 4);
  EXPECT_EQ(p[5].b, 15);
  parallel_for_each(m.extent, [=](index<2> i) restrict(amp) { m[i] = -m[i]; });
  a.synchronize();
  EXPECT_EQ(v[3], 3);
  EXPECT_EQ(v[4], -4);
  EXPECT_EQ(v[15], -15);
  EXPECT_EQ(v[16], 16);
}

TEST(ArrayView, RefreshPicksUpHostChangesMadeBehindTheView) {
  std::vector<int> v(256, 1);
  array_view<int, 1> a(256, v);
  parallel_for_each(a.extent, [=](index<1> i) restrict(amp) { a[i] *= 2; });
  a.synchronize(); // v holds 2s and is current
  for (int i = 0; i < 256; ++i) v[i] = 10 + i; // modified without the view
  a.refresh();
  parallel_for_each(a.extent, [=](index<1> i) restrict(amp) { a[i] += 1; });
  a.synchronize();
  for (int i = 0; i < 256; ++i) ASSERT_EQ(v[i], 11 + i);
}

TEST(ArrayView, DiscardDataThenKernelWritesEveryElement) {
  std::vector<int> v(777, -5);
  array_view<int, 1> a(777, v);
  a.discard_data();
  parallel_for_each(a.extent, [=](index<1> i) restrict(amp) { a[i] = i[0] * 3; });
  for (int i = 0; i < 777; ++i) ASSERT_EQ(a[i], i * 3);
  a.synchronize();
  for (int i = 0; i < 777; ++i) ASSERT_EQ(v[i], i * 3);

  // Rank 2, view without data source, discarded between two kernels.
  array_view<float, 2> m(13, 17);
  parallel_for_each(m.extent, [=](index<2> i) restrict(amp) { m[i] = 1.0f; });
  m.discard_data();
  parallel_for_each(m.extent, [=](index<2> i) restrict(amp) { m[i] = static_cast<float>(i[0] - i[1]); });
  for (int r = 0; r < 13; ++r)
    for (int c = 0; c < 17; ++c) ASSERT_EQ(m(r, c), static_cast<float>(r - c));
}

// "Returns the accelerator_view where the data source of the array_view is
// located. If the array_view does not have a data source, this API throws a
// runtime_exception" (AMP reference, array_view::get_source_accelerator_view).
TEST(ArrayView, SourceAcceleratorView) {
  std::vector<accelerator_view> views;
  for (const accelerator& a : accelerator::get_all())
    if (a.device_path != L"cpu") views.push_back(a.default_view);
  for (const accelerator_view& where : views) {
    SCOPED_TRACE(amp_test::narrow(where.get_accelerator().device_path));
    array<int, 1> arr(8, where);
    array_view<int, 1> v(arr);
    EXPECT_TRUE(v.get_source_accelerator_view() == where);
    EXPECT_TRUE(v.section(2, 3).get_source_accelerator_view() == where);
    EXPECT_TRUE((array_view<const int, 1>(v).get_source_accelerator_view() == where));
  }
  array_view<int, 1> no_source(8);
  EXPECT_THROW(no_source.get_source_accelerator_view(), runtime_exception);
}

TEST(ArrayView, PropertySyntax) {
  std::vector<int> v(6 * 7);
  array_view<int, 2> a(6, 7, v);
  EXPECT_EQ(a.extent[0], 6);
  EXPECT_EQ(a.extent[1], 7);
  EXPECT_EQ(a.get_extent(), a.extent);
  EXPECT_EQ(a.extent.size(), 42u);
  static_assert(array_view<int, 2>::rank == 2, "array_view::rank");
  static_assert(std::is_same<array_view<int, 2>::value_type, int>::value, "array_view::value_type");
  // The extent property inside a kernel.
  parallel_for_each(a.extent, [=](index<2> i) restrict(amp) { a[i] = a.extent[0] * 100 + a.extent[1]; });
  EXPECT_EQ(a(5, 6), 607);
}

TEST(ArrayView, ManyKernelsOnTheSameViews) {
  std::vector<int> x(128, 0), y(128, 0);
  array_view<int, 1> a(128, x), b(128, y);
  for (int k = 0; k < 20; ++k) {
    parallel_for_each(a.extent, [=](index<1> i) restrict(amp) { a[i] += b[i] + 1; });
    parallel_for_each(b.extent, [=](index<1> i) restrict(amp) { b[i] += 1; });
  }
  a.synchronize();
  // a_k = a_{k-1} + b_{k-1} + 1 with b_{k-1} = k - 1.
  EXPECT_EQ(x[0], 20 * 21 / 2);
  EXPECT_EQ(b[127], 20);
}

} // namespace
