// amp_compat/compat/amprt.h -- MSVC's C++ AMP runtime header (accelerator,
// accelerator_view, completion_future, runtime_exception and the copy
// machinery that <amp.h> builds on). Here those live in <amp.h> itself,
// which this includes; code that includes <amprt.h> alone (a test library,
// an interop layer) sees the same names it saw with Visual Studio.
#pragma once
#include <amp.h>
