// Reference for samples/seeds/tiled_reduction.cpp (seed 001, TiledReduction).
// Emulates the printed algorithm: while count >= TileSize, replace the data by
// the sums of consecutive TileSize-element chunks; then add the rest.
#include <cassert>
#include <iostream>
#include <numeric>
#include <vector>

static void Run(int tileSize, int n) {
    std::vector<int> arr(n);
    for (int i = 0; i < n; ++i) arr[i] = i % 1000 + 1;
    const int expected = std::accumulate(arr.cbegin(), arr.cend(), 0);
    int count = n;
    while (count >= tileSize) {
        assert(count % tileSize == 0);
        std::vector<int> tmp(count / tileSize);
        for (int t = 0; t < count / tileSize; ++t)
            for (int i = 0; i < tileSize; ++i) tmp[t] += arr[t * tileSize + i];
        count /= tileSize;
        arr.swap(tmp);
    }
    int result = std::accumulate(arr.cbegin(), arr.cbegin() + count, 0);
    assert(result == expected);
    std::cout << "TiledReduction<" << tileSize << "> n=" << n << ": " << result
              << " (std::accumulate: " << expected << ")\n";
}

int main() {
    Run(4, 3);
    Run(4, 4);
    Run(4, 16);
    Run(4, 48);
    Run(4, 1024);
    Run(4, 12288);
    Run(16, 16);
    Run(16, 256);
    Run(16, 4096);
    Run(16, 12288);
    Run(16, 65536);
    Run(256, 65536);
    Run(256, 196608);
}
