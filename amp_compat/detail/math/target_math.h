// The one place where <amp_math.h> chooses between the GPU and the host.
//
// `target::` names the functions that differ per target: the fast_math
// intrinsics and the special functions the C library lacks (cospi, erfinv,
// probit, rsqrt...). In the device pass they are the device backend's (stage
// "math", e.g. backend/cuda/math.h: namespace math::target); on the host,
// host_special.h's. Functions the C library and the device's math library
// both have (sin, erf, frexp...) need no choice: functions.h calls ::N / ::Nf,
// which the device compiler's headers resolve to the device versions in the
// device pass.
#pragma once
#include "common.h"

#include <cmath>

#if AMP_DEVICE_PASS
#include "../backend/device_math.h"
#else
#include "host_special.h"
namespace Concurrency {
namespace detail {
namespace math {
namespace target = host_impl;
} // namespace math
} // namespace detail
} // namespace Concurrency
#endif
