// CUDA backend, stage "config" (backend.h): Clang compiles every source twice
// (-x cuda), once for the host and once for the GPU; the attributes are the
// ones CUDA and HIP share (../gpu/config.h).
#pragma once

#if defined(__CUDA_ARCH__)
#define AMP_DEVICE_PASS 1
#else
#define AMP_DEVICE_PASS 0
#endif
#include "../gpu/config.h"
