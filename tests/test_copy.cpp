// The synchronous copy overloads (C++ AMP spec 5.3), with whole objects and
// sections as source and destination, and the size checks. Calls are
// unqualified under `using namespace concurrency`, as AMP code writes them (so
// they must win over std::copy found by argument-dependent lookup).
#include "amp_test_util.h"

#include <list>
#include <thread>

using namespace concurrency;
using amp_test::iota;

namespace {

template <class T, int N> std::vector<T> contents(const array<T, N>& a) { return a; }

// An array whose current contents were produced by a kernel (so on a GPU they
// live in device memory).
array<int, 2> kernel_filled(int rows, int cols, int base) {
  array<int, 2> a(rows, cols);
  parallel_for_each(a.extent, [=, &a](index<2> i) restrict(amp) { a[i] = base + i[0] * cols + i[1]; });
  return a;
}

TEST(Copy, ArrayToArray) {
  array<int, 2> src = kernel_filled(5, 7, 0);
  array<int, 2> dst(5, 7);
  copy(src, dst);
  EXPECT_EQ(contents(dst), iota(35));
  concurrency::copy(kernel_filled(5, 7, 100), dst);
  EXPECT_EQ(contents(dst), iota(35, 100));
}

TEST(Copy, ArrayToArrayView) {
  array<int, 2> src = kernel_filled(4, 6, 10);
  std::vector<int> out(24, 0);
  array_view<int, 2> dst(4, 6, out);
  copy(src, dst);
  dst.synchronize();
  EXPECT_EQ(out, iota(24, 10));
  // A view without a data source, then read by a kernel.
  array_view<int, 2> nv(4, 6);
  copy(src, nv);
  std::vector<int> twice(24);
  array_view<int, 2> tv(4, 6, twice);
  parallel_for_each(tv.extent, [=](index<2> i) restrict(amp) { tv[i] = 2 * nv[i]; });
  tv.synchronize();
  EXPECT_EQ(twice[23], 2 * 33);
}

TEST(Copy, ArrayViewToArray) {
  std::vector<int> src = iota(20, 1);
  array_view<int, 1> v(20, src);
  array_view<const int, 1> cv(20, src);
  array<int, 1> a(20), b(20);
  copy(v, a);
  copy(cv, b);
  EXPECT_EQ(contents(a), src);
  EXPECT_EQ(contents(b), src);
  // Source contents made by a kernel.
  parallel_for_each(v.extent, [=](index<1> i) restrict(amp) { v[i] = -v[i]; });
  copy(v, a);
  EXPECT_EQ(a[19], -20);
}

TEST(Copy, ArrayViewToArrayView) {
  std::vector<int> s = iota(30), d1(30, 0), d2(30, 0);
  array_view<int, 2> src(5, 6, s);
  array_view<const int, 2> csrc(5, 6, s);
  array_view<int, 2> dst1(5, 6, d1), dst2(5, 6, d2);
  copy(src, dst1);
  copy(csrc, dst2);
  dst1.synchronize();
  dst2.synchronize();
  EXPECT_EQ(d1, s);
  EXPECT_EQ(d2, s);
  // Source written by a kernel, destination read by a kernel.
  parallel_for_each(src.extent, [=](index<2> i) restrict(amp) { src[i] += 1000; });
  copy(src, dst1);
  parallel_for_each(dst1.extent, [=](index<2> i) restrict(amp) { dst1[i] += 1; });
  dst1.synchronize();
  EXPECT_EQ(d1, iota(30, 1001));
}

TEST(Copy, IteratorsToArray) {
  const std::vector<int> src = iota(12, 5);
  array<int, 2> a(3, 4), b(3, 4);
  copy(src.begin(), src.end(), a);
  copy(src.begin(), b);
  EXPECT_EQ(contents(a), src);
  EXPECT_EQ(contents(b), src);
  const float raw[4] = {1.5f, 2.5f, 3.5f, 4.5f};
  array<float, 1> f(4);
  copy(raw, raw + 4, f);
  EXPECT_EQ(f[3], 4.5f);
  // Overwrites what a kernel wrote.
  array<int, 2> k = kernel_filled(3, 4, 77);
  copy(src.begin(), k);
  EXPECT_EQ(contents(k), src);
}

// Contiguous sources of the element type are read in place; others (another
// element type, reverse iterators) go element by element. Both must agree.
TEST(Copy, ContiguousAndConvertingIterators) {
  const std::vector<short> shorts = {1, -2, 3, -4, 5, -6};
  array<int, 1> a(6);
  copy(shorts.begin(), shorts.end(), a);
  EXPECT_EQ(contents(a), std::vector<int>({1, -2, 3, -4, 5, -6}));
  const std::vector<int> src = iota(6, 10);
  copy(src.rbegin(), src.rend(), a);
  EXPECT_EQ(contents(a), std::vector<int>({15, 14, 13, 12, 11, 10}));
  std::vector<long long> wide(6);
  copy(a, wide.begin());
  EXPECT_EQ(wide[0], 15);
  std::vector<int> mid(10, 0);
  copy(a, mid.begin() + 2);
  EXPECT_EQ(mid, std::vector<int>({0, 0, 15, 14, 13, 12, 11, 10, 0, 0}));
}

// Large host copies are split over the cores (from the thread that started
// Kokkos) and done with one memcpy elsewhere; both must move every byte.
TEST(Copy, LargeCopiesFromAnyThread) {
  const std::size_t n = (std::size_t(3) << 20) + 7; // 12 MB and a ragged tail
  std::vector<int> src(n);
  for (std::size_t i = 0; i < n; ++i) src[i] = static_cast<int>(i * 2654435761u);
  auto round_trip = [&] {
    array<int, 1> a(static_cast<int>(n));
    copy(src.begin(), src.end(), a);
    std::vector<int> back(n, 0);
    copy(a, back.begin());
    return back == src;
  };
  EXPECT_TRUE(round_trip());
  bool other = false;
  std::thread t([&] { other = round_trip(); });
  t.join();
  EXPECT_TRUE(other);
}

TEST(Copy, IteratorsToArrayView) {
  const std::vector<int> src = iota(12, 5);
  std::vector<int> d1(12, 0), d2(12, 0);
  array_view<int, 2> v1(3, 4, d1), v2(4, 3, d2);
  copy(src.begin(), src.end(), v1);
  copy(src.begin(), v2);
  parallel_for_each(v1.extent, [=](index<2> i) restrict(amp) { v1[i] *= 2; });
  v1.synchronize();
  v2.synchronize();
  EXPECT_EQ(d1[11], 32);
  EXPECT_EQ(d2, src);
}

TEST(Copy, ArrayToIterator) {
  array<int, 2> a = kernel_filled(6, 5, 3);
  std::vector<int> out(30);
  copy(a, out.begin());
  EXPECT_EQ(out, iota(30, 3));
  std::vector<int> back;
  copy(a, std::back_inserter(back));
  EXPECT_EQ(back, iota(30, 3));
  int raw[30];
  copy(a, raw);
  EXPECT_EQ(raw[29], 32);
}

TEST(Copy, ArrayViewToIterator) {
  std::vector<int> s = iota(16);
  array_view<int, 2> v(4, 4, s);
  parallel_for_each(v.extent, [=](index<2> i) restrict(amp) { v[i] = v[i] * v[i]; });
  std::vector<int> out(16);
  copy(v, out.begin());
  for (int i = 0; i < 16; ++i) EXPECT_EQ(out[i], i * i);
  array_view<const int, 2> cv = v;
  std::vector<int> out2(16);
  copy(cv, out2.begin());
  EXPECT_EQ(out2, out);
}

// ---- sections

TEST(Copy, SectionAsSource) {
  array<int, 2> a = kernel_filled(6, 8, 0);
  // array section -> iterator (rows 1..3, columns 2..5: not contiguous)
  std::vector<int> out(12);
  copy(a.section(index<2>(1, 2), extent<2>(3, 4)), out.begin());
  EXPECT_EQ(out, (std::vector<int>{10, 11, 12, 13, 18, 19, 20, 21, 26, 27, 28, 29}));
  // view section -> array
  std::vector<int> s = iota(48);
  array_view<int, 2> v(6, 8, s);
  array<int, 2> b(2, 3);
  copy(v.section(index<2>(4, 5)), b);
  EXPECT_EQ(contents(b), (std::vector<int>{37, 38, 39, 45, 46, 47}));
  // const section -> view
  array_view<const int, 2> cv = v;
  std::vector<int> d(6);
  array_view<int, 2> dv(3, 2, d);
  copy(cv.section(index<2>(0, 6), extent<2>(3, 2)), dv);
  dv.synchronize();
  EXPECT_EQ(d, (std::vector<int>{6, 7, 14, 15, 22, 23}));
  // rank-3 section with a kernel-written source
  array<int, 3> c(3, 4, 5);
  parallel_for_each(c.extent, [&c](index<3> i) restrict(amp) { c[i] = i[0] * 100 + i[1] * 10 + i[2]; });
  std::vector<int> o3(8);
  copy(c.section(index<3>(1, 2, 3), extent<3>(2, 2, 2)), o3.begin());
  EXPECT_EQ(o3, (std::vector<int>{123, 124, 133, 134, 223, 224, 233, 234}));
}

TEST(Copy, SectionAsDestination) {
  std::vector<int> big(6 * 8, 0);
  array_view<int, 2> v(6, 8, big);
  // iterators -> view section
  const std::vector<int> src = iota(6, 1);
  copy(src.begin(), src.end(), v.section(index<2>(1, 1), extent<2>(2, 3)));
  // array -> view section
  array<int, 2> a(2, 2, iota(4, 100).begin());
  copy(a, v.section(index<2>(4, 6)));
  // view -> view section
  std::vector<int> t = {-1, -2, -3};
  array_view<const int, 2> tv(3, 1, t);
  copy(tv, v.section(index<2>(3, 0), extent<2>(3, 1)));
  v.synchronize();
  std::vector<int> expect(48, 0);
  expect[1 * 8 + 1] = 1, expect[1 * 8 + 2] = 2, expect[1 * 8 + 3] = 3;
  expect[2 * 8 + 1] = 4, expect[2 * 8 + 2] = 5, expect[2 * 8 + 3] = 6;
  expect[4 * 8 + 6] = 100, expect[4 * 8 + 7] = 101, expect[5 * 8 + 6] = 102, expect[5 * 8 + 7] = 103;
  expect[3 * 8] = -1, expect[4 * 8] = -2, expect[5 * 8] = -3;
  EXPECT_EQ(big, expect);
  // view section -> section of an array
  array<int, 2> dst(4, 4, std::vector<int>(16, 0).begin());
  copy(v.section(index<2>(1, 1), extent<2>(2, 3)), dst.section(index<2>(2, 1), extent<2>(2, 3)));
  EXPECT_EQ(contents(dst), (std::vector<int>{0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 3, 0, 4, 5, 6}));
}

TEST(Copy, SectionToSectionOfSameData) {
  std::vector<int> s = iota(64);
  array_view<int, 2> v(8, 8, s);
  parallel_for_each(v.extent, [=](index<2> i) restrict(amp) { v[i] += 1; });
  // Copy the top-left 3x3 block onto the bottom-right one.
  copy(v.section(index<2>(0, 0), extent<2>(3, 3)), v.section(index<2>(5, 5), extent<2>(3, 3)));
  v.synchronize();
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c) EXPECT_EQ(s[(r + 5) * 8 + c + 5], r * 8 + c + 1);
  EXPECT_EQ(s[0], 1);
  EXPECT_EQ(s[4 * 8 + 4], 37);
}

