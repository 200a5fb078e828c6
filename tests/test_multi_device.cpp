// Several accelerators and several queues (accelerator_views) in one program:
// enumeration of every GPU, kernels and arrays on each accelerator and view,
// copies between them, ordering of work on shared data across queues and
// devices, and array_view coherence when two accelerators touch the same data.
//
// The same tests run in every build. On the host build the accelerators are
// Kokkos OpenMP and Serial; on a GPU build every CUDA device is one too, so
// the pairwise tests cover GPU<->host and, with two GPUs, GPU<->GPU paths.
// Tests that need two GPUs skip where there are fewer.
#include "amp_test_util.h"

#include <algorithm>
#include <chrono>
#include <set>
#include <string>
#include <vector>

#if defined(KOKKOS_ENABLE_CUDA)
#include <cuda_runtime.h>
#elif defined(KOKKOS_ENABLE_HIP)
#include <hip/hip_runtime.h>
#endif

using namespace concurrency;
using amp_test::iota;
using amp_test::narrow;

namespace {

namespace d = Concurrency::detail;
// The GPUs' device paths are the backend's ("cuda0", "hip0", ...).
std::wstring gpu_path(int n) { return d::device_memory::path(n); }
bool is_gpu(const accelerator& a) { return a.device_path.rfind(L"cuda", 0) == 0 || a.device_path.rfind(L"hip", 0) == 0; }

std::vector<accelerator> kernel_accelerators() {
  std::vector<accelerator> r;
  for (const accelerator& a : accelerator::get_all())
    if (a.device_path != accelerator::cpu_accelerator) r.push_back(a);
  return r;
}
std::vector<accelerator> gpus() {
  std::vector<accelerator> r;
  for (const accelerator& a : accelerator::get_all())
    if (is_gpu(a)) r.push_back(a);
  return r;
}
// The runtime's own count, asked independently of amp_compat.
int cuda_device_count() {
#if defined(KOKKOS_ENABLE_CUDA)
  int n = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess) {
    (void)cudaGetLastError();
    return 0;
  }
  return n;
#elif defined(KOKKOS_ENABLE_HIP)
  int n = 0;
  if (hipGetDeviceCount(&n) != hipSuccess) {
    (void)hipGetLastError();
    return 0;
  }
  return n;
#else
  return 0;
#endif
}

// 3 * x, the long way: a kernel that takes a while on every backend (so that
// work on another queue wrongly not ordered after it would read stale data).
// The LCG steps forward and back again; no compiler folds that to identity.
int slow_value(int x) restrict(amp, cpu) {
  unsigned v = static_cast<unsigned>(x) * 3u;
  for (int k = 0; k < 1000; ++k) v = v * 1664525u + 1013904223u;
  for (int k = 0; k < 1000; ++k) v = (v - 1013904223u) * 0xfee058c5u; // 0xfee058c5 = 1664525^-1 mod 2^32
  return static_cast<int>(v);
}

TEST(MultiDevice, EveryCudaDeviceIsAnAccelerator) {
  const std::vector<accelerator> g = gpus();
  EXPECT_EQ(static_cast<int>(g.size()), std::min(cuda_device_count(), 31));
  std::set<std::wstring> descriptions;
  for (std::size_t d = 0; d < g.size(); ++d) {
    SCOPED_TRACE(narrow(g[d].device_path));
    EXPECT_EQ(g[d].device_path, gpu_path(static_cast<int>(d))); // in the runtime's order
    EXPECT_NE(g[d].description.find(L" device " + std::to_wstring(d)), std::wstring::npos);
    descriptions.insert(g[d].description);
    EXPECT_GT(g[d].dedicated_memory, 0u);
    EXPECT_FALSE(g[d].is_emulated);
    EXPECT_TRUE(accelerator(g[d].device_path) == g[d]);
    EXPECT_TRUE(g[d].default_view.get_accelerator() == g[d]);
  }
  EXPECT_EQ(descriptions.size(), g.size()); // each names its device number
  // A device path past the last GPU names no accelerator.
  EXPECT_THROW(accelerator(gpu_path(static_cast<int>(g.size()))), runtime_exception);
}

