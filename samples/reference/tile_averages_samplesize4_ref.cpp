// Reference for samples/seeds/tile_averages_samplesize4.cpp (seed 000,
// SAMPLESIZE changed to 4 as the document suggests).  Documented output:
// 13.5 17.5 / 45.5 49.5
#include "tile_averages_common.h"
int main() {
    PrintAverages(4, {13.5f, 17.5f, 45.5f, 49.5f});
}
