// Reference for samples/seeds/tile_static_sum_fixed.cpp (seed 003, tile_static
// sum with the barrier fix): sums of the three 2x2 tiles of the 2x6 matrix.
#include <iostream>
int main() {
    int m[12] = {130, 140, 150, 160, 170, 180, 290, 316, 342, 368, 394, 420};
    int t[3];
    for (int tile = 0; tile < 3; ++tile)
        t[tile] = m[2 * tile] + m[2 * tile + 1] + m[6 + 2 * tile] + m[6 + 2 * tile + 1];
    std::cout << "tile sums: " << t[0] << " " << t[1] << " " << t[2] << "\n";
    std::cout << "sum = " << t[0] + t[1] + t[2] << "\n";
}
