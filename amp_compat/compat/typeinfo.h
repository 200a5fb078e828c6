// amp_compat/compat/typeinfo.h -- MSVC's <typeinfo.h>: <typeinfo>, with
// type_info also in the global namespace (crt_compat.h declares it there for
// every --windows-compat compile, as MSVC's runtime headers do; under --msvc
// the launcher names std::type_info instead, crt_compat.h says why).
#pragma once
#include <typeinfo>
#ifndef AMP_MSVC_VER  // --msvc: see crt_compat.h
using std::type_info;
#endif
