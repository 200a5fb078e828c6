// PPL tasks (private; <ppltasks.h>): task<T>, create_task, then, when_all,
// when_any, && and ||, task_completion_event.
//
// Execution: a task body and each continuation run on oneTBB's worker threads
// (tbb::this_task_arena::enqueue). What is ours is the bookkeeping: a shared
// state per task (outcome, continuations, antecedents) and its wait().
// wait()/get() never just sleep on work nobody runs: a waiting thread runs the
// awaited body itself if no worker has started it yet, and waits on the
// antecedents of a continuation first, so chains complete even when every
// worker is blocked in a wait (2-core CI machines).
//
// Contracts (MSVC's):
//   - task<T>::get() returns the value, rethrows the exception the body threw,
//     or throws task_canceled; wait() returns completed or canceled (and
//     rethrows an exception). get()/wait() on a default-constructed task
//     throw invalid_operation.
//   - then(f): value-based f(T) (f() for task<void>) runs after the
//     antecedent completed; if it threw or was canceled, f does not run and
//     the continuation carries the same exception / cancellation.
//     Task-based f(task<T>) always runs. A continuation returning task<U>
//     gives task<U> (unwrapped), as does create_task of such a function.
//   - A token canceled before a body starts cancels the task; inside the
//     body cancel_current_task() (or throwing task_canceled) cancels it.
//   - when_all(first, last) / a && b: task<vector<T>> with the values in
//     order (task<void> for void); the first failure or cancellation ends it.
//     when_any / a || b: the first task to complete successfully gives
//     task<pair<T, size_t>> (value, index) or task<size_t> for void; a || b
//     gives task<T>; if all fail, the result carries the first failure.
//   - task_completion_event<T>: set(v) / set_exception(e) complete every
//     task made from it, once (later calls return false).
//   - task_continuation_context is accepted and has no effect (no
//     apartments on Linux); exceptions nobody observes are dropped (MSVC
//     would terminate the program).
#ifndef AMP_COMPAT_COMPAT_DETAIL_PPL_TASKS_H
#define AMP_COMPAT_COMPAT_DETAIL_PPL_TASKS_H

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <exception>
#include <functional>
#include <iterator>
#include <memory>
#include <mutex>
#include <optional>
#include <type_traits>
#include <unordered_set>
#include <utility>
#include <vector>

#include "../../../detail/foreign_begin.h"
#include <oneapi/tbb/task_arena.h>
#include "../../../detail/foreign_end.h"

#include "cancellation.h"
#include "exceptions.h"
#include "task_group.h"

namespace Concurrency {

typedef task_group_status task_status;

class task_continuation_context {
public:
  static task_continuation_context use_default() { return {}; }
  static task_continuation_context use_arbitrary() { return {}; }
  static task_continuation_context use_current() { return {}; }
};

template <class T>
class task;
template <class T>
class task_completion_event;

namespace details {

struct unit {};
template <class T>
using stored_t = typename std::conditional<std::is_void<T>::value, unit, T>::type;

inline void enqueue(std::function<void()> f) { tbb::this_task_arena::enqueue(std::move(f)); }

class state_base {
public:
  enum outcome { pending, done_ok, done_canceled, done_error };

  virtual ~state_base() = default;

  bool finished() {
    std::lock_guard<std::mutex> l(m_);
    return outcome_ != pending;
  }
  outcome result() {
    std::lock_guard<std::mutex> l(m_);
    return outcome_;
  }
  std::exception_ptr error() {
    std::lock_guard<std::mutex> l(m_);
    return error_;
  }

  // Runs c once this state is finished (now, if it already is).
  void on_finished(std::function<void()> c) {
    {
      std::lock_guard<std::mutex> l(m_);
      if (outcome_ == pending) {
        continuations_.push_back(std::move(c));
        return;
      }
    }
    c();
  }

  void add_antecedent(std::shared_ptr<state_base> a) {
    std::lock_guard<std::mutex> l(m_);
    antecedents_.push_back(std::move(a));
  }

