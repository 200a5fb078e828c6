// The atomics of the GPU builds, three ways, for tests/fidelity/atomics_isa.sh
// to compare in the device code (CUDA: PTX, atomics_ptx.py; HIP: AMDGCN
// assembly, atomics_amdgcn.py; compiled only, never run, no GPU needed):
//   native_<space>_<op>_<type>   the GPU language's intrinsic (atomicAdd ...:
//                                CUDA's, or HIP's of the same names), the
//                                instruction a hand-written backend would use
//   kokkos_<space>_<op>_<type>   Kokkos' function (Kokkos::atomic_fetch_add ...)
//                                of the Kokkos this build uses
//   amp_<space>_<op>_<type>      AMP's function (concurrency::atomic_fetch_add
//                                ...) as amp_compat implements it
// <space> is global (an element of device memory: a kernel's pointer
// argument) or shared (a __shared__ variable: AMP's tile_static). Every
// kernel keeps the value the operation returns (AMP returns the old value),
// and the add/sub/or kernels also exist with the value dropped (`_drop`:
// `atomic_fetch_add(&x, 1);` as a statement), where the compiler may take
// the cheaper red.* (no return) form.
//
// Plain kernels (extern "C" __global__), not parallel_for_each: each
// operation gets an entry of its own with nothing else in it, so the checkers
// can compare the entries instruction by instruction.
#include <amp.h>

#if defined(__CUDA__) || defined(__HIP__)
#define AMP_PTX_KERNEL extern "C" __global__ void

namespace {
// AMP's atomics take int* / unsigned*; exchange also float*.
__device__ inline int amp_cas(int* p, int expected, int desired) {
  int e = expected;
  concurrency::atomic_compare_exchange(p, &e, desired);
  return e; // the value found (AMP writes it back into *expected)
}
__device__ inline unsigned amp_cas(unsigned* p, unsigned expected, unsigned desired) {
  unsigned e = expected;
  concurrency::atomic_compare_exchange(p, &e, desired);
  return e;
}
} // namespace

// One operation, value kept: (op, CUDA intrinsic, Kokkos function, AMP function).
#define AMP_PTX_RMW(X)                                                            \
  X(add, atomicAdd, atomic_fetch_add, atomic_fetch_add)                           \
  X(sub, atomicSub, atomic_fetch_sub, atomic_fetch_sub)                           \
  X(and, atomicAnd, atomic_fetch_and, atomic_fetch_and)                           \
  X(or, atomicOr, atomic_fetch_or, atomic_fetch_or)                               \
  X(xor, atomicXor, atomic_fetch_xor, atomic_fetch_xor)                           \
  X(max, atomicMax, atomic_fetch_max, atomic_fetch_max)                           \
  X(min, atomicMin, atomic_fetch_min, atomic_fetch_min)                           \
  X(exch, atomicExch, atomic_exchange, atomic_exchange)

#define AMP_PTX_KERNELS(T, tn, op, native, kokkos, amp)                                             \
  AMP_PTX_KERNEL native_global_##op##_##tn(T* p, T v, T* out) { out[threadIdx.x] = native(p, v); } \
  AMP_PTX_KERNEL kokkos_global_##op##_##tn(T* p, T v, T* out) {                                   \
    out[threadIdx.x] = Kokkos::kokkos(p, v);                                                       \
  }                                                                                                 \
  AMP_PTX_KERNEL amp_global_##op##_##tn(T* p, T v, T* out) {                                      \
    out[threadIdx.x] = concurrency::amp(p, v);                                                     \
  }                                                                                                 \
  AMP_PTX_KERNEL native_shared_##op##_##tn(T v, T* out) {                                         \
    __shared__ T s;                                                                                 \
    if (threadIdx.x == 0) s = v;                                                                    \
    __syncthreads();                                                                                \
    out[threadIdx.x] = native(&s, v);                                                               \
  }                                                                                                 \
  AMP_PTX_KERNEL kokkos_shared_##op##_##tn(T v, T* out) {                                         \
    __shared__ T s;                                                                                 \
    if (threadIdx.x == 0) s = v;                                                                    \
    __syncthreads();                                                                                \
    out[threadIdx.x] = Kokkos::kokkos(&s, v);                                                      \
  }                                                                                                 \
  AMP_PTX_KERNEL amp_shared_##op##_##tn(T v, T* out) {                                            \
    __shared__ T s;                                                                                 \
    if (threadIdx.x == 0) s = v;                                                                    \
    __syncthreads();                                                                                \
    out[threadIdx.x] = concurrency::amp(&s, v);                                                    \
  }
