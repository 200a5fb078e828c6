// HIP backend (AMD GPUs, ROCm), stage "runtime" (backend.h): devices, queues,
// memory and error handling, the shared GPU implementation (../gpu/device.h)
// over the HIP runtime (api.h). Only this folder talks to the HIP runtime.
//
// Accelerators "hip0", "hip1", ... in HIP's device order. The default view of
// the device Kokkos runs on uses HIP's null stream (api.h, default_stream: why
// it is ordered with Kokkos 4's default HIP instance).
//
// Compiled (hipcc, ROCm 5.2.3, gfx90a), never run: no AMD GPU was available
// where this was written (README.md, "AMD GPUs (HIP)").
#pragma once
#include "api.h"
#include "kernel_abort.h"
#include "../gpu/device.h"