  // Hands the body to oneTBB; whoever claims it first (a worker, or a thread
  // waiting for this task) runs it.
  void schedule(std::function<void()> body) {
    {
      std::lock_guard<std::mutex> l(m_);
      body_ = std::move(body);
    }
    cv_.notify_all();
    // A strong reference: a task nobody keeps (fire and forget) still runs.
    std::shared_ptr<state_base> self = self_.lock();
    enqueue([self] { self->try_run(); });
  }

  // Blocks until finished. Meanwhile the thread helps: it runs this task's
  // body, or that of an antecedent on the way here, when no worker has
  // claimed it; a wait never blocks on an antecedent itself (it may be a
  // when_any loser that never completes).
  void wait() {
    for (;;) {
      {
        std::lock_guard<std::mutex> l(m_);
        if (outcome_ != pending) return;
      }
      if (help()) continue;
      std::unique_lock<std::mutex> l(m_);
      // Woken at once when this task finishes or its body is scheduled; an
      // antecedent that becomes runnable is noticed at the next poll.
      cv_.wait_for(l, std::chrono::milliseconds(1),
                   [&] { return outcome_ != pending || (body_ && !claimed_); });
    }
  }

  // Finishes the state once; returns false if it was already finished.
  bool finish(outcome o, std::exception_ptr e) {
    std::vector<std::function<void()>> run;
    {
      std::lock_guard<std::mutex> l(m_);
      if (outcome_ != pending) return false;
      outcome_ = o;
      error_ = std::move(e);
      run.swap(continuations_);
      antecedents_.clear();  // no longer needed; breaks reference chains
    }
    cv_.notify_all();
    for (auto& c : run) c();
    return true;
  }

  std::weak_ptr<state_base> self_;  // set by make_state
  cancellation_token token;

protected:
  // Runs one unclaimed body of this state or of its antecedents; false if
  // there was none. Iterative (continuation chains can be very long).
  bool help() {
    if (try_run()) return true;
    std::vector<std::shared_ptr<state_base>> todo;
    std::unordered_set<const state_base*> visited{this};
    push_antecedents(todo);
    while (!todo.empty()) {
      std::shared_ptr<state_base> s = std::move(todo.back());
      todo.pop_back();
      if (!visited.insert(s.get()).second) continue;
      if (s->try_run()) return true;
      s->push_antecedents(todo);
    }
    return false;
  }
  void push_antecedents(std::vector<std::shared_ptr<state_base>>& todo) {
    std::lock_guard<std::mutex> l(m_);
    if (outcome_ == pending) todo.insert(todo.end(), antecedents_.begin(), antecedents_.end());
  }

  bool try_run() {
    std::function<void()> body;
    {
      std::lock_guard<std::mutex> l(m_);
      if (!body_ || claimed_) return false;
      claimed_ = true;
      body.swap(body_);
    }
    body();
    return true;
  }

