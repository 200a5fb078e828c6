// The PPL companions (<ppl.h>, <ppltasks.h>, <concrt.h>, concurrent
// containers) over oneTBB: algorithms, groups, tasks, cancellation,
// synchronisation and containers under 16 threads.
#include <ppl.h>
#include <ppltasks.h>
#include <concrt.h>
#include <concurrent_queue.h>
#include <concurrent_unordered_map.h>
#include <concurrent_vector.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <list>
#include <memory>
#include <mutex>
#include <numeric>
#include <random>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

using namespace concurrency;

namespace {
template <class F>
void on_threads(int n, F f) {
  std::vector<std::thread> ts;
  for (int t = 0; t < n; ++t) ts.emplace_back(f, t);
  for (auto& t : ts) t.join();
}
}  // namespace

// ---- algorithms ----------------------------------------------------------------
TEST(PplAlgorithms, ParallelForVisitsEachIndexOnce) {
  std::vector<std::atomic<int>> hits(2000);
  parallel_for(0, 2000, [&](int i) { hits[i]++; });
  for (auto& h : hits) ASSERT_EQ(h.load(), 1);
  std::vector<std::atomic<int>> stepped(1000);
  parallel_for(3, 1000, 7, [&](int i) { stepped[i]++; });
  for (int i = 0; i < 1000; ++i) ASSERT_EQ(stepped[i].load(), (i >= 3 && (i - 3) % 7 == 0) ? 1 : 0) << i;
  std::atomic<long> sum{0};
  parallel_for(-50, 50, [&](int i) { sum += i; });
  EXPECT_EQ(sum.load(), -50);
  parallel_for(size_t(0), size_t(100), [&](size_t i) { sum += static_cast<long>(i); }, static_partitioner());
  EXPECT_EQ(sum.load(), -50 + 4950);
  parallel_for(5, 5, [&](int) { sum = -1; });
  parallel_for(9, 2, [&](int) { sum = -1; });
  EXPECT_EQ(sum.load(), 4900);
  EXPECT_THROW(parallel_for(0, 10, 0, [](int) {}), std::invalid_argument);
}

TEST(PplAlgorithms, ParallelForEachVectorAndList) {
  std::vector<int> v(5000, 1);
  parallel_for_each(v.begin(), v.end(), [](int& x) { x *= 3; });
  EXPECT_EQ(std::accumulate(v.begin(), v.end(), 0), 15000);
  std::list<int> l(300, 2);
  parallel_for_each(l.begin(), l.end(), [](int& x) { x += 1; });
  EXPECT_EQ(std::accumulate(l.begin(), l.end(), 0), 900);
}

TEST(PplAlgorithms, ParallelInvokeRunsAllAndPropagates) {
  std::atomic<int> mask{0};
  parallel_invoke([&] { mask |= 1; }, [&] { mask |= 2; });
  EXPECT_EQ(mask.load(), 3);
  mask = 0;
  parallel_invoke([&] { mask |= 1; }, [&] { mask |= 2; }, [&] { mask |= 4; }, [&] { mask |= 8; },
                  [&] { mask |= 16; }, [&] { mask |= 32; }, [&] { mask |= 64; }, [&] { mask |= 128; },
                  [&] { mask |= 256; }, [&] { mask |= 512; });
  EXPECT_EQ(mask.load(), 1023);
  EXPECT_THROW(parallel_invoke([] {}, [] { throw std::runtime_error("boom"); }), std::runtime_error);
}

TEST(PplAlgorithms, ParallelReduceForms) {
  std::vector<long> v(10000);
  std::iota(v.begin(), v.end(), 1);
  EXPECT_EQ(parallel_reduce(v.begin(), v.end(), 0L), 50005000L);
  EXPECT_EQ(parallel_reduce(v.begin(), v.end(), 0L, [](long a, long b) { return std::max(a, b); }), 10000L);
  const long squares = parallel_reduce(
      v.begin(), v.end(), 0L,
      [](std::vector<long>::iterator a, std::vector<long>::iterator b, long init) {
        for (; a != b; ++a) init += *a * *a;
        return init;
      },
      std::plus<long>());
  long expect = 0;
  for (long x : v) expect += x * x;
  EXPECT_EQ(squares, expect);
  std::list<int> l(1000, 3);
  EXPECT_EQ(parallel_reduce(l.begin(), l.end(), 0), 3000);
  std::vector<std::string> words = {"a", "b", "c", "d", "e"};
  EXPECT_EQ(parallel_reduce(words.begin(), words.end(), std::string()), "abcde");  // order kept
}

