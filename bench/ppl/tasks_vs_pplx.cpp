// Measures the PPL task layer (amp_compat/compat/ppltasks.h, over oneTBB)
// against Microsoft's portable PPL tasks (pplx, from Debian's libcpprest-dev)
// on the patterns legacy programs use; the basis of the choice of oneTBB in
// README.md. Not part of the build (pplx is no dependency):
//
//   g++ -std=c++17 -O2 -I amp_compat/compat bench/ppl/tasks_vs_pplx.cpp -DUSE_PPLX \
//       -lcpprest -lboost_system -lssl -lcrypto -pthread -o /tmp/pplx_bench
//   g++ -std=c++17 -O2 -I amp_compat/compat bench/ppl/tasks_vs_pplx.cpp -ltbb -pthread -o /tmp/amp_bench
//
// Prints, per pattern, the best of 5 runs in microseconds per task.
#include <chrono>
#include <cstdio>
#include <vector>

#ifdef USE_PPLX
#include <pplx/pplxtasks.h>
namespace ppl = pplx;
static const char* kName = "pplx (cpprestsdk 2.10)";
#else
#include <ppltasks.h>
namespace ppl = concurrency;
static const char* kName = "amp_compat over oneTBB";
#endif

template <class F>
double best_us_per_task(int tasks, F f) {
  double best = 1e30;
  for (int r = 0; r < 5; ++r) {
    auto t0 = std::chrono::steady_clock::now();
    f();
    auto t1 = std::chrono::steady_clock::now();
    double us = std::chrono::duration<double, std::micro>(t1 - t0).count() / tasks;
    if (us < best) best = us;
  }
  return best;
}

int main() {
  const int n = 20000;
  // 1. Independent tasks, then wait for all (when_all).
  double spawn = best_us_per_task(n, [&] {
    std::vector<ppl::task<int>> ts;
    ts.reserve(n);
    for (int i = 0; i < n; ++i) ts.push_back(ppl::create_task([i] { return i & 7; }));
    long s = 0;
    for (int v : ppl::when_all(ts.begin(), ts.end()).get()) s += v;
    if (s < 0) std::puts("");
  });
  // 2. One long continuation chain (latency of a continuation).
  double chain = best_us_per_task(n, [&] {
    auto t = ppl::create_task([] { return 0; });
    for (int i = 0; i < n; ++i) t = t.then([](int x) { return x + 1; });
    if (t.get() != n) std::puts("wrong");
  });
  // 3. Many short chains of three, each waited for (fan-out of small pipelines).
  double pipes = best_us_per_task(n, [&] {
    std::vector<ppl::task<int>> ts;
    ts.reserve(n / 3);
    for (int i = 0; i < n / 3; ++i)
      ts.push_back(ppl::create_task([i] { return i; }).then([](int x) { return x * 2; }).then([](int x) { return x + 1; }));
    long s = 0;
    for (auto& t : ts) s += t.get();
    if (s < 0) std::puts("");
  });
  std::printf("%s: spawn+when_all %.2f us/task, chain %.2f us/continuation, 3-step pipelines %.2f us/task\n", kName,
              spawn, chain, pipes);
}