  std::mutex m_;
  std::condition_variable cv_;
  outcome outcome_ = pending;
  std::exception_ptr error_;
  std::vector<std::function<void()>> continuations_;
  std::vector<std::shared_ptr<state_base>> antecedents_;
  std::function<void()> body_;
  bool claimed_ = false;
};

template <class T>
class state : public state_base {
public:
  bool set_value(stored_t<T> v) {
    {
      std::lock_guard<std::mutex> l(m_);
      if (outcome_ != pending) return false;
      value_.emplace(std::move(v));
    }
    return finish(done_ok, nullptr);
  }
  const stored_t<T>& value() {
    std::lock_guard<std::mutex> l(m_);
    return *value_;
  }

private:
  std::optional<stored_t<T>> value_;
};

template <class T>
std::shared_ptr<state<T>> make_state(const cancellation_token& token = cancellation_token::none()) {
  auto s = std::make_shared<state<T>>();
  s->self_ = s;
  s->token = token;
  return s;
}

// Copies the outcome of `from` into `to` (used for unwrapping and events).
template <class T>
void forward_outcome(state<T>& from, state<T>& to) {
  switch (from.result()) {
    case state_base::done_ok:
      to.set_value(from.value());
      break;
    case state_base::done_canceled:
      to.finish(state_base::done_canceled, nullptr);
      break;
    default:
      to.finish(state_base::done_error, from.error());
      break;
  }
}

template <class X>
struct is_task : std::false_type {};
template <class U>
struct is_task<task<U>> : std::true_type {};

template <class R>
struct unwrapped {
  using type = R;
};
template <class U>
struct unwrapped<task<U>> {
  using type = U;
};

template <class T>
task<T> task_from_state(std::shared_ptr<state<T>> s);

// Runs call() as the body of `s`: stores its value, or its exception, or the
// cancellation; a call returning task<U> completes `s` when that task does.
template <class T, class Call>
void run_body(const std::shared_ptr<state<T>>& s, Call&& call) {
  using R = decltype(call());
  if (s->token.is_canceled()) {
    s->finish(state_base::done_canceled, nullptr);
    return;
  }
  current_token_scope scope(s->token);
  try {
    if constexpr (is_task<R>::value) {
      R inner = call();
      auto inner_state = inner.state_ptr();
      if (!inner_state) throw invalid_operation("a continuation returned a default-constructed task");
      s->add_antecedent(inner_state);
      inner_state->on_finished([s, inner_state] { forward_outcome(*inner_state, *s); });
    } else if constexpr (std::is_void<R>::value) {
      call();
      s->set_value(unit{});
    } else {
      s->set_value(call());
    }
  } catch (const task_canceled&) {
    s->finish(state_base::done_canceled, nullptr);
  } catch (...) {
    s->finish(state_base::done_error, std::current_exception());
  }
}

// Continuation kinds: f(task<T>) is task-based; else f(T) or, for void, f().
template <class T, class F>
constexpr bool is_task_based() {
  return std::is_invocable<F, task<T>>::value;
}
template <class T, class F, bool TaskBased = is_task_based<T, F>()>
struct continuation_result {
  using type = std::invoke_result_t<F, task<T>>;
};
template <class T, class F>
struct continuation_result<T, F, false> {
  using type = typename std::conditional<std::is_void<T>::value, std::invoke_result<F>,
                                         std::invoke_result<F, stored_t<T>>>::type::type;
};

}  // namespace details

template <class T>
class task {
public:
  typedef T result_type;

  task() = default;
  // A task running f() (f returns T, or task<T>) -- MSVC allows the
  // constructor as well as create_task.
  template <class F, class = typename std::enable_if<!std::is_same<typename std::decay<F>::type, task>::value>::type>
  explicit task(F f, cancellation_token token = cancellation_token::none()) {
    init(std::move(f), token);
  }

  T get() const {
    if (wait() == canceled) throw task_canceled("get() on a canceled task");
    if constexpr (!std::is_void<T>::value) return s_->value();
  }

  task_status wait() const {
    if (!s_) throw invalid_operation("wait()/get() on a default-constructed task");
    s_->wait();
    switch (s_->result()) {
      case details::state_base::done_canceled:
        return canceled;
      case details::state_base::done_error:
        std::rethrow_exception(s_->error());
      default:
        return completed;
    }
  }

  bool is_done() const {
    if (!s_) throw invalid_operation("is_done() on a default-constructed task");
    return s_->finished();
  }

  template <class F>
  auto then(F f, cancellation_token token = cancellation_token::none(),
            task_continuation_context = task_continuation_context::use_default()) const {
    using R = typename details::continuation_result<T, F>::type;
    using U = typename details::unwrapped<R>::type;
    if (!s_) throw invalid_operation("then() on a default-constructed task");
    auto next = details::make_state<U>(token);
    next->add_antecedent(s_);
    auto ante = s_;
    // Strong references (a continuation nobody keeps still runs); the cycle
    // next -> antecedent -> continuation -> next ends when both finish.
    ante->on_finished([next, ante, f]() mutable {
      auto target = next;
      target->schedule([target, ante, f]() mutable {
        if constexpr (details::is_task_based<T, F>()) {
          details::run_body(target, [&] { return f(details::task_from_state<T>(ante)); });
        } else {
          switch (ante->result()) {
            case details::state_base::done_canceled:
              target->finish(details::state_base::done_canceled, nullptr);
              return;
            case details::state_base::done_error:
              target->finish(details::state_base::done_error, ante->error());
              return;
            default:
              break;
          }
          if constexpr (std::is_void<T>::value) details::run_body(target, [&] { return f(); });
          else details::run_body(target, [&] { return f(ante->value()); });
        }
      });
    });
    return details::task_from_state<U>(next);
  }
  template <class F>
  auto then(F f, task_continuation_context ctx) const {
    return then(std::move(f), cancellation_token::none(), ctx);
  }

