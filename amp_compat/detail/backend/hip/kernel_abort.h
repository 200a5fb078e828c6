// HIP backend: the abort channel of direct3d_abort / direct3d_errorf, the
// shared GPU implementation (../gpu/kernel_abort.h) over the HIP runtime
// (api.h). What differs from CUDA: an AMD GPU cannot end one thread of a
// wavefront, so the aborting thread ends its whole wavefront
// (gpu_api::end_thread says what follows for the workgroup).
#pragma once
#include "api.h"
#include "../gpu/kernel_abort.h"
