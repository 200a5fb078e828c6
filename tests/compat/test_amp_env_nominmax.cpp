// NOMINMAX before <amp.h> (under --windows-compat): no global min/max, as
// with MSVC's windows.h. A global min would win over the probe below.
#define NOMINMAX
#include <amp.h>

#include <gtest/gtest.h>

#include <type_traits>

namespace nominmax_probe {
struct absent {};
absent min(...);
absent max(...);
}  // namespace nominmax_probe
using namespace nominmax_probe;

TEST(AmpWindowsEnv, NominmaxLeavesMinMaxOut) {
    static_assert(std::is_same<decltype(min(1, 2)), absent>::value, "min declared despite NOMINMAX");
    static_assert(std::is_same<decltype(max(1, 2)), absent>::value, "max declared despite NOMINMAX");
    LARGE_INTEGER li;  // the rest of windows.h is still there
    EXPECT_EQ(QueryPerformanceCounter(&li), TRUE);
}
