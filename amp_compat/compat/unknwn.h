// amp_compat/compat/unknwn.h -- <unknwn.h> as far as C++ AMP programs see it:
// MSVC's amprt.h includes it, and it includes <windows.h> unless
// COM_NO_WINDOWS_H is defined. So that is what it does here.
// The COM interface IUnknown itself is not declared (no COM runtime exists
// here; the Direct3D companions declare what interop code needs).
#ifndef AMP_COMPAT_COMPAT_UNKNWN_H
#define AMP_COMPAT_COMPAT_UNKNWN_H
#ifndef COM_NO_WINDOWS_H
#include "Windows.h"
#endif
#endif
