// Tiles on host accelerators.
//
// A tile's work-items run on one OS thread. They start as a plain loop on that
// thread's stack; only when work-item 0 reaches a barrier do the others run on
// fibers. A kernel without barriers therefore never touches a fiber.
//
// Fibers are persistent: each OS thread keeps up to 1023 of them (created on
// first need, each on its own stack with a guard page) and fiber k always runs
// work-item k of whatever tile the thread is running. Between tiles a fiber
// stays parked in its loop, so a tile costs no fiber creation or teardown.
//
// A barrier round is a ring: work-item k, at a barrier, switches straight to
// work-item k+1 (the last one to work-item 0), so each work-item costs one
// context switch per barrier. Work-item 0 stays on the thread's stack and
// checks after each round that nobody returned early or failed.
//
// A tile whose work-items do not all reach the same number of barriers (one
// returns while another waits) raises runtime_exception naming the tile and the
// work-item; the suspended work-items are unwound first (their destructors
// run), so nothing leaks and nothing hangs. An exception thrown by a
// work-item propagates to the launch the same way.
#pragma once
#include "../../config.h"
#include "../../checked.h"
#include "../../exceptions.h"

#if !defined(AMP_FIBER_FCONTEXT) && defined(__x86_64__) && defined(__ELF__) && !(defined(__CET__) && (__CET__ & 2))
#define AMP_FIBER_FCONTEXT 0
#else
#define AMP_FIBER_FCONTEXT 1
#include <boost/context/detail/fcontext.hpp>
#endif

#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <exception>
#include <memory>
#include <string>

namespace Concurrency {
namespace detail {
namespace host_tiles {

// ---- context switching
// A context is the stack pointer of a suspended execution. switch_context(save,
// to) suspends the caller (its context goes to *save) and resumes `to`;
// make_context(top, size, fn) prepares a context that, when first resumed,
// calls fn() on the stack ending at `top` (fn must never return).
//
// x86-64 ELF: a switch saves only the callee-saved integer registers and
// leaves through an indirect jump, not `ret`: the return predictor would guess
// the switching side's call site, while the jump's target predictor learns the
// round's pattern. (A return from a frame older than the last switch still
// mispredicts; hence the barrier's fast path is small enough to be inlined
// into the kernel, the kernel is inlined into fiber_loop, and fiber_loop
// parks in that same frame.) The floating-point control state (MXCSR, x87
// control word) is not switched: the work-items of a tile share it, as they
// share the OS thread. Elsewhere (or with -DAMP_FIBER_FCONTEXT=1, or with CET
// shadow stacks, which this switch does not maintain): Boost.Context's
// fcontext, about 1.5x slower per switch.
#if !AMP_FIBER_FCONTEXT && !AMP_DEVICE_PASS
// One copy per program: the section is a COMDAT group, the symbols are weak.
asm(R"(
  .pushsection .text.amp_compat_switch_context,"axG",@progbits,amp_compat_switch_context,comdat
  .weak amp_compat_switch_context
  .hidden amp_compat_switch_context
  .type amp_compat_switch_context,@function
  .p2align 4
amp_compat_switch_context:
  .cfi_startproc
  pushq %rbp
  .cfi_adjust_cfa_offset 8
  pushq %rbx
  .cfi_adjust_cfa_offset 8
  pushq %r12
  .cfi_adjust_cfa_offset 8
  pushq %r13
  .cfi_adjust_cfa_offset 8
  pushq %r14
  .cfi_adjust_cfa_offset 8
  pushq %r15
  .cfi_adjust_cfa_offset 8
  movq %rsp, (%rdi)
  movq %rsi, %rsp
  popq %r15
  .cfi_adjust_cfa_offset -8
  popq %r14
  .cfi_adjust_cfa_offset -8
  popq %r13
  .cfi_adjust_cfa_offset -8
  popq %r12
  .cfi_adjust_cfa_offset -8
  popq %rbx
  .cfi_adjust_cfa_offset -8
  popq %rbp
  .cfi_adjust_cfa_offset -8
  popq %rcx
  .cfi_adjust_cfa_offset -8
  jmpq *%rcx
  .cfi_endproc
  .size amp_compat_switch_context, .-amp_compat_switch_context

  .weak amp_compat_context_entry
  .hidden amp_compat_context_entry
  .type amp_compat_context_entry,@function
  .p2align 4
amp_compat_context_entry:
  .cfi_startproc
  .cfi_undefined rip
  callq *%r12
  ud2
  .cfi_endproc
  .size amp_compat_context_entry, .-amp_compat_context_entry
  .popsection
)");
#endif
#if !AMP_FIBER_FCONTEXT
extern "C" void amp_compat_switch_context(void** save, void* to);
extern "C" void amp_compat_context_entry();
#endif

namespace ctx_switch {
#if !AMP_FIBER_FCONTEXT
inline void switch_context(void** save, void* to) { amp_compat_switch_context(save, to); }
inline void* make_context(void* top, std::size_t, void (*fn)()) {
  // Popped by the switch: r15 r14 r13 r12(=fn) rbx rbp, then the return
  // address (the entry stub). The stub's `call` then runs on a 16-byte
  // aligned stack, as the ABI requires at a call.
  void** sp = reinterpret_cast<void**>(reinterpret_cast<std::uintptr_t>(top) & ~std::uintptr_t(15));
  *--sp = reinterpret_cast<void*>(&amp_compat_context_entry);
  *--sp = nullptr;                          // rbp: ends frame-pointer walks
  *--sp = nullptr;                          // rbx
  *--sp = reinterpret_cast<void*>(fn);      // r12
  *--sp = nullptr;                          // r13
  *--sp = nullptr;                          // r14
  *--sp = nullptr;                          // r15
  return sp;
}
#else
namespace fctx = boost::context::detail;
inline void switch_context(void** save, void* to) {
  fctx::transfer_t t = fctx::jump_fcontext(to, save);
  *static_cast<void**>(t.data) = t.fctx; // the context that switched here
}
template <void (*Fn)()> void fcontext_entry(fctx::transfer_t t) {
  *static_cast<void**>(t.data) = t.fctx;
  Fn();
}
template <void (*Fn)()> void* make_context(void* top, std::size_t size) {
  return fctx::make_fcontext(top, size, &fcontext_entry<Fn>);
}
#endif
} // namespace ctx_switch

class tile_run;
inline thread_local tile_run* current_run = nullptr;

class tile_run {
public:
  // Formats "tile (..), work-item (..)" for error messages.
  using describe_fn = std::string (*)(const void* where, int item);

