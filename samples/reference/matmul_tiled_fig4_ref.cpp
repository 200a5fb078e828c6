// Reference for samples/seeds/matmul_tiled_fig4.cpp (seed 003, Figure 4).
#include "matmul_common.h"
int main() {
    RefCheckCase(64, 64, 64);
    RefCheckCase(32, 48, 20);
}
