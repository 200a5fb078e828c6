// The two kernel paths (parallel_for_each.h): the portable one (Kokkos
// MDRange/Range/TeamPolicy, launch_kokkos.h) and the accelerator's native one.
// Each test runs the same kernels on both paths in one process and checks the
// results against values computed here, and that the path asked for is the one
// that ran. The whole suite also runs with AMP_KERNEL_PATH=portable and
// =native (tests/CMakeLists.txt), which these tests leave as they found it.
#include "amp_test_util.h"

#include <stdexcept>

using namespace concurrency;
namespace d = Concurrency::detail;

namespace {

// Runs body() with the path forced to p, restoring the program's setting.
template <class Body> void on_path(d::kernel_path p, Body body) {
  const d::kernel_path before = d::requested_kernel_path().load();
  d::force_kernel_path(p);
  try {
    body();
  } catch (...) {
    d::force_kernel_path(before);
    throw;
  }
  d::force_kernel_path(before);
}

struct item_failure : std::runtime_error {
  item_failure() : std::runtime_error("item_failure") {}
};
void fail_if(bool cond) restrict(amp) {
#if !AMP_DEVICE_PASS // exceptions exist only in the host compilation
  if (cond) throw item_failure();
#else
  (void)cond;
#endif
}

// The path a kernel on the default accelerator takes when p is asked for: a
// portable request the view cannot take (a view of a GPU other than Kokkos')
// runs natively.
d::kernel_path served(d::kernel_path p) {
  return p == d::kernel_path::portable && !d::portable_path_serves(accelerator().get_default_view())
             ? d::kernel_path::native
             : p;
}

// Host views always take portable requests; on a GPU every view of Kokkos'
// device does (its default view and views made with create_view, whose
// streams are not Kokkos' own: the launch is put in their line with events),
// and views of other GPUs do not (Kokkos runs on one device per process).
TEST(KernelPaths, PortableRequestsAreServedOnKokkosDevice) {
  const std::wstring path = accelerator().device_path;
  const bool gpu = path.rfind(L"cuda", 0) == 0 || path.rfind(L"hip", 0) == 0;
  const bool kokkos_gpu = gpu && path == d::device_memory::path(d::device_memory::kokkos_device());
  EXPECT_EQ(d::portable_path_serves(accelerator().get_default_view()), !gpu || kokkos_gpu);
  EXPECT_EQ(d::portable_path_serves(accelerator().create_view()), !gpu || kokkos_gpu);
}

struct path_case {
  d::kernel_path path;
  const char* name;
};
const path_case both_paths[] = {{d::kernel_path::portable, "portable"}, {d::kernel_path::native, "native"}};

// Launches on the given path since `before`, read from the path counters.
struct launch_count {
  unsigned long long portable = d::kernel_path_counts::get().portable.load();
  unsigned long long native = d::kernel_path_counts::get().native.load();
  unsigned long long on(d::kernel_path p) const {
    const auto& c = d::kernel_path_counts::get();
    return p == d::kernel_path::portable ? c.portable.load() - portable : c.native.load() - native;
  }
};

// A portable kernel on a view with its own queue stays in that queue's order:
// it sees the copy queued before it and the copy queued after it sees its
// writes, with no synchronisation in between (on a GPU the kernel runs on
// Kokkos' stream, not the view's; on the host everything completes in order).
TEST(KernelPaths, PortableKernelsKeepTheirViewsOrder) {
  on_path(d::kernel_path::portable, [&] {
    accelerator_view v = accelerator().create_view();
    const int n = 1 << 20;
    std::vector<int> in(n), out(n, 0);
    for (int i = 0; i < n; ++i) in[i] = i % 977;
    array<int, 1> a(n, v), b(n, v);
    const launch_count before;
    for (int round = 1; round <= 3; ++round) {
      copy(in.begin(), in.end(), a); // queued on v
      parallel_for_each(v, a.extent, [&a, &b, round](index<1> i) restrict(amp) { b[i] = a[i] * round + 1; });
      copy_async(b, out.begin()).get(); // queued on v after the kernel
      for (int i = 0; i < n; i += 4099) ASSERT_EQ(out[i], in[i] * round + 1) << "round " << round << ", " << i;
      ASSERT_EQ(out[n - 1], in[n - 1] * round + 1);
    }
    const bool served_here = d::portable_path_serves(v);
    EXPECT_EQ(before.on(served_here ? d::kernel_path::portable : d::kernel_path::native), 3u);
  });
}

TEST(KernelPaths, SimpleModelEveryRankOnBothPaths) {
  for (const auto& pc : both_paths) {
    SCOPED_TRACE(pc.name);
    on_path(pc.path, [&] {
      const launch_count before;
      // Rank 1 (RangePolicy), 2 and 3 (MDRange), 7 (above MDRange's limit: linearised).
      std::vector<int> v1(1000), v2(37 * 53), v3(5 * 7 * 33);
      array_view<int, 1> a1(1000, v1);
      array_view<int, 2> a2(37, 53, v2);
      array_view<int, 3> a3(5, 7, 33, v3);
      parallel_for_each(a1.extent, [=](index<1> i) restrict(amp) { a1[i] = 3 * i[0] + 1; });
      parallel_for_each(a2.extent, [=](index<2> i) restrict(amp) { a2[i] = i[0] * 1000 + i[1]; });
      parallel_for_each(a3.extent, [=](index<3> i) restrict(amp) { a3[i] = i[0] * 10000 + i[1] * 100 + i[2]; });
      const int dims[7] = {2, 3, 2, 3, 2, 3, 5};
      const extent<7> e7(dims);
      std::vector<int> v7(e7.size());
      array_view<int, 7> a7(e7, v7);
      parallel_for_each(e7, [=](index<7> i) restrict(amp) {
        int l = 0;
        for (int k = 0; k < 7; ++k) l = l * a7.extent[k] + i[k];
        a7[i] = l;
      });
      a1.synchronize();
      a2.synchronize();
      a3.synchronize();
      a7.synchronize();
      for (int i = 0; i < 1000; ++i) ASSERT_EQ(v1[i], 3 * i + 1);
      for (int r = 0; r < 37; ++r)
        for (int c = 0; c < 53; ++c) ASSERT_EQ(v2[r * 53 + c], r * 1000 + c);
      for (int x = 0; x < 5; ++x)
        for (int y = 0; y < 7; ++y)
          for (int z = 0; z < 33; ++z) ASSERT_EQ(v3[(x * 7 + y) * 33 + z], x * 10000 + y * 100 + z);
      for (int l = 0; l < static_cast<int>(v7.size()); ++l) ASSERT_EQ(v7[l], l);
      EXPECT_EQ(before.on(served(pc.path)), 4u) << "every kernel ran on the requested path";
    });
  }
}

// Each tile reverses its block through tile_static across a barrier; a second
// phase sums the tile (a barrier per reduction step), so work-items depend on
// each other's writes in both directions.
template <int D0, int D1, int D2, class Ext> void reverse_and_sum(const Ext& e, d::kernel_path path) {
  constexpr int T = D0 * (D1 ? D1 : 1) * (D2 ? D2 : 1);
  const int n = static_cast<int>(e.size());
  std::vector<int> in(n), rev(n), sums(n);
  for (int i = 0; i < n; ++i) in[i] = (i * 7919) % 1000;
  array_view<const int, Ext::rank> a(e, in);
  array_view<int, Ext::rank> r(e, rev), s(e, sums);
  const launch_count before;
  parallel_for_each(tiled_extent<D0, D1, D2>(e), [=](tiled_index<D0, D1, D2> t) restrict(amp) {
    tile_static int buf[T];
    tile_static int red[T];
    int l = 0;
    for (int d = 0; d < Ext::rank; ++d) l = l * t.tile_extent[d] + t.local[d];
    buf[l] = a[t.global];
    red[l] = a[t.global];
    t.barrier.wait();
    r[t.global] = buf[T - 1 - l];
    for (int step = 1; step < T; step *= 2) {
      int v = 0;
      if (l + step < T) v = red[l + step];
      t.barrier.wait();
      red[l] += v;
      t.barrier.wait();
    }
    s[t.global] = red[0];
  });
  r.synchronize();
  s.synchronize();
  // Expected values, from the row-major local index of each point.
  std::vector<int> tile_sum;
  const auto te = tiled_extent<D0, D1, D2>(e).tile_extent;
  for (int i = 0; i < n; ++i) {
    const auto gi = d::delinearize(i, e);
    auto origin = gi, mirror = gi;
    int l = 0;
    for (int dd = 0; dd < Ext::rank; ++dd) {
      origin[dd] = gi[dd] / te[dd] * te[dd];
      l = l * te[dd] + (gi[dd] - origin[dd]);
    }
    const auto ml = d::delinearize(T - 1 - l, te);
    int sum = 0;
    for (int k = 0; k < T; ++k) sum += in[d::linearize(origin + d::delinearize(k, te), e)];
    mirror = origin + ml;
    ASSERT_EQ(rev[i], in[d::linearize(mirror, e)]) << "point " << i;
    ASSERT_EQ(sums[i], sum) << "point " << i;
  }
  EXPECT_EQ(before.on(served(path)), 1u);
}

TEST(KernelPaths, TilesWithTileStaticAndBarriersOnBothPaths) {
  for (const auto& pc : both_paths) {
    SCOPED_TRACE(pc.name);
    on_path(pc.path, [&] {
      reverse_and_sum<64, 0, 0>(extent<1>(64 * 5), pc.path);
      reverse_and_sum<4, 8, 0>(extent<2>(12, 24), pc.path);
      reverse_and_sum<2, 4, 8>(extent<3>(4, 8, 16), pc.path);
      reverse_and_sum<16, 16, 0>(extent<2>(32, 48), pc.path); // 256 work-items per tile
    });
  }
}

TEST(KernelPaths, TiledIndexMembersAgreeBetweenPaths) {
  const int R = 24, C = 40;
  std::vector<int> out[2];
  int which = 0;
  for (const auto& pc : both_paths) {
    out[which].assign(R * C, 0);
    array_view<int, 2> o(R, C, out[which]);
    on_path(pc.path, [&] {
      parallel_for_each(extent<2>(R, C).tile<8, 4>(), [=](tiled_index<8, 4> t) restrict(amp) {
        o[t] = ((t.tile[0] * 10 + t.tile[1]) * 100 + t.local[0] * 10 + t.local[1]) * 1000 + t.tile_origin[0] * 50 +
               t.tile_origin[1];
      });
    });
    o.synchronize();
    ++which;
  }
  EXPECT_EQ(out[0], out[1]);
  for (int r = 0; r < R; ++r)
    for (int c = 0; c < C; ++c)
      ASSERT_EQ(out[0][r * C + c], ((r / 8 * 10 + c / 4) * 100 + (r % 8) * 10 + c % 4) * 1000 + r / 8 * 8 * 50 + c / 4 * 4);
}

TEST(KernelPaths, PortableHostPathReportsErrorsAndDivergence) {
  AMP_TEST_SKIP_ON_GPU("host error reporting");
  on_path(d::kernel_path::portable, [&] {
    std::vector<int> v(256);
    array_view<int, 1> a(256, v);
    EXPECT_THROW(parallel_for_each(a.extent, [=](index<1> i) restrict(amp) {
                   fail_if(i[0] == 77);
                   a[i] = 1;
                 }),
                 item_failure);
    EXPECT_THROW(parallel_for_each(a.extent.tile<32>(), [=](tiled_index<32> t) restrict(amp) {
                   fail_if(t.global[0] == 100);
                   t.barrier.wait();
                 }),
                 item_failure);
    try {
      parallel_for_each(a.extent.tile<32>(), [=](tiled_index<32> t) restrict(amp) {
        if (t.tile[0] == 3 && t.local[0] == 5) return;
        t.barrier.wait();
      });
      ADD_FAILURE() << "a divergent barrier must raise runtime_exception";
    } catch (const runtime_exception& e) {
      EXPECT_NE(std::string(e.what()).find("tile (3)"), std::string::npos) << e.what();
    }
    // The path still works afterwards.
    parallel_for_each(a.extent.tile<32>(), [=](tiled_index<32> t) restrict(amp) {
      t.barrier.wait();
      a[t] = t.local[0];
    });
    a.synchronize();
    for (int i = 0; i < 256; ++i) ASSERT_EQ(v[i], i % 32);
  });
}

TEST(KernelPaths, AutomaticChoiceIsTheMeasuredOne) {
  on_path(d::kernel_path::automatic, [&] {
    const auto kind = d::info_of(amp_test::default_view())->kind;
    std::vector<int> v(1024);
    array_view<int, 1> a(1024, v);
    launch_count before;
    parallel_for_each(a.extent, [=](index<1> i) restrict(amp) { a[i] = i[0]; });
    EXPECT_EQ(before.on(served(d::measured_kernel_path(kind, false))), 1u);
    before = launch_count();
    parallel_for_each(a.extent.tile<128>(), [=](tiled_index<128> t) restrict(amp) { a[t] = t.local[0]; });
    EXPECT_EQ(before.on(served(d::measured_kernel_path(kind, true))), 1u);
    a.synchronize();
    EXPECT_EQ(v[130], 2);
  });
}

} // namespace
