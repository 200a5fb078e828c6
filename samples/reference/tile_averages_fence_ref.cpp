// Reference for samples/seeds/tile_averages_fence.cpp (seed 000, memory
// fence variant, SAMPLESIZE 2): same result as the SAMPLESIZE 2 program.
#include "tile_averages_common.h"
int main() {
    PrintAverages(2, {4.5f, 6.5f, 8.5f, 10.5f, 20.5f, 22.5f, 24.5f, 26.5f,
                      36.5f, 38.5f, 40.5f, 42.5f, 52.5f, 54.5f, 56.5f, 58.5f});
}
