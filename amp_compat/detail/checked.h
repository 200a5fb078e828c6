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
// not detected.
//
// Races between barriers (on unless AMP_CHECKED_RACES=0): a tile_static array
// element written by one work-item and read or written by another of the same
// tile with no barrier between. The reference the launcher declares names a
// tracked<T[N]> (same size and address as the array) whose subscript records
// which elements each work-item touches, with the line of its first access,
// and saves their bytes; when the work-item reaches a barrier or its end, an
// element whose bytes changed was written by it, one touched and unchanged was
// read. On the host a tile's work-items run one at a time between barriers, so
// the accesses of one barrier interval are compared work-item by work-item:
// read-after-write, write-after-write and write-after-read between two
// work-items are reported as a runtime_exception naming the kernel, the tile,
// the array, its element, both work-items and their lines. A GPU runs them in
// any order (AMD's 64-wide wavefronts in lockstep, NVIDIA's 32-wide warps
// independently since Volta), so each is a result AMP does not define. A
// store of the value an element already held counts as a read ("read (or
// stored unchanged)"): two such stores are not reported, one after another
// work-item's write is (read-after-write).
// Not seen: accesses through a pointer the array decayed to (passed to a
// function taking T*), tile_static scalars; atomic functions on an element
// make that work-item's accesses to it exempt (atomics do not race).
//
// Reads of elements no work-item of the tile has written (with the race
// checks; AMP_CHECKED_UNINIT=0 turns these reports off): AMP gives tile_static
// storage no initial value, so such a read gives whatever the GPU's shared
// memory or the host thread's previous tile left: results that differ between
// accelerators and runs (AMD Bolt's scans read their last, partial tile's
// unwritten elements). Each tile's arrays are filled with the guard pattern
// when the tile first names them; an element read (touched, left as it was)
// whose bytes are still the pattern was never written in this tile, through
// the array or through a pointer. Reported once the tile's last work-item has
// ended the barrier interval, unless a race is reported first: a read before
// another work-item's write in the same interval is that race.
#pragma once
#include "config.h"
#include "exceptions.h"

#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <type_traits>
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
  int dims[3] = {1, 1, 1}; // the tile's extent
  int item = 0;            // row-major local index
  unsigned phase = 0;      // barriers this work-item has passed in its tile
};
inline thread_local site current;

