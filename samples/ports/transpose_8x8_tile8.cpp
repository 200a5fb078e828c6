// Port of seed 004 (OpenCL book chapter 13.6, "GPGPUへの修正点(メモリストライド・
// Bank Conflict対策)") to C++ AMP: the padded-tile transpose kernel
// (padded_transpose.h) applied to the chapter's 8x8 matrix 1..64, here with
// LOCAL_SIZE = 8, i.e. the whole matrix is one 8x8 tile (the chapter uses 4x4
// tiles: see transpose_8x8.cpp).
//
// Prints the input, the transposed matrix, the index tables of the single
// work-group (gx,gy) = (0,0) for local rows ly = 0 and 1, lx = 0..7 (padded
// row length size+1 = 9), recorded from inside the AMP kernel, and the
// chapter's three worked examples (values 5, 33, 37), which do not depend on
// the tile size.
#include "chapter_8x8.h"

int main()
{
    const int groups[1][2] = {{0, 0}};  // (gx, gy)
    return RunChapterExample<8>(groups);
}
