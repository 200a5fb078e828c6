// HIP backend, stage "kernel" (backend.h): the primitives code inside a kernel
// calls on an AMD GPU. Included in the device pass only (../../target.h,
// ../../atomic.h and ../../direct3d.h use them through these names).
#pragma once
#include "../../config.h"
#include "kernel_abort.h"

namespace Concurrency {
namespace detail {

namespace target {
// The tiled model runs a tile as one workgroup: the barrier is the group's
// (s_barrier, with the LDS and global accesses before it completed).
AMP_FN void tile_barrier() { __syncthreads(); }
// tile_static variables are __shared__ (LDS), visible to the workgroup.
AMP_FN void fence_tile_static() { __threadfence_block(); }
} // namespace target

// HIP's atomic functions (the same names and semantics as CUDA's): they work
// on global memory and the LDS alike, so on array elements and tile_static
// variables.
namespace atomics {
// op(name, HIP function)
#define AMP_ATOMIC_RMW(X) \
  X(add, atomicAdd) X(sub, atomicSub) X(and, atomicAnd) X(or, atomicOr) X(xor, atomicXor) X(max, atomicMax) X(min, atomicMin)
#define AMP_ATOMIC_DEVICE(op, fn)                                                   \
  __device__ inline int fetch_##op(int* p, int v) { return fn(p, v); }              \
  __device__ inline unsigned fetch_##op(unsigned* p, unsigned v) { return fn(p, v); }
AMP_ATOMIC_RMW(AMP_ATOMIC_DEVICE)
#undef AMP_ATOMIC_DEVICE
#undef AMP_ATOMIC_RMW
template <class T> __device__ inline T exchange(T* p, T v) { return atomicExch(p, v); }
template <class T> __device__ inline T compare_exchange(T* p, T expected, T v) { return atomicCAS(p, expected, v); }
} // namespace atomics

} // namespace detail
} // namespace Concurrency
