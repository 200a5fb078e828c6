// Port of seed 004 (OpenCL book chapter 13.6) to C++ AMP: the padded-tile
// transpose kernel on large matrices (square and non-square, 16x16 and 32x32
// tiles), checked element by element against a CPU transpose.  Prints the
// mismatch count and OK/FAILED per case.  The kernel and the OpenCL -> C++ AMP
// mapping: padded_transpose.h.
#include "padded_transpose.h"
#include <iostream>
#include <vector>
using namespace concurrency;

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