#define AMP_PTX_INT(op, native, kokkos, amp) AMP_PTX_KERNELS(int, int, op, native, kokkos, amp)
#define AMP_PTX_UINT(op, native, kokkos, amp) AMP_PTX_KERNELS(unsigned, uint, op, native, kokkos, amp)
AMP_PTX_RMW(AMP_PTX_INT)
AMP_PTX_RMW(AMP_PTX_UINT)
AMP_PTX_KERNELS(float, float, exch, atomicExch, atomic_exchange, atomic_exchange)

// Compare-exchange: the value found is kept.
#define AMP_PTX_CAS(T, tn)                                                                    \
  AMP_PTX_KERNEL native_global_cas_##tn(T* p, T e, T v, T* out) {                            \
    out[threadIdx.x] = atomicCAS(p, e, v);                                                    \
  }                                                                                           \
  AMP_PTX_KERNEL kokkos_global_cas_##tn(T* p, T e, T v, T* out) {                            \
    out[threadIdx.x] = Kokkos::atomic_compare_exchange(p, e, v);                              \
  }                                                                                           \
  AMP_PTX_KERNEL amp_global_cas_##tn(T* p, T e, T v, T* out) { out[threadIdx.x] = amp_cas(p, e, v); } \
  AMP_PTX_KERNEL native_shared_cas_##tn(T e, T v, T* out) {                                  \
    __shared__ T s;                                                                           \
    if (threadIdx.x == 0) s = e;                                                              \
    __syncthreads();                                                                          \
    out[threadIdx.x] = atomicCAS(&s, e, v);                                                   \
  }                                                                                           \
  AMP_PTX_KERNEL kokkos_shared_cas_##tn(T e, T v, T* out) {                                  \
    __shared__ T s;                                                                           \
    if (threadIdx.x == 0) s = e;                                                              \
    __syncthreads();                                                                          \
    out[threadIdx.x] = Kokkos::atomic_compare_exchange(&s, e, v);                             \
  }                                                                                           \
  AMP_PTX_KERNEL amp_shared_cas_##tn(T e, T v, T* out) {                                     \
    __shared__ T s;                                                                           \
    if (threadIdx.x == 0) s = e;                                                              \
    __syncthreads();                                                                          \
    out[threadIdx.x] = amp_cas(&s, e, v);                                                     \
  }
AMP_PTX_CAS(int, int)
AMP_PTX_CAS(unsigned, uint)

// The value dropped (a statement): add (also AMP's atomic_fetch_inc), sub, or.
#define AMP_PTX_DROP(op, native, kokkos, amp)                                                   \
  AMP_PTX_KERNEL native_global_##op##_drop(int* p, int v) { native(p, v); }                    \
  AMP_PTX_KERNEL kokkos_global_##op##_drop(int* p, int v) { Kokkos::kokkos(p, v); }            \
  AMP_PTX_KERNEL amp_global_##op##_drop(int* p, int v) { concurrency::amp(p, v); }
AMP_PTX_DROP(add, atomicAdd, atomic_fetch_add, atomic_fetch_add)
AMP_PTX_DROP(sub, atomicSub, atomic_fetch_sub, atomic_fetch_sub)
AMP_PTX_DROP(or, atomicOr, atomic_fetch_or, atomic_fetch_or)
#endif
