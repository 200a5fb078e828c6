// Stage "kernel" (backend.h), the atomics part, over Kokkos' atomic functions
// (Kokkos::atomic_fetch_add ...): for a device backend whose Kokkos gives
// exactly the code of the backend's own intrinsics, so that Kokkos is used
// wherever it costs nothing (issue 23). A backend's kernel.h includes this
// file instead of writing its atomics; it names no backend and is included
// in the device pass only (through that kernel.h).
//
// Which backends: the one whose device code the check
// tests/fidelity/atomics_isa.sh finds identical, entry by entry, for every
// operation, type and memory (device memory and tile_static), with the
// Kokkos that backend builds against (bench/RESULTS.md, "Backend facilities:
// Kokkos or native"). hip/ (Kokkos 4.6.01: the same AMDGCN instructions as
// HIP's atomicAdd ..., whole function bodies alike). Not cuda/: there Kokkos
// 3.4.01 makes xor and float exchange compare-exchange loops and Kokkos
// 4.6.01 uses inline PTX on generic addresses (cuda/kernel.h says more).
//
// Contract (backend.h): fetch_{add,sub,and,or,xor,max,min}(T*, T) -> the old
// value, exchange(T*, T) -> the old value (int, unsigned, float),
// compare_exchange(T*, expected, desired) -> the value found (equal to
// `expected` iff `desired` was stored); int and unsigned, any address a
// kernel can form (device memory, tile_static). Atomic, unordered with other
// memory accesses, as AMP specifies (Kokkos' default: relaxed, device scope).
#pragma once
#include "../config.h"

namespace Concurrency {
namespace detail {
namespace atomics {
// op(name, Kokkos function)
#define AMP_ATOMIC_RMW(X)                                                                                 \
  X(add, atomic_fetch_add) X(sub, atomic_fetch_sub) X(and, atomic_fetch_and) X(or, atomic_fetch_or)      \
  X(xor, atomic_fetch_xor) X(max, atomic_fetch_max) X(min, atomic_fetch_min)
#define AMP_ATOMIC_KOKKOS(op, fn)                                                                         \
  AMP_DEVICE_ONLY inline int fetch_##op(int* p, int v) { return Kokkos::fn(p, v); }                        \
  AMP_DEVICE_ONLY inline unsigned fetch_##op(unsigned* p, unsigned v) { return Kokkos::fn(p, v); }
AMP_ATOMIC_RMW(AMP_ATOMIC_KOKKOS)
#undef AMP_ATOMIC_KOKKOS
#undef AMP_ATOMIC_RMW
AMP_DEVICE_ONLY inline int exchange(int* p, int v) { return Kokkos::atomic_exchange(p, v); }
AMP_DEVICE_ONLY inline unsigned exchange(unsigned* p, unsigned v) { return Kokkos::atomic_exchange(p, v); }
AMP_DEVICE_ONLY inline float exchange(float* p, float v) { return Kokkos::atomic_exchange(p, v); }
AMP_DEVICE_ONLY inline int compare_exchange(int* p, int expected, int v) {
  return Kokkos::atomic_compare_exchange(p, expected, v);
}
AMP_DEVICE_ONLY inline unsigned compare_exchange(unsigned* p, unsigned expected, unsigned v) {
  return Kokkos::atomic_compare_exchange(p, expected, v);
}
} // namespace atomics
} // namespace detail
} // namespace Concurrency