TEST(MultiDevice, CreateViewMakesDistinctQueuesOfTheSameAccelerator) {
  for (const accelerator& a : kernel_accelerators()) {
    SCOPED_TRACE(narrow(a.device_path));
    accelerator_view v1 = a.create_view();
    accelerator_view v2 = a.create_view(queuing_mode_immediate);
    EXPECT_TRUE(v1 != v2);
    EXPECT_TRUE(v1 != a.default_view);
    EXPECT_TRUE(v1.get_accelerator() == a);
    EXPECT_TRUE(v2.get_accelerator() == a);
    EXPECT_EQ(v1.get_queuing_mode(), queuing_mode_automatic);
    EXPECT_EQ(v2.get_queuing_mode(), queuing_mode_immediate);
    accelerator_view c = v1;
    EXPECT_TRUE(c == v1);
    v1.flush();
    v1.wait();
    v2.wait();
  }
}

// Arrays and kernels on every view of every accelerator, named explicitly.
TEST(MultiDevice, KernelsOnEveryAcceleratorAndView) {
  const int n = 4099;
  const std::vector<int> in = iota(n);
  for (const accelerator& a : kernel_accelerators()) {
    for (const accelerator_view& v : {a.default_view, a.create_view(), a.create_view(queuing_mode_immediate)}) {
      SCOPED_TRACE(narrow(a.device_path));
      array<int, 1> x(n, in.begin(), in.end(), v);
      array<int, 1> y(n, v);
      EXPECT_TRUE(x.get_accelerator_view() == v);
      parallel_for_each(v, x.extent, [=, &x, &y](index<1> i) restrict(amp) { y[i] = x[i] * 2 + 1; });
      // Without a view: runs on y's view, as in AMP.
      parallel_for_each(y.extent, [&y](index<1> i) restrict(amp) { y[i] += 1; });
      std::vector<int> out = y;
      for (int i = 0; i < n; ++i) ASSERT_EQ(out[i], 2 * i + 2) << "at " << i;
      // An array_view over host memory, written on this view.
      std::vector<int> h(n, -1);
      array_view<int, 1> hv(n, h);
      parallel_for_each(v, hv.extent, [=](index<1> i) restrict(amp) { hv[i] = i[0] * 5; });
      hv.synchronize();
      for (int i = 0; i < n; ++i) ASSERT_EQ(h[i], 5 * i) << "at " << i;
    }
  }
}

// copy() between arrays on every ordered pair of accelerators (and between
// two views of one): GPU<->host, host<->host, and GPU<->GPU with two GPUs.
TEST(MultiDevice, CopyBetweenArraysOnAnyTwoAccelerators) {
  const int n = 1 << 14;
  const std::vector<accelerator> accs = kernel_accelerators();
  for (const accelerator& a : accs)
    for (const accelerator& b : accs) {
      SCOPED_TRACE(narrow(a.device_path) + " -> " + narrow(b.device_path));
      const accelerator_view va = a.create_view(), vb = (a == b) ? b.create_view() : b.default_view;
      array<int, 1> src(n, va), dst(n, vb);
      parallel_for_each(va, src.extent, [&src](index<1> i) restrict(amp) { src[i] = slow_value(i[0]); });
      copy(src, dst); // the kernel above must be done before the copy reads src
      parallel_for_each(vb, dst.extent, [&dst](index<1> i) restrict(amp) { dst[i] += 7; });
      array<int, 1> back(n, va);
      dst.copy_to(back);
      std::vector<int> out = back;
      for (int i = 0; i < n; ++i) ASSERT_EQ(out[i], 3 * i + 7) << "at " << i;
      // The source is unchanged by the copy and later work on dst.
      std::vector<int> s = src;
      for (int i = 0; i < n; ++i) ASSERT_EQ(s[i], 3 * i) << "at " << i;
      // Array copy construction keeps the source's view.
      array<int, 1> clone(dst);
      EXPECT_TRUE(clone.get_accelerator_view() == vb);
    }
}

// copy() between contiguous views of arrays (sections, array <-> view) on any
// two accelerators: on GPUs device to device, the values as through the host.
TEST(MultiDevice, SectionCopiesBetweenAccelerators) {
  const int rows = 64, cols = 96;
  const std::vector<accelerator> accs = kernel_accelerators();
  for (const accelerator& a : accs)
    for (const accelerator& b : accs) {
      SCOPED_TRACE(narrow(a.device_path) + " -> " + narrow(b.device_path));
      const accelerator_view va = a.create_view(), vb = b.create_view();
      array<int, 2> src(rows, cols, va);
      parallel_for_each(va, src.extent, [&src](index<2> i) restrict(amp) { src[i] = slow_value(i[0] * 1000 + i[1]); });
      // Rows 16..47 (contiguous) into an array on b.
      array<int, 2> band(32, cols, vb);
      copy(src.section(16, 0, 32, cols), band);
      // The band into rows 0..31 of another array on b, through a view.
      array<int, 2> dst(rows, cols, vb);
      parallel_for_each(vb, dst.extent, [&dst](index<2> i) restrict(amp) { dst[i] = -1; });
      copy(band, dst.section(0, 0, 32, cols));
      // A view of an array on b into an array on a (construction from a view).
      array<int, 2> back(array_view<const int, 2>(dst), va);
      std::vector<int> out = back;
      for (int r = 0; r < rows; ++r)
        for (int c = 0; c < cols; ++c)
          ASSERT_EQ(out[r * cols + c], r < 32 ? 3 * ((r + 16) * 1000 + c) : -1) << "at " << r << "," << c;
    }
}

