// CUDA backend, stage "runtime" (backend.h): devices, queues, memory and
// error handling, the shared GPU implementation (../gpu/device.h) over the
// CUDA runtime (api.h). Only this folder talks to the CUDA runtime.
//
// Accelerators "cuda0", "cuda1", ... in CUDA's device order. The default view
// of the device Kokkos runs on uses CUDA's legacy default stream (api.h,
// default_stream: why it is ordered with Kokkos 3.4's and 4's default
// instances).
#pragma once
#include "api.h"
#include "kernel_abort.h"
#include "../gpu/device.h"
