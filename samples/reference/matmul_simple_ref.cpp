// Reference for samples/seeds/matmul_simple.cpp (seed 003, Figure 1).
#include "matmul_common.h"
int main() {
    RefSmallCase();
    RefCheckCase(64, 64, 64);
    RefCheckCase(33, 17, 50);
}
