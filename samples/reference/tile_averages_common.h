// Shared by the tile_averages*_ref.cpp reference programs: averages of
// SAMPLESIZE x SAMPLESIZE tiles of the 8x8 matrix 0..63, printed like the
// document's SamplingExample ("value " per element, newline per row), and
// cross-checked against the output the document states in its comments.
#include <cassert>
#include <iostream>
#include <vector>

inline void PrintAverages(int sampleSize, const std::vector<float>& documented) {
    const int MATRIXSIZE = 8;
    const int outputSize = MATRIXSIZE / sampleSize;
    std::vector<float> out;
    for (int tr = 0; tr < outputSize; tr++)
        for (int tc = 0; tc < outputSize; tc++) {
            float s = 0;  // all partial sums are small integers: exact in float
            for (int r = 0; r < sampleSize; r++)
                for (int c = 0; c < sampleSize; c++)
                    s += (float)((tr * sampleSize + r) * MATRIXSIZE + tc * sampleSize + c);
            out.push_back(s / (float)(sampleSize * sampleSize));
        }
    assert(out == documented);
    for (int row = 0; row < outputSize; row++) {
        for (int col = 0; col < outputSize; col++)
            std::cout << out[row * outputSize + col] << " ";
        std::cout << "\n";
    }
}
