// matrix_multiply_tiled.cpp : compares the simple and the tiled C++ AMP
// matrix multiplication with the CPU, with a small performance-counter timer
// class and _tprintf output.
//

#include "stdafx.h"
#include <amp.h>

using namespace concurrency;

class Timer
{
public:
    Timer() { QueryPerformanceFrequency(&m_frequency); }
    void Start() { QueryPerformanceCounter(&m_start); }
    void Stop() { QueryPerformanceCounter(&m_stop); }
    double Elapsed() const
    {
        return (m_stop.QuadPart - m_start.QuadPart) * 1000.0 / m_frequency.QuadPart;
    }

private:
    LARGE_INTEGER m_frequency;
    LARGE_INTEGER m_start;
    LARGE_INTEGER m_stop;
};

static const int TILE = 16;

void MultiplyCpu(const std::vector<int>& a, const std::vector<int>& b, std::vector<int>& c, int M, int N, int W)
{
    for (int row = 0; row < M; row++)
        for (int col = 0; col < N; col++)
        {
            int sum = 0;
            for (int k = 0; k < W; k++)
                sum += a[row * W + k] * b[k * N + col];
            c[row * N + col] = sum;
        }
}

void MultiplySimple(const std::vector<int>& a, const std::vector<int>& b, std::vector<int>& c, int M, int N, int W)
{
    array_view<const int, 2> av(M, W, a);
    array_view<const int, 2> bv(W, N, b);
    array_view<int, 2> cv(M, N, c);
    cv.discard_data();
    parallel_for_each(cv.extent, [=](index<2> idx) restrict(amp)
    {
        int row = idx[0];
        int col = idx[1];
        int sum = 0;
        for (int k = 0; k < W; k++)
            sum += av(row, k) * bv(k, col);
        cv[idx] = sum;
    });
    cv.synchronize();
}

void MultiplyTiled(const std::vector<int>& a, const std::vector<int>& b, std::vector<int>& c, int M, int N, int W)
{
    array_view<const int, 2> av(M, W, a);
    array_view<const int, 2> bv(W, N, b);
    array_view<int, 2> cv(M, N, c);
    cv.discard_data();
    parallel_for_each(cv.extent.tile<TILE, TILE>(), [=](tiled_index<TILE, TILE> t_idx) restrict(amp)
    {
        int row = t_idx.local[0];
        int col = t_idx.local[1];
        tile_static int locA[TILE][TILE];
        tile_static int locB[TILE][TILE];
        int sum = 0;
        for (int i = 0; i < W; i += TILE)
        {
            locA[row][col] = av(t_idx.global[0], col + i);
            locB[row][col] = bv(row + i, t_idx.global[1]);
            t_idx.barrier.wait();
            for (int k = 0; k < TILE; k++)
                sum += locA[row][k] * locB[k][col];
            t_idx.barrier.wait();
        }
        cv[t_idx.global] = sum;
    });
    cv.synchronize();
}

int _tmain(int argc, _TCHAR* argv[])
{
    const int M = 128, N = 96, W = 64;
    std::vector<int> a(M * W), b(W * N), cpu(M * N), simple(M * N), tiled(M * N);
    for (int i = 0; i < M * W; i++) a[i] = (i * 7) % 11 - 5;
    for (int i = 0; i < W * N; i++) b[i] = (i * 5) % 13 - 6;

    Timer timer;
    double times[3];
    timer.Start(); MultiplyCpu(a, b, cpu, M, N, W); timer.Stop(); times[0] = timer.Elapsed();
    timer.Start(); MultiplySimple(a, b, simple, M, N, W); timer.Stop(); times[1] = timer.Elapsed();
    timer.Start(); MultiplyTiled(a, b, tiled, M, N, W); timer.Stop(); times[2] = timer.Elapsed();

    long long checksum = 0;
    int mismatches = 0;
    for (int i = 0; i < M * N; i++)
    {
        checksum += (long long)cpu[i] * (i % 7 + 1);
        if (simple[i] != cpu[i] || tiled[i] != cpu[i])
            mismatches++;
    }

    TCHAR line[128];
    _stprintf_s(line, _T("%dx%d times %dx%d, tile %d"), M, W, W, N, TILE);
    _tprintf(_T("Matrix multiply: %s\n"), line);
    _tprintf(_T("c[0][0] = %d, c[127][95] = %d, checksum = %I64d\n"), cpu[0], cpu[M * N - 1], checksum);
    _tprintf(_T("simple and tiled match the CPU: %s\n"), mismatches == 0 ? _T("yes") : _T("no"));
    // Timings vary between runs: they go to stderr, marked "[timing] " so that
    // the differential check (scripts/differential.sh) leaves them out.
    _ftprintf(stderr, _T("[timing] cpu %.3f ms, simple %.3f ms, tiled %.3f ms\n"), times[0], times[1], times[2]);
    return mismatches == 0 ? 0 : 1;
}
