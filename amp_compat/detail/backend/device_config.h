// Stage "config" of the device backend chosen in select.h: AMP_DEVICE_PASS and
// the function attributes (backend.h lists what the file defines).
#pragma once
#include "select.h"
#include AMP_BACKEND_CONFIG
