// Tiles on host accelerators.
//
// A tile's work-items run on one OS thread. They start as a plain loop on that
// thread's stack; only when work-item 0 reaches a barrier are the others
// turned into fibers (Boost.Context), each on its own pooled stack with a guard
// page. Work-item 0 stays on the thread's stack and drives every barrier round:
// it resumes each fiber, which runs to its next barrier (or to its end) and
// switches back. A kernel without barriers therefore never creates a fiber.
//
// A tile whose work-items do not all reach the same number of barriers (one
// returns while another waits) raises runtime_exception naming the tile; the
// suspended fibers are unwound first, so nothing leaks and nothing hangs.
#pragma once
#include "config.h"
#include "exceptions.h"

#include <boost/context/fiber.hpp>

#include <sys/mman.h>
#include <unistd.h>

#include <cstdlib>
#include <exception>
#include <string>
#include <vector>

namespace Concurrency {
namespace detail {
namespace host_tiles {

// Fixed-size stacks, kept per OS thread and reused from tile to tile.
class stack_pool {
public:
  stack_pool() {
    const char* kb = std::getenv("AMP_FIBER_STACK_KB");
    page_ = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
    std::size_t want = (kb ? std::strtoul(kb, nullptr, 10) : 128) * 1024;
    usable_ = (want + page_ - 1) / page_ * page_;
    if (usable_ < 4 * page_) usable_ = 4 * page_;
  }
  ~stack_pool() {
    for (void* p : free_) ::munmap(p, usable_ + page_);
  }
  stack_pool(const stack_pool&) = delete;
  stack_pool& operator=(const stack_pool&) = delete;

  boost::context::stack_context allocate() {
    void* low;
    if (!free_.empty()) {
      low = free_.back();
      free_.pop_back();
    } else {
      low = ::mmap(nullptr, usable_ + page_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
      if (low == MAP_FAILED) throw out_of_memory("cannot map a fiber stack for a host tile");
      ::mprotect(low, page_, PROT_NONE); // guard page: overflow faults instead of corrupting memory
    }
    boost::context::stack_context sc;
    sc.size = usable_;
    sc.sp = static_cast<char*>(low) + page_ + usable_;
    return sc;
  }
  void deallocate(boost::context::stack_context& sc) noexcept {
    free_.push_back(static_cast<char*>(sc.sp) - usable_ - page_);
  }

private:
  std::size_t page_, usable_;
  std::vector<void*> free_;
};

struct pooled_stack {
  stack_pool* pool;
  boost::context::stack_context allocate() { return pool->allocate(); }
  void deallocate(boost::context::stack_context& sc) noexcept { pool->deallocate(sc); }
};

class tile_run;
inline thread_local tile_run* current_run = nullptr;

class tile_run {
public:
  // Formats "tile (..), work-item (..)" for error messages.
  using describe_fn = std::string (*)(const void* ctx, int item);

  // Runs work-items [0, n) of one tile: body(i) for each.
  template <class Body> void run(int n, const Body& body, describe_fn describe, const void* ctx) {
    n_ = n;
    fiber_mode_ = false;
    cur_ = 0;
    describe_ = describe;
    ctx_ = ctx;
    body_ = &body;
    spawn_ = &spawn_fiber<Body>;
    tile_run* outer = current_run;
    current_run = this;
    struct guard {
      tile_run* self;
      tile_run* outer;
      ~guard() {
        self->drop_fibers();
        current_run = outer;
      }
    } g{this, outer};
    for (int i = 0; i < n; ++i) {
      cur_ = i;
      body(i);
      if (fiber_mode_) { // work-item 0 has finished; the others must finish too
        for (int j = 1; j < n; ++j) {
          resume(j);
          if (state_[j] == at_barrier)
            diverge(j, "waits at a barrier that work-item 0 of the tile returned without reaching");
        }
        return;
      }
    }
  }

  // tile_barrier::wait() of the current work-item.
  void barrier() {
    if (!fiber_mode_) {
      if (cur_ != 0) diverge(cur_, "waits at a barrier, but the work-items before it returned without reaching it");
      start_fibers();
      round();
    } else if (cur_ == 0) {
      round();
    } else {
      state_[cur_] = at_barrier;
      caller_ = std::move(caller_).resume();
    }
  }

  static tile_run& local() {
    static thread_local tile_run r;
    return r;
  }

private:
  enum state_t : unsigned char { not_started, at_barrier, finished };

  template <class Body> static void spawn_fiber(tile_run* self, int j) {
    const Body* body = static_cast<const Body*>(self->body_);
    self->fibers_[j] = boost::context::fiber(
        std::allocator_arg, pooled_stack{&self->pool_}, [self, body, j](boost::context::fiber&& caller) AMP_HOST_ONLY {
          self->caller_ = std::move(caller);
          try {
            (*body)(j);
          } catch (const boost::context::detail::forced_unwind&) {
            throw;
          } catch (...) {
            if (!self->error_) self->error_ = std::current_exception();
          }
          self->state_[j] = finished;
          return std::move(self->caller_);
        });
  }
  void start_fibers() {
    fiber_mode_ = true;
    fibers_.clear();
    fibers_.resize(n_);
    state_.assign(n_, not_started);
    error_ = nullptr;
    for (int j = 1; j < n_; ++j) spawn_(this, j);
  }
  void resume(int j) {
    if (state_[j] == finished) return;
    cur_ = j;
    fibers_[j] = std::move(fibers_[j]).resume();
    cur_ = 0;
    if (error_) {
      std::exception_ptr e = error_;
      error_ = nullptr;
      std::rethrow_exception(e);
    }
  }
  // Work-item 0 is at a barrier: bring every other work-item to it.
  void round() {
    for (int j = 1; j < n_; ++j) {
      resume(j);
      if (state_[j] == finished)
        diverge(j, "returned while work-item 0 of the tile waits at a barrier");
    }
  }
  [[noreturn]] void diverge(int item, const char* what) {
    std::string m = "tile_barrier::wait: divergent barrier in " + describe_(ctx_, item) + " " + what +
                    ". Every work-item of a tile must reach each barrier.";
    throw runtime_exception(m.c_str(), e_fail);
  }
  // Unwinds suspended fibers (their destructors run) and returns the stacks.
  void drop_fibers() noexcept {
    fiber_mode_ = false;
    for (auto& f : fibers_) f = boost::context::fiber();
  }

  int n_ = 0;
  int cur_ = 0;
  bool fiber_mode_ = false;
  describe_fn describe_ = nullptr;
  const void* ctx_ = nullptr;
  const void* body_ = nullptr;
  void (*spawn_)(tile_run*, int) = nullptr;
  std::vector<boost::context::fiber> fibers_;
  std::vector<state_t> state_;
  boost::context::fiber caller_;
  std::exception_ptr error_;
  stack_pool pool_;
};

} // namespace host_tiles

inline void host_tiles::barrier_wait() {
  tile_run* r = current_run;
  if (!r) throw runtime_exception("tile_barrier::wait called outside a tiled parallel_for_each", e_fail);
  r->barrier();
}

} // namespace detail
} // namespace Concurrency
