// Reference for samples/seeds/simple_reduction.cpp (seed 001, SimpleReduction).
// Emulates the printed algorithm sequentially, twice: once as if the thread
// that reads a[stride - 1] for the tail ran after all threads of the pass
// ("lockstep"), once as if it ran before them ("serial").  For the sizes the
// sample uses both agree (no odd stride > 1 occurs), which shows that the
// printed code's data race cannot change the result for these sizes.
#include <cassert>
#include <iostream>
#include <numeric>
#include <vector>

static int Emulate(const std::vector<int>& source, bool tailReadAfterPass) {
    int elementCount = (int)source.size();
    std::vector<int> a(source);
    int tailResult = (elementCount % 2) ? source[elementCount - 1] : 0;
    for (int stride = elementCount / 2; stride > 0; stride /= 2) {
        bool tail = (stride & 0x1) && (stride != 1);
        int before = tail ? a[stride - 1] : 0;
        for (int i = 0; i < stride; ++i) a[i] += a[i + stride];
        if (tail) tailResult += tailReadAfterPass ? a[stride - 1] : before;
    }
    return a[0] + tailResult;
}

int main() {
    const int sizes[] = {1, 2, 3, 4, 5, 8, 9, 16, 17, 1024, 1025, 32769, 1048577};
    for (int n : sizes) {
        std::vector<int> source(n);
        for (int i = 0; i < n; ++i) source[i] = i % 1000 + 1;
        int lockstep = Emulate(source, true);
        int serial = Emulate(source, false);
        assert(lockstep == serial);
        int expected = std::accumulate(source.cbegin(), source.cend(), 0);
        // Only n == 1 differs from the plain sum (2 * source[0]).
        assert(lockstep == expected || n == 1);
        std::cout << "SimpleReduction n=" << n << ": " << lockstep
                  << " (std::accumulate: " << expected << ")\n";
    }
}
