// PPL task groups and combinable over oneTBB (private; <ppl.h>).
//
// Contracts (MSVC's):
//   task_group: run(f) / run(task_handle&) start work; wait() returns when
//     all of it is done and returns completed, or canceled after cancel();
//     the first exception a task threw is rethrown by wait() (the group is
//     then canceled). run_and_wait(f) runs f on the calling thread and waits.
//     is_canceling(). Destroying a group with unwaited work waits for it.
//   structured_task_group: the same for task_handle objects, used by one
//     thread; run_and_wait, wait, cancel, is_canceling.
//   task_handle<F> / make_task(f): a callable the groups run by reference
//     (it must outlive the group's wait()).
//   is_current_task_group_canceling(): true inside a task of a canceled group.
//   combinable<T>: thread-local T's (default-constructed or made by the
//     init function), local(), combine(f), combine_each(f), clear().
#ifndef AMP_COMPAT_COMPAT_DETAIL_PPL_TASK_GROUP_H
#define AMP_COMPAT_COMPAT_DETAIL_PPL_TASK_GROUP_H

#include <utility>

#include "../../../detail/foreign_begin.h"
#include <oneapi/tbb/combinable.h>
#include <oneapi/tbb/task_group.h>
#include "../../../detail/foreign_end.h"

#include "exceptions.h"

namespace Concurrency {

enum task_group_status { not_complete, completed, canceled };

template <class F>
class task_handle {
public:
  explicit task_handle(const F& f) : f_(f) {}
  void operator()() const { f_(); }

private:
  F f_;
};

template <class F>
task_handle<F> make_task(const F& f) {
  return task_handle<F>(f);
}

namespace details {
inline task_group_status from_tbb(tbb::task_group_status s) {
  return s == tbb::task_group_status::canceled ? canceled
         : s == tbb::task_group_status::complete ? completed
                                                 : not_complete;
}

// What both group kinds share: a oneTBB task_group that is always waited
// for before it is destroyed (oneTBB would throw from the destructor).
class group_base {
public:
  group_base() = default;
  group_base(const group_base&) = delete;
  group_base& operator=(const group_base&) = delete;
  ~group_base() {
    try {
      g_.wait();
    } catch (...) {
      // An exception nobody waited for: MSVC's destructor swallows it as well.
    }
  }
  task_group_status wait() { return from_tbb(g_.wait()); }
  void cancel() { g_.cancel(); }
  bool is_canceling() { return ctx_.is_group_execution_cancelled(); }

protected:
  tbb::task_group_context ctx_;  // our own, so that is_canceling() can ask it
  tbb::task_group g_{ctx_};
};
}  // namespace details

class task_group : public details::group_base {
public:
  template <class F>
  void run(const F& f) {
    g_.run(f);
  }
  template <class F>
  void run(task_handle<F>& h) {
    g_.run([&h] { h(); });
  }
  template <class F>
  task_group_status run_and_wait(const F& f) {
    return details::from_tbb(g_.run_and_wait(f));
  }
  template <class F>
  task_group_status run_and_wait(task_handle<F>& h) {
    return details::from_tbb(g_.run_and_wait([&h] { h(); }));
  }
};

class structured_task_group : public details::group_base {
public:
  template <class F>
  void run(task_handle<F>& h) {
    g_.run([&h] { h(); });
  }
  template <class F>
  task_group_status run_and_wait(task_handle<F>& h) {
    return details::from_tbb(g_.run_and_wait([&h] { h(); }));
  }
  template <class F>
  task_group_status run_and_wait(const F& f) {
    return details::from_tbb(g_.run_and_wait(f));
  }
};

inline bool is_current_task_group_canceling() { return tbb::is_current_task_group_canceling(); }

template <class T>
using combinable = tbb::combinable<T>;

}  // namespace Concurrency
namespace concurrency = Concurrency;

#endif
