// A restrict(cpu)/restrict(amp) pair in a header that the including source
// finds through -I but names with quotes (`#include "pair_header.h"` from
// another folder): the launcher's rewritten copy must be the one found.
#pragma once
#include <amp.h>
inline int side_value(int x) restrict(cpu) { return x + 1; }
inline int side_value(int x) restrict(amp) { return x + 2; }
