// <amp_kokkos.h>: Kokkos kernels on AMP data and AMP kernels on Kokkos Views,
// without copies, with the coherence rules of amp_kokkos.h.
#include "amp_test_util.h"

#include <amp_kokkos.h>

using namespace concurrency;

namespace {

using space = Kokkos::DefaultExecutionSpace;

TEST(KokkosInterop, KokkosKernelOnAnArrayThenAmpAgain) {
  const int R = 6, C = 40;
  std::vector<int> init = amp_test::iota(R * C);
  array<int, 2> a(R, C, init.begin(), init.end());
  parallel_for_each(a.extent, [&a](index<2> i) restrict(amp) { a[i] += 1; });
  auto v = kokkos_view(a); // the array's data in the default space's memory
  static_assert(decltype(v)::rank == 2, "rank");
  ASSERT_EQ(v.extent(0), static_cast<std::size_t>(R));
  ASSERT_EQ(v.extent(1), static_cast<std::size_t>(C));
  Kokkos::parallel_for(
      "interop_scale", Kokkos::MDRangePolicy<space, Kokkos::Rank<2>>({0, 0}, {R, C}),
      KOKKOS_LAMBDA(int r, int c) { v(r, c) = v(r, c) * 10 + r; });
  Kokkos::fence();
  parallel_for_each(a.extent, [&a](index<2> i) restrict(amp) { a[i] -= 3; });
  std::vector<int> out = a; // host copy
  for (int r = 0; r < R; ++r)
    for (int c = 0; c < C; ++c) ASSERT_EQ(out[r * C + c], (r * C + c + 1) * 10 + r - 3);
}

TEST(KokkosInterop, HostViewOfAnArrayViewIsItsMemory) {
  std::vector<float> data(100, 1.5f);
  array_view<float, 1> av(100, data);
  auto v = kokkos_view<Kokkos::HostSpace>(av);
  EXPECT_EQ(v.data(), data.data()) << "a host view of host data is the data itself";
  v(7) = 4.0f;
  EXPECT_EQ(av[7], 4.0f);
  // A view of const data is read-only and leaves the other copies valid.
  array_view<const float, 1> cav(av);
  auto cv = kokkos_view<Kokkos::HostSpace>(cav);
  static_assert(std::is_const<decltype(cv)::value_type>::value, "views of const data are const");
  EXPECT_EQ(cv(7), 4.0f);
}

TEST(KokkosInterop, AmpKernelOnAKokkosView) {
  start_kokkos(); // Kokkos objects before any AMP kernel
  const int N = 1000;
  bool av_data_was_view = false;
  using host = Kokkos::DefaultHostExecutionSpace;
  Kokkos::View<double*, Kokkos::HostSpace> kv("kv", N);
  Kokkos::parallel_for("interop_fill", Kokkos::RangePolicy<host>(0, N), [=](int i) { kv(i) = 0.5 * i; });
  Kokkos::fence();
  {
    array_view<double, 1> av = make_array_view(kv);
    ASSERT_EQ(av.extent[0], N);
    av_data_was_view = av.data() == kv.data(); // no copy: the array_view's host data is the View's
    parallel_for_each(av.extent, [=](index<1> i) restrict(amp) { av[i] = av[i] * 4 + 1; });
    av.synchronize();
    EXPECT_EQ(av[10], 21.0);
  }
  // The View holds the AMP kernel's results once the array_view is gone.
  EXPECT_EQ(av_data_was_view, true);
  for (int i = 0; i < N; ++i) ASSERT_EQ(kv(i), 2.0 * i + 1) << i;
}

TEST(KokkosInterop, TwoDimensionalViewAndLifetime) {
  start_kokkos();
  array_view<int, 2> av(1, 1);
  {
    Kokkos::View<int**, Kokkos::LayoutRight, Kokkos::HostSpace> kv("kv2", 8, 16);
    av = make_array_view(kv);
  } // the array_view keeps the View's allocation alive
  parallel_for_each(av.extent, [=](index<2> i) restrict(amp) { av[i] = i[0] * 100 + i[1]; });
  av.synchronize();
  EXPECT_EQ(av(7, 15), 715);
  EXPECT_EQ(av.extent, extent<2>(8, 16));
}

TEST(KokkosInterop, SectionsWithGapsAreRefused) {
  std::vector<int> data(64);
  array_view<int, 2> av(8, 8, data);
  EXPECT_THROW(kokkos_view<Kokkos::HostSpace>(av.section(index<2>(0, 0), extent<2>(4, 4))), runtime_exception);
  auto rows = kokkos_view<Kokkos::HostSpace>(av.section(index<2>(2, 0), extent<2>(3, 8))); // whole rows: contiguous
  EXPECT_EQ(rows.data(), data.data() + 16);
}

} // namespace
