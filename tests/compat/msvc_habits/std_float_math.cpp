// MSVC's <cmath> names the float and long double forms of the C library's
// functions in std (`std::sqrtf`, as C++ says; a public course program calls
// it); libstdc++ has them from release 14 only. MSVC prints "3 2.5 8 1".
#include <cmath>
#include <cstdio>

int main() {
  const float r = std::sqrtf(9.0f), a = std::fabsf(-2.5f);
  const long double p = std::powl(2.0L, 3.0L);
  std::printf("%g %g %g %d\n", r, a, static_cast<double>(p), static_cast<int>(sizeof(std::sqrtf(1.0f)) == sizeof(float)));
  return 0;
}