TEST(Copy, ArrayProjectionAndViewAs) {
  array<int, 2> a = kernel_filled(4, 5, 0);
  std::vector<int> row(5);
  copy(a[2], row.begin());
  EXPECT_EQ(row, iota(5, 10));
  std::vector<int> flat(20);
  copy(a.view_as(extent<1>(20)), flat.begin());
  EXPECT_EQ(flat, iota(20));
}

TEST(Copy, AsyncFormsComplete) {
  array<int, 1> a(10, iota(10).begin());
  std::vector<int> out(10);
  completion_future f = copy_async(a, out.begin());
  f.get();
  EXPECT_EQ(out, iota(10));
  array<int, 1> b(10);
  copy_async(a, b).wait();
  EXPECT_EQ(contents(b), iota(10));
}

TEST(Copy, LargeStridedSections) {
  // Sections with many rows (many separate runs of memory), both ways.
  const int R = 150, C = 120;
  std::vector<int> big = iota(R * C);
  array_view<int, 2> v(R, C, big);
  parallel_for_each(v.extent, [=](index<2> i) restrict(amp) { v[i] = 2 * v[i]; });
  const index<2> org(10, 7);
  const extent<2> ext(130, 100);
  std::vector<int> out(ext.size());
  copy(v.section(org, ext), out.begin());
  for (int r = 0; r < ext[0]; ++r)
    for (int c = 0; c < ext[1]; ++c)
      ASSERT_EQ(out[r * ext[1] + c], 2 * ((r + org[0]) * C + c + org[1])) << r << "," << c;
  std::vector<int> ones(ext.size(), 1);
  copy(ones.begin(), ones.end(), v.section(org, ext));
  array<int, 2> a(R, C);
  copy(v, a);
  const std::vector<int> all = a;
  for (int r = 0; r < R; ++r)
    for (int c = 0; c < C; ++c) {
      const bool inside = r >= org[0] && r < org[0] + ext[0] && c >= org[1] && c < org[1] + ext[1];
      ASSERT_EQ(all[r * C + c], inside ? 1 : 2 * (r * C + c)) << r << "," << c;
    }
}

