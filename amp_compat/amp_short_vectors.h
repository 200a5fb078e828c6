// <amp_short_vectors.h>: concurrency::graphics norm, unorm and the short
// vectors int_2 ... unorm_4 (one template, detail/graphics/short_vector.h),
// short_vector<T, N> and short_vector_traits<T>. Also reachable through
// concurrency::graphics::direct3d, with Microsoft's HLSL-style aliases
// (float4, int2, ...) there.
#pragma once
#include "amp.h"
#include "detail/graphics/short_vector.h"

// X(prefix, element type): the six element types of AMP's short vectors.
#define AMP_SV_TYPES(X)                                                                            \
  X(int, int) X(uint, unsigned int) X(float, float) X(double, double) X(norm, graphics::norm) X(unorm, graphics::unorm)

namespace Concurrency {
namespace detail {
template <class T> struct is_sv_scalar : std::false_type {};
#define AMP_SV_SCALAR(P, T) template <> struct is_sv_scalar<T> : std::true_type {};
AMP_SV_TYPES(AMP_SV_SCALAR)
#undef AMP_SV_SCALAR
} // namespace detail

namespace graphics {

typedef unsigned int uint;
#define AMP_SV_ALIASES(P, T)                                                                       \
  using P##_2 = detail::short_vec<T, 2>;                                                           \
  using P##_3 = detail::short_vec<T, 3>;                                                           \
  using P##_4 = detail::short_vec<T, 4>;
AMP_SV_TYPES(AMP_SV_ALIASES)
#undef AMP_SV_ALIASES

// short_vector<T, N>::type: T itself for N == 1, else the short vector.
template <class T, int N> struct short_vector {
  static_assert(detail::is_sv_scalar<T>::value && N >= 1 && N <= 4,
                "short_vector is not supported for this scalar type and length");
  using type = std::conditional_t<N == 1, T, Concurrency::detail::short_vec<T, N>>;
};

// short_vector_traits<T>: value_type and size of a short vector or a scalar.
template <class T> struct short_vector_traits {
  static_assert(detail::is_sv_scalar<T>::value, "short_vector_traits is not supported for this type");
  using value_type = T;
  static constexpr int size = 1;
};
template <class T, int N> struct short_vector_traits<Concurrency::detail::short_vec<T, N>> {
  using value_type = T;
  static constexpr int size = N;
};

namespace direct3d {
#define AMP_SV_D3D_ALIASES(P, T)                                                                   \
  typedef graphics::P##_2 P##2;                                                                    \
  typedef graphics::P##_3 P##3;                                                                    \
  typedef graphics::P##_4 P##4;
AMP_SV_TYPES(AMP_SV_D3D_ALIASES)
#undef AMP_SV_D3D_ALIASES
// Microsoft's header declares the graphics types once, in graphics; code that
// names them through direct3d (direct3d::float_4, direct3d::unorm) finds them here.
using namespace Concurrency::graphics;
} // namespace direct3d
} // namespace graphics
} // namespace Concurrency
#undef AMP_SV_TYPES
