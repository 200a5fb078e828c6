// amp_compat/compat/windows.h -- lower-case spelling (Windows file names are
// case-insensitive; Linux ones are not). Same content as Windows.h.
#include "Windows.h"
