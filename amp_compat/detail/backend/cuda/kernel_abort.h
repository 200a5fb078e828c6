// CUDA backend: the abort channel of direct3d_abort / direct3d_errorf, the
// shared GPU implementation (../gpu/kernel_abort.h) over the CUDA runtime
// (api.h). An aborting thread ends itself with PTX "exit"
// (gpu_api::end_thread): the CUDA context stays usable, which a trap would
// end, and the thread's block runs on.
#pragma once
#include "api.h"
#include "../gpu/kernel_abort.h"
