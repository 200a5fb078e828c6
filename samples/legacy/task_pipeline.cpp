// task_pipeline.cpp : a PPL task chain around C++ AMP work: the data are
// prepared by a task, a continuation runs the kernel on the accelerator, the
// next one checks the result; an asynchronous copy joins the chain through
// completion_future::to_task(). Tasks may finish on any thread; the program
// waits for the last one.
//

#include "stdafx.h"
#include <ppltasks.h>
#include <amp.h>
#include <numeric>

using namespace concurrency;

int _tmain(int argc, _TCHAR* argv[])
{
    const int size = 4096;
    auto prepare = create_task([size]() -> std::vector<int>
    {
        std::vector<int> data(size);
        std::iota(data.begin(), data.end(), 1);
        return data;
    });

    auto compute = prepare.then([](std::vector<int> data)
    {
        array_view<int, 1> view((int)data.size(), data);
        parallel_for_each(view.extent, [=](index<1> idx) restrict(amp)
        {
            view[idx] = view[idx] * 3 + 1;
        });
        view.synchronize();
        return data;
    });

    auto check = compute.then([](task<std::vector<int>> previous)
    {
        std::vector<int> data = previous.get();
        long long sum = std::accumulate(data.begin(), data.end(), 0LL);
        return sum;
    });

    LARGE_INTEGER start, stop, frequency;
    QueryPerformanceFrequency(&frequency);
    QueryPerformanceCounter(&start);
    long long sum = check.get();
    QueryPerformanceCounter(&stop);
    std::wcout << L"sum of 3x+1 over 1.." << size << L" = " << sum << std::endl;

    // An asynchronous copy to the accelerator, continued as a PPL task.
    std::vector<int> source(size, 2);
    array<int, 1> device(size);
    completion_future copied = copy_async(source.begin(), source.end(), device);
    task<int> doubled = copied.to_task().then([&device]() -> int
    {
        parallel_for_each(device.extent, [&device](index<1> idx) restrict(amp)
        {
            device[idx] *= 2;
        });
        std::vector<int> back = device;
        return std::accumulate(back.begin(), back.end(), 0);
    });
    std::wcout << L"copy_async + to_task + kernel: " << doubled.get() << std::endl;

    // when_all over independent tasks, in order.
    std::vector<task<int>> parts;
    for (int p = 0; p < 4; p++)
        parts.push_back(create_task([p] { return (p + 1) * (p + 1); }));
    std::vector<int> squares = when_all(parts.begin(), parts.end()).get();
    std::wcout << L"when_all:";
    for (size_t i = 0; i < squares.size(); i++)
        std::wcout << L' ' << squares[i];
    std::wcout << std::endl;

    // Exceptions travel along value-based continuations to get().
    auto failing = create_task([]() -> int { throw std::runtime_error("sensor offline"); })
        .then([](int v) { return v + 1; });
    try
    {
        failing.get();
    }
    catch (const std::exception& e)
    {
        std::wcout << L"caught: " << e.what() << std::endl;
    }
    std::wcerr << L"[timing] chain time: " << (stop.QuadPart - start.QuadPart) * 1000.0 / frequency.QuadPart << L" ms" << std::endl;
    return 0;
}
