// The state of one asynchronous operation (copy_async, synchronize_async,
// create_marker): a worker thread runs it; completion_future (see
// completion_future.h) observes it. Buffers remember the last operation that
// uses them, so anything else that touches a buffer (a kernel launch, a
// synchronous copy, synchronize, the last view going away) first waits for it:
// asynchronous operations are ordered with everything issued after them.
#pragma once
#include "../config.h"


#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <functional>
#include <future>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace Concurrency {
namespace detail {

struct async_state {
  std::promise<void> promise;
  std::shared_future<void> future = promise.get_future().share();
  std::mutex m;
  bool finished = false;
  std::vector<std::function<void()>> continuations; // then(); run once finished

  void wait_done() const { future.wait(); }
  // Publishes the outcome, then starts the continuations (each on its own
  // thread, as AMP's then() does not run them on the caller's thread).
  void finish(std::exception_ptr err) {
    std::vector<std::function<void()>> run;
    {
      std::lock_guard<std::mutex> g(m);
      if (err) promise.set_exception(err);
      else promise.set_value();
      finished = true;
      run.swap(continuations);
    }
    for (auto& f : run) start_continuation(std::move(f));
  }
  void add_continuation(std::function<void()> f) {
    {
      std::lock_guard<std::mutex> g(m);
      if (!finished) {
        continuations.push_back(std::move(f));
        return;
      }
    }
    start_continuation(std::move(f));
  }
  static void start_continuation(std::function<void()> f) {
    std::thread([f = std::move(f)]() AMP_HOST_ONLY {
      try {
        f();
      } catch (const std::exception& e) {
        std::fprintf(stderr, "amp_compat: a completion_future continuation threw: %s\n", e.what());
      } catch (...) {
        std::fprintf(stderr, "amp_compat: a completion_future continuation threw\n");
      }
    }).detach();
  }
};

// True on a worker thread while it runs its operation: the buffers it uses
// list that operation as pending, and it must not wait for itself.
inline bool& in_async_worker() {
  thread_local bool b = false;
  return b;
}

// Every operation not yet known to be finished (accelerator_view::wait,
// create_marker and amp_uninitialize wait for them).
struct async_registry {
  std::mutex m;
  std::vector<std::weak_ptr<async_state>> ops;
  static async_registry& get() {
    static async_registry* r = new async_registry; // outlives detached workers at exit
    return *r;
  }
  static bool ready(const async_state& s) {
    return s.future.wait_for(std::chrono::seconds(0)) == std::future_status::ready;
  }
  void add(const std::shared_ptr<async_state>& s) {
    std::lock_guard<std::mutex> g(m);
    std::vector<std::weak_ptr<async_state>> live;
    for (auto& w : ops)
      if (auto p = w.lock())
        if (!ready(*p)) live.push_back(w);
    live.push_back(s);
    ops.swap(live);
  }
  // The operations started so far and not finished yet.
  std::vector<std::shared_ptr<async_state>> unfinished() {
    std::lock_guard<std::mutex> g(m);
    std::vector<std::shared_ptr<async_state>> r;
    for (auto& w : ops)
      if (auto p = w.lock())
        if (!ready(*p)) r.push_back(p);
    return r;
  }
  // Waits for every operation started before the call (not from a worker).
  void wait_all() {
    if (in_async_worker()) return;
    for (auto& p : unfinished()) p->wait_done();
  }
};

// Operations still running when the program exits finish first: static
// destructors must not pull their data away from under a worker.
inline void wait_for_async_at_exit() {
  static const bool registered = (std::atexit([]() AMP_HOST_ONLY { async_registry::get().wait_all(); }), true);
  (void)registered;
}

} // namespace detail
} // namespace Concurrency
