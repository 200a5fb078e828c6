// converted_reference.cpp's habit in a header reached by a Windows relative
// path (`".\headers\..\headers\X.h"`): Clang in the MSVC dialect reads the
// backslashes as slashes and finds the header beside this file, so the
// driver's rewritten copy of the header must be found the same way (it was
// not: the original was compiled and the call rejected).
#include <amp.h>
#include <cstdio>
#include ".\headers\..\headers\converted_reader.h"

int main() {
  std::vector<int> v(4, 1);
  concurrency::array_view<int, 1> av(4, v);
  concurrency::parallel_for_each(av.extent, [=](concurrency::index<1> i) restrict(amp) { av[i] = 7 * (i[0] + 1); });
  av.synchronize();
  std::printf("%d\n", *first_of(v));
  return 0;
}
