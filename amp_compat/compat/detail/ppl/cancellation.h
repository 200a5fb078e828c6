// PPL cancellation (private; <ppl.h> / <pplcancellation_token.h>):
// cancellation_token_source, cancellation_token,
// cancellation_token_registration, is_task_cancellation_requested(),
// cancel_current_task().
//
// Contract: a source's cancel() marks every token of it canceled (once) and
// runs the registered callbacks, each exactly once, on the canceling thread;
// a callback registered on an already canceled token runs at once.
// cancellation_token::none() is never canceled and refuses callbacks
// (invalid_operation). Inside a task started with a token,
// is_task_cancellation_requested() reports that token, and
// cancel_current_task() ends the task in the canceled state.
#ifndef AMP_COMPAT_COMPAT_DETAIL_PPL_CANCELLATION_H
#define AMP_COMPAT_COMPAT_DETAIL_PPL_CANCELLATION_H

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <vector>

#include "exceptions.h"

namespace Concurrency {
namespace details {

struct cancellation_state {
  std::mutex m;
  bool canceled = false;
  long next_id = 1;
  std::map<long, std::function<void()>> callbacks;

  void cancel() {
    std::vector<std::function<void()>> run;
    {
      std::lock_guard<std::mutex> l(m);
      if (canceled) return;
      canceled = true;
      for (auto& c : callbacks) run.push_back(std::move(c.second));
      callbacks.clear();
    }
    for (auto& f : run) f();
  }
  bool is_canceled() {
    std::lock_guard<std::mutex> l(m);
    return canceled;
  }
};

}  // namespace details

class cancellation_token_registration {
public:
  cancellation_token_registration() = default;
  bool operator==(const cancellation_token_registration& o) const {
    return id_ == o.id_ && !state_.owner_before(o.state_) && !o.state_.owner_before(state_);
  }
  bool operator!=(const cancellation_token_registration& o) const { return !(*this == o); }

private:
  friend class cancellation_token;
  std::weak_ptr<details::cancellation_state> state_;
  long id_ = 0;
};

class cancellation_token {
public:
  cancellation_token() = default;  // as none()
  static cancellation_token none() { return cancellation_token(); }
  bool is_cancelable() const { return static_cast<bool>(s_); }
  bool is_canceled() const { return s_ && s_->is_canceled(); }

  template <class F>
  cancellation_token_registration register_callback(const F& f) const {
    if (!s_) throw invalid_operation("cancellation_token::register_callback: the token cannot be canceled (none())");
    cancellation_token_registration r;
    {
      std::lock_guard<std::mutex> l(s_->m);
      if (!s_->canceled) {
        r.state_ = s_;
        r.id_ = s_->next_id++;
        s_->callbacks.emplace(r.id_, std::function<void()>(f));
        return r;
      }
    }
    f();  // already canceled: run now
    return r;
  }
  void deregister_callback(const cancellation_token_registration& r) const {
    if (auto s = r.state_.lock()) {
      std::lock_guard<std::mutex> l(s->m);
      s->callbacks.erase(r.id_);
    }
  }
  bool operator==(const cancellation_token& o) const { return s_ == o.s_; }
  bool operator!=(const cancellation_token& o) const { return s_ != o.s_; }

private:
  friend class cancellation_token_source;
  explicit cancellation_token(std::shared_ptr<details::cancellation_state> s) : s_(std::move(s)) {}
  std::shared_ptr<details::cancellation_state> s_;
};

class cancellation_token_source {
public:
  cancellation_token_source() : s_(std::make_shared<details::cancellation_state>()) {}
  cancellation_token get_token() const { return cancellation_token(s_); }
  void cancel() const { s_->cancel(); }
  // A source that is canceled when `token` is (and by its own cancel()).
  static cancellation_token_source create_linked_source(const cancellation_token& token) {
    cancellation_token_source src;
    if (token.is_cancelable()) {
      std::weak_ptr<details::cancellation_state> w = src.s_;
      token.register_callback([w] {
        if (auto s = w.lock()) s->cancel();
      });
    }
    return src;
  }
  bool operator==(const cancellation_token_source& o) const { return s_ == o.s_; }
  bool operator!=(const cancellation_token_source& o) const { return s_ != o.s_; }

private:
  std::shared_ptr<details::cancellation_state> s_;
};

namespace details {
// The token of the task body running on this thread (none() outside tasks).
inline cancellation_token& current_task_token() {
  thread_local cancellation_token token;
  return token;
}
struct current_token_scope {
  cancellation_token saved;
  explicit current_token_scope(const cancellation_token& t) : saved(current_task_token()) { current_task_token() = t; }
  ~current_token_scope() { current_task_token() = saved; }
};
}  // namespace details

inline bool is_task_cancellation_requested() { return details::current_task_token().is_canceled(); }

[[noreturn]] inline void cancel_current_task() { throw task_canceled("cancel_current_task() was called"); }

}  // namespace Concurrency
namespace concurrency = Concurrency;

#endif
