// AMP's atomic functions (atomic_fetch_add/sub/and/or/xor/max/min/inc/dec,
// atomic_exchange, atomic_compare_exchange) for int and unsigned int (and
// atomic_exchange for float), on any location a kernel can address: elements
// of arrays and array_views, tile_static variables.
//
// The operations themselves are the backend's (backend/backend.h, stage
// "kernel"): target.h includes the device backend's in the device pass and
// the host backend's otherwise.
#pragma once
#include "checked.h"
#include "target.h"

namespace Concurrency {
namespace detail {
// Checked builds (checked.h): an atomic function's tile_static operand is
// exempt from the race checks for the running work-item.
template <class T> AMP_FN void note_atomic(T* dest) {
  if constexpr (checked::on) checked::atomic_access(dest);
}
} // namespace detail

// ---- the AMP functions, int and unsigned int alike.
#define AMP_ATOMIC_OPS(X) X(add) X(sub) X(and) X(or) X(xor) X(max) X(min)
#define AMP_ATOMIC_PUBLIC(op)                                                                                  \
  AMP_FN int atomic_fetch_##op(int* dest, int value) {                                                         \
    detail::note_atomic(dest);                                                                                 \
    return detail::atomics::fetch_##op(dest, value);                                                           \
  }                                                                                                            \
  AMP_FN unsigned int atomic_fetch_##op(unsigned int* dest, unsigned int value) {                              \
    detail::note_atomic(dest);                                                                                 \
    return detail::atomics::fetch_##op(dest, value);                                                           \
  }
AMP_ATOMIC_OPS(AMP_ATOMIC_PUBLIC)
#undef AMP_ATOMIC_PUBLIC
#undef AMP_ATOMIC_OPS

// inc/dec: old value returned; wraps around like add/sub of 1.
AMP_FN int atomic_fetch_inc(int* dest) {
  detail::note_atomic(dest);
  return detail::atomics::fetch_add(dest, 1);
}
AMP_FN unsigned int atomic_fetch_inc(unsigned int* dest) {
  detail::note_atomic(dest);
  return detail::atomics::fetch_add(dest, 1u);
}
AMP_FN int atomic_fetch_dec(int* dest) {
  detail::note_atomic(dest);
  return detail::atomics::fetch_sub(dest, 1);
}
AMP_FN unsigned int atomic_fetch_dec(unsigned int* dest) {
  detail::note_atomic(dest);
  return detail::atomics::fetch_sub(dest, 1u);
}

AMP_FN int atomic_exchange(int* dest, int value) {
  detail::note_atomic(dest);
  return detail::atomics::exchange(dest, value);
}
AMP_FN unsigned int atomic_exchange(unsigned int* dest, unsigned int value) {
  detail::note_atomic(dest);
  return detail::atomics::exchange(dest, value);
}
AMP_FN float atomic_exchange(float* dest, float value) {
  detail::note_atomic(dest);
  return detail::atomics::exchange(dest, value);
}

// Stores `value` if *dest equals *expected and returns true; otherwise writes
// the value found into *expected and returns false.
#define AMP_ATOMIC_CAS(T)                                                            \
  AMP_FN bool atomic_compare_exchange(T* dest, T* expected, T value) {               \
    detail::note_atomic(dest);                                                       \
    const T want = *expected;                                                        \
    const T found = detail::atomics::compare_exchange(dest, want, value);           \
    *expected = found;                                                               \
    return found == want;                                                            \
  }
AMP_ATOMIC_CAS(int)
AMP_ATOMIC_CAS(unsigned int)
#undef AMP_ATOMIC_CAS

} // namespace Concurrency
