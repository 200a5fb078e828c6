// The one dispatch point of the backend layer (the interface is described in
// backend.h): which device backend this build has, decided from the Kokkos
// build amp_compat is compiled against. The host backend (host/) is always
// there; next to it at most one device backend (Kokkos enables at most one GPU
// backend per build): cuda/, hip/, or none/ for a host-only build.
//
// Everything else reaches the chosen folder through the stage headers beside
// this one (device_config.h, device_kernel.h, device_runtime.h,
// device_launch.h, device_math.h), each of which includes the file named here
// and decides nothing itself. Adding a device backend means a folder with
// those five files and one branch below. cuda/ and hip/ build their files
// from the shared GPU implementation in gpu/ over their own api.h (backend.h);
// gpu/ is no backend and is never chosen here.
//
// Kokkos' configuration must be known here: config.h includes Kokkos first.
#pragma once

#if defined(KOKKOS_ENABLE_CUDA)
#define AMP_HAS_CUDA 1
#define AMP_BACKEND_CONFIG "cuda/config.h"
#define AMP_BACKEND_KERNEL "cuda/kernel.h"
#define AMP_BACKEND_RUNTIME "cuda/device.h"
#define AMP_BACKEND_LAUNCH "cuda/launch.h"
#define AMP_BACKEND_MATH "cuda/math.h"
#elif defined(KOKKOS_ENABLE_HIP)
#define AMP_HAS_HIP 1
#define AMP_BACKEND_CONFIG "hip/config.h"
#define AMP_BACKEND_KERNEL "hip/kernel.h"
#define AMP_BACKEND_RUNTIME "hip/device.h"
#define AMP_BACKEND_LAUNCH "hip/launch.h"
#define AMP_BACKEND_MATH "hip/math.h"
#else
#define AMP_BACKEND_CONFIG "none/config.h"
#define AMP_BACKEND_KERNEL "none/kernel.h"
#define AMP_BACKEND_RUNTIME "none/device.h"
#define AMP_BACKEND_LAUNCH "none/launch.h"
#define AMP_BACKEND_MATH "none/math.h"
#endif

#ifndef AMP_HAS_CUDA
#define AMP_HAS_CUDA 0
#endif
#ifndef AMP_HAS_HIP
#define AMP_HAS_HIP 0
#endif
// AMP_HAS_DEVICE_BACKEND: the binary contains GPU accelerators (device memory
// the host cannot dereference, a device compilation pass). Generic code asks
// this, never which backend it is.
#define AMP_HAS_DEVICE_BACKEND (AMP_HAS_CUDA || AMP_HAS_HIP)
