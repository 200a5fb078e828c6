// amp_compat/compat/unknwn.h -- lower-case spelling (Windows file names are
// case-insensitive; Linux ones are not). Same content as Unknwn.h.
#include "Unknwn.h"
