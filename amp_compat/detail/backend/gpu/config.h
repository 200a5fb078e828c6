// Shared GPU implementation (backend.h, "The shared GPU implementation"),
// stage "config": the function attributes of the single-source GPU languages
// Clang compiles, CUDA (-x cuda) and HIP (-x hip), which share them. Each
// source is compiled twice, once for the host and once for the GPU; functions
// usable in kernels are __host__ __device__, tile_static is __shared__ (the
// block's on-chip memory: an SM's shared memory, a compute unit's LDS).
// Included by a GPU backend's config.h after it defines AMP_DEVICE_PASS from
// its compiler's device-pass macro.
#pragma once
#ifndef AMP_DEVICE_PASS
#error "backend/gpu/config.h is included by a GPU backend's config.h, after AMP_DEVICE_PASS"
#endif

#define AMP_HD __host__ __device__
#define AMP_HOST_ONLY __host__
#define AMP_DEVICE_ONLY __device__
#define AMP_TILE_STATIC_DEVICE __shared__
