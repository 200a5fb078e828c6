// accelerator and accelerator_view (C++ AMP spec 3): enumeration, properties,
// the default accelerator, running kernels on each host accelerator, wait() and
// comparisons.
#include "amp_test_util.h"

#include <algorithm>
#include <atomic>
#include <string>
#include <thread>

using namespace concurrency;
using amp_test::iota;
using amp_test::narrow;

namespace {

bool has_path(const std::vector<accelerator>& all, const std::wstring& path) {
  return std::any_of(all.begin(), all.end(), [&](const accelerator& a) { return a.device_path == path; });
}
// direct3d_warp and direct3d_ref: present when this build has the host
// accelerator they name (direct3d_warp names the multicore one).
bool host_accelerator_present(const wchar_t* p) {
  const std::wstring path = p == std::wstring(accelerator::direct3d_warp)
#if defined(KOKKOS_ENABLE_OPENMP)
                                ? L"kokkos\\openmp"
#else
                                ? L"kokkos\\threads"
#endif
                                : p;
  return has_path(accelerator::get_all(), path);
}

TEST(Accelerator, GetAllListsCpuAndKernelCapableAccelerators) {
  const std::vector<accelerator> all = accelerator::get_all();
  ASSERT_FALSE(all.empty());
  EXPECT_TRUE(has_path(all, accelerator::cpu_accelerator)) << "no \"cpu\" accelerator";
  EXPECT_TRUE(has_path(all, L"cpu"));
  const auto kernel_capable =
      std::count_if(all.begin(), all.end(), [](const accelerator& a) { return a.device_path != L"cpu"; });
  EXPECT_GE(kernel_capable, 1);
#if defined(KOKKOS_ENABLE_OPENMP)
  // The multicore host accelerator: WARP's stand-in, named by direct3d_warp,
  // with a device path of its own (code testing for WARP's path works around
  // WARP's defects).
  EXPECT_TRUE(has_path(all, L"kokkos\\openmp")) << "OpenMP build without the multicore host accelerator";
  EXPECT_FALSE(has_path(all, accelerator::direct3d_warp));
  EXPECT_EQ(narrow(accelerator(accelerator::direct3d_warp).device_path), "kokkos\\openmp");
  EXPECT_TRUE(accelerator(accelerator::direct3d_warp) == accelerator(L"kokkos\\openmp"));
#endif
#if defined(KOKKOS_ENABLE_SERIAL)
  EXPECT_TRUE(has_path(all, accelerator::direct3d_ref)) << "Serial build without direct3d\\ref";
#endif
  // Device paths are unique.
  for (std::size_t i = 0; i < all.size(); ++i)
    for (std::size_t j = i + 1; j < all.size(); ++j) EXPECT_NE(all[i].device_path, all[j].device_path);
  // The default accelerator is one of them, and can run kernels.
  const accelerator def;
  EXPECT_TRUE(has_path(all, def.device_path));
  EXPECT_NE(def.device_path, L"cpu");
}

TEST(Accelerator, Properties) {
  for (const accelerator& a : accelerator::get_all()) {
    SCOPED_TRACE(narrow(a.device_path));
    EXPECT_FALSE(a.device_path.empty());
    EXPECT_FALSE(a.description.empty());
    EXPECT_EQ(a.get_device_path(), a.device_path);
    EXPECT_EQ(a.get_description(), a.description);
    EXPECT_TRUE(a.default_view.get_accelerator() == a);
    EXPECT_TRUE(a.get_default_view() == a.default_view);
    EXPECT_EQ(a.get_dedicated_memory(), a.dedicated_memory);
    EXPECT_EQ(a.get_is_emulated(), a.is_emulated);
    EXPECT_EQ(a.get_supports_double_precision(), a.supports_double_precision);
    EXPECT_EQ(a.get_version(), a.version);
  }
  // direct3d\ref (Kokkos Serial) is emulated as Microsoft's REF is; the
  // multicore accelerator that direct3d_warp names runs native code and is not
  // (its device path is its own, kokkos\openmp: Microsoft's test library
  // classifies emulated accelerators by path and stops at any other).
  if (host_accelerator_present(accelerator::direct3d_ref)) EXPECT_TRUE(accelerator(accelerator::direct3d_ref).is_emulated);
  if (host_accelerator_present(accelerator::direct3d_warp)) EXPECT_FALSE(accelerator(accelerator::direct3d_warp).is_emulated);
}

TEST(Accelerator, DefaultAccelerator) {
  const accelerator a, b(accelerator::default_accelerator);
  EXPECT_TRUE(a == b);
  EXPECT_EQ(a.device_path, b.device_path);
  EXPECT_TRUE(a.default_view == amp_test::default_view());
  // An array made without a view lives on the default accelerator's default view.
  array<int, 1> arr(4);
  EXPECT_TRUE(arr.get_accelerator_view() == a.default_view);
  // Once the default has been used it cannot be changed.
  EXPECT_FALSE(accelerator::set_default(accelerator::cpu_accelerator));
  EXPECT_EQ(accelerator().device_path, a.device_path);
  // The environment picks it (how the suite selects the backend under test).
  if (const char* env = std::getenv("AMP_DEFAULT_ACCELERATOR")) {
    const std::string e = env;
    std::wstring expect;
    if (e == "openmp") expect = L"kokkos\\openmp";
    if (e == "serial") expect = accelerator::direct3d_ref;
    if (e == "cuda") expect = L"cuda0";
    if (e == "hip") expect = L"hip0";
    if (!expect.empty()) {
      EXPECT_EQ(narrow(a.device_path), narrow(expect));
    }
  }
}

TEST(Accelerator, ConstructionByDevicePath) {
  for (const accelerator& a : accelerator::get_all()) {
    const accelerator b(a.device_path);
    EXPECT_TRUE(a == b) << narrow(a.device_path);
    EXPECT_FALSE(a != b) << narrow(a.device_path);
    EXPECT_EQ(b.description, a.description);
  }
  const accelerator cpu(accelerator::cpu_accelerator);
  const accelerator other(accelerator::default_accelerator);
  EXPECT_TRUE(cpu != other);
  EXPECT_FALSE(cpu == other);
}

// The same kernel on every accelerator that runs kernels gives the same result.
std::vector<int> run_on(const accelerator_view& av) {
  const int n = 2000;
  std::vector<int> in = iota(n), out(n, 0);
  array_view<const int, 1> a(n, in);
  array_view<int, 1> b(n, out);
  b.discard_data();
  parallel_for_each(av, b.extent, [=](index<1> i) restrict(amp) { b[i] = a[i] * a[i] % 997 + i[0]; });
  std::vector<int> tiled(n, 0);
  array_view<int, 1> t(n, tiled);
  t.discard_data();
  parallel_for_each(av, extent<1>(n).tile<16>(), [=](tiled_index<16> ti) restrict(amp) {
    tile_static int s[16];
    s[ti.local[0]] = b[ti.global];
    ti.barrier.wait();
    t[ti.global] = s[15 - ti.local[0]];
  });
  // An array on that view, captured by reference.
  array<int, 1> arr(n, in.begin(), av);
  parallel_for_each(av, arr.extent, [&arr](index<1> i) restrict(amp) { arr[i] = -arr[i]; });
  av.wait();
  t.synchronize();
  std::vector<int> result = tiled;
  const std::vector<int> neg = arr;
  result.insert(result.end(), neg.begin(), neg.end());
  return result;
}

TEST(Accelerator, HostAcceleratorsRunKernels) {
  std::vector<int> expect;
  {
    const int n = 2000;
    std::vector<int> b(n);
    for (int i = 0; i < n; ++i) b[i] = i * i % 997 + i;
    for (int i = 0; i < n; ++i) expect.push_back(b[i / 16 * 16 + 15 - i % 16]);
    for (int i = 0; i < n; ++i) expect.push_back(-i);
  }
  int ran = 0;
  for (const wchar_t* p : {accelerator::direct3d_warp, accelerator::direct3d_ref}) {
    if (!host_accelerator_present(p)) continue;
    SCOPED_TRACE(narrow(p));
    const accelerator acc(p);
    EXPECT_EQ(run_on(acc.default_view), expect);
    EXPECT_EQ(run_on(acc.create_view()), expect);
    ++ran;
  }
#if defined(KOKKOS_ENABLE_OPENMP) && defined(KOKKOS_ENABLE_SERIAL)
  EXPECT_EQ(ran, 2) << "both host accelerators should be in this binary";
#endif
  EXPECT_GE(ran, 1);
  // And the default accelerator (the one under test) agrees.
  EXPECT_EQ(run_on(amp_test::default_view()), expect);
}

TEST(Accelerator, AllKernelCapableAcceleratorsAgree) {
  std::vector<std::vector<int>> results;
  for (const accelerator& a : accelerator::get_all()) {
    if (a.device_path == L"cpu") continue;
    SCOPED_TRACE(narrow(a.device_path));
    results.push_back(run_on(a.default_view));
  }
  ASSERT_FALSE(results.empty());
  for (std::size_t k = 1; k < results.size(); ++k) EXPECT_EQ(results[k], results[0]);
}

TEST(Accelerator, ViewWait) {
  const accelerator_view av = amp_test::default_view();
  array<float, 1> a(4096);
  for (int k = 0; k < 3; ++k)
    parallel_for_each(av, a.extent, [&a, k](index<1> i) restrict(amp) { a[i] = static_cast<float>(i[0] + k); });
  av.wait();
  av.wait(); // nothing pending: returns at once
  EXPECT_EQ(a[4095], 4097.0f);
  av.flush();
  av.create_marker().wait();
  EXPECT_FALSE(av.get_is_debug());
}

TEST(Accelerator, ComparingViews) {
  const accelerator acc;
  const accelerator_view v1 = acc.default_view;
  const accelerator_view v2 = acc.get_default_view();
  accelerator_view v3 = v1; // a copy is the same view
  EXPECT_TRUE(v1 == v2);
  EXPECT_TRUE(v1 == v3);
  EXPECT_FALSE(v1 != v3);
  v3 = accelerator(accelerator::cpu_accelerator).default_view;
  EXPECT_TRUE(v1 != v3);
  EXPECT_FALSE(v1 == v3);
  // Views of different accelerators differ.
  const accelerator cpu(accelerator::cpu_accelerator);
  EXPECT_TRUE(cpu.default_view != acc.default_view);
  EXPECT_TRUE(cpu.default_view.get_accelerator() == cpu);
  EXPECT_TRUE(acc.create_view().get_accelerator() == acc);
  // create_view makes a new view: not the default view, not another new one.
  const accelerator_view n1 = acc.create_view();
  const accelerator_view n2 = acc.create_view();
  EXPECT_TRUE(n1 != acc.default_view) << "create_view() returned a view equal to default_view";
  EXPECT_TRUE(n1 != n2) << "two create_view() calls returned equal views";
  EXPECT_TRUE(n1 == accelerator_view(n1));
  // Queuing modes.
  EXPECT_EQ(acc.create_view(queuing_mode_immediate).get_queuing_mode(), queuing_mode_immediate);
  EXPECT_EQ(acc.create_view(queuing_mode_automatic).get_queuing_mode(), queuing_mode_automatic);
  EXPECT_EQ(acc.default_view.get_queuing_mode(), queuing_mode_automatic);
}

// Several host threads using the accelerator at once, each through its own
// accelerator_view (the usage AMP recommends for multi-threaded programs),
// with simple and tiled kernels.
TEST(Accelerator, KernelsFromSeveralHostThreads) {
  const int threads = 3, rounds = 30, n = 640;
  std::vector<std::string> errors(threads);
  std::vector<int> wrong(threads, 0);
  auto work = [&](int id) {
    try {
      const accelerator_view view = accelerator().create_view();
      for (int r = 0; r < rounds; ++r) {
        std::vector<int> v(n, id * 1000 + r);
        array_view<int, 1> a(n, v);
        parallel_for_each(view, a.extent, [=](index<1> i) restrict(amp) { a[i] += i[0]; });
        parallel_for_each(view, a.extent.tile<64>(), [=](tiled_index<64> t) restrict(amp) {
          tile_static int s[64];
          s[t.local[0]] = a[t];
          t.barrier.wait();
          a[t] = s[63 - t.local[0]];
        });
        a.synchronize();
        for (int i = 0; i < n; ++i)
          if (v[i] != id * 1000 + r + i / 64 * 64 + 63 - i % 64) {
            ++wrong[id];
            break;
          }
      }
    } catch (const std::exception& e) {
      errors[id] = e.what();
    } catch (...) {
      errors[id] = "unknown exception";
    }
  };
  std::vector<std::thread> pool;
  for (int id = 0; id < threads; ++id) pool.emplace_back(work, id);
  for (auto& t : pool) t.join();
  for (int id = 0; id < threads; ++id) {
    EXPECT_EQ(errors[id], "") << "thread " << id;
    EXPECT_EQ(wrong[id], 0) << "thread " << id << ": wrong results in " << wrong[id] << " rounds";
  }
}

} // namespace
