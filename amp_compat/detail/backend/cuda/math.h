// CUDA backend, stage "math" (backend.h): the special functions and fast_math
// intrinsics of <amp_math.h> in the device pass, from CUDA's device math
// library (ulp bounds in migration_guide.md; fast_math: CUDA's intrinsic
// bounds). The functions are ../gpu/math.h's, under CUDA's names.
#pragma once
#include "../gpu/math.h"