TEST(Copy, NonContiguousIterators) {
  std::list<int> src;
  for (int i = 0; i < 12; ++i) src.push_back(i * i);
  array<int, 2> a(3, 4);
  copy(src.begin(), src.end(), a);
  EXPECT_EQ(a(2, 3), 121);
  std::vector<int> s(12, 0);
  array_view<int, 1> v(12, s);
  copy(src.begin(), v);
  EXPECT_EQ(v[5], 25);
  std::list<int> back(12, 0);
  copy(a, back.begin());
  EXPECT_EQ(back.back(), 121);
  EXPECT_EQ(*std::next(back.begin(), 3), 9);
}

// ---- mismatched sizes

TEST(Copy, MismatchedExtentsThrow) {
  array<int, 1> a10(10), a12(12);
  array<int, 2> m34(3, 4), m43(4, 3);
  std::vector<int> s(12, 0);
  array_view<int, 2> v34(3, 4, s), v26(2, 6, s);
  array_view<int, 1> v10(10, s);
  EXPECT_THROW(copy(a10, a12), runtime_exception);
  EXPECT_THROW(copy(m34, m43), runtime_exception); // same size, other shape
  EXPECT_THROW(copy(m34, v26), runtime_exception);
  EXPECT_THROW(copy(v26, m34), runtime_exception);
  EXPECT_THROW(copy(array_view<const int, 2>(v26), m34), runtime_exception);
  EXPECT_THROW(copy(v34, v26), runtime_exception);
  EXPECT_THROW(copy(a12, v10), runtime_exception);
  EXPECT_THROW(copy(m34.section(index<2>(0, 0), extent<2>(2, 2)), v34), runtime_exception);
}