// AMP_CHECKED_ORDER=reverse: a tile's work-items run in the reverse order
// (the last local index first) between barriers. A kernel whose results
// change with it depends on the order of its work-items between barriers: a
// race (AMP promises no order; a GPU runs them in parallel). Compare a
// program's output under both orders.
// Whether environment variable `var` holds `value` (read on each call:
// callers keep the answer in a static).
inline bool env_is(const char* var, const char* value) {
  const char* e = std::getenv(var);
  return e && std::string(e) == value;
}
inline bool reversed() {
  static const bool r = env_is("AMP_CHECKED_ORDER", "reverse");
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
  current.item = 0;
  current.phase = 0;
  const auto e = t.tile_extent;
  for (int d = 0; d < T::rank; ++d) {
    current.tile[d] = t.tile[d];
    current.local[d] = t.local[d];
    current.dims[d] = e[d];
    current.item = current.item * e[d] + t.local[d];
  }
}
struct guard_record;
void discard_segment();
// The running tile's arrays. A function's local, so that an ordinary build,
// which never calls it, has no thread_local to initialise.
inline std::vector<guard_record*>& active() {
  static thread_local std::vector<guard_record*> v;
  return v;
}
inline thread_local unsigned epoch = 1; // changes after each tile
void forget_uninitialized();
// After a tile (or a block of a simple kernel): no work-item runs here.
inline void leave() {
  discard_segment();
  forget_uninitialized();
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

struct race_cell;
struct guard_record {
  unsigned char* before;
  std::size_t before_bytes;
  unsigned char* after;
  std::size_t after_bytes;
  const char* name;
  const char* file;
  int line;
  // The array's elements (of its innermost type), for the race checks.
  unsigned char* base;
  std::size_t elem_bytes;
  int count;
  int rank;
  int dims[4];
  std::vector<race_cell>* cells; // one per element, allocated at the first access
};

// guard_max bytes of the pattern, to compare a zone with in one memcmp (the
// C library's, vectorised: the zones are compared at every barrier).
inline const unsigned char* pattern_block() {
  static const unsigned char* b = [] {
    unsigned char* p = new unsigned char[guard_max];
    std::memset(p, pattern, guard_max);
    return p;
  }();
  return b;
}

// The offset of the first byte of p[0, n) that is not the pattern, or -1.
inline std::ptrdiff_t damaged(const unsigned char* p, std::size_t n) {
  if (std::memcmp(p, pattern_block(), n) == 0) return -1;
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

// ---- races between barriers (see the top of this file)
inline bool races_on() {
  static const bool r = !env_is("AMP_CHECKED_RACES", "0");
  return r;
}

struct access_site {
  const char* file;
  int line;
};

// What the running barrier interval of a tile did to one element: its last
// writer and up to two readers (row-major local indices, -1: none).
struct race_cell {
  unsigned tile = 0, phase = 0; // the interval the roles describe (epoch, barriers passed)
  unsigned seg = 0;             // the work-item segment that last logged the element
  unsigned atomic_seg = 0;      // a segment that used an atomic function on it
  int writer = -1, reader = -1, reader2 = -1;
  access_site wrote{}, read{}, read2{};
};

// The elements the running work-item has touched since its last barrier, and
// their bytes when first touched.
struct logged {
  guard_record* g;
  long long e;
  std::size_t off;
  access_site at;
};
inline std::vector<logged>& seg_log() {
  static thread_local std::vector<logged> v;
  return v;
}
inline std::vector<unsigned char>& seg_bytes() {
  static thread_local std::vector<unsigned char> v;
  return v;
}
inline thread_local unsigned segment = 1; // a work-item's run between two barriers

inline race_cell& cell(guard_record& g, long long e) {
  if (g.cells->empty()) g.cells->resize(static_cast<std::size_t>(g.count));
  return (*g.cells)[static_cast<std::size_t>(e)];
}

// A subscript of a tile_static array reached element e (flat, innermost
// type) at `at`. Out-of-range elements are left to the guard zones.
inline void touch(guard_record& g, long long e, access_site at) {
  if (!current.tiled || e < 0 || e >= g.count || !races_on()) return;
  race_cell& c = cell(g, e);
  if (c.seg == segment) return;
  c.seg = segment;
  std::vector<unsigned char>& b = seg_bytes();
  const std::size_t off = b.size();
  const unsigned char* p = g.base + e * static_cast<long long>(g.elem_bytes);
  b.insert(b.end(), p, p + g.elem_bytes);
  seg_log().push_back({&g, e, off, at});
}

// An atomic function's operand: if it is a tile_static array element, the
// running work-item's accesses to it in this interval are not checked.
inline void atomic_access(const void* p) {
  if (!current.tiled || !races_on()) return;
  const unsigned char* q = static_cast<const unsigned char*>(p);
  for (guard_record* g : active()) {
    if (q >= g->base && q < g->base + static_cast<std::size_t>(g->count) * g->elem_bytes) {
      cell(*g, (q - g->base) / static_cast<std::ptrdiff_t>(g->elem_bytes)).atomic_seg = segment;
      return;
    }
  }
}

inline std::string element_of(const guard_record& g, long long e) {
  std::string s;
  for (int d = g.rank - 1; d >= 0; --d) {
    s = "[" + std::to_string(e % g.dims[d]) + "]" + s;
    e /= g.dims[d];
  }
  return s;
}

// "local index (..), work-item (..)" of the running tile's work-item `item`.
inline std::string item_text(int item) {
  const site& c = current;
  int l[3] = {0, 0, 0}, gl[3] = {0, 0, 0};
  for (int d = c.rank - 1; d >= 0; --d) {
    l[d] = item % c.dims[d];
    item /= c.dims[d];
  }
  for (int d = 0; d < c.rank; ++d) gl[d] = c.global[d] - c.local[d] + l[d];
  return "local index " + ints(l, c.rank) + ", work-item " + ints(gl, c.rank);
}

inline std::string at_text(access_site a) {
  return a.file ? std::string(a.file) + ":" + std::to_string(a.line) : std::string("?");
}

[[gnu::noinline, gnu::cold]] inline std::string race_text(const guard_record& g, long long e, bool first_wrote,
                                                         bool then_wrote, int other, access_site other_at,
                                                         access_site mine) {
  const site& c = current;
  // An element touched and left as it was: read, or stored the value it held.
  const char* unchanged = "read (or stored unchanged)";
  const std::string kind = std::string(then_wrote ? "write" : "read") + "-after-" + (first_wrote ? "write" : "read");
  return "checked build: tile_static race (" + kind + ") on array `" + g.name + "` (" + g.file + ":" +
         std::to_string(g.line) + ") element " + element_of(g, e) + ": " + item_text(other) + " " +
         (first_wrote ? "wrote" : unchanged) + " it (" + at_text(other_at) + "), then " + item_text(c.item) + " " +
         (then_wrote ? "wrote" : unchanged) + " it (" + at_text(mine) + ") with no barrier between, in kernel " +
         *c.kernel + ", tile " + ints(c.tile, c.rank);
}

inline void discard_segment() {
  seg_log().clear();
  seg_bytes().clear();
  ++segment;
}

// The cell of an element as the running interval (tile, barrier phase) sees
// it: roles of an earlier interval are forgotten.
inline race_cell& cell_now(const logged& a, unsigned phase) {
  race_cell& c = (*a.g->cells)[static_cast<std::size_t>(a.e)];
  if (c.tile != epoch || c.phase != phase) {
    const unsigned seg = c.seg, atomic_seg = c.atomic_seg;
    c = race_cell{};
    c.tile = epoch, c.phase = phase, c.seg = seg, c.atomic_seg = atomic_seg;
  }
  return c;
}

// Work-item `me` wrote (or read) the element of cell c: the race with another
// work-item's access in this interval (empty: none); c records the access.
inline std::string note_access(race_cell& c, const logged& a, bool wrote, int me) {
  std::string report;
  if (wrote) {
    const bool r1 = c.reader >= 0 && c.reader != me;
    if (c.writer >= 0 && c.writer != me)
      report = race_text(*a.g, a.e, true, true, c.writer, c.wrote, a.at);
    else if (r1 || c.reader2 >= 0)
      report = race_text(*a.g, a.e, false, true, r1 ? c.reader : c.reader2, r1 ? c.read : c.read2, a.at);
    c.writer = me, c.wrote = a.at;
    return report;
  }
  if (c.writer >= 0 && c.writer != me) report = race_text(*a.g, a.e, true, false, c.writer, c.wrote, a.at);
  if (c.reader < 0) c.reader = me, c.read = a.at;
  else if (c.reader != me && c.reader2 < 0) c.reader2 = me, c.read2 = a.at;
  return report;
}

// ---- reads of unwritten elements (see the top of this file)
inline bool uninitialized_on() {
  static const bool r = !env_is("AMP_CHECKED_UNINIT", "0");
  return r;
}
// A read of an element whose bytes are still the fill of its tile's start.
struct unwritten_read {
  guard_record* g;
  long long e;
  int item;
  access_site at;
};
inline std::vector<unwritten_read>& unwritten_reads() {
  static thread_local std::vector<unwritten_read> v;
  return v;
}
inline void forget_uninitialized() { unwritten_reads().clear(); }
// The start of a tile: its arrays hold the pattern (no element written yet).
inline void fill_unwritten(unsigned char* p, std::size_t n) {
  if (races_on() && uninitialized_on()) std::memset(p, pattern, n);
}
inline bool unwritten(const logged& a) {
  const std::size_t n = a.g->elem_bytes;
  return damaged(a.g->base + a.e * static_cast<long long>(n), n) < 0;
}
// Whether the running work-item is the last of its tile to run in each
// barrier interval (the work-items run one at a time, in AMP_CHECKED_ORDER).
inline bool last_of_interval() {
  const site& c = current;
  int n = 1;
  for (int d = 0; d < c.rank; ++d) n *= c.dims[d];
  return c.item == ordered(n - 1, n);
}
[[noreturn, gnu::noinline, gnu::cold]] inline void report_unwritten(const unwritten_read& u) {
  const site& c = current;
  const std::string m = "checked build: tile_static array `" + std::string(u.g->name) + "` (" + u.g->file + ":" +
                        std::to_string(u.g->line) + ") element " + element_of(*u.g, u.e) +
                        " read before any work-item of its tile wrote it: " + item_text(u.item) + " read it (" +
                        at_text(u.at) + "), in kernel " + *c.kernel + ", tile " + ints(c.tile, c.rank);
  forget_uninitialized();
  throw runtime_exception(m.c_str(), e_invalidarg);
}

// The running work-item reached a barrier or its end: each element it
// touched was written (its bytes changed) or read; the first conflict with
// another work-item of the same interval is reported, then, once the
// interval's last work-item is here, the first read of an unwritten element.
inline void end_segment() {
  std::string report;
  const std::vector<unsigned char>& bytes = seg_bytes();
  const bool uninit = uninitialized_on();
  for (const logged& a : seg_log()) {
    race_cell& c = cell_now(a, current.phase);
    if (c.atomic_seg == segment) continue;
    const std::size_t n = a.g->elem_bytes;
    const bool wrote = std::memcmp(a.g->base + a.e * static_cast<long long>(n), bytes.data() + a.off, n) != 0;
    std::string r = note_access(c, a, wrote, current.item);
    if (report.empty()) report = std::move(r);
    if (!wrote && uninit && unwritten(a)) unwritten_reads().push_back({a.g, a.e, current.item, a.at});
  }
  discard_segment();
  if (!report.empty()) {
    forget_uninitialized();
    throw runtime_exception(report.c_str(), e_invalidarg);
  }
  if (!unwritten_reads().empty() && last_of_interval()) report_unwritten(unwritten_reads().front());
}

// A subscript of a tracked tile_static array: the index and the place of the
// subscript expression (the conversion's default arguments are evaluated
// there).
struct subscript {
  long long i;
  access_site at;
  template <class I, class = std::enable_if_t<std::is_integral<I>::value || std::is_enum<I>::value>>
  subscript(I i, const char* file = __builtin_FILE(), int line = __builtin_LINE())
      : i(static_cast<long long>(i)), at{file, line} {}
};

// A sub-array A of a tracked array (a row of a 2-D one): its first element's
// flat index.
template <class A> struct tracked_sub {
  using E = std::remove_extent_t<A>;
  guard_record* g;
  A* p;
  long long first;
  access_site at;
  static constexpr long long items_per_row = sizeof(E) / sizeof(std::remove_all_extents_t<A>);
  decltype(auto) operator[](long long i) const { // E& for the last rank, else a tracked_sub
    if constexpr (std::rank<A>::value == 1) {
      touch(*g, first + i, at);
      return (*p)[i];
    } else {
      return tracked_sub<E>{g, &(*p)[i], first + i * items_per_row, at};
    }
  }
  operator E*() const { return *p; }
};
} // namespace checked

template <class T> struct guarded_tile_static;

// What a checked build's tile_static array name refers to: the array itself
// (same address and size), whose subscripts are recorded for the race checks.
// It converts to a pointer as the array decays (accesses through it are not
// recorded).
template <class T> struct tracked {
  static_assert(std::is_array<T>::value, "a tracked tile_static variable is an array");
  using E = std::remove_extent_t<T>;
  using item = std::remove_all_extents_t<T>;
  T v;

  checked::guard_record& record() {
    return reinterpret_cast<guarded_tile_static<T>*>(reinterpret_cast<unsigned char*>(this) - checked::guard_min)
        ->record;
  }
  template <class R> R at(checked::subscript s) {
    if constexpr (std::rank<T>::value == 1) {
      checked::touch(record(), s.i, s.at);
      return v[s.i];
    } else {
      return checked::tracked_sub<E>{&record(), &v[s.i], s.i * static_cast<long long>(sizeof(E) / sizeof(item)), s.at};
    }
  }
  using ref = std::conditional_t<std::rank<T>::value == 1, E&, checked::tracked_sub<E>>;
  using cref = std::conditional_t<std::rank<T>::value == 1, const E&, checked::tracked_sub<E>>;
  ref operator[](checked::subscript s) { return at<ref>(s); }
  cref operator[](checked::subscript s) const { return const_cast<tracked*>(this)->template at<ref>(s); }
  // Decay to a pointer (a template, so that it yields no built-in subscript
  // that would make `a[i]` ambiguous).
  template <class P, class = std::enable_if_t<std::is_convertible<E*, P*>::value>> operator P*() { return v; }
  template <class P, class = std::enable_if_t<std::is_convertible<const E*, P*>::value>> operator P*() const {
    return v;
  }
  // Binding to a reference to the array type (a function taking T(&)[N]).
  template <class A, class = std::enable_if_t<std::is_convertible<T&, A&>::value>> operator A&() { return v; }
  E& operator*() { return *v; }
  E* operator+(std::ptrdiff_t k) { return v + k; }
  friend E* operator+(std::ptrdiff_t k, tracked& a) { return a.v + k; }
  E* operator-(std::ptrdiff_t k) { return v - k; }
  E* begin() { return v; }
  E* end() { return v + std::extent<T>::value; }
  T& array() { return v; }
};
// A tile_static array of a checked build (see above): `value` between two
// guard zones. Like tile_static storage on a GPU, no constructor of T runs
// (AMP runs none for tile_static variables). The launcher names the array
// through use(), which enrols it among the running tile's arrays (once per
// tile), so that the checks cover the arrays of the running kernel only.
template <class T> struct guarded_tile_static {
  alignas(64) unsigned char before[checked::guard_min];
  union {
    tracked<T> value;
  };
  unsigned char after[checked::after_bytes(sizeof(T))];
  checked::guard_record record;
  unsigned epoch = 0;
  std::vector<checked::race_cell> cells;
  static_assert(alignof(T) <= checked::guard_min, "tracked<T>::record() finds the record guard_min bytes before");
  using item = std::remove_all_extents_t<T>;

  guarded_tile_static(const char* name, const char* file, int line)
      : record{before, sizeof before, after, sizeof after, name, file, line,
               reinterpret_cast<unsigned char*>(&value), sizeof(item), static_cast<int>(sizeof(T) / sizeof(item)),
               std::rank<T>::value <= 4 ? static_cast<int>(std::rank<T>::value) : 1, {}, &cells} {
    // Reports name an element by its indices up to rank 4, by its flat index beyond.
    record.dims[0] = record.count;
    if constexpr (std::rank<T>::value <= 4) fill_dims(std::integral_constant<int, std::rank<T>::value>{});
    std::memset(before, checked::pattern, sizeof before);
    std::memset(after, checked::pattern, sizeof after);
  }
  ~guarded_tile_static() {}
  guarded_tile_static(const guarded_tile_static&) = delete;

  template <int R> void fill_dims(std::integral_constant<int, R>) {
    if constexpr (R > 0) {
      record.dims[R - 1] = static_cast<int>(std::extent<T, R - 1>::value);
      fill_dims(std::integral_constant<int, R - 1>{});
    }
  }
  tracked<T>& use() {
    if (epoch != checked::epoch) {
      epoch = checked::epoch;
      checked::active().push_back(&record);
      checked::fill_unwritten(reinterpret_cast<unsigned char*>(&value), sizeof(T));
    }
    return value;
  }
};
} // namespace detail
} // namespace Concurrency
