// sampler (AMP spec 10.3) and the addressing/filtering arithmetic behind
// texture_view<const T, N>::sample and gather_*.
//
// Texture coordinates are normalised, x along the width (extent[N-1]), y along
// the height (extent[N-2]), z along the depth (extent[0]), as in Direct3D.
// Point sampling reads texel floor(u * size); linear filtering blends the
// 2^N texels around u * size - 0.5 with weights frac(.) and 1 - frac(.),
// dimension by dimension, then converts to the element type (norm/unorm clamp).
// Address modes act on texel indices exactly as Direct3D defines them on
// coordinates: wrap (modulo), mirror (reflect every size texels), clamp (edge
// texel), border (the sampler's border colour outside the texture).
//
// The host and kernels run this same code with floating-point contraction off
// (no FMA on one side only), so results are bit-identical across accelerators.
#pragma once
#include "format.h"

namespace Concurrency {
namespace graphics {

enum filter_mode { filter_point = 0, filter_linear = 1, filter_unknown = 0xFFFFFFFF };
enum address_mode { address_wrap = 1, address_mirror = 2, address_clamp = 3, address_border = 4, address_unknown = 0xFFFFFFFF };

class sampler {
public:
  AMP_FN sampler() : sampler(filter_linear, address_clamp) {}
  AMP_FN sampler(filter_mode f) : sampler(f, address_clamp) {}
  AMP_FN sampler(address_mode a, float_4 border = float_4(0.0f, 0.0f, 0.0f, 0.0f)) : sampler(filter_linear, a, border) {}
  AMP_FN sampler(filter_mode f, address_mode a, float_4 border = float_4(0.0f, 0.0f, 0.0f, 0.0f))
      : filter_(f), address_(a), border_(border) {
    validate();
  }
  sampler(const sampler&) = default;
  AMP_FN sampler& operator=(const sampler& o) {
    filter_ = o.filter_;
    address_ = o.address_;
    border_ = o.border_;
    return *this;
  }

  AMP_FN graphics::filter_mode get_filter_mode() const { return filter_; }
  AMP_FN graphics::address_mode get_address_mode() const { return address_; }
  AMP_FN float_4 get_border_color() const { return border_; }

private:
  // Host: bad modes raise runtime_exception. (A template, so that the device
  // pass never instantiates the throwing branch.)
  template <bool Host = !Concurrency::detail::device_pass> AMP_FN void validate() const {
    if constexpr (Host) check();
  }
  void check() const {
    if (filter_ != filter_point && filter_ != filter_linear)
      throw runtime_exception("sampler: unsupported filter_mode", Concurrency::detail::e_invalidarg);
    if (address_ < address_wrap || address_ > address_border)
      throw runtime_exception("sampler: unsupported address_mode", Concurrency::detail::e_invalidarg);
  }
  graphics::filter_mode filter_;
  graphics::address_mode address_;
  float_4 border_;
};

} // namespace graphics

namespace detail {

// Maps texel index i of a dimension of `size` texels; -1 means "border".
AMP_FN int address_texel(int i, int size, graphics::address_mode m) {
  switch (m) {
  case graphics::address_wrap: {
    const int r = i % size;
    return r < 0 ? r + size : r;
  }
  case graphics::address_mirror: {
    int r = i % (2 * size);
    if (r < 0) r += 2 * size;
    return r < size ? r : 2 * size - 1 - r;
  }
  case graphics::address_clamp: return i < 0 ? 0 : i >= size ? size - 1 : i;
  default: return i < 0 || i >= size ? -1 : i;
  }
}

// floor() that is the same instruction sequence everywhere.
AMP_FN int floor_to_int(float x) {
  const int t = static_cast<int>(x);
  return (static_cast<float>(t) > x) ? t - 1 : t;
}

// The texels around coordinate c (in texels, D3D order: c[0] = x = innermost)
// of a level of `size` (AMP order: size[0] = outermost). Calls
// fetch(index<N>, corner) for each of the 2^N corners (bit d of corner set:
// the upper neighbour in dimension x, y, z = d) with the index already
// addressed, or with a negative component for "border".
template <int N> struct texel_cell {
  int lo[N];     // lower texel per dimension, AMP order
  float frac[N]; // weight of the upper texel, AMP order
};
template <int N> AMP_FN texel_cell<N> locate(const float* coord, const Concurrency::extent<N>& size, bool linear) {
  AMP_FP_EXACT
  texel_cell<N> c;
  for (int d = 0; d < N; ++d) {
    const float t = coord[N - 1 - d] * static_cast<float>(size[d]) - (linear ? 0.5f : 0.0f);
    c.lo[d] = floor_to_int(t);
    c.frac[d] = t - static_cast<float>(c.lo[d]);
  }
  return c;
}
template <int N>
AMP_FN index<N> corner_index(const texel_cell<N>& c, int corner, const Concurrency::extent<N>& size,
                             graphics::address_mode m, bool& border) {
  index<N> i;
  border = false;
  for (int d = 0; d < N; ++d) {
    const int up = (corner >> (N - 1 - d)) & 1; // bit 0 = x = dimension N-1
    i[d] = address_texel(c.lo[d] + up, size[d], m);
    border |= i[d] < 0;
  }
  return i;
}

// Texel values as K floats (the float_4 border colour supplies the first K).
template <class T> AMP_FN void texel_to_floats(const T& v, float* out) {
  using tr = texel_traits<T>;
  const auto* c = reinterpret_cast<const typename tr::scalar*>(&v);
  for (int k = 0; k < tr::channels; ++k) out[k] = static_cast<float>(c[k]);
}
template <class T> AMP_FN T floats_to_texel(const float* in) {
  using tr = texel_traits<T>;
  using S = typename tr::scalar;
  T v;
  S* c = reinterpret_cast<S*>(&v);
  for (int k = 0; k < tr::channels; ++k) c[k] = S(in[k]);
  return v;
}

// Samples one level. load(index<N>) reads a texel of that level.
template <class T, int N, class Load>
AMP_FN T sample_level(const graphics::sampler& s, const float* coord, const Concurrency::extent<N>& size, Load load) {
  AMP_FP_EXACT
  constexpr int K = texel_traits<T>::channels;
  const bool linear = s.get_filter_mode() == graphics::filter_linear;
  const texel_cell<N> cell = locate<N>(coord, size, linear);
  const graphics::float_4 border = s.get_border_color();
  const float* bc = reinterpret_cast<const float*>(&border);
  float v[1 << N][K];
  const int corners = linear ? (1 << N) : 1;
  for (int c = 0; c < corners; ++c) {
    bool out;
    const index<N> i = corner_index<N>(cell, c, size, s.get_address_mode(), out);
    if (out) for (int k = 0; k < K; ++k) v[c][k] = bc[k];
    else texel_to_floats(load(i), v[c]);
  }
  // Blend along x, then y, then z: corners differing in bit 0 first.
  for (int d = 0; linear && d < N; ++d) {
    const float f = cell.frac[N - 1 - d];
    for (int c = 0; c < (1 << (N - 1 - d)); ++c)
      for (int k = 0; k < K; ++k) v[c][k] = v[2 * c][k] * (1.0f - f) + v[2 * c + 1][k] * f;
  }
  return floats_to_texel<T>(v[0]);
}

} // namespace detail
} // namespace Concurrency
