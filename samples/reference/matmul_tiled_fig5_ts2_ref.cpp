// Reference for samples/seeds/matmul_tiled_fig5_ts2.cpp (seed 003, Figure 5, TS = 2).
#include "matmul_common.h"
int main() {
    RefSmallCase();
    RefCheckCase(6, 10, 8);
}
