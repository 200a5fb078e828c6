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

TEST(PplAmp, ErrorsReachGet) {
  // completion_future::get() on an empty future throws future_error; the
  // task carries it to its own get().
  completion_future empty;
  EXPECT_THROW(empty.to_task().get(), std::future_error);
}
