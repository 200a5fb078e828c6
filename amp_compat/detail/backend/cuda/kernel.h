// CUDA backend, stage "kernel" (backend.h): the primitives code inside a
// kernel calls on the GPU. Included in the device pass only (../../target.h,
// ../../atomic.h and ../../direct3d.h use them through these names).
#pragma once
#include "../../config.h"
#include "kernel_abort.h"

namespace Concurrency {
namespace detail {

namespace target {
// The tiled model runs a tile as one thread block: the barrier is the block's.
AMP_FN void tile_barrier() { __syncthreads(); }
// tile_static variables are __shared__, visible to the block.
AMP_FN void fence_tile_static() { __threadfence_block(); }

// Direct3D's out-of-range rule in GPU kernels (../../data.h): a zeroed E
// private to the calling thread, which a write past the data goes to and a
// read past it gets. One cell per resident thread: (SM, warp slot on that SM,
// lane) is unique among the threads resident at one time, and a thread uses
// its cell from the reset to the access that follows at once. 256 SMs of 64
// warps (sm_90 and earlier have at most 64 per SM); a larger GPU folds onto
// the same cells, which costs the rule's exactness, never memory safety.
constexpr unsigned discard_cells = 256u * 64u * 32u;
__device__ inline unsigned resident_thread_cell() {
  unsigned sm, warp, lane;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
  asm volatile("mov.u32 %0, %%warpid;" : "=r"(warp));
  asm("mov.u32 %0, %%laneid;" : "=r"(lane));
  return ((sm * 64u + (warp & 63u)) * 32u + lane) % discard_cells;
}
template <class E> struct alignas(E) discard_cell {
  unsigned char bytes[sizeof(E)];
};
template <class E> __device__ discard_cell<E> discard_pool[discard_cells];
template <class E> __device__ E& discarded_element() {
  discard_cell<E>& c = discard_pool<E>[resident_thread_cell()];
  for (unsigned char& b : c.bytes) b = 0;
  return *reinterpret_cast<E*>(c.bytes);
}
} // namespace target

// CUDA's atomic instructions: they work on global and shared memory alike,
// so on array elements and tile_static variables. Native, not Kokkos'
// (../kokkos_atomics.h), because Kokkos' do not compile to the same PTX
// (tests/fidelity/atomics_isa.sh, CTest fidelity.atomics_ptx; bench/
// RESULTS.md, "Backend facilities: Kokkos or native"): Kokkos 3.4.01 makes
// atomic_fetch_xor and the float atomic_exchange compare-exchange loops with
// a system-scope sequentially consistent fence, and Kokkos 4.6.01 (desul)
// emits inline PTX on generic addresses: a run-time isspacep.global test
// and two predicated atomics on device memory, a generic atom instead of
// atom.shared on tile_static. Every other operation of 3.4.01 is the same
// instruction. The GPU timing of both (bench group `facilities`,
// fac-atomic-*) decides whether a difference costs anything.
namespace atomics {
// op(name, CUDA function)
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
