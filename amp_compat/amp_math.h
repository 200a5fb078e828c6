// <amp_math.h>: concurrency::fast_math (float) and concurrency::precise_math
// (float and double), every function of Microsoft's header, in kernels and on
// the host. The tables, the target choice and the host implementations are in
// detail/math/ (table.h, target_math.h, host_special.h, functions.h).
#pragma once
#include "amp.h"
#include "detail/math/functions.h"
