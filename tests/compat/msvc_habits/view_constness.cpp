// A view of const elements gives no writable view, under the Windows
// companions too (Microsoft's 5_2_2_c/Negative/Test.02 expects C2664 for
// `array_view<int, 1> rw(ro);`): AMP's array(const array_view<const T, N>&)
// is explicit, so the view made from a temporary array (an MSVC habit that
// --windows-compat accepts) is no path from one to the other. An array is
// still made from a view when asked, and a view from a temporary array.
// MSVC prints "0 0 1 1 6".
#include <amp.h>
#include <cstdio>
#include <type_traits>
#include <vector>
using namespace concurrency;

int main() {
  std::vector<int> data{1, 2, 3};
  array_view<const int, 1> ro(3, data);
  array_view<int, 1> rw{array<int, 1>(ro)};  // a copy, explicitly
  int sum = 0;
  for (int i = 0; i < 3; ++i) sum += rw[i];
  std::printf("%d %d %d %d %d\n", int(std::is_constructible<array_view<int, 1>, array_view<const int, 1>&>::value),
              int(std::is_convertible<const array_view<const int, 1>&, array<int, 1>>::value),
              int(std::is_constructible<array<int, 1>, const array_view<const int, 1>&>::value),
              int(std::is_constructible<array_view<int, 1>, array<int, 1>&&>::value), sum);
  return 0;
}