  bool operator==(const task& o) const { return s_ == o.s_; }
  bool operator!=(const task& o) const { return s_ != o.s_; }

  // amp_compat internals (continuations, when_all, events).
  const std::shared_ptr<details::state<T>>& state_ptr() const { return s_; }
  explicit task(std::shared_ptr<details::state<T>> s) : s_(std::move(s)) {}

private:
  template <class F>
  void init(F f, const cancellation_token& token);
  std::shared_ptr<details::state<T>> s_;
};

namespace details {
template <class T>
task<T> task_from_state(std::shared_ptr<state<T>> s) {
  return task<T>(std::move(s));
}
}  // namespace details

template <class T>
class task_completion_event {
public:
  task_completion_event() : e_(std::make_shared<shared>()) {}

  template <class V = T, class = typename std::enable_if<!std::is_void<V>::value>::type>
  bool set(V value) const {
    return complete(details::state_base::done_ok, nullptr, details::stored_t<T>(std::move(value)));
  }
  template <class V = T, class = typename std::enable_if<std::is_void<V>::value>::type>
  bool set() const {
    return complete(details::state_base::done_ok, nullptr, details::unit{});
  }
  template <class E>
  bool set_exception(E e) const {
    return set_exception(std::make_exception_ptr(std::move(e)));
  }
  bool set_exception(std::exception_ptr e) const {
    return complete(details::state_base::done_error, std::move(e), std::nullopt);
  }

