// concurrency::fast_math and concurrency::precise_math, generated from the
// tables in table.h: the overloads Microsoft's amp_math.h declares (65 and
// 131 names), usable in restrict(amp) and restrict(cpu) code.
//
// Every function is a template with one defaulted parameter (`template <int =
// 0>`), never deduced, so a call looks and converts exactly as with a plain
// function (fast_math::sin(1.0) converts to float, as in AMP). The reason:
// under `using namespace concurrency::precise_math;` an unqualified sqrt(x)
// also sees the C library's ::sqrt (and, in the GPU pass, the device math
// library's overloads). Two plain functions with the same signature would make that call
// ambiguous; against a template the plain function wins the tie, and it
// computes the same function. Qualified calls always reach these definitions.
#pragma once
#include "table.h"
#include "target_math.h"

#define AMP_MATH_FN template <int = 0> AMP_FN

namespace Concurrency {

namespace precise_math {
// float N(float), float Nf(float), double N(double)
#define AMP_PRECISE_1_LIBM(N)                               \
  AMP_MATH_FN float N(float x) { return ::N##f(x); }        \
  AMP_MATH_FN float N##f(float x) { return ::N##f(x); }     \
  AMP_MATH_FN double N(double x) { return ::N(x); }
#define AMP_PRECISE_1_SPECIAL(N)                                                 \
  AMP_MATH_FN float N(float x) { return detail::math::target::N(x); }            \
  AMP_MATH_FN float N##f(float x) { return detail::math::target::N(x); }         \
  AMP_MATH_FN double N(double x) { return detail::math::target::N(x); }
#define AMP_PRECISE_2_LIBM(N)                                          \
  AMP_MATH_FN float N(float x, float y) { return ::N##f(x, y); }       \
  AMP_MATH_FN float N##f(float x, float y) { return ::N##f(x, y); }    \
  AMP_MATH_FN double N(double x, double y) { return ::N(x, y); }
AMP_MATH_PRECISE_1_LIBM(AMP_PRECISE_1_LIBM)
AMP_MATH_PRECISE_1_SPECIAL(AMP_PRECISE_1_SPECIAL)
AMP_MATH_PRECISE_2_LIBM(AMP_PRECISE_2_LIBM)
#undef AMP_PRECISE_1_LIBM
#undef AMP_PRECISE_1_SPECIAL
#undef AMP_PRECISE_2_LIBM
// pow for float: the double function rounded once to float (within 0.5 ulp
// plus a double rounding, on every target). CUDA's powf measured 4.55 ulp at
// (22.0495, -25.4148) on an H200, above its documented 4; glibc's powf is
// within 1. Exact cases (integral powers, 0, inf, NaN) are the same in double.
AMP_MATH_FN float pow(float x, float y) {
  return static_cast<float>(::pow(static_cast<double>(x), static_cast<double>(y)));
}
AMP_MATH_FN float powf(float x, float y) { return pow(x, y); }
AMP_MATH_FN double pow(double x, double y) { return ::pow(x, y); }

// hypot for float: one implementation on every target (common.h), so the GPU
// and the host give the same bits; double: each target's library.
AMP_MATH_FN float hypot(float x, float y) { return detail::math::hypotf_ieee(x, y); }
AMP_MATH_FN float hypotf(float x, float y) { return detail::math::hypotf_ieee(x, y); }
AMP_MATH_FN double hypot(double x, double y) { return ::hypot(x, y); }

// The functions of other shapes, float and double alike.
#define AMP_PRECISE_SHAPES(T, F)                                                                               \
  AMP_MATH_FN T fma##F(T x, T y, T z) { return ::fma##F(x, y, z); }                                            \
  AMP_MATH_FN T frexp##F(T x, int* e) { return ::frexp##F(x, e); }                                             \
  AMP_MATH_FN T ldexp##F(T x, int e) { return ::ldexp##F(x, e); }                                              \
  AMP_MATH_FN T scalbn##F(T x, int e) { return ::scalbn##F(x, e); }                                            \
  AMP_MATH_FN T scalb##F(T x, T e) { return detail::math::scalb(x, e); }                                       \
  AMP_MATH_FN int ilogb##F(T x) { return ::ilogb##F(x); }                                                      \
  AMP_MATH_FN T modf##F(T x, T* ip) { return ::modf##F(x, ip); }                                               \
  AMP_MATH_FN T remquo##F(T x, T y, int* quo) { return ::remquo##F(x, y, quo); }                               \
  AMP_MATH_FN void sincos##F(T x, T* s, T* c) { ::sincos##F(x, s, c); }                                        \
  AMP_MATH_FN T lgamma##F(T x, int* sign) {                                                                    \
    *sign = detail::math::lgamma_sign(x);                                                                      \
    return ::lgamma##F(x);                                                                                     \
  }                                                                                                            \
  AMP_MATH_FN T nan##F(int) { return static_cast<T>(__builtin_nan("")); }                                      \
  AMP_MATH_FN int signbit##F(T x) { return __builtin_signbit(x) ? 1 : 0; }
AMP_PRECISE_SHAPES(float, f)   // the f-suffixed names
AMP_PRECISE_SHAPES(double, )   // the double overloads
#undef AMP_PRECISE_SHAPES
// The unsuffixed names for float (nan has none: nan(int) is double).
AMP_MATH_FN float fma(float x, float y, float z) { return ::fmaf(x, y, z); }
AMP_MATH_FN float frexp(float x, int* e) { return ::frexpf(x, e); }
AMP_MATH_FN float ldexp(float x, int e) { return ::ldexpf(x, e); }
AMP_MATH_FN float scalbn(float x, int e) { return ::scalbnf(x, e); }
AMP_MATH_FN float scalb(float x, float e) { return detail::math::scalb(x, e); }
AMP_MATH_FN int ilogb(float x) { return ::ilogbf(x); }
AMP_MATH_FN float modf(float x, float* ip) { return ::modff(x, ip); }
AMP_MATH_FN float remquo(float x, float y, int* quo) { return ::remquof(x, y, quo); }
AMP_MATH_FN void sincos(float x, float* s, float* c) { ::sincosf(x, s, c); }
AMP_MATH_FN float lgamma(float x, int* sign) { return lgammaf(x, sign); }
AMP_MATH_FN int signbit(float x) { return signbitf(x); }

// Classification: int results (nonzero = true, always 1 here), platform FP_*.
#define AMP_PRECISE_CLASSIFY(N)                                             \
  AMP_MATH_FN int N(float x) { return __builtin_##N(x) ? 1 : 0; }           \
  AMP_MATH_FN int N(double x) { return __builtin_##N(x) ? 1 : 0; }
AMP_MATH_CLASSIFY(AMP_PRECISE_CLASSIFY)
AMP_PRECISE_CLASSIFY(isnormal)
#undef AMP_PRECISE_CLASSIFY
AMP_MATH_FN int fpclassify(float x) {
  return __builtin_fpclassify(FP_NAN, FP_INFINITE, FP_NORMAL, FP_SUBNORMAL, FP_ZERO, x);
}
AMP_MATH_FN int fpclassify(double x) {
  return __builtin_fpclassify(FP_NAN, FP_INFINITE, FP_NORMAL, FP_SUBNORMAL, FP_ZERO, x);
}
} // namespace precise_math

namespace fast_math {
#define AMP_FAST_1_LIBM(N)                               \
  AMP_MATH_FN float N(float x) { return ::N##f(x); }     \
  AMP_MATH_FN float N##f(float x) { return ::N##f(x); }
#define AMP_FAST_1_INTRINSIC(N)                                                    \
  AMP_MATH_FN float N(float x) { return detail::math::target::fast_##N(x); }       \
  AMP_MATH_FN float N##f(float x) { return detail::math::target::fast_##N(x); }
#define AMP_FAST_2_LIBM(N)                                          \
  AMP_MATH_FN float N(float x, float y) { return ::N##f(x, y); }    \
  AMP_MATH_FN float N##f(float x, float y) { return ::N##f(x, y); }
#define AMP_FAST_2_INTRINSIC(N)                                                              \
  AMP_MATH_FN float N(float x, float y) { return detail::math::target::fast_##N(x, y); }     \
  AMP_MATH_FN float N##f(float x, float y) { return detail::math::target::fast_##N(x, y); }
AMP_MATH_FAST_1_LIBM(AMP_FAST_1_LIBM)
AMP_MATH_FAST_1_INTRINSIC(AMP_FAST_1_INTRINSIC)
AMP_MATH_FAST_2_LIBM(AMP_FAST_2_LIBM)
AMP_MATH_FAST_2_INTRINSIC(AMP_FAST_2_INTRINSIC)
#undef AMP_FAST_1_LIBM
#undef AMP_FAST_1_INTRINSIC
#undef AMP_FAST_2_LIBM
#undef AMP_FAST_2_INTRINSIC

#define AMP_FAST_SHAPES(F)                                                                                   \
  AMP_MATH_FN float frexp##F(float x, int* e) { return ::frexpf(x, e); }                                     \
  AMP_MATH_FN float ldexp##F(float x, int e) { return ::ldexpf(x, e); }                                      \
  AMP_MATH_FN float modf##F(float x, float* ip) { return ::modff(x, ip); }                                   \
  AMP_MATH_FN void sincos##F(float x, float* s, float* c) { detail::math::target::fast_sincos(x, s, c); }     \
  AMP_MATH_FN int signbit##F(float x) { return __builtin_signbit(x) ? 1 : 0; }
AMP_FAST_SHAPES(f)
AMP_FAST_SHAPES()
#undef AMP_FAST_SHAPES

#define AMP_FAST_CLASSIFY(N) \
  AMP_MATH_FN int N(float x) { return __builtin_##N(x) ? 1 : 0; }
AMP_MATH_CLASSIFY(AMP_FAST_CLASSIFY)
#undef AMP_FAST_CLASSIFY
} // namespace fast_math

} // namespace Concurrency
#undef AMP_MATH_FN