  // Runs work-items [0, n) of one tile (n <= max_items). Body: body(i) runs
  // work-item i; body.rest(i) runs work-items 1..n-1 in order, with i the one
  // running (read only if a barrier is reached there). Body is copyable.
  template <class Body> void run(int n, const Body& body, describe_fn describe, const void* where) {
    n_ = n;
    describe_ = describe;
    where_ = where;
    body_ = &body;
    loop_ = &fiber_loop<Body>;
    scope s(this);
    try {
      in_first_ = true;
      body(0); // enters fiber mode at its first barrier
      in_first_ = false;
      if (fiber_mode_) last_round();
    } catch (...) {
      in_first_ = false;
      if (fiber_mode_) unwind();
      throw;
    }
    if (fiber_mode_) {
      fiber_mode_ = false;
      return;
    }
    // No barrier so far: the rest is a plain loop. barrier() reports a late
    // arrival by throwing, so that the loop need not publish its index. The
    // loop runs on a copy of the body whose address is not published in
    // body_, so that the compiler may keep its members in registers.
    const Body each = body;
    int i = 1;
    try {
      each.rest(i);
    } catch (const late_barrier&) {
      diverge(i, "waits at a barrier, but the work-items before it returned without reaching it");
    }
  }

  // tile_barrier::wait() of the current work-item.
  // Inlined into kernels, so only the common case is here: a work-item in
  // fiber mode hands over to the next one.
  void barrier() {
    if constexpr (checked::on) return checked_barrier();
    if (__builtin_expect(fiber_mode_, true)) {
      const int me = cur_;
      hop(me, me + 1 == n_ ? 0 : me + 1);
      if (__builtin_expect(me == 0 ? (finished_ | failed_) : unwinding_, false)) after_round(me);
      return;
    }
    first_barrier();
  }

  // Checked builds (checked.h): the guard zones are verified before the
  // barrier (damage is the arriving work-item's), and the work-item's
  // published site, kept on its own stack, is restored when it resumes.
  [[gnu::noinline]] void checked_barrier() {
    checked::verify("before its barrier");
    checked::end_segment(); // races of the interval the barrier ends
    ++checked::current.phase;
    const checked::site mine = checked::current;
    if (fiber_mode_) {
      const int me = cur_;
      hop(me, me + 1 == n_ ? 0 : me + 1);
      checked::current = mine;
      if (me == 0 ? (finished_ | failed_) : unwinding_) after_round(me);
      return;
    }
    first_barrier();
    checked::current = mine;
  }

