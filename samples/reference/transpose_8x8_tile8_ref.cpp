// Reference for samples/ports/transpose_8x8_tile8.cpp (seed 004 kernel with
// LOCAL_SIZE = 8: a single 8x8 tile).
#include "transpose_common.h"
int main() {
    PrintTransposeReference(8, {{0, 0}});
}