  // amp_compat internals: a new task state completed with this event.
  std::shared_ptr<details::state<T>> attach() const {
    auto s = details::make_state<T>();
    std::unique_lock<std::mutex> l(e_->m);
    if (!e_->set) {
      e_->waiting.push_back(s);
      return s;
    }
    l.unlock();
    apply(*s);
    return s;
  }

private:
  struct shared {
    std::mutex m;
    bool set = false;
    details::state_base::outcome outcome = details::state_base::pending;
    std::exception_ptr error;
    std::optional<details::stored_t<T>> value;
    std::vector<std::shared_ptr<details::state<T>>> waiting;
  };
  bool complete(details::state_base::outcome o, std::exception_ptr e,
                std::optional<details::stored_t<T>> v) const {
    std::vector<std::shared_ptr<details::state<T>>> waiting;
    {
      std::lock_guard<std::mutex> l(e_->m);
      if (e_->set) return false;
      e_->set = true;
      e_->outcome = o;
      e_->error = std::move(e);
      e_->value = std::move(v);
      waiting.swap(e_->waiting);
    }
    for (auto& s : waiting) apply(*s);
    return true;
  }
  void apply(details::state<T>& s) const {
    if (e_->outcome == details::state_base::done_ok) s.set_value(*e_->value);
    else s.finish(e_->outcome, e_->error);
  }
  std::shared_ptr<shared> e_;
};

template <class T>
template <class F>
void task<T>::init(F f, const cancellation_token& token) {
  if constexpr (std::is_same<typename std::decay<F>::type, task_completion_event<T>>::value) {
    s_ = f.attach();
  } else {
    s_ = details::make_state<T>(token);
    auto s = s_;
    s_->schedule([s, f]() mutable { details::run_body(s, [&] { return f(); }); });
  }
}

template <class F>
auto create_task(F f, cancellation_token token = cancellation_token::none()) {
  using R = decltype(f());
  using U = typename details::unwrapped<R>::type;
  return task<U>(std::move(f), token);
}
template <class T>
task<T> create_task(const task_completion_event<T>& e) {
  return task<T>(e);
}
template <class T>
task<T> create_task(const task<T>& t) {
  return t;
}

namespace details {

// when_all over task states: collects the values in order.
template <class T>
auto when_all_states(std::vector<std::shared_ptr<state<T>>> states) {
  using R = typename std::conditional<std::is_void<T>::value, void, std::vector<T>>::type;
  auto result = make_state<R>();
  for (auto& s : states) result->add_antecedent(s);
  if (states.empty()) {
    result->set_value(stored_t<R>{});
    return task_from_state<R>(result);
  }
  struct gather {
    std::atomic<std::size_t> left;
    std::vector<std::shared_ptr<state<T>>> states;
  };
  auto g = std::make_shared<gather>();
  g->left = states.size();
  g->states = states;
  for (auto& s : states) {
    s->on_finished([r = result, g, s] {
      if (s->result() != state_base::done_ok) {
        r->finish(s->result(), s->error());  // first failure ends it
        return;
      }
      if (--g->left == 0) {
        if constexpr (std::is_void<T>::value) {
          r->set_value(unit{});
        } else {
          std::vector<T> values;
          values.reserve(g->states.size());
          for (auto& x : g->states) values.push_back(x->value());
          r->set_value(std::move(values));
        }
      }
    });
  }
  return task_from_state<R>(result);
}

template <class T>
auto when_any_states(std::vector<std::shared_ptr<state<T>>> states) {
  using R = typename std::conditional<std::is_void<T>::value, std::size_t, std::pair<T, std::size_t>>::type;
  auto result = make_state<R>();
  if (states.empty()) throw invalid_operation("when_any of no tasks");
  for (auto& s : states) result->add_antecedent(s);
  struct race {
    std::mutex m;
    std::size_t failed = 0;
    state_base::outcome first_outcome = state_base::pending;
    std::exception_ptr first_error;
  };
  auto rc = std::make_shared<race>();
  const std::size_t n = states.size();
  for (std::size_t i = 0; i < n; ++i) {
    auto s = states[i];
    s->on_finished([r = result, rc, s, i, n] {
      if (s->result() == state_base::done_ok) {
        if constexpr (std::is_void<T>::value) r->set_value(i);
        else r->set_value(std::make_pair(s->value(), i));
        return;
      }
      std::lock_guard<std::mutex> l(rc->m);
      if (rc->first_outcome == state_base::pending) {
        rc->first_outcome = s->result();
        rc->first_error = s->error();
      }
      if (++rc->failed == n) r->finish(rc->first_outcome, rc->first_error);
    });
  }
  return task_from_state<R>(result);
}

template <class It>
auto states_of(It first, It last) {
  using Task = typename std::iterator_traits<It>::value_type;
  using T = typename Task::result_type;
  std::vector<std::shared_ptr<state<T>>> states;
  for (; first != last; ++first) {
    if (!first->state_ptr()) throw invalid_operation("when_all/when_any of a default-constructed task");
    states.push_back(first->state_ptr());
  }
  return states;
}

}  // namespace details

template <class It>
auto when_all(It first, It last) {
  return details::when_all_states(details::states_of(first, last));
}
template <class It>
auto when_any(It first, It last) {
  return details::when_any_states(details::states_of(first, last));
}

template <class T>
auto operator&&(const task<T>& a, const task<T>& b) {
  const task<T> both[] = {a, b};
  return when_all(std::begin(both), std::end(both));
}
// t1 && t2 && t3: concatenates.
template <class T>
task<std::vector<T>> operator&&(const task<std::vector<T>>& a, const task<T>& b) {
  return (a && b.then([](T v) { return std::vector<T>{std::move(v)}; }))
      .then([](std::vector<std::vector<T>> parts) {
        std::vector<T> all = std::move(parts[0]);
        all.insert(all.end(), parts[1].begin(), parts[1].end());
        return all;
      });
}

template <class T>
task<T> operator||(const task<T>& a, const task<T>& b) {
  const task<T> either[] = {a, b};
  if constexpr (std::is_void<T>::value) return when_any(std::begin(either), std::end(either)).then([](std::size_t) {});
  else return when_any(std::begin(either), std::end(either)).then([](std::pair<T, std::size_t> p) { return p.first; });
}

// completion_future::to_task() (amp.h) reaches this through ADL: a task
// that waits for the future on a worker and carries its exception.
template <class Future>
task<void> amp_compat_to_task(const Future* f) {
  Future copy = *f;
  return create_task([copy] { copy.get(); });
}

}  // namespace Concurrency
namespace concurrency = Concurrency;

#endif