  static tile_run& local() {
    static thread_local tile_run r;
    return r;
  }

  static constexpr int max_items = 1024; // tile_launch_limits allows no more

  // Fibers this thread has created so far (for tests and diagnostics).
  int fibers() const { return fibers_; }

  tile_run() {
    page_ = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
    const char* kb = std::getenv("AMP_FIBER_STACK_KB");
    const std::size_t want = (kb ? std::strtoul(kb, nullptr, 10) : 128) * 1024;
    usable_ = (want + page_ - 1) / page_ * page_;
    if (usable_ < 4 * page_) usable_ = 4 * page_;
  }
  // Every fiber is idle here (run() never returns with one suspended inside a
  // work-item), so its stack holds nothing that needs destroying.
  ~tile_run() {
    for (int k = 1; k <= fibers_; ++k) ::munmap(stack_low_[k], mapping_size());
  }
  tile_run(const tile_run&) = delete;
  tile_run& operator=(const tile_run&) = delete;

private:
  enum state_t : unsigned char { idle, running, done };
  struct late_barrier {};   // barrier() in the plain loop, after item 0 returned
  struct unwind_request {}; // thrown at the barrier of a suspended work-item to unwind it

  struct scope {
    tile_run* self;
    tile_run* outer;
    explicit scope(tile_run* s) : self(s), outer(current_run) { current_run = s; }
    ~scope() { current_run = outer; }
  };

  // Work-item 0 after a round that went wrong, or a work-item being unwound.
  [[gnu::noinline, gnu::cold]] void after_round(int me) {
    if (me != 0) throw unwind_request{};
    round_failed(false);
  }

  // A barrier outside fiber mode: work-item 0's first one starts the fibers.
  [[gnu::noinline]] void first_barrier() {
    if (!in_first_) throw late_barrier{};
    if (n_ == 1) return;
    start_fibers();
    hop(0, 1);
    if (finished_ | failed_) round_failed(false);
  }

  // Suspends work-item `me` and resumes work-item `next`; returns when someone
  // switches back to `me`. The switched-to side stores `me`'s context.
  void hop(int me, int next) {
    cur_ = next;
    // The ring visits stacks in order: fetch the one after `next` (its saved
    // registers and the frames above them) while `next` runs.
    const int after = next + 1 == n_ ? 0 : next + 1;
    const char* sp = static_cast<const char*>(ctx_[after]);
    __builtin_prefetch(sp);
    __builtin_prefetch(sp + 64);
    __builtin_prefetch(sp + 128);
    ctx_switch::switch_context(&ctx_[me], ctx_[next]);
  }

  // Fiber k's whole life: run work-item k of each tile that needs it.
  [[noreturn]] static void fiber_main() {
    tile_run* const self = current_run; // the thread's run, which just switched here
    const int k = self->cur_;
    for (;;) self->loop_(self, k);
  }

  // Runs work-item k of successive tiles while they belong to kernels of type
  // Body. Parking here, rather than returning to fiber_main first, means the
  // next tile starts and this one ends without returns from frames the switch
  // left behind, which the return predictor would get wrong.
  template <class Body> static void fiber_loop(tile_run* self, int k) {
    do {
      self->state_[k] = running;
      // Exceptions cannot cross a context switch: an error is stored and the
      // ring stops at work-item 0, which rethrows it.
      try {
        (*static_cast<const Body*>(self->body_))(k);
      } catch (const unwind_request&) {
      } catch (...) {
        self->store_error();
      }
      self->state_[k] = done;
      ++self->finished_;
      const bool stop = self->failed_ | self->unwinding_;
      self->hop(k, stop || k + 1 == self->n_ ? 0 : k + 1);
    } while (self->loop_ == &fiber_loop<Body>);
  }

  void store_error() noexcept {
    if (!unwinding_ && !failed_) {
      error_ = std::current_exception();
      failed_ = true;
    }
  }

  void start_fibers() {
    if (!ctx_) {
      ctx_.reset(new void*[max_items]());
      state_.reset(new unsigned char[max_items]);
      stack_low_.reset(new void*[max_items]());
    }
    while (fibers_ < n_ - 1) add_fiber();
    for (int k = 1; k < n_; ++k) state_[k] = idle;
    finished_ = 0;
    fiber_mode_ = true;
  }

