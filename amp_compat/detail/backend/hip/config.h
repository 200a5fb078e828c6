// HIP backend (AMD GPUs), stage "config" (backend.h): hipcc (ROCm's clang)
// compiles every source twice (-x hip), once for the host and once for the
// GPU, under the same rules as Clang's CUDA mode: functions usable in kernels
// are __host__ __device__, tile_static is __shared__ (the LDS).
#pragma once

#if defined(__HIP_DEVICE_COMPILE__)
#define AMP_DEVICE_PASS 1
#else
#define AMP_DEVICE_PASS 0
#endif
#define AMP_HD __host__ __device__
#define AMP_HOST_ONLY __host__
#define AMP_DEVICE_ONLY __device__
#define AMP_TILE_STATIC_DEVICE __shared__
