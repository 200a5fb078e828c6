// Stage "launch" of the device backend chosen in select.h: the native
// launcher and how parallel_for_each reaches it and the portable one on a
// device queue (backend.h).
#pragma once
#include "select.h"
#include AMP_BACKEND_LAUNCH
