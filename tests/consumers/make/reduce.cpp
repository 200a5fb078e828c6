// Tree reduction in tile_static memory; built by the plain compiler with the
// flags of `amp++ --cflags` (or pkg-config), not by amp++ itself.
#include "reduce.h"
#include <amp.h>

long tiled_sum(const std::vector<int>& v) {
  using namespace concurrency;
  constexpr int TS = 64;
  const int tiles = int((v.size() + TS - 1) / TS);
  std::vector<int> padded(v);
  padded.resize(std::size_t(tiles) * TS, 0);
  std::vector<int> partial(tiles);
  array_view<const int, 1> in(int(padded.size()), padded);
  array_view<int, 1> out(tiles, partial);
  out.discard_data();
  parallel_for_each(in.extent.tile<TS>(), [=](tiled_index<TS> t) restrict(amp) {
    tile_static int s[TS];
    const int l = t.local[0];
    s[l] = in[t.global];
    t.barrier.wait();
    for (int stride = TS / 2; stride > 0; stride /= 2) {
      if (l < stride) s[l] += s[l + stride];
      t.barrier.wait();
    }
    if (l == 0) out[t.tile] = s[0];
  });
  out.synchronize();
  long sum = 0;
  for (int p : partial) sum += p;
  return sum;
}
