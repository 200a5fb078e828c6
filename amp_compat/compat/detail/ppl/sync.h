// ConcRT synchronisation (private; <concrt.h>): critical_section,
// reader_writer_lock, event, wait().
//
// Contracts (as MSVC documents them):
//   critical_section      non-recursive mutex; lock() by the thread that
//                         holds it throws improper_lock (MSVC does the same,
//                         where std::mutex would deadlock); try_lock_for(ms).
//                         scoped_lock locks for its lifetime.
//   reader_writer_lock    writer-preferring: once a writer waits, new readers
//                         wait too; lock()/lock_read() by a thread that
//                         already holds the write lock throw improper_lock.
//                         scoped_lock (writer) and scoped_lock_read.
//   event                 manual-reset event: set(), reset(), wait(timeout
//                         ms, COOPERATIVE_TIMEOUT_INFINITE by default) returns
//                         0 when set, COOPERATIVE_WAIT_TIMEOUT on timeout.
//   wait(ms)              sleeps the calling thread.
//
// Lifetime: as with std::mutex, an object may be destroyed as soon as no
// thread holds or waits for it, e.g. by the thread that event::wait() let
// through while the setter is still returning from set(). So unlock() and
// set() signal their condition variable while they still hold m_: the woken
// thread cannot return (and destroy the object) before the signaling thread
// has released m_, its last access. Signaling after the release let a waiter
// destroy the condition variable under a running notify (ThreadSanitizer
// found it: tests/compat, label tsan).
#ifndef AMP_COMPAT_COMPAT_DETAIL_PPL_SYNC_H
#define AMP_COMPAT_COMPAT_DETAIL_PPL_SYNC_H

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <mutex>
#include <thread>

#include "exceptions.h"

namespace Concurrency {

const unsigned int COOPERATIVE_TIMEOUT_INFINITE = static_cast<unsigned int>(-1);
const std::size_t COOPERATIVE_WAIT_TIMEOUT = static_cast<std::size_t>(-1);

inline void wait(unsigned int milliseconds) {
  std::this_thread::sleep_for(std::chrono::milliseconds(milliseconds));
}

class critical_section {
public:
  typedef critical_section& native_handle_type;
  critical_section() = default;
  critical_section(const critical_section&) = delete;
  critical_section& operator=(const critical_section&) = delete;

  void lock() {
    check_not_owner();
    std::unique_lock<std::mutex> l(m_);
    cv_.wait(l, [&] { return !held_; });
    take();
  }
  bool try_lock() {
    std::lock_guard<std::mutex> l(m_);
    if (held_) return false;
    take();
    return true;
  }
  bool try_lock_for(unsigned int milliseconds) {
    check_not_owner();
    std::unique_lock<std::mutex> l(m_);
    if (!cv_.wait_for(l, std::chrono::milliseconds(milliseconds), [&] { return !held_; })) return false;
    take();
    return true;
  }
  void unlock() {
    std::lock_guard<std::mutex> l(m_);
    if (!held_ || owner_ != std::this_thread::get_id())
      throw improper_lock("critical_section::unlock: the calling thread does not hold the lock");
    held_ = false;
    owner_ = std::thread::id();
    // Notified under m_ (see the header): once m_ is free, nothing here
    // touches *this.
    cv_.notify_one();
  }
  native_handle_type native_handle() { return *this; }

  class scoped_lock {
  public:
    explicit scoped_lock(critical_section& cs) : cs_(cs) { cs_.lock(); }
    ~scoped_lock() { cs_.unlock(); }
    scoped_lock(const scoped_lock&) = delete;
    scoped_lock& operator=(const scoped_lock&) = delete;

  private:
    critical_section& cs_;
  };

private:
  void check_not_owner() {
    std::lock_guard<std::mutex> l(m_);
    if (held_ && owner_ == std::this_thread::get_id())
      throw improper_lock("critical_section::lock: the calling thread already holds this lock (not recursive)");
  }
  void take() {
    held_ = true;
    owner_ = std::this_thread::get_id();
  }
  std::mutex m_;
  std::condition_variable cv_;
  bool held_ = false;
  std::thread::id owner_;
};

class reader_writer_lock {
public:
  reader_writer_lock() = default;
  reader_writer_lock(const reader_writer_lock&) = delete;
  reader_writer_lock& operator=(const reader_writer_lock&) = delete;

