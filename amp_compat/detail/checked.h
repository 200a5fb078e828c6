// Checked builds (AMP_CHECKED=1, `./amp c++ --checked`): on the host
// accelerators, out-of-range element accesses of arrays and array_views and
// writes past the end (or before the start) of tile_static arrays are reported
// as a runtime_exception naming the kernel, the tile and the work-item, as
// Microsoft's REF accelerator and the GPU debugger did; what an NVIDIA GPU
// shows only under compute-sanitizer, or as a fault, and AMD's drops silently.
//
// Compile-time opt-in, like a sanitizer: the checks sit in the element access
// of every array and view (bench/RESULTS.md: up to 2.9x in kernels that index
// in their inner loops), so an ordinary build has none of it (every `if
// constexpr (checked::on)` is discarded). A checked build also keeps every host
// tile on fibers (the tile compiler is off), so that each work-item runs the
// checks.
//
// tile_static arrays are plain C arrays; in a checked build the compiler
// launcher (scripts/amp_driver/passes/checked.py)
// declares each one as guarded_tile_static<T[N]>: guard zones before and after
// the array, filled with a pattern, registered with the thread (tile_static is
// thread_local on the host: one tile runs on one thread at a time). The zones
// are verified after each work-item's part of a tile: at each barrier (the
// work-item reaching it) and at its end, so the report names the work-item
// whose writes went out of range. The zone after an array is as large as the
// array (at most guard_max bytes), so an overrun by up to the array's size
// (Bolt's scan: `lds[locId + wgSize/2]` in an array of wgSize) lands in it
// whole and damages nothing else. Out-of-range reads of tile_static arrays are
// not detected; races between barriers show only as results that change with
// AMP_CHECKED_ORDER (below).
#pragma once
#include "config.h"
#include "exceptions.h"

