// The Windows/PPL companions (amp_compat/compat/) are opt-in: <amp.h> alone
// declares none of their names. Each probe below is found by unqualified
// lookup; the probe wins only if amp.h (and what it includes) declared no
// global function of that name.
#include <amp.h>

#include <gtest/gtest.h>

#include <type_traits>

#if defined(_countof) || defined(__max) || defined(_T) || defined(_tmain) || defined(_TRUNCATE) || \
    defined(_ASSERTE) || defined(TRUE) || defined(AMP_COMPAT_WINDOWS) || defined(AMP_COMPAT_COMPAT_PPLTASKS_H)
#error "amp.h leaks a Windows companion macro"
#endif

namespace isolation_probe {
struct absent {};
absent QueryPerformanceCounter(...);
absent sprintf_s(...);
absent Sleep(...);
absent min(...);
absent max(...);
}  // namespace isolation_probe
using namespace isolation_probe;

TEST(CompatIsolation, AmpHeaderDeclaresNoWindowsName) {
  static_assert(std::is_same<decltype(QueryPerformanceCounter(nullptr)), absent>::value, "QueryPerformanceCounter");
  static_assert(std::is_same<decltype(sprintf_s(nullptr, 0, "")), absent>::value, "sprintf_s");
  static_assert(std::is_same<decltype(Sleep(1)), absent>::value, "Sleep");
#if !AMP_HAS_HIP
  // HIP's runtime headers (which Kokkos' HIP backend includes, so <amp.h>
  // reaches them in the AMD GPU build) declare ::min and ::max for host and
  // device code alike: that build cannot keep them out.
  static_assert(std::is_same<decltype(min(1, 2)), absent>::value, "min");
  static_assert(std::is_same<decltype(max(1, 2)), absent>::value, "max");
#endif
  SUCCEED();
}