  void lock() {
    std::unique_lock<std::mutex> l(m_);
    check_not_writer();
    ++writers_waiting_;
    cv_.wait(l, [&] { return !writer_ && readers_ == 0; });
    --writers_waiting_;
    writer_ = true;
    owner_ = std::this_thread::get_id();
  }
  bool try_lock() {
    std::lock_guard<std::mutex> l(m_);
    if (writer_ || readers_ != 0) return false;
    writer_ = true;
    owner_ = std::this_thread::get_id();
    return true;
  }
  void lock_read() {
    std::unique_lock<std::mutex> l(m_);
    check_not_writer();
    cv_.wait(l, [&] { return !writer_ && writers_waiting_ == 0; });
    ++readers_;
  }
  bool try_lock_read() {
    std::lock_guard<std::mutex> l(m_);
    if (writer_ || writers_waiting_ != 0) return false;
    ++readers_;
    return true;
  }
  // Releases the write lock if the caller holds it, else one read lock.
  void unlock() {
    std::lock_guard<std::mutex> l(m_);
    if (writer_ && owner_ == std::this_thread::get_id()) {
      writer_ = false;
      owner_ = std::thread::id();
    } else if (readers_ > 0) {
      --readers_;
    } else {
      throw improper_lock("reader_writer_lock::unlock: the lock is not held");
    }
    cv_.notify_all();  // under m_ (see the header)
  }

  class scoped_lock {
  public:
    explicit scoped_lock(reader_writer_lock& l) : l_(l) { l_.lock(); }
    ~scoped_lock() { l_.unlock(); }
    scoped_lock(const scoped_lock&) = delete;
    scoped_lock& operator=(const scoped_lock&) = delete;

  private:
    reader_writer_lock& l_;
  };
  class scoped_lock_read {
  public:
    explicit scoped_lock_read(reader_writer_lock& l) : l_(l) { l_.lock_read(); }
    ~scoped_lock_read() { l_.unlock(); }
    scoped_lock_read(const scoped_lock_read&) = delete;
    scoped_lock_read& operator=(const scoped_lock_read&) = delete;

  private:
    reader_writer_lock& l_;
  };

private:
  void check_not_writer() {
    if (writer_ && owner_ == std::this_thread::get_id())
      throw improper_lock("reader_writer_lock: the calling thread already holds the write lock");
  }
  std::mutex m_;
  std::condition_variable cv_;
  bool writer_ = false;
  int writers_waiting_ = 0;
  int readers_ = 0;
  std::thread::id owner_;
};

class event {
public:
  static const unsigned int timeout_infinite = COOPERATIVE_TIMEOUT_INFINITE;
  event() = default;
  event(const event&) = delete;
  event& operator=(const event&) = delete;

  void set() {
    std::lock_guard<std::mutex> l(m_);
    set_ = true;
    cv_.notify_all();  // under m_ (see the header)
  }
  void reset() {
    std::lock_guard<std::mutex> l(m_);
    set_ = false;
  }
  std::size_t wait(unsigned int timeout = COOPERATIVE_TIMEOUT_INFINITE) {
    std::unique_lock<std::mutex> l(m_);
    if (timeout == COOPERATIVE_TIMEOUT_INFINITE) {
      cv_.wait(l, [&] { return set_; });
      return 0;
    }
    return cv_.wait_for(l, std::chrono::milliseconds(timeout), [&] { return set_; }) ? 0 : COOPERATIVE_WAIT_TIMEOUT;
  }

private:
  std::mutex m_;
  std::condition_variable cv_;
  bool set_ = false;
};

}  // namespace Concurrency
namespace concurrency = Concurrency;

#endif
