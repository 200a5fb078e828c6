// Port of seed 004 (OpenCL book chapter 13.6, "GPGPUへの修正点(メモリストライド・
// Bank Conflict対策)") to C++ AMP: the padded-tile transpose kernel
// (local memory tile[size * (size+1)]) applied to the chapter's 8x8 matrix
// 1..64 with LOCAL_SIZE = 4 (4x4 tiles).
//
// Prints the input, the transposed matrix, the chapter's index tables
// (index_tile / index_out for work-groups (gx,gy) = (0,0), (0,1), (1,1); the
// chapter lists local rows ly = 0 and 1, lx = 0..3) as recorded from inside
// the AMP kernel, and the chapter's three worked examples (values 5, 33, 37).
//
// Mapping OpenCL -> C++ AMP:
//   get_global_id(0) = x (column)  -> t_idx.global[1]
//   get_global_id(1) = y (row)     -> t_idx.global[0]
//   get_local_id(0/1) = lx / ly    -> t_idx.local[1] / t_idx.local[0]
//   get_group_id(0/1) = gx / gy    -> t_idx.tile[1]  / t_idx.tile[0]
//   __local float2 tile[...]       -> tile_static cfloat2 tile[...]
//   barrier(CLK_LOCAL_MEM_FENCE)   -> t_idx.barrier.wait_with_tile_static_memory_fence()
//   NDRange {width,height} / {size,size} -> extent<2>(height, width).tile<size,size>()
//   size_t indices                 -> int (restrict(amp) has no 64-bit integers)
// The OpenCL float2 becomes a plain struct.  It is deliberately not called
// float2: under Clang-CUDA the CUDA headers already declare ::float2.
#include <amp.h>
#include <iomanip>
#include <iostream>
#include <vector>
using namespace concurrency;

struct cfloat2 {
    float x;
    float y;
};

// Transposes the width x height (columns x rows) row-major matrix `input`
// into the height x width matrix `output`.  width and height must be
// multiples of size.  rec_index_tile / rec_index_out (extent height x width)
// receive, at each work-item's global position (y, x), the tile index it reads
// and the output index it writes.
template <int size>
void transpose(const array_view<const cfloat2, 1>& input, const array_view<cfloat2, 1>& output,
               int width, int height, const array_view<int, 2>& rec_index_tile,
               const array_view<int, 2>& rec_index_out)
{
    output.discard_data();
    rec_index_tile.discard_data();
    rec_index_out.discard_data();
    parallel_for_each(extent<2>(height, width).tile<size, size>(),
        [=](tiled_index<size, size> t_idx) restrict(amp)
    {
        tile_static cfloat2 tile[size * (size + 1)];
        int x = t_idx.global[1];
        int y = t_idx.global[0];

        int lx = t_idx.local[1];
        int ly = t_idx.local[0];

        int gx = t_idx.tile[1];
        int gy = t_idx.tile[0];

        int index_input = y * width + x;
        int index_tile = ly * (size + 1) + lx;
        tile[index_tile] = input[index_input];
        t_idx.barrier.wait_with_tile_static_memory_fence();

        int ox = gy * size + lx;
        int oy = gx * size + ly;

        int index_output = oy * height + ox;
        index_tile = lx * (size + 1) + ly;
        output[index_output] = tile[index_tile];

        rec_index_tile(y, x) = index_tile;
        rec_index_out(y, x) = index_output;
    });
}

static void PrintMatrix(const char* title, const std::vector<cfloat2>& m, int width, int height)
{
    std::cout << title << "\n";
    for (int y = 0; y < height; ++y) {
        for (int x = 0; x < width; ++x)
            std::cout << std::setw(3) << m[y * width + x].x;
        std::cout << "\n";
    }
}

int main()
{
    const int width = 8;
    const int height = 8;
    const int DATA_SIZE = width * height;
    const int LOCAL_SIZE = 4;

    std::vector<cfloat2> in(DATA_SIZE), out(DATA_SIZE);
    for (int i = 0; i < DATA_SIZE; ++i) {
        in[i].x = (float)(i + 1);
        in[i].y = -(float)(i + 1);
    }
    std::vector<int> idxTile(DATA_SIZE, -1), idxOut(DATA_SIZE, -1);

    array_view<const cfloat2, 1> input(DATA_SIZE, in);
    array_view<cfloat2, 1> output(DATA_SIZE, out);
    array_view<int, 2> recTile(height, width, idxTile);
    array_view<int, 2> recOut(height, width, idxOut);
    transpose<LOCAL_SIZE>(input, output, width, height, recTile, recOut);
    output.synchronize();
    recTile.synchronize();
    recOut.synchronize();

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

    const int groups[3][2] = {{0, 0}, {0, 1}, {1, 1}};  // (gx, gy)
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
