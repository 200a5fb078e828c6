// What array and array_view have in common: a data_header (see runtime.h), the
// extent, and the row-major strides of the storage the object looks into.
// Element access on the host first makes the host copy current (implicit
// synchronisation); inside kernels the header's buffer is null and the pointer
// already refers to the memory of the accelerator running the kernel.
#pragma once
#include "checked.h"
#include "index.h"
#include "runtime.h"
#include "target.h"

#include <cstring>
#include <type_traits>

namespace Concurrency {
template <class T, int N> class array;
template <class T, int N> class array_view;

namespace detail {
// Direct3D's rule for out-of-range element accesses in kernels and on the
// host (data_base::at): part of the Windows build environment (--windows-compat,
// whose crt_compat.h defines AMP_COMPAT_WINDOWS before any AMP header), where
// code written against Direct3D relies on it. Elsewhere accesses are not
// checked: the check costs up to 2.9x in host kernels that index in their
// inner loops (bench/RESULTS.md). Every translation unit of a program must
// agree on --windows-compat.
#ifdef AMP_COMPAT_WINDOWS
constexpr bool direct3d_out_of_range = true;
#else
constexpr bool direct3d_out_of_range = false;
#endif
struct copy_access;
struct closure_patcher;
struct kokkos_interop; // <amp_kokkos.h>

template <class T, int N> class data_base {
protected:
  // First member: launches find it at offset 0 of every array and view.
  mutable data_header h_;

public:
  using value_type = T;
  static constexpr int rank = N;

  // Property (AMP: extent of the array / view).
  Concurrency::extent<N> extent;

  AMP_FN Concurrency::extent<N> get_extent() const { return extent; }

protected:
  using elem = std::remove_const_t<T>;
  static constexpr bool read_only = std::is_const<T>::value;

  AMP_FN data_base() : h_{}, extent(), stride_{} {}

  // Natural row-major strides for `e` (the view covers all of its storage).
  AMP_FN void set_dense_strides(const Concurrency::extent<N>& e) {
    stride_[N - 1] = 1;
    for (int d = N - 2; d >= 0; --d) stride_[d] = stride_[d + 1] * e[d + 1];
  }
  AMP_FN bool is_dense() const {
    long long s = 1;
    for (int d = N - 1; d >= 0; --d) {
      if (extent[d] > 1 && stride_[d] != s) return false;
      s *= extent[d];
    }
    return true;
  }
  AMP_FN long long offset(const index<N>& i) const {
    long long o = i[N - 1];
    for (int d = 0; d < N - 1; ++d) o += static_cast<long long>(i[d]) * stride_[d];
    return o;
  }

  // Pointer to this object's first element, usable where the code runs.
  // View = false (an array's accesses): the storage is the runtime's, never
  // behind a private copy (AMP_HOST_VIEWS=copy concerns user memory), so a
  // host-only build reads the pointer and nothing else; the check would sit
  // in every access of an array a host kernel captures by reference, where it
  // made tile-averages 1.2x slower serially and 2x on 16 threads.
  template <bool View = true> AMP_FN T* base_ptr() const {
    if constexpr (!device_pass && has_device_memory) {
      if (h_.buf && !(h_.ptr && h_.buf->host_ready(read_only))) host_sync(read_only ? buffer::access::read : buffer::access::write);
    } else if constexpr (!device_pass && View) {
      // AMP_HOST_VIEWS=copy: a kernel's results may be in the view's private
      // copy; the result log: a kernel's results read. Inside kernels the
      // buffer is null; the rest is out of line.
      if (__builtin_expect(h_.buf != nullptr && (h_.buf->priv_valid || h_.buf->unread), 0)) private_sync();
    }
    return static_cast<T*>(h_.ptr);
  }
  // Under --windows-compat (direct3d_out_of_range), on every accelerator: an
  // element outside the extent is what Direct3D makes of an out-of-range
  // buffer access, which AMP code written on Windows relies on (kernels over
  // a padded tiled_extent that index past the data without a check, as
  // Microsoft's own AMP Algorithms Library does): the write is discarded and
  // the read gives zero, instead of corrupting memory. Host code outside
  // kernels is not Direct3D's: MSVC's runtime addresses the element linearly
  // and checks nothing (a 100x80 view's (0, 80) is its element (1, 0)); that
  // element is given while it lies in the view's buffer (unchecked_in_buffer).
  template <bool View = true> AMP_FN T& at(const index<N>& i) const {
    if constexpr (direct3d_out_of_range) {
      if (!in_extent(i) && !unchecked_in_buffer(i)) return out_of_range_element();
    } else if constexpr (checked::on) {
      if (!in_extent(i)) report_out_of_range(i);
    }
    return base_ptr<View>()[offset(i)];
  }
  // Checked builds (checked.h): the access, the kernel and the work-item.
  [[noreturn]] void report_out_of_range(const index<N>& i) const {
    int ii[N], ee[N];
    for (int d = 0; d < N; ++d) ii[d] = i[d], ee[d] = extent[d];
    checked::out_of_range(h_.tag == view_tag ? "array_view" : "array", ii, ee, N);
  }
  AMP_FN bool unchecked_in_buffer(const index<N>& i) const {
    if constexpr (device_pass) {
      return false;
    } else {
      if (target::in_amp_context() || !h_.buf) return false;
      const long long at = static_cast<long long>(h_.off / sizeof(T)) + offset(i);
      return at >= 0 && static_cast<unsigned long long>(at) < h_.buf->bytes / sizeof(T);
    }
  }
  AMP_FN bool in_extent(const index<N>& i) const {
    for (int d = 0; d < N; ++d) {
      if (static_cast<unsigned>(i[d]) >= static_cast<unsigned>(extent[d])) return false;
    }
    return true;
  }
  // A zeroed element private to the calling thread: the target of
  // out-of-range accesses. On the host a thread_local (a tile's fibers share
  // it, but one is reset and used with no switch in between); on a GPU the
  // backend's per-resident-thread cell (backend.h, target::discarded_element).
#if AMP_DEVICE_PASS
  AMP_FN static T& out_of_range_element() { return target::discarded_element<elem>(); }
#else
  static T& out_of_range_element();
#endif

  // AMP_HOST_VIEWS=copy, host code: the private copy holds a kernel's results
  // (a read needs them in the user's memory; a write makes the copy stale).
  [[gnu::noinline, gnu::cold]] void private_sync() const {
    if (h_.buf->host_access_needs_sync(!read_only)) host_sync(read_only ? buffer::access::read : buffer::access::write);
    else log_host_read(*h_.buf); // host_sync logs it otherwise
  }
  void host_sync(buffer::access a) const {
    h_.buf->prepare(location::host, a);
    h_.ptr = static_cast<char*>(h_.buf->host) + h_.off;
    if (h_.buf->unread) log_host_read(*h_.buf);
  }
  // Refreshes ptr after the header was set up or moved on the host.
  void point_at_host() const {
    if (h_.buf && h_.buf->host) h_.ptr = static_cast<char*>(h_.buf->host) + h_.off;
  }

  // Shares this object's storage with a view of rank K and element type U,
  // starting `elems` elements further on.
  template <class V> AMP_FN void share_into(V& v, long long elems) const {
    v.h_.tag = view_tag;
    v.h_.buf = h_.buf;
    v.h_.off = h_.off + static_cast<std::size_t>(elems * sizeof(T));
    v.h_.ptr = h_.ptr ? static_cast<void*>(static_cast<char*>(h_.ptr) + elems * sizeof(T)) : nullptr;
    if constexpr (!device_pass) {
      if (v.h_.buf) v.h_.buf->retain();
    }
  }

  int stride_[N];

  template <class, int> friend class data_base;
  friend struct copy_access;
  friend struct closure_patcher;
  friend struct kokkos_interop;
  template <class, int> friend class Concurrency::array;
  template <class, int> friend class Concurrency::array_view;
};

#if !AMP_DEVICE_PASS
template <class T, int N> T& data_base<T, N>::out_of_range_element() {
  alignas(elem) static thread_local unsigned char slot[sizeof(elem)];
  std::memset(slot, 0, sizeof(elem));
  return *reinterpret_cast<T*>(slot);
}
#endif

} // namespace detail
} // namespace Concurrency
