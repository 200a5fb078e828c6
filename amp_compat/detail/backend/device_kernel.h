// Stage "kernel" of the device backend chosen in select.h: what code running
// in a kernel on the device calls (tile barrier, fences, atomics, the abort
// channel). Included in the device compilation pass only (target.h).
#pragma once
#include "select.h"
#include AMP_BACKEND_KERNEL
