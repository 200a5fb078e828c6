// Regression: a quoted include of a pair header through -I/-iquote once found
// the original header (a "redefinition" error). Prints the cpu and amp
// results; CTest compares them.
#include "pair_header.h"
#include <cstdio>
#include <vector>

int main() {
  std::vector<int> v(4, 0);
  concurrency::array_view<int, 1> av(4, v);
  concurrency::parallel_for_each(av.extent, [=](concurrency::index<1> i) restrict(amp) { av[i] = side_value(i[0]); });
  av.synchronize();
  std::printf("cpu %d amp %d\n", side_value(0), v[3]);
  return 0;
}
