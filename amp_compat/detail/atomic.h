// AMP's atomic functions (atomic_fetch_add/sub/and/or/xor/max/min/inc/dec,
// atomic_exchange, atomic_compare_exchange) for int and unsigned int (and
// atomic_exchange for float), on any location a kernel can address: elements
// of arrays and array_views, tile_static variables.
//
// The target choice is made once, below: CUDA's atomic instructions in the
// device pass (they work on global and shared memory alike); GCC's __atomic
// builtins on the host, where tiles run on several OS threads at once (a
// tile's own work-items are fibers of one thread, so they need the builtins'
// compiler ordering as well). Host operations are sequentially consistent:
// an exchange-based lock in user code stays correct without extra fences.
#pragma once
#include "config.h"

namespace Concurrency {
namespace detail {
namespace atomics {

#if AMP_DEVICE_PASS
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
#else
constexpr int order = __ATOMIC_SEQ_CST;
#define AMP_ATOMIC_RMW(X) X(add) X(sub) X(and) X(or) X(xor)
#define AMP_ATOMIC_HOST(op)                                                               \
  template <class T> inline T fetch_##op(T* p, T v) { return __atomic_fetch_##op(p, v, order); }
AMP_ATOMIC_RMW(AMP_ATOMIC_HOST)
#undef AMP_ATOMIC_HOST
#undef AMP_ATOMIC_RMW
template <class T> inline T exchange(T* p, T v) {
  T old;
  __atomic_exchange(p, &v, &old, order);
  return old;
}
// Returns the value found (equal to `expected` iff the store happened).
template <class T> inline T compare_exchange(T* p, T expected, T v) {
  __atomic_compare_exchange_n(p, &expected, v, false, order, order);
  return expected;
}
// GCC 12 has no __atomic_fetch_max/min: a compare-exchange loop, which stores
// only when the value changes.
template <class T, class Better> inline T fetch_extremum(T* p, T v, Better better) {
  T cur = __atomic_load_n(p, order);
  while (better(v, cur) && !__atomic_compare_exchange_n(p, &cur, v, true, order, order)) {
  }
  return cur;
}
template <class T> inline T fetch_max(T* p, T v) {
  return fetch_extremum(p, v, [](T a, T b) { return a > b; });
}
template <class T> inline T fetch_min(T* p, T v) {
  return fetch_extremum(p, v, [](T a, T b) { return a < b; });
}
#endif

} // namespace atomics
} // namespace detail

// ---- the AMP functions, int and unsigned int alike.
#define AMP_ATOMIC_OPS(X) X(add) X(sub) X(and) X(or) X(xor) X(max) X(min)
#define AMP_ATOMIC_PUBLIC(op)                                                                                  \
  AMP_FN int atomic_fetch_##op(int* dest, int value) { return detail::atomics::fetch_##op(dest, value); }      \
  AMP_FN unsigned int atomic_fetch_##op(unsigned int* dest, unsigned int value) {                              \
    return detail::atomics::fetch_##op(dest, value);                                                           \
  }
AMP_ATOMIC_OPS(AMP_ATOMIC_PUBLIC)
#undef AMP_ATOMIC_PUBLIC
#undef AMP_ATOMIC_OPS

// inc/dec: old value returned; wraps around like add/sub of 1.
AMP_FN int atomic_fetch_inc(int* dest) { return detail::atomics::fetch_add(dest, 1); }
AMP_FN unsigned int atomic_fetch_inc(unsigned int* dest) { return detail::atomics::fetch_add(dest, 1u); }
AMP_FN int atomic_fetch_dec(int* dest) { return detail::atomics::fetch_sub(dest, 1); }
AMP_FN unsigned int atomic_fetch_dec(unsigned int* dest) { return detail::atomics::fetch_sub(dest, 1u); }

AMP_FN int atomic_exchange(int* dest, int value) { return detail::atomics::exchange(dest, value); }
AMP_FN unsigned int atomic_exchange(unsigned int* dest, unsigned int value) {
  return detail::atomics::exchange(dest, value);
}
AMP_FN float atomic_exchange(float* dest, float value) { return detail::atomics::exchange(dest, value); }

// Stores `value` if *dest equals *expected and returns true; otherwise writes
// the value found into *expected and returns false.
#define AMP_ATOMIC_CAS(T)                                                            \
  AMP_FN bool atomic_compare_exchange(T* dest, T* expected, T value) {               \
    const T want = *expected;                                                        \
    const T found = detail::atomics::compare_exchange(dest, want, value);           \
    *expected = found;                                                               \
    return found == want;                                                            \
  }
AMP_ATOMIC_CAS(int)
AMP_ATOMIC_CAS(unsigned int)
#undef AMP_ATOMIC_CAS

} // namespace Concurrency
