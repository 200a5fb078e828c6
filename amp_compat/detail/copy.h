// The synchronous copy overloads (AMP spec 5.3). Every copy moves contiguous
// runs (the innermost dimension of a view is contiguous) straight between user
// memory and whichever copy of the buffer is current, so reading one element
// of a large GPU array moves one element.
#pragma once
#include "array.h"

#include <algorithm>
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
template <class T, class V, class Out> void read_into(const V& src, Out dest) {
  if constexpr (contiguous_of<Out, T> && !std::is_const<std::remove_pointer_t<Out>>::value) {
    read_view(src, &*dest);
  } else {
    auto tmp = read_all(src);
    std::copy(tmp.begin(), tmp.end(), dest);
  }
}

template <class A, class B> void check_same_extent(const A& a, const B& b) {
  if (a.extent != b.extent) throw runtime_exception("copy: source and destination extents differ", e_invalidarg);
}
} // namespace detail

// ---- array -> array, array <-> view, view -> view
template <class T, int N> void copy(const array<T, N>& src, array<T, N>& dest) { src.copy_to(dest); }
template <class T, int N> void copy(const array<T, N>& src, const array_view<T, N>& dest) {
  detail::check_same_extent(src, dest);
  detail::write_view(dest, detail::read_all(array_view<const T, N>(src)).data());
}
template <class T, int N> void copy(const array_view<const T, N>& src, array<T, N>& dest) {
  detail::check_same_extent(src, dest);
  detail::write_view(array_view<T, N>(dest), detail::read_all(src).data());
}
template <class T, int N> void copy(const array_view<T, N>& src, array<T, N>& dest) {
  copy(array_view<const T, N>(src), dest);
}
template <class T, int N> void copy(const array_view<const T, N>& src, const array_view<T, N>& dest) {
  detail::check_same_extent(src, dest);
  detail::write_view(dest, detail::read_all(src).data());
}
template <class T, int N> void copy(const array_view<T, N>& src, const array_view<T, N>& dest) {
  copy(array_view<const T, N>(src), dest);
}

// ---- iterators -> array / view
template <class It, class T, int N, class = detail::iter_t<It>> void copy(It first, It last, array<T, N>& dest) {
  if (static_cast<long long>(std::distance(first, last)) < dest.extent.size_64())
    throw runtime_exception("copy: the source range is smaller than the destination", detail::e_invalidarg);
  detail::write_from<T>(first, array_view<T, N>(dest));
}
template <class It, class T, int N, class = detail::iter_t<It>> void copy(It first, array<T, N>& dest) {
  detail::write_from<T>(first, array_view<T, N>(dest));
}
template <class It, class T, int N, class = detail::iter_t<It>>
void copy(It first, It last, const array_view<T, N>& dest) {
  if (static_cast<long long>(std::distance(first, last)) < dest.extent.size_64())
    throw runtime_exception("copy: the source range is smaller than the destination", detail::e_invalidarg);
  detail::write_from<T>(first, dest);
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

// ---- asynchronous forms: performed synchronously, returning a ready future
template <class... A> completion_future copy_async(A&&... a) {
  copy(std::forward<A>(a)...);
  return completion_future::ready();
}

template <class T, int N> void array<T, N>::copy_to(const array_view<T, N>& dest) const { copy(*this, dest); }
template <class T, int N> void array<T, N>::copy_from_view(const array_view<const T, N>& src) {
  detail::write_view(array_view<T, N>(*this), detail::read_all(src).data());
}

} // namespace Concurrency
