// A tile_static object of a class with a tile_barrier member, the member
// assigned from the kernel's barrier and waited on later (a public ant
// colony app's `tile_static Queen_ant queen;` whose methods wait on
// `barrier`). Visual C++ runs no constructor for tile_static objects; here
// they are constructed, which --windows-compat and --msvc allow by making
// tile_barrier's default constructor public (a plain build keeps AMP's
// signature: tests/compile_fail). Expected: "62 0 2016".
#include <amp.h>
#include <cstdio>
#include <vector>
using namespace concurrency;

struct tile_state {
  float values[64];
  tile_barrier barrier;
  float sum(unsigned lane) restrict(amp) {
    barrier.wait();
    float s = 0.0f;
    for (int i = 0; i < 64; ++i) s += values[(i + lane) % 64];
    return s;
  }
};

int main() {
  std::vector<float> out(128);
  array_view<float, 1> o(128, out);
  parallel_for_each(o.extent.tile<64>(), [=](tiled_index<64> t) restrict(amp) {
    tile_static tile_state st;
    if (t.local[0] == 0) st.barrier = t.barrier;
    st.values[t.local[0]] = float(t.local[0]);
    t.barrier.wait();
    const float total = st.sum(t.local[0]);
    o[t.global] = t.local[0] == 0 ? total : st.values[63 - t.local[0]];
  });
  o.synchronize();
  std::printf("%.0f %.0f %.0f\n", out[1], out[63], out[64]);
  return 0;
}
