// Reference for samples/seeds/matmul_tiled_fig5_ts16.cpp (seed 003, Figure 5, TS = 16).
#include "matmul_common.h"
int main() {
    RefCheckCase(64, 64, 64);
    RefCheckCase(32, 48, 80);
}
