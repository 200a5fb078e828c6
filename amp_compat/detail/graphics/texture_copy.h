// graphics::copy and copy_async (AMP spec 10.1.4): between textures, host
// memory in the storage format (pointer + byte size) and iterators over
// value_type elements. A texture moves all its mip levels (level 0 first), a
// view the levels it sees. Sizes are checked: too small a source or
// destination, or textures of different shape or format, raise
// runtime_exception (E_INVALIDARG).
#pragma once
#include "texture.h"

#include <cstring>
#include <functional>
#include <tuple>
#include <vector>

namespace Concurrency {
namespace detail {

struct texture_access {
  struct range {
    buffer* buf;
    std::size_t off, bytes, texels;
    unsigned bits;
  };
  template <class X> static range of(const X& t) {
    const std::size_t bytes = t.bytes_of_levels(t.level0_, t.levels_);
    return range{t.h_.buf, t.h_.off + t.bytes_of_levels(0, t.level0_), bytes, bytes / t.texel_bytes(), t.bits_};
  }
  template <class X> static std::size_t texel_bytes(const X& t) { return t.texel_bytes(); }
  // Calls f(byte offset in the buffer, bytes, byte position in the packed
  // section) for each row of the section (origin o, extent e) of t's most
  // detailed level, after checking that the section lies inside it.
  template <class X, int N, class F>
  static void for_each_row(const X& t, const index<N>& o, const Concurrency::extent<N>& e, F f) {
    for (int d = 0; d < N; ++d)
      if (o[d] < 0 || e[d] <= 0 || o[d] + e[d] > t.extent[d])
        throw runtime_exception("copy: the section lies outside the texture", e_invalidarg);
    const std::size_t tb = t.texel_bytes(), base = t.h_.off + t.bytes_of_levels(0, t.level0_);
    const std::size_t run = static_cast<std::size_t>(e[N - 1]) * tb;
    Concurrency::extent<N> outer = e;
    outer[N - 1] = 1;
    const long long rows = outer.size();
    for (long long r = 0; r < rows; ++r) {
      const index<N> i = delinearize(r, outer);
      long long lin = 0;
      for (int d = 0; d < N; ++d) lin = lin * t.extent[d] + o[d] + i[d];
      f(base + static_cast<std::size_t>(lin) * tb, run, static_cast<std::size_t>(r) * run);
    }
  }
  template <class X, class Y> static bool same_shape(const X& a, const Y& b) {
    return a.extent == b.extent && a.levels_ == b.levels_ && a.bits_ == b.bits_;
  }
};

inline void check_bytes(std::size_t have, std::size_t need, const char* what) {
  if (have < need)
    throw runtime_exception((std::string(what) + ": the byte size is smaller than the texture's data_length").c_str(),
                            e_invalidarg);
}
template <class T, class It> void write_elements(const texture_access::range& r, It first, It last) {
  if (static_cast<std::size_t>(std::distance(first, last)) < r.texels)
    throw runtime_exception("copy: the source range is smaller than the texture", e_invalidarg);
  std::vector<unsigned char> bytes(r.bytes);
  const std::size_t step = r.bytes / r.texels;
  for (std::size_t k = 0; k < r.texels; ++k, ++first) store_texel<T>(bytes.data() + k * step, r.bits, T(*first));
  write_buffer(*r.buf, r.off, bytes.data(), r.bytes);
}
template <class T, class Out> Out read_elements(const texture_access::range& r, Out out) {
  std::vector<unsigned char> bytes(r.bytes);
  read_buffer(*r.buf, r.off, bytes.data(), r.bytes);
  const std::size_t step = r.bytes / r.texels;
  for (std::size_t k = 0; k < r.texels; ++k, ++out) *out = load_texel<T>(bytes.data() + k * step, r.bits);
  return out;
}
inline void copy_range(const texture_access::range& s, const texture_access::range& d) {
  if (s.off == 0 && d.off == 0 && s.bytes == s.buf->bytes && d.bytes == d.buf->bytes) {
    copy_buffer(*s.buf, *d.buf);
    return;
  }
  std::vector<unsigned char> tmp(s.bytes);
  read_buffer(*s.buf, s.off, tmp.data(), s.bytes);
  write_buffer(*d.buf, d.off, tmp.data(), d.bytes);
}
} // namespace detail

namespace graphics {
namespace detail_copy {
using Concurrency::detail::texture_access;
template <class Src, class Dst> void textures(const Src& src, const Dst& dst) {
  if (!texture_access::same_shape(src, dst))
    throw runtime_exception("copy: the textures differ in extent, mipmap levels or bits_per_scalar_element",
                            Concurrency::detail::e_invalidarg);
  Concurrency::detail::copy_range(texture_access::of(src), texture_access::of(dst));
}
template <class Dst> void from_bytes(const void* src, unsigned int n, const Dst& dst) {
  const auto r = texture_access::of(dst);
  Concurrency::detail::check_bytes(n, r.bytes, "copy");
  Concurrency::detail::write_buffer(*r.buf, r.off, src, r.bytes);
}
template <class X, int N> std::size_t region_bytes(const X& t, const Concurrency::extent<N>& e) {
  return static_cast<std::size_t>(e.size()) * texture_access::texel_bytes(t);
}
// Section of the most detailed level <-> packed bytes. Many rows from the GPU:
// one transfer of the whole buffer first (as copy.h does for views).
template <class X, int N>
std::vector<unsigned char> read_region(const X& t, const index<N>& o, const Concurrency::extent<N>& e) {
  std::vector<unsigned char> out(region_bytes(t, e));
  Concurrency::detail::buffer& b = *texture_access::of(t).buf;
  if (e.size() / e[N - 1] > 64 && !b.host_current())
    b.prepare(Concurrency::detail::location::host, Concurrency::detail::buffer::access::read);
  texture_access::for_each_row(t, o, e, [&](std::size_t off, std::size_t n, std::size_t pos) {
    Concurrency::detail::read_buffer(b, off, out.data() + pos, n);
  });
  return out;
}
template <class X, int N>
void write_region(const X& t, const index<N>& o, const Concurrency::extent<N>& e, const unsigned char* in) {
  Concurrency::detail::buffer& b = *texture_access::of(t).buf;
  if (e.size() / e[N - 1] > 64 && !b.host_current())
    b.prepare(Concurrency::detail::location::host, Concurrency::detail::buffer::access::write);
  texture_access::for_each_row(t, o, e, [&](std::size_t off, std::size_t n, std::size_t pos) {
    Concurrency::detail::write_buffer(b, off, in + pos, n);
  });
}
template <class Src> void to_bytes(const Src& src, void* dst, unsigned int n) {
  const auto r = texture_access::of(src);
  Concurrency::detail::check_bytes(n, r.bytes, "copy");
  Concurrency::detail::read_buffer(*r.buf, r.off, dst, r.bytes);
}
} // namespace detail_copy

// ---- texture <-> texture
template <class T, int N> void copy(const texture<T, N>& src, texture<T, N>& dst) { detail_copy::textures(src, dst); }
template <class T, int N> void copy(const texture<T, N>& src, const writeonly_texture_view<T, N>& dst) {
  detail_copy::textures(texture_view<const T, N>(src, 0, 1), dst);
}
template <class T, int N> void copy(const texture_view<const T, N>& src, const texture_view<T, N>& dst) {
  detail_copy::textures(src, dst);
}
template <class T, int N> void copy(const texture<T, N>& src, const texture_view<T, N>& dst) {
  detail_copy::textures(texture_view<const T, N>(src, 0, 1), dst);
}
template <class T, int N> void copy(const texture_view<const T, N>& src, texture<T, N>& dst) {
  detail_copy::textures(src, dst);
}

// ---- host memory in the storage format
template <class T, int N> void copy(const texture<T, N>& src, void* dst, unsigned int dst_byte_size) {
  detail_copy::to_bytes(src, dst, dst_byte_size);
}
template <class T, int N> void copy(const texture_view<const T, N>& src, void* dst, unsigned int dst_byte_size) {
  detail_copy::to_bytes(src, dst, dst_byte_size);
}
template <class T, int N> void copy(const void* src, unsigned int src_byte_size, texture<T, N>& dst) {
  detail_copy::from_bytes(src, src_byte_size, dst);
}
template <class T, int N> void copy(const void* src, unsigned int src_byte_size, const texture_view<T, N>& dst) {
  detail_copy::from_bytes(src, src_byte_size, dst);
}
template <class T, int N>
void copy(const void* src, unsigned int src_byte_size, const writeonly_texture_view<T, N>& dst) {
  detail_copy::from_bytes(src, src_byte_size, dst);
}

// ---- iterators over value_type elements
template <class It, class T, int N, class = Concurrency::detail::iter_t<It>>
void copy(It first, It last, texture<T, N>& dst) {
  Concurrency::detail::write_elements<T>(detail_copy::texture_access::of(dst), first, last);
}
template <class It, class T, int N, class = Concurrency::detail::iter_t<It>>
void copy(It first, It last, const texture_view<T, N>& dst) {
  Concurrency::detail::write_elements<T>(detail_copy::texture_access::of(dst), first, last);
}
template <class It, class T, int N, class = Concurrency::detail::iter_t<It>>
void copy(It first, It last, const writeonly_texture_view<T, N>& dst) {
  Concurrency::detail::write_elements<T>(detail_copy::texture_access::of(dst), first, last);
}
template <class T, int N, class Out, class = Concurrency::detail::iter_t<Out>>
void copy(const texture<T, N>& src, Out dst) {
  Concurrency::detail::read_elements<T>(detail_copy::texture_access::of(src), dst);
}
template <class T, int N, class Out, class = Concurrency::detail::iter_t<Out>>
void copy(const texture_view<const T, N>& src, Out dst) {
  Concurrency::detail::read_elements<T>(detail_copy::texture_access::of(src), dst);
}

// ---- sections of the most detailed level (an origin and an extent in each texture)
template <class T, int N>
void copy(const texture<T, N>& src, const index<N>& src_offset, texture<T, N>& dst, const index<N>& dst_offset,
          const Concurrency::extent<N>& copy_extent) {
  const auto bytes = detail_copy::read_region(src, src_offset, copy_extent);
  detail_copy::write_region(dst, dst_offset, copy_extent, bytes.data());
}
template <class T, int N>
void copy(const texture<T, N>& src, const index<N>& src_offset, const Concurrency::extent<N>& copy_extent, void* dst,
          unsigned int dst_byte_size) {
  const auto bytes = detail_copy::read_region(src, src_offset, copy_extent);
  Concurrency::detail::check_bytes(dst_byte_size, bytes.size(), "copy");
  std::memcpy(dst, bytes.data(), bytes.size());
}
template <class T, int N>
void copy(const void* src, unsigned int src_byte_size, texture<T, N>& dst, const index<N>& dst_offset,
          const Concurrency::extent<N>& copy_extent) {
  Concurrency::detail::check_bytes(src_byte_size, detail_copy::region_bytes(dst, copy_extent), "copy");
  detail_copy::write_region(dst, dst_offset, copy_extent, static_cast<const unsigned char*>(src));
}
template <class T, int N, class Out, class = Concurrency::detail::iter_t<Out>>
void copy(const texture<T, N>& src, const index<N>& src_offset, const Concurrency::extent<N>& copy_extent, Out dst) {
  const auto bytes = detail_copy::read_region(src, src_offset, copy_extent);
  const unsigned bits = src.get_bits_per_scalar_element(), step = bytes.size() / copy_extent.size();
  for (std::size_t k = 0; k < bytes.size(); k += step, ++dst) *dst = Concurrency::detail::load_texel<T>(bytes.data() + k, bits);
}
template <class It, class T, int N, class = Concurrency::detail::iter_t<It>>
void copy(It first, It last, texture<T, N>& dst, const index<N>& dst_offset, const Concurrency::extent<N>& copy_extent) {
  if (std::distance(first, last) < copy_extent.size())
    throw runtime_exception("copy: the source range is smaller than the copy extent", Concurrency::detail::e_invalidarg);
  std::vector<unsigned char> bytes(detail_copy::region_bytes(dst, copy_extent));
  const unsigned bits = dst.get_bits_per_scalar_element(), step = bytes.size() / copy_extent.size();
  for (std::size_t k = 0; k < bytes.size(); k += step, ++first) Concurrency::detail::store_texel<T>(bytes.data() + k, bits, T(*first));
  detail_copy::write_region(dst, dst_offset, copy_extent, bytes.data());
}

// ---- asynchronous forms: the same overloads on a worker thread, ordered
// after earlier asynchronous operations on the same data (as Concurrency::
// copy_async). Textures are held by reference (they must outlive the
// operation, as in AMP), views and iterators by value.
namespace detail_copy {
template <class X> using texture_probe = decltype(std::declval<const X&>().get_bits_per_scalar_element());
template <class X, class = void> struct is_texture_like : std::false_type {};
template <class X> struct is_texture_like<X, std::void_t<texture_probe<X>>> : std::true_type {};
template <class X> Concurrency::detail::buffer* buffer_of(const X& x) {
  if constexpr (is_texture_like<X>::value) return texture_access::of(x).buf;
  else return nullptr;
}
template <class A> struct hold {
  using type = std::decay_t<A>;
  static type get(A&& a) { return std::forward<A>(a); }
};
template <class T, int N> struct hold<texture<T, N>&> {
  static std::reference_wrapper<texture<T, N>> get(texture<T, N>& t) { return std::ref(t); }
};
template <class T, int N> struct hold<const texture<T, N>&> {
  static std::reference_wrapper<const texture<T, N>> get(const texture<T, N>& t) { return std::cref(t); }
};
} // namespace detail_copy

template <class... A>
auto copy_async(A&&... a) -> decltype(graphics::copy(std::forward<A>(a)...), completion_future()) {
  std::vector<Concurrency::detail::buffer*> bufs{detail_copy::buffer_of(a)...};
  auto args = std::make_tuple(detail_copy::hold<A>::get(std::forward<A>(a))...);
  return Concurrency::detail::launch_async(std::move(bufs), [args]() AMP_HOST_ONLY mutable {
    std::apply([](auto&... x) AMP_HOST_ONLY { graphics::copy(Concurrency::detail::unwrap(x)...); }, args);
  });
}

template <class T, int N> void texture<T, N>::copy_to(texture& dest) const { graphics::copy(*this, dest); }
template <class T, int N> void texture<T, N>::copy_to(const writeonly_texture_view<T, N>& dest) const {
  graphics::copy(*this, dest);
}
template <class T, int N> template <class It> void texture<T, N>::fill(It first, It last) {
  graphics::copy(first, last, *this);
}
template <class T, int N> void texture<T, N>::copy_from_bytes(const void* src, unsigned int n) {
  graphics::copy(src, n, *this);
}

namespace direct3d {
// Masked sums of absolute differences (HLSL msad4): for each of the 4 byte
// alignments i of the 8 source bytes, accum[i] plus the sum over the 4
// reference bytes r_j != 0 of |r_j - source byte i+j|.
AMP_FN uint_4 msad4(unsigned int reference, const uint_2& source, const uint_4& accum) {
  const unsigned long long src = (static_cast<unsigned long long>(source.y) << 32) | source.x;
  uint_4 r = accum;
  unsigned* out = reinterpret_cast<unsigned*>(&r);
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) {
      const int ref = static_cast<int>((reference >> (8 * j)) & 0xffu);
      const int s = static_cast<int>((src >> (8 * (i + j))) & 0xffu);
      if (ref != 0) out[i] += static_cast<unsigned>(ref > s ? ref - s : s - ref);
    }
  return r;
}
} // namespace direct3d

} // namespace graphics
} // namespace Concurrency