TEST(PplAlgorithms, ParallelTransform) {
  std::vector<int> a(1000), b(1000), out(1000);
  std::iota(a.begin(), a.end(), 0);
  std::iota(b.begin(), b.end(), 5);
  auto end = parallel_transform(a.begin(), a.end(), out.begin(), [](int x) { return x * x; });
  EXPECT_EQ(end, out.end());
  EXPECT_EQ(out[999], 998001);
  parallel_transform(a.begin(), a.end(), b.begin(), out.begin(), [](int x, int y) { return y - x; });
  EXPECT_TRUE(std::all_of(out.begin(), out.end(), [](int d) { return d == 5; }));
}

TEST(PplAlgorithms, Sorts) {
  std::mt19937 rng(7);
  std::vector<int> v(100000);
  for (auto& x : v) x = static_cast<int>(rng() % 100000) - 50000;
  auto ref = v;
  std::sort(ref.begin(), ref.end());
  auto a = v;
  parallel_sort(a.begin(), a.end());
  EXPECT_EQ(a, ref);
  auto b = v;
  parallel_buffered_sort(b.begin(), b.end(), std::greater<int>());
  EXPECT_TRUE(std::equal(b.begin(), b.end(), ref.rbegin()));
  std::vector<unsigned> u(50000);
  for (auto& x : u) x = rng();
  auto uref = u;
  std::sort(uref.begin(), uref.end());
  parallel_radixsort(u.begin(), u.end());
  EXPECT_EQ(u, uref);
  // Stable by key: equal keys keep their order.
  std::vector<std::pair<unsigned, int>> p(20000);
  for (int i = 0; i < 20000; ++i) p[i] = {static_cast<unsigned>(rng() % 16), i};
  auto pref = p;
  std::stable_sort(pref.begin(), pref.end(), [](auto& x, auto& y) { return x.first < y.first; });
  parallel_radixsort(p.begin(), p.end(), [](const std::pair<unsigned, int>& e) { return e.first; });
  EXPECT_EQ(p, pref);
}

TEST(PplAlgorithms, Combinable) {
  combinable<long> sums;
  parallel_for(1, 10001, [&](int i) { sums.local() += i; });
  EXPECT_EQ(sums.combine(std::plus<long>()), 50005000L);
  long each = 0;
  sums.combine_each([&](long x) { each += x; });
  EXPECT_EQ(each, 50005000L);
  combinable<int> init([] { return 100; });
  EXPECT_EQ(init.local(), 100);
}

// ---- task groups -----------------------------------------------------------------
TEST(PplTaskGroup, RunWaitCancelExceptions) {
  std::atomic<int> n{0};
  task_group g;
  for (int i = 0; i < 100; ++i) g.run([&] { n++; });
  EXPECT_EQ(g.wait(), completed);
  EXPECT_EQ(n.load(), 100);
  EXPECT_EQ(g.run_and_wait([&] { n += 10; }), completed);
  EXPECT_EQ(n.load(), 110);

  task_group c;
  event started;
  std::atomic<bool> saw_cancel{false};
  c.run([&] {
    started.set();
    while (!is_current_task_group_canceling()) std::this_thread::yield();
    saw_cancel = true;
  });
  started.wait();
  c.cancel();
  EXPECT_TRUE(c.is_canceling());
  EXPECT_EQ(c.wait(), canceled);
  EXPECT_TRUE(saw_cancel.load());

  task_group e;
  e.run([] { throw std::logic_error("from a group task"); });
  try {
    e.wait();
    FAIL() << "wait() did not rethrow";
  } catch (const std::logic_error& ex) {
    EXPECT_STREQ(ex.what(), "from a group task");
  }
}

