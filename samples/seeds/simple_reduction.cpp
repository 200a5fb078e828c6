// Seed 001 (Q&A answer on C++ AMP reductions), first code block: class
// SimpleReduction.  The class is printed without includes or a main; the
// wrapper adds those, builds input vectors and prints the result next to
// std::accumulate.
//
// Element counts: the printed tail handling is only deterministic when no
// stride after the first is odd and > 1, i.e. when elementCount/2 is a power
// of two (n = 2^k or 2^k + 1).  For other sizes (e.g. n = 6: stride 3) thread
// 0 reads a[stride - 1] in the same kernel in which thread stride-1 updates
// it -- a data race in the printed code, whose result depends on the
// accelerator.  Measured with amp_compat: on an H100 (CUDA) n = 6, 7, 10, 12,
// 100 give the sum; on the Serial and OpenMP back ends, where thread 0 runs
// first, they give 15, 22, 45, 60, 4060 instead of 21, 28, 55, 78, 5050.
// Such sizes are therefore not used.
// n = 1 is kept on purpose: the printed algorithm returns result[0] +
// tailResult = 2 * source[0] there (the single element is counted as both
// "array" and "tail"), so it differs from std::accumulate; that is what the
// document's code computes.

// ---- wrapper ----
#include <amp.h>
#include <cassert>
#include <climits>
#include <iostream>
#include <numeric>
#include <vector>
using namespace concurrency;

// ---- as printed ----
class SimpleReduction
{
public:
int Reduce(accelerator_view& view, const std::vector<int>& source,
double& computeTime) const
{
assert(source.size() <= UINT_MAX);
int elementCount = static_cast<int>(source.size());
// Copy data
array<int, 1> a(elementCount, source.cbegin(), source.cend(), view);
std::vector<int> result(1);
int tailResult = (elementCount % 2) ? source[elementCount - 1] : 0;
array_view<int, 1> tailResultView(1, &tailResult);
for (int stride = (elementCount / 2); stride > 0; stride /= 2)
{
parallel_for_each(view, extent<1>(stride), [=, &a] (index<1> idx)
restrict(amp)
{
a[idx] += a[idx + stride];
// If there are an odd number of elements then the
// first thread adds the last element.
if ((idx[0] == 0) && (stride & 0x1) && (stride != 1))
tailResultView[idx] += a[stride - 1];
});
}
// Only copy out the first element in the array as this
// contains the final answer.
copy(a.section(0, 1), result.begin());
tailResultView.synchronize();
return result[0] + tailResult;
}
};
// ---- wrapper ----

int main()
{
    accelerator_view view = accelerator().default_view;
    const int sizes[] = {1, 2, 3, 4, 5, 8, 9, 16, 17, 1024, 1025, 32769, 1048577};
    SimpleReduction reduction;
    for (int n : sizes)
    {
        std::vector<int> source(n);
        for (int i = 0; i < n; ++i)
            source[i] = i % 1000 + 1;
        double computeTime = 0.0;
        int reduced = reduction.Reduce(view, source, computeTime);
        int expected = std::accumulate(source.cbegin(), source.cend(), 0);
        std::cout << "SimpleReduction n=" << n << ": " << reduced
                  << " (std::accumulate: " << expected << ")\n";
    }
    return 0;
}