#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace Concurrency {
namespace detail {
namespace checked {
#if defined(AMP_CHECKED) && AMP_CHECKED && !AMP_DEVICE_PASS
constexpr bool on = true;
#else
constexpr bool on = false;
#endif

// The work-item running on this thread (host launches of a checked build).
struct site {
  const std::string* kernel = nullptr; // kernel_name<F>::get(model)
  int rank = 0;
  bool tiled = false;
  int global[3] = {0, 0, 0}, tile[3] = {0, 0, 0}, local[3] = {0, 0, 0};
};
inline thread_local site current;

// AMP_CHECKED_ORDER=reverse: a tile's work-items run in the reverse order
// (the last local index first) between barriers. A kernel whose results
// change with it depends on the order of its work-items between barriers: a
// race (AMP promises no order; a GPU runs them in parallel). Compare a
// program's output under both orders.
inline bool reversed() {
  static const bool r = [] {
    const char* e = std::getenv("AMP_CHECKED_ORDER");
    return e && std::string(e) == "reverse";
  }();
  return r;
}
inline int ordered(int item, int n) { return reversed() ? n - 1 - item : item; }

inline std::string ints(const int* v, int rank) {
  std::string s = "(";
  for (int d = 0; d < rank; ++d) s += (d ? "," : "") + std::to_string(v[d]);
  return s + ")";
}

// "in kernel K, tile (..), local index (..), work-item (..)"
inline std::string where() {
  const site& c = current;
  if (!c.kernel) return "(work-item unknown: on the host outside a kernel, or in a simple kernel on the portable path)";
  std::string s = "in kernel " + *c.kernel + ", ";
  if (c.tiled) s += "tile " + ints(c.tile, c.rank) + ", local index " + ints(c.local, c.rank) + ", ";
  return s + "work-item " + ints(c.global, c.rank);
}

template <class I> AMP_HOST_ONLY void enter(const std::string& kernel, const I& global) {
  current.kernel = &kernel;
  current.rank = I::rank;
  current.tiled = false;
  for (int d = 0; d < I::rank; ++d) current.global[d] = global[d];
}
template <class T> AMP_HOST_ONLY void enter_tiled(const std::string& kernel, const T& t) {
  enter(kernel, t.global);
  current.tiled = true;
  for (int d = 0; d < T::rank; ++d) {
    current.tile[d] = t.tile[d];
    current.local[d] = t.local[d];
  }
}
struct guard_record;
// The running tile's arrays. A function's local, so that an ordinary build,
// which never calls it, has no thread_local to initialise.
inline std::vector<const guard_record*>& active() {
  static thread_local std::vector<const guard_record*> v;
  return v;
}
inline thread_local unsigned epoch = 1; // changes after each tile
// After a tile (or a block of a simple kernel): no work-item runs here.
inline void leave() {
  current.kernel = nullptr;
  active().clear();
  ++epoch;
}

// An element access outside the extent of an array or array_view.
[[noreturn, gnu::noinline, gnu::cold]] inline void out_of_range(const char* what, const int* i, const int* e,
                                                               int rank) {
  std::string m = std::string("checked build: ") + what + " element " + ints(i, rank) + " is outside its extent " +
                  ints(e, rank) + " " + where();
  throw runtime_exception(m.c_str(), e_invalidarg);
}

// ---- tile_static guard zones
constexpr std::size_t guard_min = 64, guard_max = 64 * 1024;
constexpr unsigned char pattern = 0xA5;

struct guard_record {
  unsigned char* before;
  std::size_t before_bytes;
  unsigned char* after;
  std::size_t after_bytes;
  const char* name;
  const char* file;
  int line;
};

inline std::ptrdiff_t damaged(const unsigned char* p, std::size_t n) {
  static constexpr unsigned long long word = 0x0101010101010101ull * pattern;
  std::size_t k = 0;
  for (; k + 8 <= n; k += 8) {
    unsigned long long w;
    std::memcpy(&w, p + k, 8);
    if (w != word) break;
  }
  for (; k < n; ++k)
    if (p[k] != pattern) return static_cast<std::ptrdiff_t>(k);
  return -1;
}

[[noreturn, gnu::noinline, gnu::cold]] inline void guard_report(const guard_record& g, bool after,
                                                               std::ptrdiff_t at, const char* when) {
  std::string m = "checked build: tile_static array `" + std::string(g.name) + "` (" + g.file + ":" +
                  std::to_string(g.line) + ") written out of range (" +
                  (after ? "byte " + std::to_string(at) + " past its end"
                         : "byte " + std::to_string(static_cast<std::ptrdiff_t>(g.before_bytes) - at) + " before its start") +
                  ")" +
                  " " + where() + ", " + when;
  // The zones are refilled, so that the next check reports the next damage.
  std::memset(g.before, pattern, g.before_bytes);
  std::memset(g.after, pattern, g.after_bytes);
  throw runtime_exception(m.c_str(), e_invalidarg);
}

// Verifies the guard zones of the tile_static arrays the running tile has
// declared; `when` says where (e.g. "before its barrier").
inline void verify(const char* when) {
  for (const guard_record* p : active()) {
    const guard_record& g = *p;
    std::ptrdiff_t k = damaged(g.after, g.after_bytes);
    if (k >= 0) guard_report(g, true, k, when);
    k = damaged(g.before, g.before_bytes);
    if (k >= 0) guard_report(g, false, k, when);
  }
}

constexpr std::size_t after_bytes(std::size_t n) {
  const std::size_t r = (n + guard_min - 1) / guard_min * guard_min;
  return r < guard_min ? guard_min : r > guard_max ? guard_max : r;
}
} // namespace checked

// A tile_static array of a checked build (see above): `value` between two
// guard zones. Like tile_static storage on a GPU, no constructor of T runs
// (AMP runs none for tile_static variables). The launcher names the array
// through use(), which enrols it among the running tile's arrays (once per
// tile), so that the checks cover the arrays of the running kernel only.
template <class T> struct guarded_tile_static {
  alignas(64) unsigned char before[checked::guard_min];
  union {
    T value;
  };
  unsigned char after[checked::after_bytes(sizeof(T))];
  checked::guard_record record;
  unsigned epoch = 0;

  guarded_tile_static(const char* name, const char* file, int line)
      : record{before, sizeof before, after, sizeof after, name, file, line} {
    std::memset(before, checked::pattern, sizeof before);
    std::memset(after, checked::pattern, sizeof after);
  }
  ~guarded_tile_static() {}
  guarded_tile_static(const guarded_tile_static&) = delete;

  T& use() {
    if (epoch != checked::epoch) {
      epoch = checked::epoch;
      checked::active().push_back(&record);
    }
    return value;
  }
};
} // namespace detail
} // namespace Concurrency
