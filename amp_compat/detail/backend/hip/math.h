// HIP backend, stage "math" (backend.h): the special functions and fast_math
// intrinsics of <amp_math.h> in the device pass, from HIP's device math
// (ROCm's OCML: the same function names as CUDA's, so ../gpu/math.h serves,
// with OCML's own ulp bounds, not measured here: no AMD GPU was available).
#pragma once
#include "../gpu/math.h"
