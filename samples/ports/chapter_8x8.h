// The chapter's worked example for the padded-tile transpose (seed 004): the
// 8x8 matrix 1..64 transposed with LOCAL_SIZE x LOCAL_SIZE tiles. Prints the
// input, the transposed matrix, the index tables (index_tile / index_out) of
// the given work-groups (gx, gy) for local rows ly = 0 and 1, as recorded
// from inside the AMP kernel, and the chapter's three worked examples
// (values 5, 33, 37). Used by transpose_8x8.cpp and transpose_8x8_tile8.cpp.
#pragma once
#include "padded_transpose.h"

#include <iomanip>
#include <iostream>
#include <vector>

// Records each work-item's tile and output index at its global position.
struct record_indices {
    concurrency::array_view<int, 2> index_tile, index_out;
    void operator()(int y, int x, int it, int io) const restrict(amp)
    {
        index_tile(y, x) = it;
        index_out(y, x) = io;
    }
};

static void PrintMatrix(const char* title, const std::vector<cfloat2>& m, int width, int height)
{
    std::cout << title << "\n";
    for (int y = 0; y < height; ++y) {
        for (int x = 0; x < width; ++x)
            std::cout << std::setw(3) << m[y * width + x].x;
        std::cout << "\n";
    }
}

template <int LOCAL_SIZE, int GROUPS>
int RunChapterExample(const int (&groups)[GROUPS][2])  // (gx, gy) pairs
{
    using namespace concurrency;
    const int width = 8;
    const int height = 8;
    const int DATA_SIZE = width * height;

    std::vector<cfloat2> in(DATA_SIZE), out(DATA_SIZE);
    for (int i = 0; i < DATA_SIZE; ++i) {
        in[i].x = (float)(i + 1);
        in[i].y = -(float)(i + 1);
    }
    std::vector<int> idxTile(DATA_SIZE, -1), idxOut(DATA_SIZE, -1);

    array_view<const cfloat2, 1> input(DATA_SIZE, in);
    array_view<cfloat2, 1> output(DATA_SIZE, out);
    record_indices rec{array_view<int, 2>(height, width, idxTile), array_view<int, 2>(height, width, idxOut)};
    rec.index_tile.discard_data();
    rec.index_out.discard_data();
    transpose<LOCAL_SIZE>(input, output, width, height, rec);
    output.synchronize();
    rec.index_tile.synchronize();
    rec.index_out.synchronize();

    std::cout << "LOCAL_SIZE = " << LOCAL_SIZE << " (" << LOCAL_SIZE << "x" << LOCAL_SIZE
              << " tiles), width = " << width << ", height = " << height << "\n";
    PrintMatrix("input:", in, width, height);
    PrintMatrix("transposed:", out, height, width);

    int mismatches = 0;
    for (int y = 0; y < height; ++y)
        for (int x = 0; x < width; ++x) {
            const cfloat2& o = out[x * height + y];
            const cfloat2& i = in[y * width + x];
            if (o.x != i.x || o.y != i.y) ++mismatches;
        }
    std::cout << "check against CPU transpose: " << (mismatches == 0 ? "OK" : "MISMATCH") << "\n";

    for (const auto& g : groups) {
        const int gx = g[0], gy = g[1];
        std::cout << "gx=" << gx << " gy=" << gy << " index_tile:";
        for (int ly = 0; ly < 2; ++ly)
            for (int lx = 0; lx < LOCAL_SIZE; ++lx)
                std::cout << " " << idxTile[(gy * LOCAL_SIZE + ly) * width + gx * LOCAL_SIZE + lx];
        std::cout << "\n";
        std::cout << "gx=" << gx << " gy=" << gy << " index_out:";
        for (int ly = 0; ly < 2; ++ly)
            for (int lx = 0; lx < LOCAL_SIZE; ++lx)
                std::cout << " " << idxOut[(gy * LOCAL_SIZE + ly) * width + gx * LOCAL_SIZE + lx];
        std::cout << "\n";
    }

    const int values[3] = {5, 33, 37};
    for (int v : values) {
        int at = -1;
        for (int k = 0; k < DATA_SIZE; ++k)
            if (out[k].x == (float)v) at = k;
        if (at < 0)
            std::cout << "value " << v << " not found in output\n";
        else
            std::cout << "value " << v << " -> output index " << at << " (input[" << at
                      << "] = " << in[at].x << ")\n";
    }
    return 0;
}