  std::size_t color_span() const { return 64 * 64; }
  std::size_t mapping_size() const { return page_ + usable_ + color_span(); }

  void add_fiber() {
    const int k = fibers_ + 1;
    void* low = ::mmap(nullptr, mapping_size(), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
                       -1, 0);
    if (low == MAP_FAILED) throw out_of_memory("cannot map a fiber stack for a host tile");
    // Guard page: an overflow faults instead of corrupting the next stack.
    if (::mprotect(low, page_, PROT_NONE) != 0) {
      ::munmap(low, mapping_size());
      throw out_of_memory("cannot protect a fiber stack's guard page (vm.max_map_count too low?)");
    }
    // Stack tops are staggered by k cache lines: with every top at the same
    // page offset, the hot frames of all fibers would fall into the same cache
    // sets and evict each other during a round.
    char* top = static_cast<char*>(low) + mapping_size() - (k % 64) * 64;
    stack_low_[k] = low;
#if AMP_FIBER_FCONTEXT
    ctx_[k] = ctx_switch::make_context<&fiber_main>(top, usable_);
#else
    ctx_[k] = ctx_switch::make_context(top, usable_, &fiber_main);
#endif
    fibers_ = k;
  }

  // Work-item 0 has returned: let the others finish.
  void last_round() {
    hop(0, 1);
    if (failed_ || finished_ != n_ - 1) round_failed(true);
  }

  // After a round: a work-item failed, or the work-items disagree about the
  // barrier (item0_returned: work-item 0 returned, so all must have returned).
  [[noreturn]] void round_failed(bool item0_returned) {
    if (failed_) {
      std::exception_ptr e = std::move(error_);
      error_ = nullptr;
      failed_ = false;
      std::rethrow_exception(e);
    }
    for (int k = 1; k < n_; ++k) {
      if (item0_returned && state_[k] == running)
        diverge(k, "waits at a barrier that work-item 0 of the tile returned without reaching");
      if (!item0_returned && state_[k] == done)
        diverge(k, "returned while work-item 0 of the tile waits at a barrier");
    }
    throw runtime_exception("tile_barrier::wait: inconsistent tile state", e_unexpected);
  }

  // Unwinds every work-item suspended at a barrier; runs on work-item 0 while
  // the tile's exception propagates. Each one throws unwind_request from its
  // barrier, finishes, and switches back here.
  void unwind() noexcept {
    unwinding_ = true;
    for (int k = 1; k < n_; ++k)
      if (state_[k] == running) hop(0, k);
    unwinding_ = false;
    fiber_mode_ = false;
    failed_ = false;
    error_ = nullptr;
  }

  [[noreturn]] void diverge(int item, const char* what) {
    std::string m = "tile_barrier::wait: divergent barrier in " + describe_(where_, item) + " " + what +
                    ". Every work-item of a tile must reach each barrier.";
    throw runtime_exception(m.c_str(), e_fail);
  }

  // Touched at every barrier.
  int n_ = 0;
  int cur_ = 0;               // the work-item running now (fiber mode)
  bool fiber_mode_ = false;   // work-items 1.. run on fibers in this tile
  bool in_first_ = false;     // work-item 0 runs, not in fiber mode yet
  bool unwinding_ = false;
  bool failed_ = false;       // error_ holds a work-item's exception
  int finished_ = 0;          // fibers that returned in this tile
  std::unique_ptr<void*[]> ctx_;           // [k]: suspended context of work-item k
  std::unique_ptr<unsigned char[]> state_;  // [k]: state_t of work-item k
  // Per tile.
  const void* body_ = nullptr;
  void (*loop_)(tile_run*, int) = nullptr;
  describe_fn describe_ = nullptr;
  const void* where_ = nullptr;
  std::exception_ptr error_;
  // Per thread.
  int fibers_ = 0; // fibers 1..fibers_ exist
  std::unique_ptr<void*[]> stack_low_;
  std::size_t page_ = 0, usable_ = 0;
};

[[noreturn, gnu::noinline, gnu::cold]] inline void barrier_outside_tile() {
  throw runtime_exception("tile_barrier::wait called outside a tiled parallel_for_each", e_fail);
}

// Declared in kernel.h (host passes), target::tile_barrier's.
inline void barrier_wait() {
  tile_run* r = current_run;
  if (__builtin_expect(!r, false)) barrier_outside_tile();
  r->barrier();
}

} // namespace host_tiles

} // namespace detail
} // namespace Concurrency
