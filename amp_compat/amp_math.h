// <amp_math.h>: concurrency::fast_math (float) and concurrency::precise_math
// (float and double). Each function forwards to the C math library, which
// Clang's CUDA headers also provide in device code; fast_math may use the
// faster, less accurate device intrinsics where CUDA has them.
#pragma once
#include "amp.h"

#include <cmath>

namespace Concurrency {
namespace detail {
namespace math {
#if AMP_DEVICE_PASS
AMP_FN float fast_sin(float x) { return __sinf(x); }
AMP_FN float fast_cos(float x) { return __cosf(x); }
AMP_FN float fast_exp(float x) { return __expf(x); }
AMP_FN float fast_log(float x) { return __logf(x); }
AMP_FN float fast_pow(float x, float y) { return __powf(x, y); }
#else
inline float fast_sin(float x) { return std::sin(x); }
inline float fast_cos(float x) { return std::cos(x); }
inline float fast_exp(float x) { return std::exp(x); }
inline float fast_log(float x) { return std::log(x); }
inline float fast_pow(float x, float y) { return std::pow(x, y); }
#endif
} // namespace math
} // namespace detail

// One-argument functions present in both namespaces.
#define AMP_MATH_UNARY(X)                                                                     \
  X(acos) X(asin) X(atan) X(ceil) X(cosh) X(exp2) X(fabs) X(floor) X(log10) X(log2) X(round) \
  X(sinh) X(sqrt) X(tan) X(tanh) X(trunc)
#define AMP_MATH_BINARY(X) X(atan2) X(fmax) X(fmin) X(fmod)

namespace fast_math {
#define AMP_F1(N) AMP_FN float N(float x) { return ::N##f(x); } AMP_FN float N##f(float x) { return ::N##f(x); }
#define AMP_F2(N) AMP_FN float N(float x, float y) { return ::N##f(x, y); } \
  AMP_FN float N##f(float x, float y) { return ::N##f(x, y); }
AMP_MATH_UNARY(AMP_F1)
AMP_MATH_BINARY(AMP_F2)
#undef AMP_F1
#undef AMP_F2
AMP_FN float sin(float x) { return detail::math::fast_sin(x); }
AMP_FN float sinf(float x) { return detail::math::fast_sin(x); }
AMP_FN float cos(float x) { return detail::math::fast_cos(x); }
AMP_FN float cosf(float x) { return detail::math::fast_cos(x); }
AMP_FN float exp(float x) { return detail::math::fast_exp(x); }
AMP_FN float expf(float x) { return detail::math::fast_exp(x); }
AMP_FN float log(float x) { return detail::math::fast_log(x); }
AMP_FN float logf(float x) { return detail::math::fast_log(x); }
AMP_FN float pow(float x, float y) { return detail::math::fast_pow(x, y); }
AMP_FN float powf(float x, float y) { return detail::math::fast_pow(x, y); }
AMP_FN float rsqrt(float x) { return 1.0f / ::sqrtf(x); }
AMP_FN float rsqrtf(float x) { return 1.0f / ::sqrtf(x); }
} // namespace fast_math

namespace precise_math {
#define AMP_P1(N) AMP_FN float N(float x) { return ::N##f(x); } AMP_FN float N##f(float x) { return ::N##f(x); } \
  AMP_FN double N(double x) { return ::N(x); }
#define AMP_P2(N) AMP_FN float N(float x, float y) { return ::N##f(x, y); } \
  AMP_FN float N##f(float x, float y) { return ::N##f(x, y); } AMP_FN double N(double x, double y) { return ::N(x, y); }
AMP_MATH_UNARY(AMP_P1)
AMP_MATH_BINARY(AMP_P2)
AMP_P1(sin) AMP_P1(cos) AMP_P1(exp) AMP_P1(log) AMP_P1(cbrt) AMP_P1(erf) AMP_P1(erfc) AMP_P1(expm1) AMP_P1(log1p)
AMP_P1(acosh) AMP_P1(asinh) AMP_P1(atanh) AMP_P1(tgamma) AMP_P1(lgamma) AMP_P1(rint) AMP_P1(nearbyint)
AMP_P2(pow) AMP_P2(hypot) AMP_P2(copysign) AMP_P2(fdim) AMP_P2(remainder) AMP_P2(nextafter)
#undef AMP_P1
#undef AMP_P2
AMP_FN float rsqrt(float x) { return 1.0f / ::sqrtf(x); }
AMP_FN double rsqrt(double x) { return 1.0 / ::sqrt(x); }
} // namespace precise_math
#undef AMP_MATH_UNARY
#undef AMP_MATH_BINARY
} // namespace Concurrency