// An array_view written on one accelerator/queue and read on another, without
// any explicit synchronisation in between: the reader sees the writes.
TEST(MultiDevice, ArrayViewCoherenceAcrossAcceleratorsAndQueues) {
  const int n = 10007;
  const std::vector<accelerator> accs = kernel_accelerators();
  for (const accelerator& a : accs)
    for (const accelerator& b : accs) {
      SCOPED_TRACE(narrow(a.device_path) + " then " + narrow(b.device_path));
      const accelerator_view va = a.create_view(), vb = b.create_view();
      std::vector<int> data(n, 0), result(n, -1);
      array_view<int, 1> d(n, data);
      array_view<int, 1> r(n, result);
      r.discard_data();
      parallel_for_each(va, d.extent, [=](index<1> i) restrict(amp) { d[i] = slow_value(i[0]); });
      parallel_for_each(vb, d.extent, [=](index<1> i) restrict(amp) { r[i] = d[i] + 1; });
      // Back on a: a third kernel updates d in place after b read it.
      parallel_for_each(va, d.extent, [=](index<1> i) restrict(amp) { d[i] = -d[i]; });
      r.synchronize();
      d.synchronize();
      for (int i = 0; i < n; ++i) {
        ASSERT_EQ(result[i], 3 * i + 1) << "at " << i;
        ASSERT_EQ(data[i], -3 * i) << "at " << i;
      }
    }
}

// A read-only view used on two accelerators keeps a current copy on both; a
// host write then (after refresh) reaches both again.
TEST(MultiDevice, ReadOnlyDataOnSeveralAcceleratorsFollowsHostUpdates) {
  const int n = 2048;
  const std::vector<accelerator> accs = kernel_accelerators();
  std::vector<int> src = iota(n);
  array_view<const int, 1> s(n, src);
  for (int round = 0; round < 2; ++round) {
    for (const accelerator& a : accs) {
      SCOPED_TRACE(narrow(a.device_path));
      std::vector<int> out(n, 0);
      array_view<int, 1> o(n, out);
      parallel_for_each(a.default_view, o.extent, [=](index<1> i) restrict(amp) { o[i] = s[i] * 2; });
      o.synchronize();
      for (int i = 0; i < n; ++i) ASSERT_EQ(out[i], 2 * (i + round * 100)) << "at " << i;
    }
    for (int& v : src) v += 100;
    s.refresh();
  }
}

// Independent pipelines on two views (copy in, kernel, copy out per chunk,
// chunks alternating between the views), as a program overlapping transfers
// with kernels would issue them; every chunk's result must be right. The
// time this saves on a GPU is measured in bench/ (b_multi.cpp).
TEST(MultiDevice, TwoViewPipelineGivesTheResultsOfOneQueue) {
  const int chunk = 1 << 12, chunks = 8;
  for (const accelerator& a : kernel_accelerators()) {
    SCOPED_TRACE(narrow(a.device_path));
    const accelerator_view views[2] = {a.create_view(), a.create_view()};
    std::vector<int> in = iota(chunk * chunks), out(chunk * chunks, 0);
    std::vector<array<int, 1>> dev;
    for (int c = 0; c < chunks; ++c) dev.emplace_back(chunk, views[c % 2]);
    for (int c = 0; c < chunks; ++c) {
      array<int, 1>& x = dev[static_cast<std::size_t>(c)];
      copy(in.begin() + c * chunk, in.begin() + (c + 1) * chunk, x);
      parallel_for_each(views[c % 2], x.extent, [&x](index<1> i) restrict(amp) { x[i] = slow_value(x[i]); });
    }
    std::vector<completion_future> markers;
    for (const accelerator_view& v : views) markers.push_back(v.create_marker());
    for (completion_future& m : markers) {
      m.get();
      EXPECT_EQ(m.wait_for(std::chrono::seconds(0)), std::future_status::ready);
    }
    for (int c = 0; c < chunks; ++c) copy(dev[static_cast<std::size_t>(c)], out.begin() + c * chunk);
    for (int i = 0; i < chunk * chunks; ++i) ASSERT_EQ(out[i], 3 * i) << "at " << i;
  }
}