TEST(PplTaskGroup, StructuredWithHandles) {
  int a = 0, b = 0;
  auto ha = make_task([&] { a = 1; });
  auto hb = make_task([&] { b = 2; });
  structured_task_group g;
  g.run(ha);
  EXPECT_EQ(g.run_and_wait(hb), completed);
  EXPECT_EQ(a + b, 3);
}

// ---- tasks ------------------------------------------------------------------------
TEST(PplTasks, ValueAndContinuationOrder) {
  std::mutex m;
  std::vector<std::string> order;
  auto note = [&](const char* s) {
    std::lock_guard<std::mutex> l(m);
    order.push_back(s);
  };
  auto t = create_task([&] { note("body"); return 20; })
               .then([&](int x) { note("then1"); return x + 1; })
               .then([&](int x) { note("then2"); return std::to_string(x * 2); })
               .then([&](task<std::string> prev) { note("task-based"); return prev.get() + "!"; });
  EXPECT_EQ(t.get(), "42!");
  EXPECT_EQ(order, (std::vector<std::string>{"body", "then1", "then2", "task-based"}));
  EXPECT_TRUE(t.is_done());
  task<void> v = create_task([] {}).then([] {});
  EXPECT_EQ(v.wait(), completed);
  task<int> ctor([] { return 5; });
  EXPECT_EQ(ctor.get(), 5);
}

TEST(PplTasks, ExceptionsPropagateThroughGet) {
  std::atomic<bool> value_based_ran{false};
  auto failing = create_task([]() -> int { throw std::runtime_error("task failed"); });
  auto skipped = failing.then([&](int x) { value_based_ran = true; return x; });
  try {
    skipped.get();
    FAIL() << "get() did not rethrow";
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "task failed");
  }
  EXPECT_FALSE(value_based_ran.load());
  EXPECT_THROW(skipped.wait(), std::runtime_error);
  auto observed = failing.then([](task<int> t) {
    try {
      t.get();
    } catch (const std::runtime_error&) {
      return std::string("observed");
    }
    return std::string("missed");
  });
  EXPECT_EQ(observed.get(), "observed");
  task<int> empty;
  EXPECT_THROW(empty.get(), invalid_operation);
}

TEST(PplTasks, UnwrapsTaskResults) {
  auto t = create_task([] { return create_task([] { return 7; }); });
  static_assert(std::is_same<decltype(t), task<int>>::value, "create_task unwraps task<int>");
  EXPECT_EQ(t.get(), 7);
  auto u = create_task([] { return 2; }).then([](int x) { return create_task([x] { return x * 10; }); });
  static_assert(std::is_same<decltype(u), task<int>>::value, "then unwraps task<int>");
  EXPECT_EQ(u.get(), 20);
}

TEST(PplTasks, Cancellation) {
  cancellation_token_source before;
  before.cancel();
  std::atomic<bool> ran{false};
  auto t = create_task([&] { ran = true; return 1; }, before.get_token());
  EXPECT_EQ(t.wait(), canceled);
  EXPECT_THROW(t.get(), task_canceled);
  EXPECT_FALSE(ran.load());
  auto cont = t.then([](int x) { return x; });
  EXPECT_THROW(cont.get(), task_canceled);

  auto self = create_task([] { cancel_current_task(); });
  EXPECT_EQ(self.wait(), canceled);

  cancellation_token_source during;
  event started;
  auto polling = create_task(
      [&] {
        started.set();
        while (!is_task_cancellation_requested()) std::this_thread::yield();
        cancel_current_task();
      },
      during.get_token());
  started.wait();
  int callbacks = 0;
  during.get_token().register_callback([&] { ++callbacks; });
  auto linked = cancellation_token_source::create_linked_source(during.get_token());
  during.cancel();
  during.cancel();
  EXPECT_EQ(polling.wait(), canceled);
  EXPECT_EQ(callbacks, 1);
  EXPECT_TRUE(linked.get_token().is_canceled());
  EXPECT_FALSE(cancellation_token::none().is_canceled());
  EXPECT_THROW(cancellation_token::none().register_callback([] {}), invalid_operation);
}

