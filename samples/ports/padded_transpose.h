// Seed 004 (OpenCL book chapter 13.6, "GPGPUへの修正点(メモリストライド・Bank
// Conflict対策)"): the padded-tile transpose kernel (local memory
// tile[size * (size+1)]), ported to C++ AMP. Shared by the ports in this
// directory.
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
#pragma once
#include <amp.h>

struct cfloat2 {
    float x;
    float y;
};

// Called by every work-item with its global position (y, x), the tile index
// it reads back and the output index it writes; the default records nothing.
struct no_record {
    void operator()(int, int, int, int) const restrict(amp) {}
};

// Transposes the width x height (columns x rows) row-major matrix `input`
// into the height x width matrix `output`.  width and height must be
// multiples of size.
template <int size, class Record = no_record>
void transpose(const concurrency::array_view<const cfloat2, 1>& input,
               const concurrency::array_view<cfloat2, 1>& output, int width, int height,
               const Record& record = Record())
{
    using namespace concurrency;
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

        record(y, x, index_tile, index_output);
    });
}