// Work split over every accelerator the AMP way (one array per accelerator,
// copy back) gives the single-accelerator answer.
TEST(MultiDevice, WorkSplitOverAllAcceleratorsMatchesOneAccelerator) {
  const int n = 12345;
  const std::vector<accelerator> accs = kernel_accelerators();
  std::vector<int> whole(n);
  {
    array_view<int, 1> w(n, whole);
    w.discard_data();
    parallel_for_each(accs.front().default_view, w.extent, [=](index<1> i) restrict(amp) { w[i] = slow_value(i[0]); });
    w.synchronize();
  }
  std::vector<int> split(n);
  const int parts = static_cast<int>(accs.size());
  std::vector<array<int, 1>> pieces;
  for (int p = 0; p < parts; ++p) {
    const int lo = n * p / parts, hi = n * (p + 1) / parts;
    pieces.emplace_back(hi - lo, accs[static_cast<std::size_t>(p)].default_view);
    array<int, 1>& x = pieces.back();
    parallel_for_each(x.get_accelerator_view(), x.extent, [=, &x](index<1> i) restrict(amp) { x[i] = slow_value(lo + i[0]); });
  }
  for (int p = 0; p < parts; ++p) copy(pieces[static_cast<std::size_t>(p)], split.begin() + n * p / parts);
  EXPECT_EQ(split, whole);
}

// ---- two GPUs (skipped with fewer)
#define NEED_TWO_GPUS()                                                                            \
  do {                                                                                             \
    if (gpus().size() < 2) GTEST_SKIP() << "needs two GPUs; this machine has " << gpus().size();    \
  } while (0)

TEST(TwoGpus, CopyBetweenGpusIsExactInBothDirections) {
  NEED_TWO_GPUS();
  const std::vector<accelerator> g = gpus();
  const int n = 1 << 22; // 16 MB
  const std::vector<int> in = iota(n);
  array<int, 1> a(n, in.begin(), in.end(), g[0].default_view), b(n, g[1].default_view);
  copy(a, b);
  parallel_for_each(b.extent, [&b](index<1> i) restrict(amp) { b[i] = b[i] * 2; }); // on cuda1
  copy(b, a);
  std::vector<int> out = a;
  for (int i = 0; i < n; ++i) ASSERT_EQ(out[i], 2 * i) << "at " << i;
  // An array_view section of an array on cuda1 copied into an array on cuda0.
  array<int, 1> c(n / 2, g[0].create_view());
  copy(b.section(n / 2, n / 2), c);
  std::vector<int> half = c;
  for (int i = 0; i < n / 2; ++i) ASSERT_EQ(half[i], 2 * (i + n / 2)) << "at " << i;
}

TEST(TwoGpus, KernelOnOneGpuReadsAnArrayViewTheOtherWrote) {
  NEED_TWO_GPUS();
  const std::vector<accelerator> g = gpus();
  const int n = 1 << 20;
  std::vector<int> data(n, 0), out(n, 0);
  array_view<int, 1> d(n, data), o(n, out);
  for (int round = 0; round < 3; ++round) {
    const accelerator_view w = g[round % 2].create_view(), r = g[(round + 1) % 2].default_view;
    parallel_for_each(w, d.extent, [=](index<1> i) restrict(amp) { d[i] = slow_value(i[0]) + round; });
    parallel_for_each(r, d.extent, [=](index<1> i) restrict(amp) { o[i] = d[i] - round; });
    o.synchronize();
    for (int i = 0; i < n; ++i) ASSERT_EQ(out[i], 3 * i) << "round " << round << " at " << i;
  }
}

TEST(TwoGpus, DefaultAcceleratorCanBeTheSecondGpu) {
  NEED_TWO_GPUS();
  // Run the suite with AMP_DEFAULT_ACCELERATOR=cuda1 to run every test there
  // (the GPU bundle does); here: kernels named for cuda1 run there.
  accelerator g1(gpu_path(1));
  array<int, 1> x(1000, g1.default_view);
  parallel_for_each(x.extent, [&x](index<1> i) restrict(amp) { x[i] = i[0]; });
  EXPECT_TRUE(x.get_accelerator_view().get_accelerator() == g1);
  std::vector<int> out = x;
  EXPECT_EQ(out, iota(1000));
}

} // namespace
