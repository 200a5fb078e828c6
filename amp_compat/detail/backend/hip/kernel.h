// HIP backend, stage "kernel" (backend.h): the primitives code inside a kernel
// calls on an AMD GPU. Included in the device pass only (../../target.h,
// ../../atomic.h and ../../direct3d.h use them through these names).
#pragma once
#include "../../config.h"
#include "kernel_abort.h"
// The atomics are Kokkos' (../kokkos_atomics.h): with Kokkos 4.6.01 they
// compile to exactly the code of HIP's atomicAdd ... (global_atomic_* on
// device memory, ds_*_rtn_* on tile_static; whole function bodies alike:
// tests/fidelity/atomics_isa.sh, CTest fidelity.atomics_amdgcn).
#include "../kokkos_atomics.h"

namespace Concurrency {
namespace detail {

namespace target {
// The tiled model runs a tile as one workgroup: the barrier is the group's
// (s_barrier, with the LDS and global accesses before it completed).
AMP_FN void tile_barrier() { __syncthreads(); }
// tile_static variables are __shared__ (LDS), visible to the workgroup.
AMP_FN void fence_tile_static() { __threadfence_block(); }

// Direct3D's out-of-range rule in GPU kernels (../../data.h): a zeroed E
// private to the calling thread, which a write past the data goes to and a
// read past it gets. One cell per resident thread: (compute unit, SIMD, wave
// slot on that SIMD, lane) is unique among the threads resident at one time
// (HW_ID register bits 0-3 wave slot, 4-5 SIMD; __smid() the compute unit).
// 256 compute units of 4 SIMDs of 16 wave slots of 64 lanes; a larger GPU
// folds onto the same cells (exactness lost, never memory safety). Compiled
// in CI, never run: no AMD GPU is reachable (README.md, "AMD GPUs (HIP)").
constexpr unsigned discard_cells = 256u * 64u * 64u;
__device__ inline unsigned resident_thread_cell() {
  // s_getreg_b32 HW_ID (register 4), offset 0, 6 bits.
  const unsigned slot = __builtin_amdgcn_s_getreg(4 | (0 << 6) | ((6 - 1) << 11)) & 63u;
  return ((static_cast<unsigned>(__smid()) * 64u + slot) * 64u + __lane_id() % 64u) % discard_cells;
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

} // namespace detail
} // namespace Concurrency
