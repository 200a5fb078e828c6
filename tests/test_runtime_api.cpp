// The runtime API around kernels (C++ AMP spec 3 and 5): start-up from static
// initialisation, accelerator and accelerator_view properties as Microsoft's
// runtime reports them, CPU access types, staging arrays, array_view::copy_to
// and get_ref, completion_future and the asynchronous copies.
#include "amp_test_util.h"

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <chrono>
#include <future>
#include <iterator>
#include <mutex>
#include <thread>

using namespace concurrency;
using amp_test::iota;
using amp_test::narrow;

namespace {

// ---- objects made during static initialisation (legacy code does this). None
// of them may start Kokkos: its own statics may not exist yet.
const accelerator g_default_acc(accelerator::default_accelerator);
const accelerator g_cpu_acc(accelerator::cpu_accelerator);
const accelerator_view g_default_view = g_default_acc.default_view;
std::vector<int> g_host = iota(64);
array_view<int, 1> g_view(64, g_host);
array<int, 1> g_array(extent<1>(64), g_host.begin(), g_default_view);
array<int, 1> g_staging(extent<1>(64), g_cpu_acc.default_view, g_default_view);
const bool g_kokkos_started_by_statics = Kokkos::is_initialized();

TEST(RuntimeApi, StaticObjectsDoNotStartKokkosAndWorkLater) {
  EXPECT_FALSE(g_kokkos_started_by_statics) << "objects at namespace scope started Kokkos during static initialisation";
  EXPECT_TRUE(g_default_acc == accelerator(accelerator::default_accelerator));
  EXPECT_TRUE(g_array.get_accelerator_view() == g_default_view);
  EXPECT_TRUE(g_staging.get_accelerator_view() == g_cpu_acc.default_view);
  array<int, 1>& arr = g_array;
  const array_view<int, 1> v = g_view;
  parallel_for_each(g_default_view, arr.extent, [&arr, v](index<1> i) restrict(amp) {
    arr[i] = arr[i] * 2;
    v[i] = v[i] + 1;
  });
  const std::vector<int> got = arr;
  v.synchronize();
  for (int i = 0; i < 64; ++i) {
    ASSERT_EQ(got[i], 2 * i) << i;
    ASSERT_EQ(g_host[i], i + 1) << i;
  }
  EXPECT_TRUE(Kokkos::is_initialized()) << "a kernel ran, so Kokkos must be up";
}

// ---- accelerator properties
TEST(RuntimeApi, AcceleratorPropertiesAsMicrosoftReportsThem) {
  bool saw_cpu = false;
  for (const accelerator& a : accelerator::get_all()) {
    SCOPED_TRACE(narrow(a.device_path));
    EXPECT_FALSE(a.is_debug);
    EXPECT_FALSE(a.has_display);
    EXPECT_EQ(a.get_has_display(), a.has_display);
    EXPECT_EQ(a.get_is_debug(), a.is_debug);
    EXPECT_EQ(a.get_supports_limited_double_precision(), a.supports_limited_double_precision);
    EXPECT_EQ(a.get_supports_cpu_shared_memory(), a.supports_cpu_shared_memory);
    EXPECT_EQ(a.get_default_cpu_access_type(), a.default_cpu_access_type);
    EXPECT_NE(a.default_cpu_access_type, access_type_auto) << "the default is resolved, never auto";
    // AMP's emulated accelerators (REF, WARP's path is not used, cpu) are
    // emulated; the GPUs (cuda0, hip0, ...) and the multicore accelerator
    // (kokkos\openmp, kokkos\threads), which run native code, are not.
    EXPECT_EQ(a.is_emulated, a.device_path == accelerator::direct3d_ref || a.device_path == accelerator::cpu_accelerator);
    if (a.device_path == accelerator::cpu_accelerator) {
      saw_cpu = true;
      // Microsoft's cpu accelerator: version 0.1, no doubles, system memory.
      EXPECT_EQ(a.version, 1u);
      EXPECT_FALSE(a.supports_double_precision);
      EXPECT_FALSE(a.supports_limited_double_precision);
      EXPECT_GT(a.dedicated_memory, 1024u) << "the cpu accelerator reports the system memory (KB)";
    } else {
      EXPECT_TRUE(a.supports_double_precision);
      EXPECT_TRUE(a.supports_limited_double_precision);
      EXPECT_EQ(a.version, 0x000B0000u);
    }
  }
  EXPECT_TRUE(saw_cpu);
  // The test library of Microsoft's suite prefers non-emulated accelerators;
  // the cpu accelerator must never be preferred for kernels.
  EXPECT_TRUE(accelerator(accelerator::cpu_accelerator).is_emulated);
}

TEST(RuntimeApi, AcceleratorViewProperties) {
  const accelerator acc;
  for (const accelerator_view& av : {acc.default_view, acc.create_view(queuing_mode_immediate)}) {
    EXPECT_TRUE(av.accelerator == acc);
    EXPECT_EQ(av.accelerator.device_path, acc.device_path);
    EXPECT_EQ(av.accelerator.description, acc.description);
    EXPECT_EQ(av.accelerator.get_is_emulated(), acc.is_emulated);
    const accelerator back = av.accelerator; // the property converts to accelerator
    EXPECT_TRUE(back == acc);
    EXPECT_TRUE(back.default_view == acc.default_view);
    EXPECT_EQ(av.version, acc.version);
    EXPECT_EQ(av.get_version(), acc.get_version());
    EXPECT_EQ(av.queuing_mode, av.get_queuing_mode());
    EXPECT_FALSE(av.is_debug);
    EXPECT_FALSE(av.is_auto_selection);
  }
  EXPECT_EQ(acc.create_view(queuing_mode_immediate).queuing_mode, queuing_mode_immediate);
  EXPECT_EQ(acc.default_view.queuing_mode, queuing_mode_automatic);
  // Assignment rebinds every property.
  accelerator_view v = acc.default_view;
  v = accelerator(accelerator::cpu_accelerator).create_view(queuing_mode_immediate);
  EXPECT_EQ(v.accelerator.device_path, std::wstring(accelerator::cpu_accelerator));
  EXPECT_EQ(v.queuing_mode, queuing_mode_immediate);
  EXPECT_TRUE(v.accelerator != acc);
}

TEST(RuntimeApi, AutoSelectionViewRunsWhereTheDataLive) {
  const accelerator_view a1 = accelerator::get_auto_selection_view();
  const accelerator_view a2 = accelerator::get_auto_selection_view();
  EXPECT_TRUE(a1.is_auto_selection);
  EXPECT_TRUE(a1.get_is_auto_selection());
  EXPECT_TRUE(a1 == a2);
  EXPECT_TRUE(a1 != accelerator().default_view);
  array<int, 1> a(256, iota(256).begin());
  parallel_for_each(a1, a.extent, [&a](index<1> i) restrict(amp) { a[i] = a[i] * 3; });
  const std::vector<int> got = a;
  for (int i = 0; i < 256; ++i) ASSERT_EQ(got[i], 3 * i);
}

// Everything but a parallel_for_each's choice of target treats the
// auto-selection view as the default accelerator's default view (AMP's
// reference): arrays made on it live on the default accelerator, copies and
// sections work, and a kernel on it runs there. The AMP Algorithms Library
// makes its radix sort's scratch arrays so; on a GPU they once took the
// view's identity queue, a host queue, and failed ("invalid device ordinal").
TEST(RuntimeApi, AutoSelectionViewHoldsArrays) {
  const accelerator_view av = accelerator::get_auto_selection_view();
  array<int, 2> table(extent<2>(4, 8), av);
  array<int, 1> counts(8, av);
  EXPECT_TRUE(table.get_accelerator_view().accelerator == accelerator().default_view.accelerator);
  parallel_for_each(av, counts.extent, [&counts](index<1> i) restrict(amp) { counts[i] = 0; });
  array_view<int, 1> head = counts.section(0, 4);
  parallel_for_each(av, head.extent, [=](index<1> i) restrict(amp) { head[i] = 7; });
  parallel_for_each(av, table.extent.tile<2, 4>(), [&table, &counts](tiled_index<2, 4> t) restrict(amp) {
    table[t.global] = t.global[0] * 8 + t.global[1];
    atomic_fetch_add(&counts[t.global[1]], 1);
  });
  const std::vector<int> c = counts, tb = table;
  for (int i = 0; i < 8; ++i) EXPECT_EQ(c[i], (i < 4 ? 7 : 0) + 4) << i;
  for (int i = 0; i < 32; ++i) EXPECT_EQ(tb[i], i);
  std::vector<int> back(32, -1);
  copy(table, back.begin());
  EXPECT_EQ(back, tb);
  array<int, 1> staged(8, iota(8).begin(), av);
  EXPECT_EQ(std::vector<int>(staged), iota(8));
  av.wait();
}

// ---- CPU access types
// The setting is per process and earlier tests already made arrays on every
// accelerator, so this runs in a fresh process (a re-executed death test).
#define CHECK_OR_EXIT(cond)                                                                        \
  do {                                                                                             \
    if (!(cond)) {                                                                                 \
      std::fprintf(stderr, "check failed: %s (line %d)\n", #cond, __LINE__);                       \
      std::exit(1);                                                                                \
    }                                                                                              \
  } while (0)
void check_default_cpu_access_type(accelerator acc) {
  CHECK_OR_EXIT(acc.supports_cpu_shared_memory);
  CHECK_OR_EXIT(acc.default_cpu_access_type == access_type_read_write);
  CHECK_OR_EXIT(acc.set_default_cpu_access_type(access_type_read));
  CHECK_OR_EXIT(acc.default_cpu_access_type == access_type_read);
  // Shared by every accelerator object of that device.
  const accelerator same(acc.device_path);
  CHECK_OR_EXIT(same.get_default_cpu_access_type() == access_type_read);
  // Only once.
  CHECK_OR_EXIT(!accelerator(acc.device_path).set_default_cpu_access_type(access_type_write));
  CHECK_OR_EXIT(same.get_default_cpu_access_type() == access_type_read);
  // Arrays made without an explicit type get it; explicit types win.
  array<int, 2> a(extent<2>(4, 4), acc.default_view);
  CHECK_OR_EXIT(a.get_cpu_access_type() == access_type_read);
  array<int, 1> b(8, acc.default_view, access_type_write);
  CHECK_OR_EXIT(b.get_cpu_access_type() == access_type_write);
  // Once an array used the runtime's choice, it can no longer be changed.
  accelerator second(accelerator::cpu_accelerator);
  for (const accelerator& x : accelerator::get_all())
    if (x.device_path != acc.device_path && x.device_path != L"cpu") second = x;
  if (second.device_path != L"cpu") {
    array<int, 1> used(4, second.default_view);
    CHECK_OR_EXIT(used.get_cpu_access_type() == access_type_read_write);
    CHECK_OR_EXIT(!second.set_default_cpu_access_type(access_type_none));
    CHECK_OR_EXIT(second.get_default_cpu_access_type() == access_type_read_write);
  }
  // Arrays on the cpu accelerator are always CPU-accessible.
  array<int, 1> c(8, accelerator(accelerator::cpu_accelerator).default_view, access_type_none);
  CHECK_OR_EXIT(c.get_cpu_access_type() == access_type_read_write);
  CHECK_OR_EXIT(c.data() != nullptr);
  std::exit(0);
}

TEST(RuntimeApi, DefaultCpuAccessTypeIsSharedAndSetOnce) {
  // Not the default accelerator: this file's namespace-scope array used its default.
  const std::wstring def = accelerator().device_path;
  std::vector<accelerator> others;
  for (const accelerator& a : accelerator::get_all())
    if (a.device_path != def && a.device_path != L"cpu") others.push_back(a);
  if (others.empty()) GTEST_SKIP() << "needs a second accelerator that runs kernels";
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(check_default_cpu_access_type(others.front()), ::testing::ExitedWithCode(0), "");
}

TEST(RuntimeApi, ArrayWithoutCpuAccess) {
  const accelerator_view av = accelerator().default_view;
  const int n = 300;
  const std::vector<int> src = iota(n);
  array<int, 1> a(extent<1>(n), src.begin(), av, access_type_none);
  EXPECT_EQ(a.get_cpu_access_type(), access_type_none);
  EXPECT_EQ(a.data(), nullptr) << "AMP: data() is null for an array the CPU cannot access";
  EXPECT_THROW(a[index<1>(0)], runtime_exception);
  EXPECT_THROW(a(3), runtime_exception);
  const array<int, 1>& ca = a;
  EXPECT_THROW(ca[2], runtime_exception);
  for (int k = 0; k < 3; ++k) parallel_for_each(av, a.extent, [&a](index<1> i) restrict(amp) { a[i] += 2; });
  // Copies and views still reach the data.
  std::vector<int> out(n);
  copy(a, out.begin());
  for (int i = 0; i < n; ++i) ASSERT_EQ(out[i], i + 6);
  array_view<int, 1> v(a);
  EXPECT_EQ(v[10], 16);
  const std::vector<int> conv = a;
  EXPECT_EQ(conv[n - 1], n - 1 + 6);
  // Copy construction keeps the view and the access type.
  array<int, 1> b(a);
  EXPECT_EQ(b.get_cpu_access_type(), access_type_none);
  EXPECT_TRUE(b.get_accelerator_view() == av);
  array<int, 2> r(4, 5, av, access_type_read_write);
  EXPECT_EQ(r.get_cpu_access_type(), access_type_read_write);
  EXPECT_NE(r.data(), nullptr);
}

// ---- staging arrays
TEST(RuntimeApi, StagingArraysEveryConstructorForm) {
  const accelerator_view cpu_av = accelerator(accelerator::cpu_accelerator).default_view;
  const accelerator_view av = accelerator().default_view;
  const std::vector<int> src = iota(24, 100);
  auto check = [&](const array<int, 3>& s, bool filled, const char* form) {
    SCOPED_TRACE(form);
    EXPECT_TRUE(s.get_accelerator_view() == cpu_av);
    EXPECT_TRUE(s.get_associated_accelerator_view() == av);
    EXPECT_EQ(s.extent, extent<3>(2, 3, 4));
    EXPECT_NE(s.data(), nullptr) << "staging arrays are CPU-accessible";
    if (filled) {
      const std::vector<int> got = s;
      EXPECT_EQ(got, src);
    }
  };
  const extent<3> e(2, 3, 4);
  check(array<int, 3>(e, cpu_av, av), false, "(extent, av, associated)");
  check(array<int, 3>(2, 3, 4, cpu_av, av), false, "(e0, e1, e2, av, associated)");
  check(array<int, 3>(e, src.begin(), src.end(), cpu_av, av), true, "(extent, first, last, av, associated)");
  check(array<int, 3>(e, src.begin(), cpu_av, av), true, "(extent, first, av, associated)");
  check(array<int, 3>(2, 3, 4, src.begin(), src.end(), cpu_av, av), true, "(e0, e1, e2, first, last, av, assoc)");
  check(array<int, 3>(2, 3, 4, src.begin(), cpu_av, av), true, "(e0, e1, e2, first, av, associated)");
  std::vector<int> host = src;
  const array_view<const int, 3> cview(e, host);
  const array_view<int, 3> view(e, host);
  check(array<int, 3>(cview, cpu_av, av), true, "(array_view<const T>, av, associated)");
  check(array<int, 3>(view, cpu_av, av), true, "(array_view<T>, av, associated)");
  // A non-staging array is associated with its own view, also when another
  // is named: only an array on the cpu accelerator stages (Microsoft's
  // associated_accvl_view/Test.03).
  array<int, 1> plain(4, av);
  EXPECT_TRUE(plain.get_associated_accelerator_view() == av);
  array<int, 1> not_staging(4, av, cpu_av);
  EXPECT_TRUE(not_staging.get_associated_accelerator_view() == av);
  // With an access type.
  array<int, 3> typed(view, av, access_type_read);
  EXPECT_EQ(typed.get_cpu_access_type(), access_type_read);
  const std::vector<int> typed_data = typed;
  EXPECT_EQ(typed_data, src);
}

TEST(RuntimeApi, StagingArrayRoundTripThroughAKernel) {
  const accelerator_view cpu_av = accelerator(accelerator::cpu_accelerator).default_view;
  const accelerator_view av = accelerator().default_view;
  const int n = 1000;
  array<float, 1> in_stage(n, cpu_av, av), out_stage(n, cpu_av, av);
  for (int i = 0; i < n; ++i) in_stage[i] = static_cast<float>(i) * 0.5f; // written on the CPU directly
  array<float, 1> dev(n, av);
  copy(in_stage, dev);
  parallel_for_each(av, dev.extent, [&dev](index<1> i) restrict(amp) { dev[i] = dev[i] * 4.0f + 1.0f; });
  copy(dev, out_stage);
  for (int i = 0; i < n; ++i) ASSERT_EQ(out_stage[i], static_cast<float>(i) * 2.0f + 1.0f) << i;
  // Staging to staging.
  array<float, 1> again(n, cpu_av, av);
  copy(out_stage, again);
  EXPECT_EQ(again[n - 1], out_stage[n - 1]);
  out_stage.copy_to(in_stage);
  EXPECT_EQ(in_stage[7], 15.0f);
}

// ---- array_view::copy_to and get_ref
TEST(RuntimeApi, ArrayViewCopyToAndGetRef) {
  std::vector<int> host = iota(48);
  array_view<int, 2> v(6, 8, host);
  array<int, 2> dest(6, 8);
  v.copy_to(dest);
  const std::vector<int> d = dest;
  EXPECT_EQ(d, host);
  std::vector<int> other(12, 0);
  array_view<int, 2> small(3, 4, other);
  v.section(index<2>(2, 3), extent<2>(3, 4)).copy_to(small);
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 4; ++c) EXPECT_EQ(small(r, c), (r + 2) * 8 + c + 3);
  EXPECT_THROW(v.copy_to(small), runtime_exception) << "extents differ";
  // get_ref after a kernel wrote the view and synchronize() brought it back.
  parallel_for_each(v.extent, [=](index<2> i) restrict(amp) { v[i] = -v[i]; });
  v.synchronize();
  EXPECT_EQ(v.get_ref(index<2>(5, 7)), -47);
  v.get_ref(index<2>(0, 1)) = 99; // a reference into the view's data
  EXPECT_EQ(v(0, 1), 99);
  const array_view<const int, 2> cv = v;
  EXPECT_EQ(cv.get_ref(index<2>(1, 0)), -8);
}

// ---- asynchronous operations
// An input iterator whose elements cannot be read until the test opens the
// gate: if copy_async ran synchronously, it would wait out the timeout and
// record that it had to.
struct gate {
  std::atomic<bool> open{false};
  std::atomic<bool> timed_out{false};
  void wait() {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
    while (!open.load()) {
      if (std::chrono::steady_clock::now() > deadline) {
        timed_out = true;
        return;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
  }
};
struct gated_iterator {
  using iterator_category = std::input_iterator_tag;
  using value_type = int;
  using difference_type = std::ptrdiff_t;
  using pointer = const int*;
  using reference = const int&;
  const int* p;
  gate* g;
  const int& operator*() const {
    g->wait();
    return *p;
  }
  gated_iterator& operator++() {
    ++p;
    return *this;
  }
  gated_iterator operator++(int) {
    gated_iterator t = *this;
    ++p;
    return t;
  }
  bool operator==(const gated_iterator& o) const { return p == o.p; }
  bool operator!=(const gated_iterator& o) const { return p != o.p; }
};

TEST(RuntimeApi, CopyAsyncOverlapsWithTheCaller) {
  const int n = 4096;
  const std::vector<int> src = iota(n, 7);
  gate g;
  array<int, 1> dest(n);
  completion_future f = copy_async(gated_iterator{src.data(), &g}, gated_iterator{src.data() + n, &g}, dest);
  ASSERT_TRUE(f.valid());
  // The copy cannot have finished: its source is still closed.
  EXPECT_EQ(f.wait_for(std::chrono::milliseconds(0)), std::future_status::timeout);
  EXPECT_EQ(f.wait_until(std::chrono::steady_clock::now()), std::future_status::timeout);
  g.open = true;
  f.get();
  EXPECT_FALSE(g.timed_out) << "copy_async returned only after the copy was done";
  EXPECT_EQ(f.wait_for(std::chrono::milliseconds(0)), std::future_status::ready);
  const std::vector<int> got = dest;
  EXPECT_EQ(got, src);
  // Conversion to std::shared_future (AMP: completion_future is one).
  std::vector<int> back(n);
  std::shared_future<void> sf = copy_async(dest, back.begin());
  sf.wait();
  EXPECT_EQ(back, src);
}

TEST(RuntimeApi, LaterWorkWaitsForAPendingCopy) {
  const int n = 2048;
  const std::vector<int> src = iota(n);
  gate g;
  array<int, 1> dest(n);
  completion_future f = copy_async(gated_iterator{src.data(), &g}, gated_iterator{src.data() + n, &g}, dest);
  // Opened from elsewhere while this thread is already issuing the kernel.
  std::thread opener([&g] {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    g.open.store(true); // store(): hipcc treats this lambda as host+device and rejects operator=
  });
  parallel_for_each(dest.extent, [&dest](index<1> i) restrict(amp) { dest[i] += 1; }); // must see the copy
  std::vector<int> out(n);
  copy(dest, out.begin());
  opener.join();
  f.get();
  for (int i = 0; i < n; ++i) ASSERT_EQ(out[i], i + 1) << i;
  EXPECT_FALSE(g.timed_out);
  // Views: a copy into a view, then host access after waiting.
  std::vector<int> host(n, 0);
  array_view<int, 1> hv(n, host);
  copy_async(dest, hv).get();
  EXPECT_EQ(hv[n - 1], n);
  EXPECT_EQ(host[5], 6);
}

TEST(RuntimeApi, CompletionFutureGetRethrowsAndThenRunsAfterwards) {
  array<int, 1> a(8), b(9);
  completion_future bad = copy_async(a, b); // extents differ
  bad.wait();                               // wait() reports nothing
  EXPECT_THROW(bad.get(), runtime_exception);
  completion_future none;
  EXPECT_FALSE(none.valid());
  EXPECT_THROW(none.get(), std::future_error);

  const int n = 512;
  std::vector<int> src = iota(n, 3), dst(n, 0);
  array<int, 1> arr(n);
  std::promise<std::vector<int>> seen;
  std::thread::id then_thread;
  completion_future f = copy_async(src.begin(), src.end(), arr);
  f.then([&] {
    then_thread = std::this_thread::get_id();
    seen.set_value(arr); // the copy is complete when the continuation runs
  });
  auto seen_f = seen.get_future();
  ASSERT_EQ(seen_f.wait_for(std::chrono::seconds(10)), std::future_status::ready);
  EXPECT_EQ(seen_f.get(), src);
  EXPECT_NE(then_thread, std::this_thread::get_id());
  // then() on a finished operation still runs (on another thread).
  std::promise<void> ran;
  f.then([&] { ran.set_value(); });
  EXPECT_EQ(ran.get_future().wait_for(std::chrono::seconds(10)), std::future_status::ready);
}

TEST(RuntimeApi, SynchronizeAsyncAndMarkers) {
  const int n = 1000;
  std::vector<int> host = iota(n);
  array_view<int, 1> v(n, host);
  parallel_for_each(v.extent, [=](index<1> i) restrict(amp) { v[i] = v[i] * 5; });
  completion_future s = v.synchronize_async();
  s.get();
  EXPECT_EQ(host[n - 1], (n - 1) * 5);
  const accelerator_view av = accelerator().default_view;
  v.synchronize_to_async(av).get();
  parallel_for_each(v.extent, [=](index<1> i) restrict(amp) { v[i] = v[i] + 1; });
  v.synchronize();
  EXPECT_EQ(host[3], 16);

  // A marker is ready only after the work issued before it.
  gate g;
  std::vector<int> src = iota(n);
  array<int, 1> a(n);
  completion_future f = copy_async(gated_iterator{src.data(), &g}, gated_iterator{src.data() + n, &g}, a);
  completion_future marker = av.create_marker();
  EXPECT_EQ(marker.wait_for(std::chrono::milliseconds(20)), std::future_status::timeout);
  g.open = true;
  marker.get();
  EXPECT_EQ(f.wait_for(std::chrono::milliseconds(0)), std::future_status::ready);
  av.wait();
}

TEST(RuntimeApi, AmpUninitializeWaitsAndLetsTheDefaultBeChosenAgain) {
  const std::wstring original = accelerator().device_path;
  EXPECT_FALSE(accelerator::set_default(accelerator::cpu_accelerator)) << "the default was already used";
  gate g;
  const int n = 256;
  std::vector<int> src = iota(n);
  array<int, 1> a(n);
  completion_future f = copy_async(gated_iterator{src.data(), &g}, gated_iterator{src.data() + n, &g}, a);
  std::thread opener([&g] {
    std::this_thread::sleep_for(std::chrono::milliseconds(30));
    g.open.store(true);
  });
  amp_uninitialize();
  EXPECT_EQ(f.wait_for(std::chrono::milliseconds(0)), std::future_status::ready);
  opener.join();
  // The runtime restarts on use; the default may be chosen again until then.
  EXPECT_TRUE(accelerator::set_default(accelerator::cpu_accelerator));
  EXPECT_EQ(accelerator().device_path, std::wstring(accelerator::cpu_accelerator));
  amp_uninitialize();
  ASSERT_TRUE(accelerator::set_default(original));
  EXPECT_EQ(accelerator().device_path, original);
  // Data made before it are still usable.
  const std::vector<int> got = a;
  EXPECT_EQ(got, src);
}

} // namespace
