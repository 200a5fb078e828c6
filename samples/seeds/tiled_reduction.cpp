// Seed 001 (Q&A answer on C++ AMP reductions), second code block: class
// template TiledReduction<TileSize>.  Printed without includes, main or the
// TimeFunc helper it calls; the wrapper supplies them.  TimeFunc(view, f)
// runs f, waits for the accelerator_view and returns the elapsed time in
// milliseconds (not printed: timings are not reproducible).
//
// Element counts: each pass tiles the whole extent, so while elementCount >=
// TileSize it must be divisible by TileSize; the wrapper uses
// n = m * TileSize^k with m < TileSize (m = 1 gives a full GPU reduction, other
// m leave m partial sums that the printed code adds with std::accumulate).

// ---- wrapper ----
#include <amp.h>
#include <algorithm>
#include <chrono>
#include <iostream>
#include <numeric>
#include <utility>
#include <vector>
using namespace concurrency;

template <typename Func>
double TimeFunc(accelerator_view& view, Func&& f)
{
    auto start = std::chrono::steady_clock::now();
    f();
    view.wait();
    auto stop = std::chrono::steady_clock::now();
    return std::chrono::duration<double, std::milli>(stop - start).count();
}

// ---- as printed ----
template <int TileSize>
class TiledReduction
{
public:
int Reduce(accelerator_view& view, const std::vector<int>& source,
double& computeTime) const
{
int elementCount = static_cast<int>(source.size());
// Copy data
array<int, 1> arr(elementCount, source.cbegin(), source.cend(), view);
int result;
computeTime = TimeFunc(view, [&]()
{
while (elementCount >= TileSize)
{
extent<1> e(elementCount);
array<int, 1> tmpArr(elementCount / TileSize);
parallel_for_each(view, e.tile<TileSize>(),
[=, &arr, &tmpArr] (tiled_index<TileSize> tidx) restrict(amp)
{
// For each tile do the reduction on the first thread of the tile.
// This isn't expected to be very efficient as all the other
// threads in the tile are idle.
if (tidx.local[0] == 0)
{
int tid = tidx.global[0];
int tempResult = arr[tid];
for (int i = 1; i < TileSize; ++i)
tempResult += arr[tid + i];
// Take the result from each tile and create a new array.
// This will be used in the next iteration. Use temporary
// array to avoid race condition.
tmpArr[tidx.tile[0]] = tempResult;
}
});
elementCount /= TileSize;
std::swap(tmpArr, arr);
}
// Copy the final results from each tile to the CPU and accumulate them
std::vector<int> partialResult(elementCount);
copy(arr.section(0, elementCount), partialResult.begin());
result = std::accumulate(partialResult.cbegin(), partialResult.cend(), 0);
});
return result;
}
};
// ---- wrapper ----

template <int TileSize>
void Run(accelerator_view& view, int n)
{
    std::vector<int> source(n);
    for (int i = 0; i < n; ++i)
        source[i] = i % 1000 + 1;
    double computeTime = 0.0;
    TiledReduction<TileSize> reduction;
    int reduced = reduction.Reduce(view, source, computeTime);
    int expected = std::accumulate(source.cbegin(), source.cend(), 0);
    std::cout << "TiledReduction<" << TileSize << "> n=" << n << ": " << reduced
              << " (std::accumulate: " << expected << ")\n";
}

int main()
{
    accelerator_view view = accelerator().default_view;
    Run<4>(view, 3);          // fewer elements than a tile: CPU accumulate only
    Run<4>(view, 4);
    Run<4>(view, 16);
    Run<4>(view, 48);         // 3 * 4^2
    Run<4>(view, 1024);       // 4^5
    Run<4>(view, 12288);      // 3 * 4^6
    Run<16>(view, 16);
    Run<16>(view, 256);
    Run<16>(view, 4096);
    Run<16>(view, 12288);     // 3 * 16^3
    Run<16>(view, 65536);     // 16^4
    Run<256>(view, 65536);    // 256^2
    Run<256>(view, 196608);   // 3 * 256^2
    return 0;
}