// Microsoft's runtime copies a source range shorter than the destination
// into its first elements (row-major) and keeps the others; only a longer
// range is refused (runtime_exception, E_INVALIDARG).
TEST(Copy, SourceRangeShorterThanDestinationFillsItsFirstElements) {
  const std::vector<int> src = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11};
  array<int, 2> a(3, 4);
  copy(src.begin(), src.end(), a);
  std::vector<int> got = a;
  EXPECT_EQ(got, (std::vector<int>{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 0}));
  std::vector<int> s(12, -1);
  array_view<int, 2> v(3, 4, s);
  copy(src.begin(), src.begin() + 5, v);
  v.synchronize();
  EXPECT_EQ(s, (std::vector<int>{1, 2, 3, 4, 5, -1, -1, -1, -1, -1, -1, -1}));
  // A section: its first elements in its own row-major order.
  std::vector<int> big(16, 0);
  array_view<int, 2> whole(4, 4, big);
  copy(src.begin(), src.begin() + 3, whole.section(index<2>(1, 1), extent<2>(2, 2)));
  whole.synchronize();
  EXPECT_EQ(big, (std::vector<int>{0, 0, 0, 0, 0, 1, 2, 0, 0, 3, 0, 0, 0, 0, 0, 0}));
  const std::vector<int> longer(13, 1);
  try {
    copy(longer.begin(), longer.end(), a);
    FAIL() << "no exception";
  } catch (const runtime_exception& e) {
    EXPECT_EQ(amp_test::hr_bits(e.get_error_code()), amp_test::E_INVALIDARG_BITS);
  }
  EXPECT_THROW(copy(longer.begin(), longer.end(), v), runtime_exception);
}

} // namespace
