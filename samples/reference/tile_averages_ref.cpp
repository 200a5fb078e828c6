// Reference for samples/seeds/tile_averages.cpp (seed 000, SAMPLESIZE 2).
// The document states the output in the program's comments:
//  4.5  6.5  8.5 10.5 / 20.5 22.5 24.5 26.5 / 36.5 38.5 40.5 42.5 / 52.5 54.5 56.5 58.5
#include "tile_averages_common.h"
int main() {
    PrintAverages(2, {4.5f, 6.5f, 8.5f, 10.5f, 20.5f, 22.5f, 24.5f, 26.5f,
                      36.5f, 38.5f, 40.5f, 42.5f, 52.5f, 54.5f, 56.5f, 58.5f});
}
