// producer_consumer.cpp : a producer task fills blocks of samples and hands
// them over a concurrent_queue; the main thread consumes them, smoothing each
// block on the accelerator, and keeps per-block results in a
// concurrent_vector. A sentinel (an empty block) ends the stream.
//

#include "stdafx.h"
#include <ppl.h>
#include <ppltasks.h>
#include <concurrent_queue.h>
#include <concurrent_vector.h>
#include <amp.h>
#include <algorithm>

using namespace concurrency;

struct Block
{
    int id;
    std::vector<int> samples;
};

struct Result
{
    int id;
    long long sum;
};

int _tmain(int argc, _TCHAR* argv[])
{
    const int blockCount = 12;
    const int blockSize = 1024;
    concurrent_queue<Block> queue;
    volatile LONG produced = 0;

    task<void> producer = create_task([&]
    {
        for (int b = 0; b < blockCount; b++)
        {
            Block block;
            block.id = b;
            block.samples.resize(blockSize);
            for (int i = 0; i < blockSize; i++)
                block.samples[i] = (b * 7 + i * 13) % 50;
            queue.push(block);
            InterlockedIncrement(&produced);
        }
        queue.push(Block{ -1, std::vector<int>() });
    });

    concurrent_vector<Result> results;
    for (;;)
    {
        Block block;
        if (!queue.try_pop(block))
        {
            Sleep(0);
            continue;
        }
        if (block.samples.empty())
            break;

        std::vector<int> smooth(blockSize);
        array_view<const int, 1> in(blockSize, block.samples);
        array_view<int, 1> out(blockSize, smooth);
        out.discard_data();
        parallel_for_each(out.extent, [=](index<1> idx) restrict(amp)
        {
            int i = idx[0];
            int left = in[i > 0 ? i - 1 : i];
            int right = in[i < blockSize - 1 ? i + 1 : i];
            out[idx] = left + 2 * in[idx] + right;
        });
        out.synchronize();

        long long sum = 0;
        for (int i = 0; i < blockSize; i++)
            sum += smooth[i];
        Result r = { block.id, sum };
        results.push_back(r);
    }
    producer.wait();

    std::vector<Result> ordered(results.begin(), results.end());
    std::sort(ordered.begin(), ordered.end(), [](const Result& x, const Result& y) { return x.id < y.id; });
    _tprintf(_T("%ld blocks produced, %d consumed\n"), (long)produced, (int)ordered.size());
    for (size_t i = 0; i < ordered.size(); i++)
        _tprintf(_T("block %2d: %I64d\n"), ordered[i].id, ordered[i].sum);
    return 0;
}
