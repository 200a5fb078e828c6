// amp_compat/compat/amp_windows_env.h -- what MSVC's <amp.h>, <amp_math.h>,
// <amp_graphics.h> and <amp_short_vectors.h> make visible besides C++ AMP.
// amp.h includes this file at its end only under --windows-compat (the
// amp_compat_windows target): crt_compat.h, force-included by both, defines
// AMP_COMPAT_WINDOWS. Without the flag <amp.h> stays pure
// (tests/test_compat_isolation.cpp).
//
// The list follows Microsoft's headers (Visual Studio 2012-2019): amp.h
// includes <crtdbg.h>, <vector>, <iterator>, <future> and amprt.h; amprt.h
// includes <unknwn.h> (which includes <windows.h> unless COM_NO_WINDOWS_H),
// <crtdbg.h>, <string>, <vector>, <iterator>, <future>, <functional>, <map>,
// <unordered_map>, <set>, <unordered_set>, <concrt.h> and <type_traits>;
// MSVC's <future> includes <ppltasks.h> (so <ppl.h> and <concrt.h> too);
// amp_math.h, amp_short_vectors.h and amp_graphics.h include amp.h, and
// amp_graphics.h adds <array> and <sstream>. Hence, visible after <amp.h>:
//   <windows.h>: TRUE/FALSE, DWORD & co., LARGE_INTEGER,
//     QueryPerformanceCounter, Sleep, ... and min/max unless NOMINMAX
//     (compat/Windows.h: functions, not macros; the contract is there);
//   <crtdbg.h>: _ASSERT, _ASSERTE, _RPTn, _CrtSetDbgFlag ... (compat/crtdbg.h);
//   <ppl.h>, <ppltasks.h>, <concrt.h>: parallel_for, task_group, create_task,
//     critical_section ... in namespace concurrency;
//   the standard headers named above.
// strsafe.h (only with MSVC's own AMP compiler) and the COM interfaces of
// unknwn.h are not provided.
#ifndef AMP_COMPAT_COMPAT_AMP_WINDOWS_ENV_H
#define AMP_COMPAT_COMPAT_AMP_WINDOWS_ENV_H

#include <array>
#include <functional>
#include <iterator>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <type_traits>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "crtdbg.h"
#include "unknwn.h"
#include "concrt.h"
// <future> as this directory provides it: the standard one plus <ppltasks.h>.
#include <future>
#include "ppltasks.h"

#endif
