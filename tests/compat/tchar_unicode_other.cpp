// Second translation unit of tchar_unicode: it includes <tchar.h> too, so
// the program links two weak main() definitions -- which must be fine.
#include "tchar_unicode_other.h"

#include <tchar.h>

std::size_t other_unit_length(const wchar_t* s) { return _tcslen(s); }
