// CUDA backend, stage "launch" (backend.h): kernels on a CUDA accelerator, the
// shared GPU implementation (../gpu/launch.h: the native launcher's kernels and
// their shapes, measured on an H100, and the portable path's ordering) over
// the CUDA runtime (api.h) and Kokkos::Cuda. The kernels' launch bounds ask for
// a block size and a minimum of resident blocks per SM (tiled.h).
#pragma once
#include "api.h"
#include "../gpu/launch.h"
