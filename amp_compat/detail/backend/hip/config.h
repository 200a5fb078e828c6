// HIP backend (AMD GPUs), stage "config" (backend.h): hipcc (ROCm's clang)
// compiles every source twice (-x hip), once for the host and once for the
// GPU, under the same rules as Clang's CUDA mode: the attributes are the ones
// CUDA and HIP share (../gpu/config.h), tile_static is __shared__ (the LDS).
#pragma once

#if defined(__HIP_DEVICE_COMPILE__)
#define AMP_DEVICE_PASS 1
#else
#define AMP_DEVICE_PASS 0
#endif
#include "../gpu/config.h"
