// The synchronous copy overloads (AMP spec 5.3). Every copy moves contiguous
// runs (the innermost dimension of a view is contiguous) straight between user
// memory and whichever copy of the buffer is current, so reading one element
// of a large GPU array moves one element.
#pragma once
#include "array.h"

#include <algorithm>
#include <functional>
#include <tuple>
#include <iterator>
#include <vector>

namespace Concurrency {
namespace detail {

struct copy_access {
  // Calls f(byte_offset_in_buffer, element_count, first_element_position) for
  // each contiguous run of v, in row-major order.
  template <class V, class F> static void for_each_run(const V& v, F f) {
    constexpr int N = V::rank;
    using T = typename V::value_type;
    if (v.is_dense()) {
      f(v.h_.off, static_cast<std::size_t>(v.extent.size_64()), std::size_t(0));
      return;
    }
    const long long rows = v.extent.size_64() / v.extent[N - 1];
    const std::size_t run = static_cast<std::size_t>(v.extent[N - 1]);
    Concurrency::extent<N> outer = v.extent;
    outer[N - 1] = 1;
    for (long long r = 0; r < rows; ++r) {
      index<N> i = delinearize(r, outer);
      f(v.h_.off + static_cast<std::size_t>(v.offset(i)) * sizeof(T), run, static_cast<std::size_t>(r) * run);
    }
  }
  template <class V> static buffer& buf(const V& v) { return *v.h_.buf; }
  template <class V> static std::size_t off(const V& v) { return v.h_.off; }
  template <class V> static bool dense(const V& v) { return v.is_dense(); }
  template <class V> static buffer* buf_ptr(const V& v) { return v.h_.buf; }
  template <class V> static std::size_t runs(const V& v) {
    return v.is_dense() ? 1 : static_cast<std::size_t>(v.extent.size_64() / v.extent[V::rank - 1]);
  }
};

// Reads view v into host memory out[0 .. size).
template <class V> void read_view(const V& v, std::remove_const_t<typename V::value_type>* out) {
  using T = typename V::value_type;
  buffer& b = copy_access::buf(v);
  // Many small runs from the GPU: one transfer of the buffer is cheaper.
  if (copy_access::runs(v) > 64 && !b.host_current()) b.prepare(location::host, buffer::access::read);
  copy_access::for_each_run(v, [&](std::size_t off, std::size_t n, std::size_t pos) AMP_HOST_ONLY {
    read_buffer(b, off, out + pos, n * sizeof(T));
  });
}
template <class V> void write_view(const V& v, const typename V::value_type* in) {
  using T = typename V::value_type;
  buffer& b = copy_access::buf(v);
  if (copy_access::runs(v) > 64 && !b.host_current()) b.prepare(location::host, buffer::access::write);
  copy_access::for_each_run(v, [&](std::size_t off, std::size_t n, std::size_t pos) AMP_HOST_ONLY {
    write_buffer(b, off, in + pos, n * sizeof(T));
  });
}
template <class V> std::vector<std::remove_const_t<typename V::value_type>> read_all(const V& v) {
  std::vector<std::remove_const_t<typename V::value_type>> tmp(static_cast<std::size_t>(v.extent.size_64()));
  read_view(v, tmp.data());
  return tmp;
}
template <class T, class It, class V> void write_from(It first, const V& dest) {
  with_elements<T>(first, static_cast<std::size_t>(dest.extent.size_64()), [&](const T* p) AMP_HOST_ONLY {
    write_view(dest, p);
  });
}
// The first n elements of dest (row-major) from first: all of them, or a
// shorter range's (range_size), the others as they were.
template <class T, class It, class V> void write_range(It first, std::size_t n, const V& dest) {
  if (n == static_cast<std::size_t>(dest.extent.size_64())) return write_from<T>(first, dest);
  if (n == 0) return;
  auto all = read_all(dest);
  std::copy_n(first, n, all.begin());
  write_view(dest, all.data());
}
template <class T, class V, class Out> void read_into(const V& src, Out dest) {
  log_host_read(copy_access::buf(src)); // the result log: what the host gets
  if constexpr (contiguous_of<Out, T> && !std::is_const<std::remove_pointer_t<Out>>::value) {
    read_view(src, &*dest);
  } else {
    auto tmp = read_all(src);
    std::copy(tmp.begin(), tmp.end(), dest);
  }
}

// Contiguous views whose data a GPU holds are copied device to device
// (between GPUs: peer to peer where possible), not through host memory.
template <class S, class D> bool copy_on_devices(const S& src, const D& dst) {
  if (!copy_access::dense(src) || !copy_access::dense(dst)) return false;
  const std::size_t n = static_cast<std::size_t>(src.extent.size_64()) * sizeof(typename S::value_type);
  return copy_range_on_devices(copy_access::buf(src), copy_access::off(src), copy_access::buf(dst),
                               copy_access::off(dst), n);
}

template <class A, class B> void check_same_extent(const A& a, const B& b) {
  if (a.extent != b.extent) throw runtime_exception("copy: source and destination extents differ", e_invalidarg);
}
} // namespace detail

// ---- array -> array, array <-> view, view -> view
template <class T, int N> void copy(const array<T, N>& src, array<T, N>& dest) { src.copy_to(dest); }
template <class T, int N> void copy(const array<T, N>& src, const array_view<T, N>& dest) {
  detail::check_same_extent(src, dest);
  const array_view<const T, N> s(src);
  if (detail::copy_on_devices(s, dest)) return;
  detail::write_view(dest, detail::read_all(s).data());
}
template <class T, int N> void copy(const array_view<const T, N>& src, array<T, N>& dest) {
  detail::check_same_extent(src, dest);
  const array_view<T, N> d(dest);
  if (detail::copy_on_devices(src, d)) return;
  detail::write_view(d, detail::read_all(src).data());
}
template <class T, int N> void copy(const array_view<T, N>& src, array<T, N>& dest) {
  copy(array_view<const T, N>(src), dest);
}
template <class T, int N> void copy(const array_view<const T, N>& src, const array_view<T, N>& dest) {
  detail::check_same_extent(src, dest);
  if (detail::copy_on_devices(src, dest)) return;
  detail::write_view(dest, detail::read_all(src).data());
}
template <class T, int N> void copy(const array_view<T, N>& src, const array_view<T, N>& dest) {
  copy(array_view<const T, N>(src), dest);
}

// ---- iterators -> array / view
// [first, last) holds at most as many elements as the destination; fewer
// fill its first elements (detail::range_size).
template <class It, class T, int N, class = detail::iter_t<It>> void copy(It first, It last, array<T, N>& dest) {
  detail::write_range<T>(first, detail::range_size(first, last, dest.extent.size_64(), "copy"), array_view<T, N>(dest));
}
template <class It, class T, int N, class = detail::iter_t<It>> void copy(It first, array<T, N>& dest) {
  detail::write_from<T>(first, array_view<T, N>(dest));
}
template <class It, class T, int N, class = detail::iter_t<It>>
void copy(It first, It last, const array_view<T, N>& dest) {
  detail::write_range<T>(first, detail::range_size(first, last, dest.extent.size_64(), "copy"), dest);
}
template <class It, class T, int N, class = detail::iter_t<It>> void copy(It first, const array_view<T, N>& dest) {
  detail::write_from<T>(first, dest);
}

// ---- array / view -> iterator
template <class T, int N, class Out, class = detail::iter_t<Out>> void copy(const array<T, N>& src, Out dest) {
  detail::read_into<T>(array_view<const T, N>(src), dest);
}
template <class T, int N, class Out, class = detail::iter_t<Out>>
void copy(const array_view<T, N>& src, Out dest) {
  detail::read_into<std::remove_const_t<T>>(src, dest);
}

// ---- asynchronous forms: the same overloads, run on a worker thread
// (runtime/completion_future.h). Arrays are taken by reference (they must
// outlive the operation, as in AMP), views and iterators by value.
namespace detail {
template <class A> struct async_arg {
  using type = std::decay_t<A>;
  static type hold(A&& a) { return std::forward<A>(a); }
};
template <class T, int N> struct async_arg<array<T, N>&> {
  using type = std::reference_wrapper<array<T, N>>;
  static type hold(array<T, N>& a) { return std::ref(a); }
};
template <class T, int N> struct async_arg<const array<T, N>&> {
  using type = std::reference_wrapper<const array<T, N>>;
  static type hold(const array<T, N>& a) { return std::cref(a); }
};
template <class X> buffer* buffer_of(const X&) { return nullptr; }
template <class T, int N> buffer* buffer_of(const array<T, N>& a) { return copy_access::buf_ptr(a); }
template <class T, int N> buffer* buffer_of(const array_view<T, N>& v) { return copy_access::buf_ptr(v); }
template <class X> decltype(auto) unwrap(X& x) { return (x); }
template <class X> X& unwrap(std::reference_wrapper<X>& x) { return x.get(); }
} // namespace detail

// (Only where a Concurrency::copy overload takes the arguments: graphics::copy_async
// has the texture forms, and both are visible under the usual using-directives.)
template <class... A>
auto copy_async(A&&... a) -> decltype(Concurrency::copy(std::forward<A>(a)...), completion_future()) {
  std::vector<detail::buffer*> bufs{detail::buffer_of(a)...};
  auto args = std::make_tuple(detail::async_arg<A>::hold(std::forward<A>(a))...);
  return detail::launch_async(std::move(bufs), [args]() AMP_HOST_ONLY mutable {
    std::apply([](auto&... x) AMP_HOST_ONLY { Concurrency::copy(detail::unwrap(x)...); }, args);
  });
}

template <class T, int N> void array<T, N>::copy_to(const array_view<T, N>& dest) const { copy(*this, dest); }
template <class T, int N> void array_view<T, N>::copy_to(array<elem, N>& dest) const { copy(*this, dest); }
template <class T, int N> void array_view<T, N>::copy_to(const array_view<elem, N>& dest) const { copy(*this, dest); }
template <class T, int N> void array<T, N>::copy_from_view(const array_view<const T, N>& src) {
  const array_view<T, N> d(*this);
  if (detail::copy_on_devices(src, d)) return;
  detail::write_view(d, detail::read_all(src).data());
}

} // namespace Concurrency
