// Function templates whose unsigned rank or tile size is deduced from AMP
// types (as the C++ AMP book writes them), built with --windows-compat and
// GCC: the launcher makes the deduced parameter an int one and the unsigned
// one a default after it (msvc.non_int_rank_edits, as under --msvc).
#include <amp.h>
#include <iostream>
#include <numeric>
#include <vector>

using namespace concurrency;

template <typename T, unsigned int Rank>
T PaddedRead(const array_view<const T, Rank>& A, const index<Rank>& idx) restrict(cpu, amp)
{
    return A.extent.contains(idx) ? A[idx] : T();
}

template <typename T, unsigned int Rank>
void PaddedWrite(const array_view<T, Rank>& A, const index<Rank>& idx, const T& val) restrict(cpu, amp)
{
    if (A.extent.contains(idx))
        A[idx] = val;
}

template <unsigned int TileSize>
int TileRow(tiled_index<TileSize, TileSize> t) restrict(amp)
{
    return t.tile[0] * int(TileSize);  // TileSize keeps its unsigned type in the body
}

static const int tileSize = 4;

int main()
{
    const int n = 10;  // not a multiple of the tile: padded
    std::vector<unsigned> in(n * n), out(n * n, 0u), rows(n * n, 0u);
    std::iota(in.begin(), in.end(), 0u);
    array_view<const unsigned, 2> iv(n, n, in);
    array_view<unsigned, 2> ov(n, n, out), rv(n, n, rows);
    parallel_for_each(iv.extent.tile<tileSize, tileSize>().pad(), [=](tiled_index<tileSize, tileSize> tidx) restrict(amp)
    {
        tile_static unsigned local[tileSize][tileSize];
        local[tidx.local[1]][tidx.local[0]] = PaddedRead(iv, tidx.global);
        tidx.barrier.wait();
        index<2> o(index<2>(tidx.tile_origin[1], tidx.tile_origin[0]) + tidx.local);
        PaddedWrite(ov, o, local[tidx.local[0]][tidx.local[1]]);
        PaddedWrite(rv, tidx.global, unsigned(TileRow(tidx)));
    });
    ov.synchronize();
    rv.synchronize();
    int bad = 0;
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j)
        {
            if (out[i * n + j] != unsigned(j * n + i)) ++bad;
            if (rows[i * n + j] != unsigned(i / tileSize * tileSize)) ++bad;
        }
    std::cout << "host read " << PaddedRead(iv, index<2>(1, 2)) << " " << PaddedRead(iv, index<2>(n, 0)) << "\n";
    std::cout << bad << " wrong cells" << std::endl;
    return bad;
}