TEST(PplTasks, WhenAllAndWhenAny) {
  std::vector<task<int>> ts;
  for (int i = 0; i < 8; ++i)
    ts.push_back(create_task([i] {
      std::this_thread::sleep_for(std::chrono::milliseconds(2 * (8 - i)));  // finish in reverse order
      return i * i;
    }));
  EXPECT_EQ(when_all(ts.begin(), ts.end()).get(), (std::vector<int>{0, 1, 4, 9, 16, 25, 36, 49}));
  auto three = create_task([] { return 1; }) && create_task([] { return 2; }) && create_task([] { return 3; });
  EXPECT_EQ(three.get(), (std::vector<int>{1, 2, 3}));
  std::atomic<int> n{0};
  auto voids = create_task([&] { n++; }) && create_task([&] { n++; });
  voids.wait();
  EXPECT_EQ(n.load(), 2);
  std::vector<task<int>> with_failure = {create_task([] { return 1; }),
                                         create_task([]() -> int { throw std::out_of_range("x"); })};
  EXPECT_THROW(when_all(with_failure.begin(), with_failure.end()).get(), std::out_of_range);

  task_completion_event<int> never;
  std::vector<task<int>> race = {task<int>(never), create_task([] { return 99; }), task<int>(never)};
  auto first = when_any(race.begin(), race.end()).get();
  EXPECT_EQ(first.first, 99);
  EXPECT_EQ(first.second, 1u);
  EXPECT_EQ((task<int>(never) || create_task([] { return 5; })).get(), 5);
  never.set(0);  // let the losers finish
}

TEST(PplTasks, CompletionEvent) {
  task_completion_event<std::string> tce;
  task<std::string> t(tce);
  auto longer = t.then([](std::string s) { return s.size(); });
  std::thread setter([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    EXPECT_TRUE(tce.set("hello"));
  });
  EXPECT_EQ(longer.get(), 5u);
  setter.join();
  EXPECT_FALSE(tce.set("again"));
  EXPECT_EQ(create_task(tce).get(), "hello");  // a task made after set()
  task_completion_event<void> failing;
  failing.set_exception(std::runtime_error("event failed"));
  EXPECT_THROW(task<void>(failing).get(), std::runtime_error);
}

// Bodies that wait for tasks they create: on a 2-core machine every worker
// ends up waiting; the waiting threads must run the awaited bodies.
int fib(int n) {
  if (n < 2) return n;
  auto a = create_task([n] { return fib(n - 1); });
  auto b = create_task([n] { return fib(n - 2); }).then([](int x) { return x; });
  return a.get() + b.get();
}
TEST(PplTasks, NestedWaitsDoNotDeadlock) { EXPECT_EQ(fib(16), 987); }

TEST(PplTasks, LongContinuationChain) {
  // 100000 continuations waited for at the end: no recursion per link.
  auto t = create_task([] { return 0; });
  for (int i = 0; i < 100000; ++i) t = t.then([](int x) { return x + 1; });
  EXPECT_EQ(t.get(), 100000);
}

TEST(PplTasks, FireAndForgetStillRuns) {
  std::atomic<int> n{0};
  event done;
  create_task([&] { n++; }).then([&] {
    n++;
    done.set();
  });
  EXPECT_EQ(done.wait(5000), 0u);
  EXPECT_EQ(n.load(), 2);
}

// ---- synchronisation ------------------------------------------------------------
TEST(PplSync, CriticalSection) {
  critical_section cs;
  long counter = 0;
  on_threads(16, [&](int) {
    for (int i = 0; i < 10000; ++i) {
      critical_section::scoped_lock l(cs);
      ++counter;
    }
  });
  EXPECT_EQ(counter, 160000);
  cs.lock();
  EXPECT_THROW(cs.lock(), improper_lock);  // not recursive: MSVC throws too
  bool other = true;
  std::thread([&] { other = cs.try_lock() || cs.try_lock_for(20); }).join();
  EXPECT_FALSE(other);
  cs.unlock();
  EXPECT_TRUE(cs.try_lock());
  cs.unlock();
}

