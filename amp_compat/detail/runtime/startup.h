// Kokkos' lifetime inside an AMP program. AMP programs never start Kokkos
// themselves, and legacy code creates accelerators, arrays and views at
// namespace scope, i.e. during static initialisation, when Kokkos' own
// statics (a static library: link order decides) may not exist yet. So
// nothing but a kernel launch starts Kokkos: building the accelerator list,
// allocating and copying data work without it (device copies run on the
// device backend's own queues, backend/backend.h). Kokkos is finalized at exit.
#pragma once
#include "../config.h"
#include "../exceptions.h"

#include <atomic>
#include <condition_variable>
#include <cstdlib>
#include <exception>
#include <mutex>
#include <string>
#include <thread>

namespace Concurrency {
namespace detail {

enum class kokkos_phase : int { not_started = 0, running = 1, finished = 2 };

// Constant-initialised, so safe to read from any static constructor.
inline std::atomic<int>& kokkos_phase_word() {
  static std::atomic<int> p{0};
  return p;
}
inline kokkos_phase kokkos_state() { return static_cast<kokkos_phase>(kokkos_phase_word().load(std::memory_order_acquire)); }
inline bool kokkos_running() { return kokkos_state() == kokkos_phase::running; }

// The thread that started Kokkos. Kokkos 3.4's OpenMP backend can only be
// entered from it; kernels launched from other threads run serially instead.
inline std::thread::id& kokkos_thread() {
  static std::thread::id id;
  return id;
}

// The program's main thread: the thread that runs static initialisation
// (captured then by the inline variable below, in every program that
// includes this header).
inline std::thread::id main_thread() {
  static const std::thread::id id = std::this_thread::get_id();
  return id;
}
inline const std::thread::id amp_main_thread_at_start = main_thread();

// Kokkos::initialize with amp_compat's arguments; start-up errors become
// runtime_exception.
inline void start_kokkos_here() {
  // Its OpenMP thread-binding advice is noise to AMP programs, so warnings
  // are off unless AMP_KOKKOS_WARNINGS is set.
  int argc = std::getenv("AMP_KOKKOS_WARNINGS") ? 1 : 2;
  char name[] = "amp_compat";
  char quiet[] = "--kokkos-disable-warnings";
  char* argv[] = {name, quiet, nullptr};
  try {
    Kokkos::initialize(argc, argv);
  } catch (const std::exception& e) {
    throw runtime_exception((std::string("amp_compat: Kokkos could not start (a GPU build needs its GPU and "
                                         "driver: NVIDIA for the CUDA build, AMD for the HIP build): ") +
                             e.what()).c_str(), e_fail);
  }
}
// After a kernel fault the GPU context may be unusable and Kokkos' own shutdown
// may throw; the fault was already reported as an exception.
inline void finish_kokkos_here() noexcept {
  try {
    if (Kokkos::is_initialized()) Kokkos::finalize();
  } catch (...) {
  }
}

// Where Kokkos must be finalized by the thread that initialized it (its
// Threads backend: finalize from another thread throws, and Kokkos' statics
// then crash at exit) and the first kernel is launched from another thread
// than the main one (a PPL task, a std::thread), Kokkos is started on a
// thread of its own that lives until exit and finalizes it there: the worker
// may be gone or busy at exit. Host kernels then run on Serial from every
// thread (parallel_for_each.h). With the other backends the launching thread
// starts Kokkos (and its kernels run on the parallel backend) and the exit
// handler finalizes it.
class kokkos_owner {
public:
  void start() {
    std::exception_ptr failure;
    std::unique_lock<std::mutex> lk(m_);
    t_ = std::thread([this, &failure] {
      std::exception_ptr err;
      try {
        start_kokkos_here();
      } catch (...) {
        err = std::current_exception();
      }
      std::unique_lock<std::mutex> g(m_);
      failure = err;
      started_ = true;
      cv_.notify_all();
      if (err) return;
      cv_.wait(g, [this] { return stop_; });
      g.unlock();
      finish_kokkos_here();
    });
    cv_.wait(lk, [this] { return started_; });
    const std::thread::id id = t_.get_id();
    if (failure) {
      lk.unlock();
      t_.join();
      std::rethrow_exception(failure);
    }
    owner_id_ = id;
  }
  std::thread::id id() const { return owner_id_; }
  void finish() {
    {
      std::lock_guard<std::mutex> g(m_);
      stop_ = true;
      cv_.notify_all();
    }
    if (t_.joinable()) t_.join();
  }

private:
  std::mutex m_;
  std::condition_variable cv_;
  bool started_ = false, stop_ = false;
  std::thread t_;
  std::thread::id owner_id_;
};
inline kokkos_owner*& kokkos_owner_instance() {
  static kokkos_owner* o = nullptr;
  return o;
}

// Starts Kokkos once (thread-safe); called by every kernel launch.
inline void ensure_kokkos() {
  if (kokkos_running()) return;
  // A mutex, not std::call_once: libstdc++'s call_once cannot carry the
  // start-up exception out (it runs under pthread_once) and aborts instead.
  static std::mutex m;
  std::lock_guard<std::mutex> g(m);
  if (kokkos_state() == kokkos_phase::running) return;
  if (kokkos_state() == kokkos_phase::finished)
    throw runtime_exception("amp_compat: kernel launched after the runtime shut down (during program exit)", e_fail);
  if (Kokkos::is_initialized()) { // the program manages Kokkos itself
    kokkos_thread() = std::this_thread::get_id();
    kokkos_phase_word().store(static_cast<int>(kokkos_phase::running), std::memory_order_release);
    return;
  }
  if (!kokkos_finalize_on_start_thread || std::this_thread::get_id() == main_thread()) {
    start_kokkos_here();
    kokkos_thread() = std::this_thread::get_id();
  } else {
    auto* owner = new kokkos_owner; // lives until exit (its thread finalizes Kokkos)
    owner->start();
    kokkos_owner_instance() = owner;
    kokkos_thread() = owner->id();
  }
  kokkos_phase_word().store(static_cast<int>(kokkos_phase::running), std::memory_order_release);
  // Objects destroyed after this handler (those made before Kokkos started,
  // e.g. at namespace scope) see the phase `finished` and copy without Kokkos.
  std::atexit([]() AMP_HOST_ONLY {
    kokkos_phase_word().store(static_cast<int>(kokkos_phase::finished), std::memory_order_release);
    if (kokkos_owner* owner = kokkos_owner_instance()) owner->finish();
    else finish_kokkos_here();
  });
}

} // namespace detail
} // namespace Concurrency
