// A user's header reached only through a system header (system_shim/): the
// first declaration of a kernel template of analysis.cpp.
#pragma once
#include <amp.h>

template <int N> void shimmed_scan(concurrency::array_view<int, 1> a);
