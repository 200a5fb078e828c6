// word_histogram.cpp : counts letters of a generated text on the
// accelerator (one tile per chunk of the text in tile_static memory), then collects
// frequent letters in a concurrent_vector and word lengths in a
// concurrent_unordered_map from a parallel_for, guarded where needed by a
// critical_section and a reader_writer_lock.
//

#include "stdafx.h"
#include <ppl.h>
#include <concrt.h>
#include <concurrent_vector.h>
#include <concurrent_unordered_map.h>
#include <amp.h>
#include <algorithm>
#include <string>

using namespace concurrency;

static const int TILE = 256;

int _tmain(int argc, _TCHAR* argv[])
{
    const char* words[] = { "amp", "tile", "barrier", "kernel", "extent", "index", "view", "array", "accelerator", "restrict" };
    std::string text;
    for (int i = 0; text.size() < 64 * TILE; i++)
    {
        text += words[(i * 7 + i / 3) % _countof(words)];
        text += ' ';
    }
    text.resize(64 * TILE);

    std::vector<int> chars(text.begin(), text.end());
    const int tiles = (int)chars.size() / TILE;
    std::vector<int> partial(tiles * 26, 0);
    array_view<const int, 1> in((int)chars.size(), chars);
    array_view<int, 2> perTile(tiles, 26, partial);
    perTile.discard_data();
    parallel_for_each(in.extent.tile<TILE>(), [=](tiled_index<TILE> t_idx) restrict(amp)
    {
        tile_static int local[TILE];
        local[t_idx.local[0]] = in[t_idx.global];
        t_idx.barrier.wait();
        int letter = t_idx.local[0];
        if (letter < 26)
        {
            int n = 0;
            for (int i = 0; i < TILE; i++)
                n += (local[i] == 'a' + letter) ? 1 : 0;
            perTile(t_idx.tile[0], letter) = n;
        }
    });
    perTile.synchronize();

    std::vector<int> counts(26, 0);
    for (int t = 0; t < tiles; t++)
        for (int l = 0; l < 26; l++)
            counts[l] += partial[t * 26 + l];

    concurrent_vector<std::pair<int, char> > frequent;
    parallel_for(0, 26, [&](int letter)
    {
        if (counts[letter] >= 1000)
            frequent.push_back(std::make_pair(counts[letter], (char)('a' + letter)));
    });
    std::sort(frequent.begin(), frequent.end(), std::greater<std::pair<int, char> >());

    concurrent_unordered_map<int, int> lengths;
    critical_section lengthsLock;
    int longest = 0;
    reader_writer_lock longestLock;
    parallel_for(0, (int)_countof(words) * 100, [&](int i)
    {
        int len = (int)strlen(words[i % _countof(words)]);
        {
            critical_section::scoped_lock guard(lengthsLock);
            lengths[len]++;
        }
        bool larger;
        {
            reader_writer_lock::scoped_lock_read read(longestLock);
            larger = len > longest;
        }
        if (larger)
        {
            reader_writer_lock::scoped_lock write(longestLock);
            longest = __max(longest, len);
        }
    });

    std::wcout << L"letters counted: " << std::accumulate(counts.begin(), counts.end(), 0) << std::endl;
    std::wcout << L"letters seen 1000 times or more:";
    for (size_t i = 0; i < frequent.size(); i++)
        std::wcout << L' ' << (wchar_t)frequent[i].second << L'=' << frequent[i].first;
    std::wcout << std::endl;
    std::vector<std::pair<int, int> > sorted(lengths.begin(), lengths.end());
    std::sort(sorted.begin(), sorted.end());
    std::wcout << L"word lengths:";
    for (size_t i = 0; i < sorted.size(); i++)
        std::wcout << L' ' << sorted[i].first << L'x' << sorted[i].second;
    std::wcout << std::endl << L"longest word: " << longest << L" letters" << std::endl;
    return 0;
}
