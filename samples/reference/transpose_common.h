// Shared by transpose_8x8_ref.cpp and transpose_8x8_tile8_ref.cpp: plain C++
// evaluation of seed 004's transpose kernel index arithmetic for an 8x8
// matrix 1..64, printed in the format of samples/ports/transpose_8x8*.cpp.
#include <cassert>
#include <iomanip>
#include <iostream>
#include <vector>

inline void PrintTransposeReference(int size, const std::vector<std::vector<int>>& groups) {
    const int width = 8, height = 8, n = width * height;
    std::vector<int> in(n), out(n, 0), idxTile(n), idxOut(n);
    for (int i = 0; i < n; ++i) in[i] = i + 1;
    // Every work-item (x, y) of the NDRange, with the kernel's formulas.
    for (int y = 0; y < height; ++y)
        for (int x = 0; x < width; ++x) {
            int lx = x % size, ly = y % size, gx = x / size, gy = y / size;
            int ox = gy * size + lx, oy = gx * size + ly;
            int index_output = oy * height + ox;
            int index_tile = lx * (size + 1) + ly;  // read index after the barrier
            // tile[lx*(size+1)+ly] was written by work-item (lx' = ly, ly' = lx)
            // of the same group, i.e. it holds input(gy*size+lx, gx*size+ly).
            out[index_output] = in[(gy * size + lx) * width + gx * size + ly];
            idxTile[y * width + x] = index_tile;
            idxOut[y * width + x] = index_output;
        }
    for (int y = 0; y < height; ++y)
        for (int x = 0; x < width; ++x) assert(out[x * height + y] == in[y * width + x]);

    std::cout << "LOCAL_SIZE = " << size << " (" << size << "x" << size
              << " tiles), width = " << width << ", height = " << height << "\n";
    std::cout << "input:\n";
    for (int y = 0; y < height; ++y) {
        for (int x = 0; x < width; ++x) std::cout << std::setw(3) << in[y * width + x];
        std::cout << "\n";
    }
    std::cout << "transposed:\n";
    for (int y = 0; y < width; ++y) {
        for (int x = 0; x < height; ++x) std::cout << std::setw(3) << out[y * height + x];
        std::cout << "\n";
    }
    std::cout << "check against CPU transpose: OK\n";
    for (const auto& g : groups) {
        const int gx = g[0], gy = g[1];
        for (int which = 0; which < 2; ++which) {
            std::cout << "gx=" << gx << " gy=" << gy << (which ? " index_out:" : " index_tile:");
            for (int ly = 0; ly < 2; ++ly)
                for (int lx = 0; lx < size; ++lx) {
                    int at = (gy * size + ly) * width + gx * size + lx;
                    std::cout << " " << (which ? idxOut[at] : idxTile[at]);
                }
            std::cout << "\n";
        }
    }
    for (int v : {5, 33, 37}) {
        int at = -1;
        for (int k = 0; k < n; ++k)
            if (out[k] == v) at = k;
        std::cout << "value " << v << " -> output index " << at << " (input[" << at
                  << "] = " << in[at] << ")\n";
    }
}
