// Stage "runtime" of the device backend chosen in select.h: devices, memory,
// queues and markers, copies, kernel-error checks (backend.h).
#pragma once
#include "select.h"
#include AMP_BACKEND_RUNTIME
