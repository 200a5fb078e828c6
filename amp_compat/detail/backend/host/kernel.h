// Host backend, stage "kernel" (backend.h): the primitives code inside a
// kernel calls on the host accelerators (and in every host compilation pass).
// A host tile runs all its work-items on one OS thread, as fibers (fiber.h) or
// as a compiled tile (compiled_tiles.h); tiles run on several OS threads at
// once.
#pragma once
#include "../../config.h"

#include <atomic>

namespace Concurrency {
namespace detail {
namespace host_tiles {
// Suspends the calling work-item until every work-item of its tile has arrived
// (defined in fiber.h). Throws runtime_exception on divergent barriers.
void barrier_wait();
} // namespace host_tiles

namespace target {
inline void tile_barrier() { host_tiles::barrier_wait(); }
// A host tile runs on one OS thread, so ordering against the compiler is all
// a fence has to guarantee between its work-items.
inline void fence_tile_static() { std::atomic_signal_fence(std::memory_order_seq_cst); }
} // namespace target

// GCC's __atomic builtins: tiles run on several OS threads at once, and a
// tile's own work-items are fibers of one thread, so they need the builtins'
// compiler ordering as well. Sequentially consistent: an exchange-based lock
// in user code stays correct without extra fences.
namespace atomics {
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
} // namespace atomics

} // namespace detail
} // namespace Concurrency
