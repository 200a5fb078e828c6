// completion_future::to_task() with <ppltasks.h>: a real task<void>.
#include <amp.h>
#include <ppltasks.h>

#include <gtest/gtest.h>

#include <future>
#include <stdexcept>
#include <thread>
#include <vector>

using namespace concurrency;

TEST(PplAmp, CopyAsyncToTask) {
  std::vector<int> src(256, 3), dst(256, 0);
  array<int, 1> a(256);
  completion_future f = copy_async(src.begin(), src.end(), a);
  task<void> t = f.to_task();
  auto sum = t.then([&] {
    copy(a, dst.begin());
    int s = 0;
    for (int x : dst) s += x;
    return s;
  });
  EXPECT_EQ(sum.get(), 768);
}

TEST(PplAmp, PendingCopyCompletesTheTask) {
  // Large enough that the copy is usually still running when to_task() is
  // called; either way the continuation must see the copied data.
  const int n = 1 << 22;
  std::vector<int> src(n, 1), dst(n, 0);
  array<int, 1> a(n);
  task<void> t = copy_async(src.begin(), src.end(), a).to_task();
  auto total = t.then([&] { return copy_async(a, dst.begin()).to_task(); }).then([&] {
    long long s = 0;
    for (int x : dst) s += x;
    return s;
  });
  EXPECT_EQ(total.get(), n);
}

TEST(PplAmp, KernelsFromConcurrentTasks) {
  // Kernels launched from several PPL tasks at once (oneTBB workers and the
  // thread waiting in get()), each on its own array: every task sees its own
  // results. Under the tsan label this runs on the Serial accelerator.
  std::vector<task<long long>> tasks;
  for (int t = 1; t <= 8; ++t)
    tasks.push_back(create_task([t] {
      array<int, 1> a(1024);
      parallel_for_each(a.extent, [&a, t](index<1> i) restrict(amp) { a[i] = i[0] * t; });
      std::vector<int> out(1024);
      copy(a, out.begin());
      long long s = 0;
      for (int x : out) s += x;
      return s;
    }));
  const std::vector<long long> sums = when_all(tasks.begin(), tasks.end()).get();
  ASSERT_EQ(sums.size(), 8u);
  for (int t = 1; t <= 8; ++t) EXPECT_EQ(sums[t - 1], 523776LL * t) << t;  // 0 + ... + 1023 = 523776
}

TEST(PplAmp, ErrorsReachGet) {
  // completion_future::get() on an empty future throws future_error; the
  // task carries it to its own get().
  completion_future empty;
  EXPECT_THROW(empty.to_task().get(), std::future_error);
}
