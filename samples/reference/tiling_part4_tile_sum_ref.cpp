// Reference for samples/seeds/tiling_part4_tile_sum.cpp (seed 002).  The
// program prints nothing; it only asserts that the three 2x2 tile sums add up
// to 3060.  This reference checks that claim and, like the program, prints
// nothing (the expected stdout is empty; the exit status must be 0).
#include <cassert>
int main() {
    int m[12] = {130, 140, 150, 160, 170, 180, 290, 316, 342, 368, 394, 420};
    int sum = 0;
    for (int tile = 0; tile < 3; ++tile)
        sum += m[2 * tile] + m[2 * tile + 1] + m[6 + 2 * tile] + m[6 + 2 * tile + 1];
    assert(sum == 3060);
    return sum == 3060 ? 0 : 1;
}
