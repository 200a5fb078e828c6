// Reference for samples/seeds/tiled_extent_snippets.cpp (seed 003, tiled_extent
// declarations): the facts the article states, and the tiled_index properties
// of extent<2>(2,6).tile<2,2>() computed arithmetically.
#include <iostream>
int main() {
    std::cout << "e.rank=1 t_e.rank=1\n";
    std::cout << "ee.rank=2 t_ee.rank=2\n";
    std::cout << "e.size()=12 ee.size()=12\n";
    std::cout << "e[0]=12 t_e.tile_extent[0]=6\n";
    std::cout << "ee[0]=2 t_ee.tile_extent[0]=2\n";
    std::cout << "ee[1]=6 t_ee.tile_extent[1]=2\n";
    for (int i = 0; i < 2; ++i)
        for (int j = 0; j < 6; ++j)
            std::cout << "global (" << i << "," << j << ")"
                      << " local (" << i % 2 << "," << j % 2 << ")"
                      << " tile (" << i / 2 << "," << j / 2 << ")"
                      << " tile_origin (" << i / 2 * 2 << "," << j / 2 * 2 << ")\n";
}
