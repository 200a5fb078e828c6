// binomial_macro.cpp : binomial_options.cpp's pricer written the way code
// ported from CUDA samples writes it: the kernel defines function-like macros
// over a flat view and the tile index (`CELL(base + tid)`), its work-item
// index is a plain `int`, and the macros are undefined at its end. Prices
// European call options on a binomial tree with C++ AMP, one option per tile
// of 256 threads, and checks every price against the CPU. The tree is rolled back in chunks that fit two tile_static
// buffers: barriers inside a loop over chunks nested in a loop over time
// steps, the shape of the classic GPU binomial pricer.
//
// Usage: binomial_options [options [steps [runs]]]   (default 16 options, 512
// steps, 1 run; steps a multiple of 32). Each run prices the same options
// again from the same leaves and is timed on its own: the first includes the
// runtime's start-up, later ones are the kernel alone. The prices do not
// depend on the accelerator: the kernel does the CPU's arithmetic in the
// CPU's order.
//

#include "stdafx.h"
#include <amp.h>
#include <cmath>

using namespace concurrency;

class Timer
{
public:
    Timer() { QueryPerformanceFrequency(&m_frequency); }
    void Start() { QueryPerformanceCounter(&m_start); }
    double Stop()
    {
        LARGE_INTEGER stop;
        QueryPerformanceCounter(&stop);
        return (stop.QuadPart - m_start.QuadPart) * 1000.0 / m_frequency.QuadPart;
    }

private:
    LARGE_INTEGER m_frequency;
    LARGE_INTEGER m_start;
};

#define TILE_SIZE   256
#define CACHE_DELTA 32                          // time steps per pass over a chunk
#define CACHE_SIZE  TILE_SIZE                   // nodes a chunk holds
#define CACHE_STEP  (CACHE_SIZE - CACHE_DELTA)  // nodes a chunk finishes

struct OptionParams
{
    float up;      // discounted probability of an up move
    float down;    // discounted probability of a down move
};

// Model parameters (Cox-Ross-Rubinstein with a linearised growth factor) and
// the payoffs at expiry, computed on the CPU in double: only +, -, *, / and
// sqrt, so every IEEE machine gets the same bits.
static void SetupOption(int o, int steps, OptionParams& p, float* leaves)
{
    const double S = 90.0 + (o % 21), X = 100.0, R = 0.03;
    const double vol = 0.10 + 0.02 * (o % 5), T = 0.5 + 0.25 * (o % 3);
    const double dt = T / steps;
    const double u = 1.0 + vol * sqrt(dt), d = 1.0 / u, a = 1.0 + R * dt;
    const double pu = (a - d) / (u - d);
    p.up = (float)(pu / a);
    p.down = (float)((1.0 - pu) / a);
    double price = S;
    for (int i = 0; i < steps; i++)
        price *= d;
    for (int i = 0; i <= steps; i++)
    {
        const double payoff = price - X;
        leaves[i] = (float)(payoff > 0.0 ? payoff : 0.0);
        price *= u * u;
    }
}

static float PriceOnCpu(const OptionParams& p, const float* leaves, int steps)
{
    std::vector<float> v(leaves, leaves + steps + 1);
    for (int s = steps; s > 0; s--)
        for (int i = 0; i < s; i++)
            v[i] = p.up * v[i + 1] + p.down * v[i];
    return v[0];
}

