// Shared GPU implementation (backend.h, "The shared GPU implementation"),
// stage "math": the special functions and fast_math intrinsics of <amp_math.h>
// in the device pass, from the device math library under CUDA's names, which
// HIP's (ROCm's OCML) provides too; the ulp bounds are the vendor library's
// (its math.h says). Included by a GPU backend's math.h, and through it by
// ../../math/target_math.h after ../../math/common.h, whose IEEE versions
// rsqrt, tanpi and scalb use so that they match the host bit for bit.
#pragma once
#include "../../math/common.h"

namespace Concurrency {
namespace detail {
namespace math {
namespace device_impl {
// Special functions: the device library's, under CUDA's names.
#define AMP_DEVICE_SPECIAL(N, LIB_NAME)                                    \
  __device__ inline float N(float x) { return ::LIB_NAME##f(x); }        \
  __device__ inline double N(double x) { return ::LIB_NAME(x); }
AMP_DEVICE_SPECIAL(sinpi, sinpi)
AMP_DEVICE_SPECIAL(cospi, cospi)
AMP_DEVICE_SPECIAL(erfinv, erfinv)
AMP_DEVICE_SPECIAL(erfcinv, erfcinv)
AMP_DEVICE_SPECIAL(phi, normcdf)
AMP_DEVICE_SPECIAL(probit, normcdfinv)
AMP_DEVICE_SPECIAL(rcbrt, rcbrt)
#undef AMP_DEVICE_SPECIAL
__device__ inline float rsqrt(float x) { return math::rsqrt_ieee(x); } // common.h: as on the host
__device__ inline double rsqrt(double x) { return math::rsqrt_ieee(x); }
__device__ inline float tanpi(float x) { return math::tanpi(x); }
__device__ inline double tanpi(double x) { return math::tanpi(x); }

// fast_math: the GPU's approximate functions (the __sinf ... intrinsics).
__device__ inline float fast_sin(float x) { return __sinf(x); }
__device__ inline float fast_cos(float x) { return __cosf(x); }
__device__ inline float fast_exp(float x) { return __expf(x); }
__device__ inline float fast_exp2(float x) { return ::exp2f(x); }
__device__ inline float fast_log(float x) { return __logf(x); }
__device__ inline float fast_log10(float x) { return __log10f(x); }
__device__ inline float fast_log2(float x) { return __log2f(x); }
__device__ inline float fast_rsqrt(float x) { return ::rsqrtf(x); }
__device__ inline float fast_pow(float x, float y) { return __powf(x, y); }
__device__ inline void fast_sincos(float x, float* s, float* c) { __sincosf(x, s, c); }
} // namespace device_impl
namespace target = device_impl;
} // namespace math
} // namespace detail
} // namespace Concurrency

// glibc declares scalb/scalbf (host only) and the GPU has no device version, so
// an unqualified scalb(x, y) under `using namespace precise_math` would pick
// the host function in a kernel. These device overloads make it resolve there.
__device__ inline double scalb(double x, double n) { return Concurrency::detail::math::scalb(x, n); }
__device__ inline float scalbf(float x, float n) { return Concurrency::detail::math::scalb(x, n); }

