// Reference for samples/ports/transpose_8x8.cpp (seed 004, LOCAL_SIZE = 4).
// Also checks the index tables and worked examples the chapter prints.
#include "transpose_common.h"
int main() {
    // The chapter's tables (gx, gy): index_tile / index_out for ly = 0, 1.
    const int size = 4;
    const int doc[3][2][8] = {
        {{0, 5, 10, 15, 1, 6, 11, 16}, {0, 1, 2, 3, 8, 9, 10, 11}},     // (0,0)
        {{0, 5, 10, 15, 1, 6, 11, 16}, {4, 5, 6, 7, 12, 13, 14, 15}},   // (0,1)
        {{0, 5, 10, 15, 1, 6, 11, 16}, {36, 37, 38, 39, 44, 45, 46, 47}}};  // (1,1)
    const int groups[3][2] = {{0, 0}, {0, 1}, {1, 1}};
    for (int g = 0; g < 3; ++g)
        for (int ly = 0; ly < 2; ++ly)
            for (int lx = 0; lx < size; ++lx) {
                int gx = groups[g][0], gy = groups[g][1];
                assert(lx * (size + 1) + ly == doc[g][0][ly * size + lx]);
                assert((gx * size + ly) * 8 + gy * size + lx == doc[g][1][ly * size + lx]);
            }
    // Worked examples: (1*4+0)*8 + 0*4 + 0 = 32, (0*4+0)*8 + (1*4+0) = 4,
    // (1*4+0)*8 + (1*4+0) = 36 (printed output of "value" lines below).
    PrintTransposeReference(size, {{0, 0}, {0, 1}, {1, 1}});
}
