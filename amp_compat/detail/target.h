// Kernel-side primitives whose implementation differs between the GPU and the
// host: the one place that chooses. Everything that runs inside a kernel calls
// these instead of testing the compilation pass itself. The primitives are the
// backend's (backend/backend.h, stage "kernel"): the device backend's in the
// device pass, the host backend's in every host pass.
#pragma once
#include "config.h"

#if AMP_DEVICE_PASS
#include "backend/device_kernel.h"
#else
#include "backend/host/kernel.h"
#endif

namespace Concurrency {
namespace detail {
namespace target {
#if !AMP_DEVICE_PASS
// True on a host thread while it runs a kernel's work-items (set by the host
// launcher through amp_context_scope); selects the restrict(amp) version of a
// restrict(cpu)/restrict(amp) pair (AMP_RESTRICT_PAIR below).
// in_amp_context(): the same question in either pass (true on the GPU).
inline thread_local bool host_in_kernel = false;
struct amp_context_scope {
  bool saved = host_in_kernel;
  amp_context_scope() { host_in_kernel = true; }
  ~amp_context_scope() { host_in_kernel = saved; }
  amp_context_scope(const amp_context_scope&) = delete;
  amp_context_scope& operator=(const amp_context_scope&) = delete;
};
inline bool in_amp_context() { return host_in_kernel; }
#else
// The device pass also parses the host launchers' (host-only) lambdas, which
// name this scope; there is no host thread to mark on the GPU.
struct amp_context_scope {};
AMP_FN constexpr bool in_amp_context() { return true; }
#endif

// tile_barrier() and fence_tile_static() come from the backend (above);
// the device-wide fence is Kokkos' on every backend (the same instruction the
// backends would issue: __threadfence() on a GPU, a full fence on the host).
AMP_FN void fence_global() { Kokkos::memory_fence(); }
} // namespace target
} // namespace detail
} // namespace Concurrency

// The body of the restrict(cpu, amp) function that scripts/amp_driver/passes/restrict_pairs.py
// makes of a restrict(cpu)/restrict(amp) overload pair: GPU code calls the amp
// version; host code calls it inside kernels (host accelerators) and the cpu
// version elsewhere. The cpu call is not even named in the device pass, so a
// __host__-only cpu version is never referenced from device code.
// AMP_RESTRICT_IN_AMP: the same choice as an expression, for the constructor
// the rewrite merges from a restrict(cpu)/restrict(amp) constructor pair (its
// device pass compiles the amp constructor alone).
// In the restrict(amp) check pass (tools/amp_check) both name
// amp_check_pair(), which tells the checker that the function is such a
// generated dispatcher: its body calls a cpu and an amp function on purpose.
#if AMP_DEVICE_PASS
#define AMP_RESTRICT_IN_AMP true
#define AMP_RESTRICT_PAIR(cpu_call, amp_call) return amp_call;
#elif AMP_CHECK_PASS
#define AMP_RESTRICT_IN_AMP                                                                          \
  (::Concurrency::detail::target::amp_check_pair(), ::Concurrency::detail::target::host_in_kernel)
#define AMP_RESTRICT_PAIR(cpu_call, amp_call)                                                        \
  ::Concurrency::detail::target::amp_check_pair();                                                  \
  if (::Concurrency::detail::target::host_in_kernel) return amp_call;                               \
  return cpu_call;
#else
#define AMP_RESTRICT_IN_AMP (::Concurrency::detail::target::host_in_kernel)
#define AMP_RESTRICT_PAIR(cpu_call, amp_call)                                                        \
  if (::Concurrency::detail::target::host_in_kernel) return amp_call;                               \
  return cpu_call;
#endif

namespace Concurrency {
namespace detail {
namespace target {
#if AMP_CHECK_PASS
inline bool amp_check_pair() AMP_HD { return true; }
#endif
} // namespace target
} // namespace detail
} // namespace Concurrency
