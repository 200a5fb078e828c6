// Stage "math" of the device backend chosen in select.h: the device's
// special functions and fast_math intrinsics (device pass only,
// math/target_math.h).
#pragma once
#include "select.h"
#include AMP_BACKEND_MATH
