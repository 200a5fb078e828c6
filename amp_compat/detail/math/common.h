// Target-independent algorithms of <amp_math.h>: written once, compiled for
// the host and the GPU alike (they call only functions both have).
#pragma once
#include "../config.h"

#include <cmath>

namespace Concurrency {
namespace detail {
namespace math {

// rsqrt, one implementation on every target so that the GPU and the host give
// the same bits: a correctly rounded square root and division (IEEE
// operations both have; the GPU build's sqrtf is correctly rounded too,
// cmake/amp_compat_gpu.cmake). float: computed in double and rounded once
// more (within 0.5 ulp plus that rounding); double: within 1 ulp. CUDA's
// rsqrt (2 ulp) and the host's long double quotient each differed from the
// other in the last bit.
AMP_FN double rsqrt_ieee(double x) { return 1.0 / ::sqrt(x); }
AMP_FN float rsqrt_ieee(float x) { return static_cast<float>(1.0 / ::sqrt(static_cast<double>(x))); }

// hypot for float, the same bits on every target: in double the squares are
// exact (24-bit significands), fma adds them with one rounding, sqrt rounds
// once more and the float conversion last: within 0.5 ulp plus 2^-29
// relative, without overflow or underflow (float's range squared fits in
// double's). An infinite argument gives +inf even with a NaN (C's rule).
AMP_FN float hypotf_ieee(float x, float y) {
  if (__builtin_isinf(x) || __builtin_isinf(y)) return __builtin_huge_valf();
  const double a = x, b = y;
  return static_cast<float>(::sqrt(::fma(a, a, b * b)));
}

// pi as the sum of two doubles (pi_hi = pi rounded to double).
constexpr double pi_hi = 3.141592653589793116;
constexpr double pi_lo = 1.2246467991473532e-16;

// For finite x: x = t + q/2 (mod 2) with t in [-1/4, 1/4] and q in 0..3; every
// step is exact (fmod, doubling and subtracting a multiple of 1/2), so the
// *pi functions lose nothing to argument reduction, even for huge x.
AMP_FN double reduce_half_turns(double x, int* q) {
  const double r = ::fmod(x, 2.0);
  const double k = ::rint(2.0 * r);
  *q = static_cast<int>(k) & 3;
  return r - 0.5 * k;
}

// pi * t as hi + lo (|lo| <= ulp(hi)), t exact.
AMP_FN double pi_times(double t, double* lo) {
  const double hi = pi_hi * t;
  *lo = ::fma(pi_hi, t, -hi) + pi_lo * t;
  return hi;
}

// tanpi(x) = tan(pi x). Neither the C library nor CUDA has it. IEEE 754-2019
// signs: tanpi(n + 1/2) is +inf for even n and -inf for odd n; tanpi(n) is +0
// for positive even and negative odd n, -0 otherwise. The double-double angle
// keeps the error at tan's own plus one rounding (and one for the reciprocal).
AMP_FN double tanpi(double x) {
  if (!__builtin_isfinite(x)) return x - x; // NaN (also for +-inf)
  int q;
  const double t = reduce_half_turns(x, &q);
  if (t == 0) {
    if (q & 1) return q == 1 ? HUGE_VAL : -HUGE_VAL;
    return q == 0 ? ::copysign(0.0, x) : -::copysign(0.0, x);
  }
  double lo;
  const double hi = pi_times(t, &lo);
  const double th = ::tan(hi);
  const double tn = th + lo * (1.0 + th * th);
  return (q & 1) ? -1.0 / tn : tn;
}
AMP_FN float tanpi(float x) { return static_cast<float>(tanpi(static_cast<double>(x))); }

// scalb(x, n) = x * 2^n for an integral n (NaN otherwise), as C's scalb.
template <class T> AMP_FN T scalb(T x, T n) {
  if (__builtin_isnan(x) || __builtin_isnan(n)) return x + n;
  if (__builtin_isinf(n)) {
    if (n > 0) return x == 0 ? (n - n) : x * n;
    return __builtin_isinf(x) ? (n - n) : x / -n;
  }
  if (std::trunc(n) != n) return (n - n) / (n - n); // NaN: n is not an integer
  const T lim = 65536;
  const int e = static_cast<int>(n > lim ? lim : (n < -lim ? -lim : n));
  return std::scalbn(x, e);
}

// The sign of Gamma(x), as the sign output of lgamma(x, &sign): +1 for x > 0,
// NaN, +0, -inf and the poles (negative integers); -1 for -0; otherwise
// (-1)^ceil(-x) for negative non-integers. One formula on every target, so
// the host and the GPU agree (CUDA has no lgamma_r).
template <class T> AMP_FN int lgamma_sign(T x) {
  if (!(x <= 0)) return 1;
  if (x == 0) return __builtin_signbit(x) ? -1 : 1;
  if (__builtin_isinf(x)) return 1;
  const T f = std::floor(x);
  if (f == x) return 1;
  return std::fmod(f, T(2)) == 0 ? 1 : -1;
}

} // namespace math
} // namespace detail
} // namespace Concurrency
