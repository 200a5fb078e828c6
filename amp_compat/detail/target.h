// Kernel-side primitives whose implementation differs between the GPU and the
// host: the one place that chooses. Everything that runs inside a kernel calls
// these instead of testing the compilation pass itself.
#pragma once
#include "config.h"

#include <atomic>

namespace Concurrency {
namespace detail {
namespace host_tiles {
// Suspends the calling work-item until every work-item of its tile has arrived
// (defined in fiber.h). Throws runtime_exception on divergent barriers.
void barrier_wait();
} // namespace host_tiles

namespace target {
#if AMP_DEVICE_PASS
AMP_FN void tile_barrier() { __syncthreads(); }
AMP_FN void fence_tile_static() { __threadfence_block(); }
AMP_FN void fence_global() { __threadfence(); }
#else
inline void tile_barrier() { host_tiles::barrier_wait(); }
// A host tile runs on one OS thread, so ordering against the compiler is all
// a fence has to guarantee between its work-items.
inline void fence_tile_static() { std::atomic_signal_fence(std::memory_order_seq_cst); }
inline void fence_global() { std::atomic_thread_fence(std::memory_order_seq_cst); }
#endif
} // namespace target
} // namespace detail
} // namespace Concurrency
