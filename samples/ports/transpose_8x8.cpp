// Port of seed 004 (OpenCL book chapter 13.6, "GPGPUへの修正点(メモリストライド・
// Bank Conflict対策)") to C++ AMP: the padded-tile transpose kernel
// (padded_transpose.h) applied to the chapter's 8x8 matrix 1..64 with
// LOCAL_SIZE = 4 (4x4 tiles).
//
// Prints the input, the transposed matrix, the chapter's index tables
// (index_tile / index_out for work-groups (gx,gy) = (0,0), (0,1), (1,1); the
// chapter lists local rows ly = 0 and 1, lx = 0..3) as recorded from inside
// the AMP kernel, and the chapter's three worked examples (values 5, 33, 37).
#include "chapter_8x8.h"

int main()
{
    const int groups[3][2] = {{0, 0}, {0, 1}, {1, 1}};  // (gx, gy)
    return RunChapterExample<4>(groups);
}
