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
// tmpArr) would otherwise cost a cudaMalloc and a device-wide cudaFree each.
// Slots are reused in stream order, so a kernel still reading a slot finishes
// before the upload for its next owner runs. Guarded by array_registry::mutex().
struct shadow_slots {
  static constexpr std::size_t slot_bytes = 192, per_slab = 256;
  std::vector<void*> free_list;
  void* take() {
    if (free_list.empty()) {
      char* slab = static_cast<char*>(device_memory::alloc(slot_bytes * per_slab));
      for (std::size_t i = per_slab; i-- > 0;) free_list.push_back(slab + i * slot_bytes);
    }
    void* p = free_list.back();
    free_list.pop_back();
    return p;
  }
  void give(void* p) { free_list.push_back(p); }
  static shadow_slots& get() {
    static shadow_slots* s = new shadow_slots; // outlives every array (static destruction order)
    return *s;
  }
};

struct array_registry {
  static constexpr std::size_t max_object = shadow_slots::slot_bytes;
  struct entry {
    alignas(64) unsigned char host_shadow[max_object];
    unsigned char uploaded[max_object];
    std::size_t size = 0;       // sizeof the array object
    void* dev_slot = nullptr;
    bool uploaded_valid = false;
    ~entry() {
      if (dev_slot) shadow_slots::get().give(dev_slot);
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
// OpenMP, a plain memcpy.
#if AMP_HAS_OPENMP
inline void host_copy(void* d, const void* s, std::size_t n) {
  constexpr std::size_t chunk = std::size_t(1) << 20;
  if (n < 8 * chunk || !Kokkos::is_initialized() || std::this_thread::get_id() != kokkos_thread() ||
      Kokkos::OpenMP::in_parallel() || Kokkos::OpenMP::concurrency() < 2) {
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
  if (b.host_current() || b.valid == 0) {
    if (!b.host) b.allocate(location::host);
    host_copy(dst, static_cast<char*>(b.host) + off, n);
  } else {
    device_memory::to_host(dst, static_cast<char*>(b.dev) + off, n);
  }
}
// Writes n bytes at `off`; the written copy becomes the only current one.
inline void write_buffer(buffer& b, std::size_t off, const void* src, std::size_t n) {
  const bool whole = (off == 0 && n == b.bytes);
  location where = b.home;
  if (!whole) {
    if (b.host_current()) where = location::host;
    else if (b.valid != 0) where = location::device;
  }
  b.prepare(where, whole ? buffer::access::discard : buffer::access::write);
  if (where == location::host) host_copy(static_cast<char*>(b.host) + off, src, n);
  else device_memory::to_device(static_cast<char*>(b.dev) + off, src, n);
}
// Whole-buffer copy (array = array, copy(array, array)).
inline void copy_buffer(buffer& src, buffer& dst) {
  if (src.bytes != dst.bytes) throw runtime_exception("copy: sizes differ", e_invalidarg);
  if (dst.home == location::device && !src.host_current() && src.valid != 0) {
    dst.prepare(location::device, buffer::access::discard);
    device_memory::on_device(dst.dev, src.dev, src.bytes);
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
