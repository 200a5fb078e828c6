// Must not compile: in a 3-D tile the first dimension may be at most 64
// (here 128 * 2 * 2 = 512 work-items, within the 1024 limit, so only the D0
// rule is broken). Expected diagnostic: "D0 must be at most 64".
#include <amp.h>

using namespace concurrency;

int main() {
  std::vector<int> v(128 * 2 * 2);
  array_view<int, 3> av(128, 2, 2, v);
  parallel_for_each(av.extent.tile<128, 2, 2>(), [=](tiled_index<128, 2, 2> t) restrict(amp) { av[t] = 1; });
  return 0;
}
