// ppl_vs_amp.cpp : the same computation three ways, as the C++ AMP book
// compares them: a sequential loop, PPL's parallel_for with combinable
// partial sums, and a C++ AMP kernel; timed with the performance counter.
//

#include "stdafx.h"
#include <ppl.h>
#include <amp.h>

using namespace concurrency;

// A small integer hash, so that all three versions must agree exactly.
int Work(int i) restrict(cpu, amp)
{
    unsigned int x = (unsigned int)i * 2654435761u;
    x ^= x >> 13;
    x *= 0x5bd1e995u;
    x ^= x >> 15;
    return (int)(x % 1000u);
}

double ElapsedMs(const LARGE_INTEGER& start, const LARGE_INTEGER& stop)
{
    LARGE_INTEGER frequency;
    QueryPerformanceFrequency(&frequency);
    return (stop.QuadPart - start.QuadPart) * 1000.0 / frequency.QuadPart;
}

int _tmain(int argc, _TCHAR* argv[])
{
    const int size = 1 << 20;
    LARGE_INTEGER t0, t1, t2, t3;

    QueryPerformanceCounter(&t0);
    long long sequential = 0;
    for (int i = 0; i < size; i++)
        sequential += Work(i);

    QueryPerformanceCounter(&t1);
    combinable<long long> partial;
    parallel_for(0, size, [&](int i)
    {
        partial.local() += Work(i);
    });
    long long parallel = partial.combine(std::plus<long long>());

    QueryPerformanceCounter(&t2);
    std::vector<int> values(size);
    array_view<int, 1> view(size, values);
    view.discard_data();
    parallel_for_each(view.extent, [=](index<1> idx) restrict(amp)
    {
        view[idx] = Work(idx[0]);
    });
    view.synchronize();
    long long amp = 0;
    for (int i = 0; i < size; i++)
        amp += values[i];
    QueryPerformanceCounter(&t3);

    std::wcout << L"Elements:   " << size << std::endl;
    std::wcout << L"Sequential: " << sequential << std::endl;
    std::wcout << L"PPL:        " << parallel << (parallel == sequential ? L" (matches)" : L" (MISMATCH)") << std::endl;
    std::wcout << L"C++ AMP:    " << amp << (amp == sequential ? L" (matches)" : L" (MISMATCH)") << std::endl;
    std::wcerr << L"[timing] " << std::fixed << std::setprecision(2) << L"sequential " << ElapsedMs(t0, t1) << L" ms, ppl "
               << ElapsedMs(t1, t2) << L" ms, amp " << ElapsedMs(t2, t3) << L" ms" << std::endl;
    return (parallel == sequential && amp == sequential) ? 0 : 1;
}
