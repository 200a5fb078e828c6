// completion_future (AMP spec 5.4.1) and the worker that runs asynchronous
// operations. Each operation (copy_async, synchronize_async, ...) runs on its
// own thread, so it overlaps with the caller's work; it first waits for the
// earlier operations on the same buffers, and everything issued later that
// touches those buffers waits for it (runtime.h: buffer::wait_pending).
#pragma once
#include "../runtime.h"

#include <algorithm>
#include <chrono>
#include <future>
#include <memory>
#include <thread>
#include <type_traits>
#include <utility>
#include <vector>

namespace Concurrency {
namespace detail {
struct async_access;
// completion_future::to_task() hook: <ppltasks.h> (amp_compat/compat) declares
// a better amp_compat_to_task; this one only names the missing include.
struct to_task_requires_ppltasks_h {};
}
inline detail::to_task_requires_ppltasks_h amp_compat_to_task(...) { return {}; }

class completion_future {
public:
  completion_future() = default;
  completion_future(const completion_future&) = default;
  completion_future(completion_future&&) noexcept = default;
  completion_future& operator=(const completion_future&) = default;
  completion_future& operator=(completion_future&&) noexcept = default;

  // Waits, then rethrows the operation's exception, if any.
  void get() const { state().future.get(); }
  bool valid() const { return s_ != nullptr; }
  void wait() const {
    if (s_) s_->wait_done();
  }
  template <class R, class P> std::future_status wait_for(const std::chrono::duration<R, P>& d) const {
    return s_ ? s_->future.wait_for(d) : std::future_status::ready;
  }
  template <class C, class D> std::future_status wait_until(const std::chrono::time_point<C, D>& t) const {
    return s_ ? s_->future.wait_until(t) : std::future_status::ready;
  }
  operator std::shared_future<void>() const { return s_ ? s_->future : std::shared_future<void>(); }
  // Runs f on another thread once the operation has finished (at once if it has).
  template <class F> void then(const F& f) const { state().add_continuation(std::function<void()>(f)); }
  // A concurrency::task<void> completing with this operation. PPL stays out
  // of amp.h: the call is resolved (by ADL) where to_task() is used.
  template <class Self = completion_future> auto to_task() const {
    using R = decltype(amp_compat_to_task(static_cast<const Self*>(this)));
    static_assert(!std::is_same<R, detail::to_task_requires_ppltasks_h>::value,
                  "completion_future::to_task() needs #include <ppltasks.h> (./amp c++ --windows-compat)");
    return amp_compat_to_task(static_cast<const Self*>(this));
  }

private:
  friend struct detail::async_access;
  explicit completion_future(std::shared_ptr<detail::async_state> s) : s_(std::move(s)) {}
  detail::async_state& state() const {
    if (!s_) throw std::future_error(std::future_errc::no_state);
    return *s_;
  }
  std::shared_ptr<detail::async_state> s_;
};

namespace detail {

struct async_access {
  static completion_future make(std::shared_ptr<async_state> s) { return completion_future(std::move(s)); }
  // An operation that already happened.
  static completion_future ready() {
    auto s = std::make_shared<async_state>();
    s->finish(nullptr);
    return completion_future(std::move(s));
  }
};

// Runs op() on a worker thread after the earlier asynchronous operations on
// `bufs`; the buffers stay alive until it is done. Errors reach get().
template <class Op> completion_future launch_async(std::vector<buffer*> bufs, Op op) {
  bufs.erase(std::remove(bufs.begin(), bufs.end(), nullptr), bufs.end());
  std::sort(bufs.begin(), bufs.end());
  bufs.erase(std::unique(bufs.begin(), bufs.end()), bufs.end());
  auto st = std::make_shared<async_state>();
  std::vector<std::shared_ptr<async_state>> before;
  {
    std::lock_guard<std::mutex> g(buffer::async_mutex());
    for (buffer* b : bufs) {
      if (b->pending) before.push_back(b->pending);
      b->pending = st;
      b->has_pending.store(true, std::memory_order_release);
      b->retain();
    }
  }
  async_registry::get().add(st);
  wait_for_async_at_exit();
  auto work = [st, before = std::move(before), bufs, op = std::move(op)]() AMP_HOST_ONLY mutable {
    in_async_worker() = true;
    std::exception_ptr err;
    try {
      for (auto& p : before) p->wait_done();
      Op local(std::move(op)); // its captures (views) go before the result is published
      local();
    } catch (...) {
      err = std::current_exception();
    }
    // Released before the result is published: a last reference dropped
    // here may still write back into user memory the caller owns.
    for (buffer* b : bufs) b->release();
    in_async_worker() = false;
    st->finish(err);
  };
  try {
    std::thread(work).detach();
  } catch (const std::system_error&) {
    // No thread could be made: run it here (still correct, just not overlapped).
    work();
  }
  return async_access::make(st);
}

} // namespace detail
} // namespace Concurrency
