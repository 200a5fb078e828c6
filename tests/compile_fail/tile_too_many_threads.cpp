// Must not compile: a tile of 64 * 32 = 2048 work-items; AMP allows at most
// 1024 per tile. Expected diagnostic: "at most 1024 threads".
#include <amp.h>

using namespace concurrency;

int main() {
  std::vector<int> v(64 * 64);
  array_view<int, 2> av(64, 64, v);
  parallel_for_each(extent<2>(64, 64).tile<64, 32>(), [=](tiled_index<64, 32> t) restrict(amp) { av[t] = 1; });
  return 0;
}
