// Port of seed 004 (OpenCL book chapter 13.6) to C++ AMP: the padded-tile
// transpose kernel on large matrices (square and non-square, 16x16 and 32x32
// tiles), checked element by element against a CPU transpose.  Prints the
// mismatch count and OK/FAILED per case.  See transpose_8x8.cpp for the
// OpenCL -> C++ AMP mapping.
#include <amp.h>
#include <iostream>
#include <vector>
using namespace concurrency;

struct cfloat2 {  // OpenCL float2 (not named float2: CUDA declares ::float2)
    float x;
    float y;
};

// Transposes the width x height (columns x rows) row-major matrix `input`
// into the height x width matrix `output`; width, height multiples of size.
template <int size>
void transpose(const array_view<const cfloat2, 1>& input, const array_view<cfloat2, 1>& output,
               int width, int height)
{
    output.discard_data();
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
    });
}

template <int size>
void RunCase(int width, int height)
{
    const int n = width * height;
    std::vector<cfloat2> in(n), out(n);
    for (int i = 0; i < n; ++i) {
        in[i].x = (float)i;           // exact: n <= 2^24
        in[i].y = (float)(n - i);
    }
    array_view<const cfloat2, 1> input(n, in);
    array_view<cfloat2, 1> output(n, out);
    transpose<size>(input, output, width, height);
    output.synchronize();

    long long mismatches = 0;
    for (int y = 0; y < height; ++y)
        for (int x = 0; x < width; ++x) {
            const cfloat2& o = out[x * height + y];
            const cfloat2& i = in[y * width + x];
            if (o.x != i.x || o.y != i.y) ++mismatches;
        }
    std::cout << "transpose " << width << "x" << height << " (width x height), "
              << size << "x" << size << " tiles: mismatches " << mismatches
              << (mismatches == 0 ? ": OK" : ": FAILED") << "\n";
}

int main()
{
    RunCase<16>(1024, 1024);
    RunCase<16>(2048, 512);
    RunCase<16>(512, 2048);
    RunCase<32>(1024, 1024);
    return 0;
}
