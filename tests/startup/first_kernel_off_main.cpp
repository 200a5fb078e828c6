// A program whose first kernel is launched from a thread other than the main
// one (as when a PPL task or a std::thread runs the first kernel), then from
// the main thread. Kokkos must then be started, and at exit finalized, by a
// thread of amp_compat's own where the backend needs it (runtime/startup.h):
// finalizing from the main thread a Kokkos started on the worker failed in
// Kokkos 4's Threads backend and crashed at exit. Exit status 0 only if every
// result is right, Kokkos runs on the expected thread, and the program ends
// cleanly.
#include <amp.h>

#include <cstdio>
#include <thread>
#include <vector>

using namespace concurrency;
namespace d = Concurrency::detail;

static bool run_kernel(int scale) {
  std::vector<int> v(1000);
  array_view<int, 1> a(1000, v);
  parallel_for_each(a.extent, [=](index<1> i) restrict(amp) { a[i] = i[0] * scale; });
  a.synchronize();
  for (int i = 0; i < 1000; ++i)
    if (v[i] != i * scale) return false;
  return true;
}

int main() {
  bool worker_ok = false;
  std::thread::id worker_id;
  std::thread w([&] {
    worker_id = std::this_thread::get_id();
    worker_ok = run_kernel(3);
  });
  w.join();
  const bool main_ok = run_kernel(5);
  const std::thread::id k = d::kokkos_thread();
  // Kokkos' thread: its own where Kokkos must be finalized by the thread that
  // started it (Threads), else the worker that launched the first kernel.
  const bool owner_ok = d::kokkos_finalize_on_start_thread ? k != worker_id && k != std::this_thread::get_id()
                                                           : k == worker_id;
  std::printf("worker kernel %s, main kernel %s, Kokkos on the expected thread %s\n", worker_ok ? "ok" : "WRONG",
              main_ok ? "ok" : "WRONG", owner_ok ? "yes" : "NO");
  return worker_ok && main_ok && owner_ok ? 0 : 1;
}
