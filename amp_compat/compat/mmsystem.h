// amp_compat/compat/mmsystem.h -- the multimedia timer functions
// (<windows.h> includes them; programs time code with timeGetTime()).
#ifndef AMP_COMPAT_COMPAT_MMSYSTEM_H
#define AMP_COMPAT_COMPAT_MMSYSTEM_H
#include "Windows.h"
#endif
