// Kernel-side primitives whose implementation differs between the GPU and the
// host: the one place that chooses. Everything that runs inside a kernel calls
// these instead of testing the compilation pass itself. The primitives are the
// backend's (backend/backend.h, stage "kernel"): the device backend's in the
// device pass, the host backend's in every host pass.
#pragma once
#include "config.h"
#include "restrict_pair.h"

#if AMP_DEVICE_PASS
#include "backend/device_kernel.h"
#else
#include "backend/host/kernel.h"
#endif

namespace Concurrency {
namespace detail {
namespace target {
#if !AMP_DEVICE_PASS
// host_in_kernel (restrict_pair.h): true on a host thread while it runs a
// kernel's work-items, set through amp_context_scope; selects the
// restrict(amp) version of a restrict(cpu)/restrict(amp) pair.
// in_amp_context(): the same question in either pass (true on the GPU).
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

