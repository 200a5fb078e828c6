// <amp.h> for Linux: C++ AMP over Kokkos. Public header; the implementation is
// one private header per AMP concept under detail/.
#pragma once

// What MSVC's <amp.h> brings in, so that printed samples build unchanged.
#include <algorithm>
#include <cassert>
#include <climits>
#include <cstdlib>
#include <exception>
#include <functional>
#include <iterator>
#include <numeric>
#include <string>
#include <utility>
#include <vector>

#include "detail/config.h"
#include "detail/restrict.h"
#include "detail/exceptions.h"
#include "detail/index.h"
#include "detail/tiled.h"
#include "detail/accelerator.h"
#include "detail/array_view.h"
#include "detail/array.h"
#include "detail/copy.h"
#include "detail/parallel_for_each.h"
#include "detail/atomic.h"
#include "detail/direct3d.h"
// --windows-compat (crt_compat.h is force-included first): the Direct3D
// interop functions, which name IUnknown; they throw runtime_exception.
#ifdef AMP_COMPAT_COMPAT_CRT_COMPAT_H
#include "compat/detail/direct3d_interop.h"
#endif

namespace concurrency = Concurrency;

// Under --windows-compat only (crt_compat.h, which that flag force-includes,
// defines AMP_COMPAT_WINDOWS): the Windows, CRT-debug and PPL names that
// MSVC's <amp.h> brings with it (compat/amp_windows_env.h has the list).
#ifdef AMP_COMPAT_WINDOWS
#include "compat/amp_windows_env.h"
#endif
