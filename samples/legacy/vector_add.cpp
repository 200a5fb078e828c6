// vector_add.cpp : the first C++ AMP console program of a Visual Studio
// 2012 project: adds two vectors on the default accelerator and times it with
// the performance counter.
//

#include "stdafx.h"
#include <amp.h>

using namespace concurrency;

void AddArrays(int n, const std::vector<int>& a, const std::vector<int>& b, std::vector<int>& sum)
{
    array_view<const int, 1> av(n, a);
    array_view<const int, 1> bv(n, b);
    array_view<int, 1> sv(n, sum);
    sv.discard_data();

    parallel_for_each(sv.extent, [=](index<1> idx) restrict(amp)
    {
        sv[idx] = av[idx] + bv[idx];
    });
    sv.synchronize();
}

int _tmain(int argc, _TCHAR* argv[])
{
    const int size = 100000;
    std::vector<int> a(size), b(size), sum(size);
    for (int i = 0; i < size; i++)
    {
        a[i] = i;
        b[i] = 3 * i + 1;
    }

    LARGE_INTEGER frequency, start, stop;
    QueryPerformanceFrequency(&frequency);
    QueryPerformanceCounter(&start);
    AddArrays(size, a, b, sum);
    QueryPerformanceCounter(&stop);
    double elapsed = (stop.QuadPart - start.QuadPart) * 1000.0 / frequency.QuadPart;

    int errors = 0;
    for (int i = 0; i < size; i++)
    {
        if (sum[i] != a[i] + b[i])
            errors++;
    }

    std::wcout << L"Adding " << size << L" elements on the accelerator" << std::endl;
    std::wcout << L"sum[0] = " << sum[0] << L", sum[99999] = " << sum[size - 1] << std::endl;
    std::wcout << (errors == 0 ? L"Verification PASSED" : L"Verification FAILED") << std::endl;
    // Timings differ from run to run: they go to the error stream, so that
    // the expected output stays exact.
    std::wcerr << L"[timing] Elapsed time: " << std::fixed << std::setprecision(3) << elapsed << L" ms" << std::endl;
    return errors == 0 ? 0 : 1;
}
