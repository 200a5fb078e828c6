// amp_compat/compat/typeinfo.h -- MSVC's <typeinfo.h>: <typeinfo>, with
// type_info also in the global namespace (crt_compat.h declares it there for
// every --windows-compat compile, as MSVC's runtime headers do).
#pragma once
#include <typeinfo>
using std::type_info;
