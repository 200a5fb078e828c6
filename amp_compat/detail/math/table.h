// The function tables of <amp_math.h>. Every family is written once, as an
// X-macro list; functions.h turns each entry into the overloads Microsoft's
// amp_math.h declares (N, Nf and, in precise_math, the double N).
//
// Column meaning: X(name). Where a function is listed decides how it is
// computed (target_math.h):
//   *_LIBM:    the C library has it under the same name on the host and the
//              device math library has a device function of the same name:
//              ::N / ::Nf are called and the device compiler's headers
//              resolve them to the device versions in the device pass.
//   *_SPECIAL: no common C library function; target_math.h picks the device
//              backend's (stage "math") or host_special.h's implementation.
#pragma once

// precise_math, one argument, float N(float), float Nf(float), double N(double).
#define AMP_MATH_PRECISE_1_LIBM(X)                                                                                  \
  X(acos) X(acosh) X(asin) X(asinh) X(atan) X(atanh) X(cbrt) X(ceil) X(cos) X(cosh) X(erf) X(erfc) X(exp)          \
  X(exp10) X(exp2) X(expm1) X(fabs) X(floor) X(log) X(log10) X(log1p) X(log2) X(logb) X(nearbyint) X(round) X(sin)  \
  X(sinh) X(sqrt) X(tan) X(tanh) X(tgamma) X(trunc)
#define AMP_MATH_PRECISE_1_SPECIAL(X) \
  X(cospi) X(sinpi) X(tanpi) X(erfinv) X(erfcinv) X(phi) X(probit) X(rcbrt) X(rsqrt)
// precise_math, two arguments of the function's type. (pow and hypot:
// functions.h; their float forms are computed in double.)
#define AMP_MATH_PRECISE_2_LIBM(X) \
  X(atan2) X(copysign) X(fdim) X(fmax) X(fmin) X(fmod) X(nextafter) X(remainder)

// fast_math (float only: N(float) and Nf(float)). FAST_*_LIBM are the float C
// library functions on every target; FAST_*_INTRINSIC use the GPU's fast
// approximations (the device backend's fast_* functions) in the device pass.
#define AMP_MATH_FAST_1_LIBM(X)                                                                                    \
  X(acos) X(asin) X(atan) X(ceil) X(cosh) X(fabs) X(floor) X(round) X(sinh) X(sqrt) X(tan) X(tanh) X(trunc)
#define AMP_MATH_FAST_1_INTRINSIC(X) X(cos) X(exp) X(exp2) X(log) X(log10) X(log2) X(rsqrt) X(sin)
#define AMP_MATH_FAST_2_LIBM(X) X(atan2) X(fmax) X(fmin) X(fmod)
#define AMP_MATH_FAST_2_INTRINSIC(X) X(pow)

// Classification, int result, in both namespaces (fast_math: float only);
// precise_math adds isnormal and fpclassify (functions.h).
// No f-suffixed forms exist for these (signbit, which has one, is separate).
#define AMP_MATH_CLASSIFY(X) X(isfinite) X(isinf) X(isnan)
