// Both spellings of the AMP namespace, and `index` under `using namespace
// concurrency;` in a translation unit that also includes <cstring> and
// <strings.h> (glibc declares a global function `index` there; the prelude
// that the build force-includes keeps it out of the way).
#include <cstring>
#include <strings.h>
#include <string.h>

#include <amp.h>

#include "amp_test_util.h"

#include <type_traits>

using namespace concurrency;

namespace {

TEST(ConcurrencyNamespace, BothSpellingsNameTheSameEntities) {
  static_assert(std::is_same<concurrency::index<2>, Concurrency::index<2>>::value, "index");
  static_assert(std::is_same<concurrency::extent<3>, Concurrency::extent<3>>::value, "extent");
  static_assert(std::is_same<concurrency::array<int, 1>, Concurrency::array<int, 1>>::value, "array");
  static_assert(std::is_same<concurrency::array_view<const float, 2>, Concurrency::array_view<const float, 2>>::value,
                "array_view");
  static_assert(std::is_same<concurrency::accelerator, Concurrency::accelerator>::value, "accelerator");
  static_assert(std::is_same<concurrency::runtime_exception, Concurrency::runtime_exception>::value, "exceptions");
  static_assert(std::is_same<concurrency::tiled_index<4, 4>, Concurrency::tiled_index<4, 4>>::value, "tiled_index");
  SUCCEED();
}

TEST(ConcurrencyNamespace, QualifiedUseOfEitherSpelling) {
  std::vector<int> v(8, 0);
  Concurrency::array_view<int, 1> a(8, v);
  concurrency::parallel_for_each(a.extent, [=](Concurrency::index<1> i) restrict(amp) { a[i] = i[0]; });
  Concurrency::parallel_for_each(concurrency::extent<1>(8), [=](concurrency::index<1> i) restrict(amp) { a[i] *= 2; });
  concurrency::array<int, 1> b(8);
  Concurrency::copy(a, b);
  std::vector<int> out(8);
  concurrency::copy(b, out.begin());
  for (int i = 0; i < 8; ++i) EXPECT_EQ(out[i], 2 * i);
  EXPECT_FALSE(Concurrency::accelerator::get_all().empty());
  EXPECT_TRUE(concurrency::accelerator().default_view == Concurrency::accelerator().default_view);
}

TEST(ConcurrencyNamespace, UnqualifiedIndexNextToCStringHeaders) {
  // `index` is concurrency::index here, not glibc's index(const char*, int).
  index<2> i(1, 2);
  index<1> j(5);
  extent<2> e(3, 4);
  EXPECT_EQ(i[0] + i[1], 3);
  EXPECT_EQ(j[0], 5);
  EXPECT_TRUE(e.contains(i));
  std::vector<int> v(12, 0);
  array_view<int, 2> av(e, v);
  parallel_for_each(av.extent, [=](index<2> k) restrict(amp) { av[k] = k[0] * 10 + k[1]; });
  EXPECT_EQ(av[i], 12);
  // What those headers provide is still there.
  EXPECT_EQ(strcasecmp("AMP", "amp"), 0);
  EXPECT_EQ(strncasecmp("Kokkos", "KOKKOS-x", 6), 0);
  EXPECT_EQ(std::strlen("index"), 5u);
  EXPECT_STREQ(std::strchr("tile_static", '_'), "_static");
  EXPECT_STREQ(strrchr("a/b/c", '/'), "/c");
  EXPECT_EQ(ffs(8), 4);
}

// A local variable and a function parameter named like the glibc functions.
int sum_index(const index<3>& index) { return index[0] + index[1] + index[2]; }

TEST(ConcurrencyNamespace, IndexAsAnOrdinaryName) {
  const int rindex = 4;
  EXPECT_EQ(sum_index(index<3>(1, 2, rindex)), 7);
}

} // namespace
