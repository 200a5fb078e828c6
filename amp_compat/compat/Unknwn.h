// <Unknwn.h>, the spelling of several SDK samples: the same header.
#include "unknwn.h"