int _tmain(int argc, _TCHAR* argv[])
{
    int numOptions = argc > 1 ? _ttoi(argv[1]) : 16;
    int numSteps = argc > 2 ? _ttoi(argv[2]) : 512;
    int numRuns = argc > 3 ? _ttoi(argv[3]) : 1;
    if (numOptions < 1 || numSteps < CACHE_DELTA || numSteps % CACHE_DELTA != 0 || numRuns < 1)
    {
        _tprintf(_T("usage: binomial_macro [options [steps [runs]]] (steps: a multiple of %d)\n"), CACHE_DELTA);
        return 2;
    }

    std::vector<OptionParams> params(numOptions);
    std::vector<float> tree((size_t)numOptions * (numSteps + 1));
    for (int o = 0; o < numOptions; o++)
        SetupOption(o, numSteps, params[o], &tree[(size_t)o * (numSteps + 1)]);
    std::vector<float> cpu(numOptions);
    for (int o = 0; o < numOptions; o++)
        cpu[o] = PriceOnCpu(params[o], &tree[(size_t)o * (numSteps + 1)], numSteps);

    std::vector<float> upv(numOptions), downv(numOptions), prices(numOptions);
    for (int o = 0; o < numOptions; o++)
    {
        upv[o] = params[o].up;
        downv[o] = params[o].down;
    }
    array_view<const float, 1> up(numOptions, upv), down(numOptions, downv);
    const std::vector<float> leaves(tree);
    array_view<float, 1> buf(numOptions * (numSteps + 1), tree);   // rolled back in place
    array_view<float, 1> result(numOptions, prices);
    const int steps = numSteps;

    int mismatches = 0;
    for (int run = 0; run < numRuns; run++)
    {
        if (run > 0)
            copy(leaves.begin(), leaves.end(), buf);
        result.discard_data();
        Timer timer;
        timer.Start();
        parallel_for_each(extent<1>(numOptions * TILE_SIZE).tile<TILE_SIZE>(),
            [=](tiled_index<TILE_SIZE> t) restrict(amp)
        {
#define CELL(arg) buf[t.tile[0] * (steps + 1) + (arg)]
#define OPTION t.tile[0]
            tile_static float callA[CACHE_SIZE + 1];
            tile_static float callB[CACHE_SIZE + 1];
            int tid = t.local[0];
            const int option = OPTION;
            const float pu = up[option], pd = down[option];

            for (int i = steps; i > 0; i -= CACHE_DELTA)
            {
                for (int base = 0; base < i; base += CACHE_STEP)
                {
                    const int cacheStart = CACHE_SIZE - 1 < i - base ? CACHE_SIZE - 1 : i - base;
                    const int cacheEnd = cacheStart - CACHE_DELTA;

                    t.barrier.wait();
                    if (tid <= cacheStart)
                        callA[tid] = CELL(base + tid);
                    for (int k = cacheStart - 1; k >= cacheEnd; k -= 2)
                    {
                        t.barrier.wait();
                        callB[tid] = pu * callA[tid + 1] + pd * callA[tid];
                        t.barrier.wait();
                        callA[tid] = pu * callB[tid + 1] + pd * callB[tid];
                    }
                    t.barrier.wait();
                    if (tid <= cacheEnd)
                        CELL(base + tid) = callA[tid];
                }
            }
            if (tid == 0)
                result[option] = callA[0];
#undef CELL
#undef OPTION
        });
        result.synchronize();
        const double ms = timer.Stop();
        // Timings vary between runs: stderr, marked "[timing] " (scripts/differential.sh leaves them out).
        _ftprintf(stderr, _T("[timing] kernel %.3f ms (run %d of %d%s)\n"), ms, run + 1, numRuns,
                  run == 0 ? _T(", start-up included") : _T(""));
        for (int o = 0; o < numOptions; o++)
            if (prices[o] != cpu[o])
                mismatches++;
    }

    double total = 0.0;
    for (int o = 0; o < numOptions; o++)
        total += prices[o];
    _tprintf(_T("Binomial options: %d options, %d time steps, tiles of %d\n"), numOptions, numSteps, TILE_SIZE);
    for (int o = 0; o < numOptions && o < 8; o++)
        _tprintf(_T("option %d: %.6f\n"), o, prices[o]);
    _tprintf(_T("sum of prices: %.6f\n"), total);
    _tprintf(_T("prices equal to the CPU's: %s (%d of %d differ)\n"), mismatches == 0 ? _T("yes") : _T("no"),
             mismatches, numOptions * numRuns);
    return mismatches == 0 ? 0 : 1;
}
