// Seed 003 (MSDN Magazine, Daniel Moth, "C++ AMP でのタイリングの概要"),
// section "tiled_extent クラス": the two extent declarations and the two
// tiled_extent declarations (non-breaking spaces removed).  The wrapper prints
// the facts the article states about them (ranks, and the divisibility list
// e[0]=12 / t_e.tile_extent[0]=6, ee[0]=2 / t_ee.tile_extent[0]=2,
// ee[1]=6 / t_ee.tile_extent[1]=2) and, for the section "tiled_index クラス"
// (Figure 3 is an image, so its shaded cell cannot be read), the global,
// local, tile and tile_origin indices of every thread of
// extent<2>(2,6).tile<2,2>(), recorded inside the kernel.

// ---- wrapper ----
#include <amp.h>
#include <iostream>
#include <vector>
using namespace concurrency;

int main()
{
// ---- as printed ----
extent<1> e(12);   // 12 threads in a single dimension
extent<2> ee(2,6); // 12 threads in two-dimensional space
tiled_extent<6> t_e = e.tile<6>();        // e.rank==t_e.rank
tiled_extent<2,2> t_ee = ee.tile<2, 2>(); // ee.rank==t_ee.rank
// ---- wrapper ----

    std::cout << "e.rank=" << e.rank << " t_e.rank=" << t_e.rank << "\n";
    std::cout << "ee.rank=" << ee.rank << " t_ee.rank=" << t_ee.rank << "\n";
    std::cout << "e.size()=" << e.size() << " ee.size()=" << ee.size() << "\n";
    std::cout << "e[0]=" << e[0] << " t_e.tile_extent[0]=" << t_e.tile_extent[0] << "\n";
    std::cout << "ee[0]=" << ee[0] << " t_ee.tile_extent[0]=" << t_ee.tile_extent[0] << "\n";
    std::cout << "ee[1]=" << ee[1] << " t_ee.tile_extent[1]=" << t_ee.tile_extent[1] << "\n";

    // 8 ints per thread: global(2) local(2) tile(2) tile_origin(2)
    std::vector<int> rec(2 * 6 * 8, -1);
    array_view<int, 3> r(2, 6, 8, rec);
    parallel_for_each(t_ee, [=](tiled_index<2, 2> t_idx) restrict(amp)
    {
        int g0 = t_idx.global[0], g1 = t_idx.global[1];
        r(g0, g1, 0) = t_idx.global[0];
        r(g0, g1, 1) = t_idx.global[1];
        r(g0, g1, 2) = t_idx.local[0];
        r(g0, g1, 3) = t_idx.local[1];
        r(g0, g1, 4) = t_idx.tile[0];
        r(g0, g1, 5) = t_idx.tile[1];
        r(g0, g1, 6) = t_idx.tile_origin[0];
        r(g0, g1, 7) = t_idx.tile_origin[1];
    });
    r.synchronize();
    for (int i = 0; i < 2; ++i)
        for (int j = 0; j < 6; ++j) {
            const int* p = &rec[(i * 6 + j) * 8];
            std::cout << "global (" << p[0] << "," << p[1] << ")"
                      << " local (" << p[2] << "," << p[3] << ")"
                      << " tile (" << p[4] << "," << p[5] << ")"
                      << " tile_origin (" << p[6] << "," << p[7] << ")\n";
        }
    return 0;
}
