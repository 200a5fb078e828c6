// HIP backend, stage "launch" (backend.h): kernels on an AMD GPU, the shared
// GPU implementation (../gpu/launch.h: the native launcher's kernels, with
// CUDA's block shapes, not tuned for AMD GPUs, and the portable path's
// ordering) over the HIP runtime (api.h) and Kokkos' HIP execution space. The
// kernels' launch bounds give only the block size (api.h says why). Kokkos 4's
// default HIP instance has a stream of its own, so a portable launch is always
// put in its queue's line with events (../gpu/launch.h, kokkos_stream_hop).
#pragma once
#include "api.h"
#include "../gpu/launch.h"
