// amp_compat/compat/D3Dcommon.h -- the spelling some Windows code uses (file
// names are case-insensitive there, not here). Same content as d3dcommon.h.
#include "d3dcommon.h"