TEST(PplSync, ReaderWriterLock) {
  reader_writer_lock rw;
  rw.lock_read();
  bool second_reader = false, writer = true;
  std::thread([&] {
    second_reader = rw.try_lock_read();
    if (second_reader) rw.unlock();
    writer = rw.try_lock();
  }).join();
  EXPECT_TRUE(second_reader);
  EXPECT_FALSE(writer);
  rw.unlock();
  long value = 0, reads = 0;
  std::atomic<long> torn{0};
  on_threads(16, [&](int t) {
    for (int i = 0; i < 2000; ++i) {
      if (t % 4 == 0) {
        reader_writer_lock::scoped_lock l(rw);
        value += 2;
      } else {
        reader_writer_lock::scoped_lock_read l(rw);
        if (value % 2) torn++;
        __atomic_add_fetch(&reads, 1, __ATOMIC_RELAXED);
      }
    }
  });
  EXPECT_EQ(value, 4 * 2000 * 2);
  EXPECT_EQ(reads, 12 * 2000);
  EXPECT_EQ(torn.load(), 0);
  rw.lock();
  EXPECT_THROW(rw.lock_read(), improper_lock);
  rw.unlock();
}

TEST(PplSync, Event) {
  event e;
  EXPECT_EQ(e.wait(10), COOPERATIVE_WAIT_TIMEOUT);
  std::thread([&] { e.set(); }).join();
  EXPECT_EQ(e.wait(), 0u);
  e.reset();
  EXPECT_EQ(e.wait(0), COOPERATIVE_WAIT_TIMEOUT);
}

// A waiter may destroy the object as soon as it is let through, while the
// thread that let it through is still returning (sync.h, "Lifetime"). Under
// the tsan label a late access of the signaling thread is reported.
TEST(PplSync, DestroyedByTheThreadItLetThrough) {
  for (int i = 0; i < 200; ++i) {
    auto e = std::make_unique<event>();
    std::thread setter([p = e.get()] { p->set(); });
    ASSERT_EQ(e->wait(), 0u);
    e.reset();
    setter.join();
  }
  for (int i = 0; i < 200; ++i) {
    auto* cs = new critical_section;
    cs->lock();
    std::atomic<bool> got{false};
    std::thread next([cs, &got] {
      cs->lock();
      got = true;
      cs->unlock();
      delete cs;
    });
    cs->unlock();
    next.join();
    ASSERT_TRUE(got.load());
  }
  for (int i = 0; i < 200; ++i) {
    auto* rw = new reader_writer_lock;
    rw->lock();
    std::atomic<bool> got{false};
    std::thread reader([rw, &got] {
      rw->lock_read();
      got = true;
      rw->unlock();
      delete rw;
    });
    rw->unlock();
    reader.join();
    ASSERT_TRUE(got.load());
  }
}

// ---- containers under 16 threads --------------------------------------------------
TEST(PplContainers, VectorQueueMap) {
  concurrent_vector<int> v;
  on_threads(16, [&](int t) {
    for (int i = 0; i < 5000; ++i) v.push_back(t * 5000 + i);
  });
  ASSERT_EQ(v.size(), 80000u);
  std::vector<int> seen(v.begin(), v.end());
  std::sort(seen.begin(), seen.end());
  for (int i = 0; i < 80000; ++i) ASSERT_EQ(seen[i], i);

  concurrent_queue<int> q;
  std::atomic<long> popped_sum{0};
  std::atomic<int> popped{0};
  on_threads(16, [&](int t) {
    if (t < 8) {
      for (int i = 1; i <= 5000; ++i) q.push(i);
    } else {
      int x;
      while (popped.load() < 8 * 5000) {
        if (q.try_pop(x)) {
          popped_sum += x;
          popped++;
        }
      }
    }
  });
  EXPECT_EQ(popped.load(), 40000);
  EXPECT_EQ(popped_sum.load(), 8L * 5000 * 5001 / 2);
  EXPECT_TRUE(q.empty());

  concurrent_unordered_map<int, int> m;
  on_threads(16, [&](int t) {
    for (int i = 0; i < 1000; ++i) m.insert(std::make_pair(t * 1000 + i, t));
  });
  EXPECT_EQ(m.size(), 16000u);
  EXPECT_EQ(m.find(15999)->second, 15);
  EXPECT_EQ(m.count(16000), 0u);
}
