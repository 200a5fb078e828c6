// Seed 003 (MSDN Magazine, Daniel Moth, "C++ AMP でのタイリングの概要"),
// section "新しい tile_static ストレージ クラスを使用する" / "tile_barrier クラス":
// the deliberately simple tile_static sum, WITH the article's fix applied --
// "7 t_idx.barrier.wait();" inserted after line 6 (the printed line 7 is
// empty; it now holds the barrier).  The version without the barrier has a
// race (thread (0,0) may read t[][] before the other threads of its tile
// wrote it), so its output is undefined on a real GPU and it is not a sample.
// Printed line numbers and non-breaking spaces removed.
// The wrapper supplies main, my_vector and printing.  my_vector holds the 2x6
// matrix C = A*B from the article's Figure 6 walkthrough (the same numbers
// seed 002 uses), whose element sum is 3060.

// ---- wrapper ----
#include <amp.h>
#include <iostream>
#include <vector>
using namespace concurrency;

int main()
{
    std::vector<int> my_vector = {130, 140, 150, 160, 170, 180,
                                  290, 316, 342, 368, 394, 420};

// ---- as printed ----
static const int TS = 2;
array_view<int, 2> av(2, 6, my_vector);
parallel_for_each(av.extent.tile<TS,TS>(),
  [=](tiled_index<TS,TS> t_idx) restrict(amp)
{
  tile_static int t[TS][TS];
  t[t_idx.local[0]][t_idx.local[1]] = av[t_idx.global];
  t_idx.barrier.wait();
  if (t_idx.local == index<2>(0,0)) {
    t[0][0] = t[0][0] + t[0][1] + t[1][0] + t[1][1];
    av[t_idx.tile_origin] = t[0][0];
  }
});
int sum = av(0,0) + av(0,2) + av(0,4); // The three tile_origins
// ---- wrapper ----

    std::cout << "tile sums: " << av(0,0) << " " << av(0,2) << " " << av(0,4) << "\n";
    std::cout << "sum = " << sum << "\n";
    return 0;
}
