// CUDA backend, stage "config" (backend.h): Clang compiles every source twice
// (-x cuda), once for the host and once for the GPU; functions usable in
// kernels are __host__ __device__.
#pragma once

#if defined(__CUDA_ARCH__)
#define AMP_DEVICE_PASS 1
#else
#define AMP_DEVICE_PASS 0
#endif
#define AMP_HD __host__ __device__
#define AMP_HOST_ONLY __host__
#define AMP_DEVICE_ONLY __device__
#define AMP_TILE_STATIC_DEVICE __shared__
