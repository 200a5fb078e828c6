// Bookkeeping for kernel launches: the live arrays (by host address, with their
// shadows) and helpers that move whole buffers or byte ranges between copies.
#pragma once
#include "runtime.h"

#include <algorithm>
#include <cstring>
#include <iterator>
#include <thread>
#include <tuple>
#include <utility>
#include <vector>
#if AMP_HAS_OPENMP
#include <omp.h> // omp_in_parallel (Kokkos 4 deprecates OpenMP::in_parallel)
#endif

namespace Concurrency {
namespace detail {

// ---- constructor helpers for array(e0, ..., first, last, av)
struct split_tag {};
template <class It> using iter_t = typename std::iterator_traits<It>::iterator_category;
// Iterators over contiguous elements of exactly T (pointers, vector
// iterators): copies use their memory directly instead of staging through a
// temporary vector (which cost 6x in bench/'s 256 MB transfers).
template <class It, class T>
constexpr bool contiguous_of =
    !std::is_same<T, bool>::value &&
    ((std::is_pointer<It>::value && std::is_same<std::remove_cv_t<std::remove_pointer_t<It>>, T>::value) ||
     std::is_same<It, typename std::vector<T>::iterator>::value ||
     std::is_same<It, typename std::vector<T>::const_iterator>::value);
// Calls sink(const T*) with the n elements starting at `first`: in place when
// they are contiguous, else from a temporary copy.
template <class T, class It, class Sink> void with_elements(It first, std::size_t n, Sink sink) {
  if constexpr (contiguous_of<It, T>) {
    sink(&*first);
  } else {
    std::vector<T> tmp(n);
    std::copy_n(first, n, tmp.begin());
    sink(static_cast<const T*>(tmp.data()));
  }
}

template <int N, class... A> struct leading_ints {
  static constexpr bool value = [] {
    if constexpr (sizeof...(A) <= static_cast<std::size_t>(N)) return false;
    else {
      constexpr bool ints[] = {std::is_integral<A>::value...};
      for (int d = 0; d < N; ++d)
        if (!ints[d]) return false;
      return !ints[N];
    }
  }();
};
template <int N, class Tup, std::size_t... K> Concurrency::extent<N> head_extent(const Tup& t, std::index_sequence<K...>) {
  return Concurrency::extent<N>(static_cast<int>(std::get<K>(t))...);
}

// ---- live arrays and their shadows
// Device copies of array objects live in slots carved from slabs that are
// never freed: an array created and destroyed per kernel (TiledReduction's
// tmpArr) would otherwise cost a device allocation and a device-wide
// synchronising free each.
// Each device has its own slots. A slot remembers the queue that last read
// it, and the next upload into it waits for that queue, so a kernel still
// reading a slot finishes before its next owner overwrites it. Guarded by
// array_registry::mutex().
// A slot holds the largest array object: rank 128, the most Microsoft's
// runtime allows (an extent and an index of 128 ints, the data header);
// only the object's own bytes are compared and uploaded.
struct shadow_slots {
  static constexpr std::size_t slot_bytes = 1152, per_slab = 256;
  struct slot {
    void* p = nullptr;
    std::shared_ptr<queue_state> last;
  };
  int device;
  std::vector<slot> free_list;
  explicit shadow_slots(int d) : device(d) {}
  slot take() {
    if (free_list.empty()) {
      char* slab = static_cast<char*>(device_memory::alloc(device, slot_bytes * per_slab));
      for (std::size_t i = per_slab; i-- > 0;) free_list.push_back(slot{slab + i * slot_bytes, nullptr});
    }
    slot s = std::move(free_list.back());
    free_list.pop_back();
    return s;
  }
  void give(slot s) { free_list.push_back(std::move(s)); }
  static shadow_slots& get(int d) {
    // Outlive every array (static destruction order).
    static auto* all = new std::vector<std::unique_ptr<shadow_slots>>();
    while (all->size() <= static_cast<std::size_t>(d)) all->push_back(std::make_unique<shadow_slots>(static_cast<int>(all->size())));
    return *(*all)[static_cast<std::size_t>(d)];
  }
};

struct array_registry {
  static constexpr std::size_t max_object = shadow_slots::slot_bytes;
  // The shadow of one array on one device.
  struct device_shadow {
    shadow_slots::slot slot;
    unsigned char uploaded[max_object];
    bool uploaded_valid = false;
  };
  struct entry {
    alignas(64) unsigned char host_shadow[max_object];
    std::size_t size = 0; // sizeof the array object
    std::vector<std::unique_ptr<device_shadow>> dev; // by device number
    ~entry() {
      for (std::size_t d = 0; d < dev.size(); ++d)
        if (dev[d] && dev[d]->slot.p) shadow_slots::get(static_cast<int>(d)).give(std::move(dev[d]->slot));
    }
    device_shadow& on(int d) {
      if (dev.size() <= static_cast<std::size_t>(d)) dev.resize(static_cast<std::size_t>(d) + 1);
      auto& p = dev[static_cast<std::size_t>(d)];
      if (!p) p = std::make_unique<device_shadow>();
      return *p;
    }
  };
  static std::mutex& mutex() {
    static std::mutex m;
    return m;
  }
  static std::unordered_map<const void*, std::unique_ptr<entry>>& map() {
    static std::unordered_map<const void*, std::unique_ptr<entry>> m;
    return m;
  }
  static void add(const void* obj, std::size_t size) {
    std::lock_guard<std::mutex> g(mutex());
    auto e = std::make_unique<entry>();
    e->size = size;
    map()[obj] = std::move(e);
  }
  static void remove(const void* obj) noexcept {
    std::lock_guard<std::mutex> g(mutex());
    map().erase(obj);
  }
  // Caller holds mutex().
  static entry* find(const void* obj) {
    auto it = map().find(obj);
    return it == map().end() ? nullptr : it->second.get();
  }
};

// ---- byte transfers between user memory and a buffer's current copy
// Host-to-host copies of array data. Large ones are split over the cores: one
// memcpy does not saturate memory (256 MB: 25 ms on a 16-core Xeon, against
// 6 ms for Kokkos' parallel deep_copy). Kokkos 3.4's OpenMP backend can only
// be entered from the thread that started it, and not from inside a parallel
// region; anywhere else, with one OpenMP thread, and in builds without
// OpenMP, a plain memcpy. The thread count is asked of the default instance
// (made only while Kokkos runs): the static OpenMP::concurrency() is Kokkos 4
// deprecated code, which Kokkos 5 removes.
#if AMP_HAS_OPENMP
inline void host_copy(void* d, const void* s, std::size_t n) {
  constexpr std::size_t chunk = std::size_t(1) << 20;
  if (n < 8 * chunk || !kokkos_running() || std::this_thread::get_id() != kokkos_thread() ||
      omp_in_parallel() || Kokkos::OpenMP().concurrency() < 2) {
    std::memcpy(d, s, n);
    return;
  }
  const long long parts = static_cast<long long>((n + chunk - 1) / chunk);
  Kokkos::parallel_for(
      "amp::copy", Kokkos::RangePolicy<Kokkos::OpenMP, Kokkos::IndexType<long long>>(0, parts),
      [=](long long p) AMP_HOST_ONLY {
        const std::size_t off = static_cast<std::size_t>(p) * chunk;
        std::memcpy(static_cast<char*>(d) + off, static_cast<const char*>(s) + off, std::min(chunk, n - off));
      });
  Kokkos::fence();
}
#else
inline void host_copy(void* d, const void* s, std::size_t n) { std::memcpy(d, s, n); }
#endif

// Reads n bytes at `off` without moving the rest of the buffer.
inline void read_buffer(buffer& b, std::size_t off, void* dst, std::size_t n) {
  b.wait_pending();
  if (b.priv_valid && !b.host_current()) {
    host_copy(dst, static_cast<char*>(b.priv) + off, n); // AMP_HOST_VIEWS=copy: a kernel's results
  } else if (b.host_current() || b.valid == 0) {
    if (!b.host) b.allocate(location::host);
    host_copy(dst, static_cast<char*>(b.host) + off, n);
  } else {
    const int d = b.current_device();
    device_memory::to_host(*b.queue_of(d), dst, static_cast<char*>(b.dev(d).ptr) + off, n);
  }
}
// The result log's hash of b's whole contents where they are current
// (read_buffer: waits for the kernel, leaves the copies' state alone), NaNs
// made canonical (result_log::canonical_nans).
inline std::uint64_t result_hash(buffer& b) {
  std::vector<unsigned char> bytes(b.bytes);
  read_buffer(b, 0, bytes.data(), b.bytes);
  result_log::canonical_nans(bytes.data(), bytes.size(), b.fp_width);
  return result_log::fnv1a(bytes.data(), bytes.size());
}
// The result log (AMP_RESULT_LOG): the host program reads b, which a logged
// kernel wrote since its last read: one line with the size and hash of the
// whole buffer as the host sees it. The points that call this (host_sync,
// copies into host iterators, conversion to std::vector, the last view of
// user memory going away) are the same on every accelerator, so two runs
// compare what the program read back, whatever copies the runtime kept
// between (scratch arrays never read, device copies of views).
inline void log_host_read(buffer& b) noexcept {
  if (!b.unread) return;
  b.unread = false;
  try {
    char text[96];
    std::snprintf(text, sizeof text, "read bytes %zu fnv1a %016llx", b.bytes,
                  static_cast<unsigned long long>(result_hash(b)));
    result_log::line(text);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "amp_compat: the result log could not read a buffer: %s\n", e.what());
  }
}
// Writes n bytes at `off`; the written copy becomes the only current one.
inline void write_buffer(buffer& b, std::size_t off, const void* src, std::size_t n) {
  b.wait_pending();
  const bool whole = (off == 0 && n == b.bytes);
  location where = b.home;
  if (!whole) {
    if (b.host_current()) where = location::host;
    else if (b.valid != 0) where = device_location(b.current_device());
  }
  b.prepare(where, whole ? buffer::access::discard : buffer::access::write);
  if (where == location::host) {
    host_copy(static_cast<char*>(b.host) + off, src, n);
  } else {
    const int d = device_of(where);
    device_memory::to_device(*b.queue_of(d), static_cast<char*>(b.dev(d).ptr) + off, src, n);
  }
}
// Copies n bytes from src at soff to dst at doff between device copies, with
// no staging through host memory, when a device holds src's current contents
// and dst's destination copy is on a device (its home for a whole-buffer
// write, else its only current copy). On dst's queue, which waits for src's;
// returns when the copy is done. False where this does not apply (the caller
// then copies through host memory).
inline bool copy_range_on_devices(buffer& src, std::size_t soff, buffer& dst, std::size_t doff, std::size_t n) {
  if (&src == &dst) return false;
  src.wait_pending();
  dst.wait_pending();
  const int from = src.current_device();
  if (from < 0) return false;
  const bool whole = doff == 0 && n == dst.bytes;
  location where;
  if (whole && dst.home != location::host) where = dst.home;
  else if (!dst.host_current() && dst.current_device() >= 0) where = device_location(dst.current_device());
  else return false;
  dst.prepare(where, whole ? buffer::access::discard : buffer::access::write);
  const int to = device_of(where);
  const std::shared_ptr<queue_state> q = dst.dev(to).last;
  src.use_on(from, q);
  device_memory::device_to_device(*q, static_cast<char*>(dst.dev(to).ptr) + doff, to,
                                  static_cast<const char*>(src.dev(from).ptr) + soff, from, n);
  q->synchronize(); // copy() returns when the copy is done
  return true;
}
// Whole-buffer copy (array = array, copy(array, array)). Into a device from a
// device copy: device to device (between GPUs: peer to peer where possible),
// on the destination array's queue, which waits for the source's.
inline void copy_buffer(buffer& src, buffer& dst) {
  if (src.bytes != dst.bytes) throw runtime_exception("copy: sizes differ", e_invalidarg);
  src.wait_pending();
  dst.wait_pending();
  const int from = src.current_device();
  if (dst.home != location::host && from >= 0) {
    const int to = device_of(dst.home);
    dst.prepare(dst.home, buffer::access::discard);
    const std::shared_ptr<queue_state> q = dst.dev(to).last;
    src.use_on(from, q);
    device_memory::device_to_device(*q, dst.dev(to).ptr, to, src.dev(from).ptr, from, src.bytes);
    q->synchronize(); // copy() returns when the copy is done
    return;
  }
  if (dst.home == location::host) {
    dst.prepare(location::host, buffer::access::discard);
    read_buffer(src, 0, dst.host, src.bytes);
  } else {
    src.prepare(location::host, buffer::access::read);
    write_buffer(dst, 0, src.host, src.bytes);
  }
}

} // namespace detail
} // namespace Concurrency
