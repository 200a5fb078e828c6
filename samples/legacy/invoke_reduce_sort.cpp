// invoke_reduce_sort.cpp : PPL around a C++ AMP kernel: parallel_invoke
// fills three inputs at once, the accelerator combines them, then
// parallel_reduce, parallel_transform and parallel_sort summarise the result.
//

#include "stdafx.h"
#include <ppl.h>
#include <amp.h>
#include <algorithm>

using namespace concurrency;

int _tmain(int argc, _TCHAR* argv[])
{
    const int size = 50000;
    std::vector<int> a(size), b(size), c(size), result(size);

    parallel_invoke(
        [&] { for (int i = 0; i < size; i++) a[i] = i % 97; },
        [&] { for (int i = 0; i < size; i++) b[i] = (i * 31) % 101; },
        [&] { for (int i = 0; i < size; i++) c[i] = (size - i) % 89; });

    array_view<const int, 1> av(size, a), bv(size, b), cv(size, c);
    array_view<int, 1> rv(size, result);
    rv.discard_data();
    parallel_for_each(rv.extent, [=](index<1> idx) restrict(amp)
    {
        rv[idx] = av[idx] * bv[idx] - cv[idx];
    });
    rv.synchronize();

    long long total = parallel_reduce(result.begin(), result.end(), 0LL,
        [](std::vector<int>::iterator first, std::vector<int>::iterator last, long long init)
        {
            for (; first != last; ++first)
                init += *first;
            return init;
        },
        std::plus<long long>());
    int largest = parallel_reduce(result.begin(), result.end(), INT_MIN,
        [](int x, int y) { return __max(x, y); });

    std::vector<int> squares(size);
    parallel_transform(result.begin(), result.end(), squares.begin(), [](int x) { return (x % 100) * (x % 100); });
    long long squareSum = parallel_reduce(squares.begin(), squares.end(), 0LL,
        [](long long x, long long y) { return x + y; });

    parallel_sort(result.begin(), result.end());

    _tprintf(_T("total = %I64d, largest = %d, sum of squares = %I64d\n"), total, largest, squareSum);
    _tprintf(_T("smallest five:"));
    for (int i = 0; i < 5; i++)
        _tprintf(_T(" %d"), result[i]);
    _tprintf(_T("\nmedian = %d, sorted: %s\n"), result[size / 2],
        std::is_sorted(result.begin(), result.end()) ? _T("yes") : _T("no"));
    return 0;
}
