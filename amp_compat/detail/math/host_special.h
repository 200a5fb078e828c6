// Host implementations of the <amp_math.h> functions the C library lacks
// (the device backend has device versions of all of them, stage "math";
// target_math.h chooses).
//
// Method: double results are computed in long double (64-bit significand on
// x86-64) and rounded once, float results through the double function, so
// every function here is within 1 ulp of the exact value (measured against a
// 113-bit reference in tests/test_math_accuracy.cpp). The inverse functions
// (erfinv, erfcinv, probit) refine a rough start with Newton's method on erfl/
// erfcl until the step is below long double precision; in the tails they
// iterate on log(Phi(x)), which stays well scaled down to the smallest
// denormal argument.
#pragma once
#include "common.h"

#include <cmath>

namespace Concurrency {
namespace detail {
namespace math {
namespace host_impl {

using ld = long double;
constexpr ld two_over_sqrt_pi_l = 1.128379167095512573896158903121545172L;
constexpr ld sqrt_pi_over_2_l = 0.886226925452758013649083741671393005L;
constexpr ld inv_sqrt2_l = 0.707106781186547524400844362104849039L;
constexpr ld inv_sqrt_2pi_l = 0.398942280401432677939946059934381868L;

// ---- sinpi, cospi: exact reduction, double-double angle.
// sin and cos of pi*t for the reduced t of x (|t| <= 1/4, x = t + q/2 + 2n),
// in long double from the double-double angle hi + lo; q returns the quadrant.
inline void half_turn_sincos(double x, ld* s, ld* c, int* q) {
  const double t = reduce_half_turns(x, q);
  double lo;
  const double hi = pi_times(t, &lo);
  *s = std::sin(static_cast<ld>(hi)) + static_cast<ld>(lo) * std::cos(static_cast<ld>(hi));
  *c = std::cos(static_cast<ld>(hi)) - static_cast<ld>(lo) * std::sin(static_cast<ld>(hi));
}
inline double sinpi(double x) {
  if (!__builtin_isfinite(x)) return x - x;
  int q;
  ld s, c;
  half_turn_sincos(x, &s, &c, &q);
  const ld r = q == 0 ? s : q == 1 ? c : q == 2 ? -s : -c;
  // sinpi(n) is a zero with the sign of x (C23, IEEE 754-2019).
  return r == 0 ? std::copysign(0.0, x) : static_cast<double>(r);
}
inline double cospi(double x) {
  if (!__builtin_isfinite(x)) return x - x;
  int q;
  ld s, c;
  half_turn_sincos(x, &s, &c, &q);
  const ld r = q == 0 ? c : q == 1 ? -s : q == 2 ? -c : s;
  return r == 0 ? 0.0 : static_cast<double>(r); // cospi(n + 1/2) is +0
}
inline double tanpi(double x) { return math::tanpi(x); }

// ---- erfinv, erfcinv, probit, phi.
// Phi(x) = P(N(0,1) <= x).
inline ld phi_l(ld x) { return 0.5L * std::erfc(-x * inv_sqrt2_l); }

// x <= 0 with Phi(x) = p, for 0 < p <= 1/2.
inline ld probit_lower(ld p) {
  // Start: Abramowitz & Stegun 26.2.23 (absolute error < 4.5e-4).
  const ld t = std::sqrt(-2.0L * std::log(p));
  ld x = -(t - (2.515517L + 0.802853L * t + 0.010328L * t * t) /
                   (1.0L + 1.432788L * t + 0.189269L * t * t + 0.001308L * t * t * t));
  const ld lp = std::log(p);
  for (int i = 0; i < 40; ++i) {
    // Newton on f(x) = log Phi(x) - log p; f'(x) = phi(x) / Phi(x).
    const ld P = phi_l(x);
    const ld dens = inv_sqrt_2pi_l * std::exp(-0.5L * x * x);
    const ld dx = (std::log(P) - lp) * P / dens;
    x -= dx;
    if (!(std::fabs(dx) > 1e-19L * std::fabs(x))) break;
  }
  return x;
}

// erfinv(y) for |y| <= 1/2: Newton on erf from y*sqrt(pi)/2 (below the root,
// erf being concave there, so the iteration climbs monotonically).
inline ld erfinv_small(ld y) {
  ld x = y * sqrt_pi_over_2_l;
  for (int i = 0; i < 40; ++i) {
    const ld dx = (std::erf(x) - y) / (two_over_sqrt_pi_l * std::exp(-x * x));
    x -= dx;
    if (!(std::fabs(dx) > 1e-19L * std::fabs(x))) break;
  }
  return x;
}

inline double erfcinv(double z) {
  if (!(z >= 0 && z <= 2)) return (z - z) / (z - z); // NaN, also for NaN z
  if (z == 0) return HUGE_VAL;
  if (z == 2) return -HUGE_VAL;
  if (z > 1) return -erfcinv(2.0 - z); // 2 - z is exact for z in [1, 2]
  if (z >= 0.5) return static_cast<double>(erfinv_small(1.0 - z)); // 1 - z exact
  return static_cast<double>(-probit_lower(static_cast<ld>(z) * 0.5L) * inv_sqrt2_l);
}
inline double erfinv(double y) {
  if (!(std::fabs(y) <= 1)) return (y - y) / (y - y);
  if (std::fabs(y) == 1) return std::copysign(HUGE_VAL, y);
  if (std::fabs(y) <= 0.5) return static_cast<double>(erfinv_small(y));
  const double r = erfcinv(1.0 - std::fabs(y)); // exact for |y| in [1/2, 1]
  return std::copysign(r, y);
}
inline double probit(double p) {
  if (!(p >= 0 && p <= 1)) return (p - p) / (p - p);
  if (p == 0) return -HUGE_VAL;
  if (p == 1) return HUGE_VAL;
  if (p == 0.5) return 0; // Newton would stop within 1e-19 of it
  if (p < 0.5) return static_cast<double>(probit_lower(p));
  return static_cast<double>(-probit_lower(1.0 - p)); // exact for p in [1/2, 1]
}
inline double phi(double x) { return static_cast<double>(phi_l(x)); }

// ---- reciprocal roots.
inline double rsqrt(double x) { return rsqrt_ieee(x); } // common.h: as on the GPU
inline float rsqrt(float x) { return rsqrt_ieee(x); }
inline double rcbrt(double x) { return static_cast<double>(1.0L / std::cbrt(static_cast<ld>(x))); }

// float versions: through the double function, one more rounding.
#define AMP_HOST_SPECIAL_FLOAT(N) \
  inline float N(float x) { return static_cast<float>(N(static_cast<double>(x))); }
AMP_HOST_SPECIAL_FLOAT(sinpi)
AMP_HOST_SPECIAL_FLOAT(cospi)
AMP_HOST_SPECIAL_FLOAT(tanpi)
AMP_HOST_SPECIAL_FLOAT(erfinv)
AMP_HOST_SPECIAL_FLOAT(erfcinv)
AMP_HOST_SPECIAL_FLOAT(probit)
AMP_HOST_SPECIAL_FLOAT(phi)
AMP_HOST_SPECIAL_FLOAT(rcbrt)
#undef AMP_HOST_SPECIAL_FLOAT

// ---- fast_math on the host: the float C library (as accurate as precise_math).
inline float fast_sin(float x) { return ::sinf(x); }
inline float fast_cos(float x) { return ::cosf(x); }
inline float fast_exp(float x) { return ::expf(x); }
inline float fast_exp2(float x) { return ::exp2f(x); }
inline float fast_log(float x) { return ::logf(x); }
inline float fast_log10(float x) { return ::log10f(x); }
inline float fast_log2(float x) { return ::log2f(x); }
inline float fast_rsqrt(float x) { return rsqrt(x); }
inline float fast_pow(float x, float y) { return ::powf(x, y); }
inline void fast_sincos(float x, float* s, float* c) { ::sincosf(x, s, c); }

} // namespace host_impl
} // namespace math
} // namespace detail
} // namespace Concurrency
