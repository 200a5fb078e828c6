// MSVC's math headers declare the float (and long double) overloads of the
// math functions in the global namespace too, so unqualified calls with
// floats take them: `modf(x, &whole)` with a float* (Microsoft's conformance
// suite, av.struct.multiple/.../Test01) and `fabs(1.0f)` of type float. With
// glibc only the double versions are global. MSVC prints "0.75 2 4".
#include <cmath>
#include <cstdio>

int main() {
  float whole = 0;
  const float frac = modf(2.75f, &whole);
  std::printf("%g %g %d\n", frac, whole, static_cast<int>(sizeof(fabs(1.0f))));
  return 0;
}
