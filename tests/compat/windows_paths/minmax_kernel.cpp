// <windows.h>'s min and max (brought by <amp.h> under --windows-compat) used
// unqualified in restrict(amp) code, as Microsoft's sample pack does
// (BinomialOptions: `int c_start = min(CACHE_SIZE - 1, i - c_base);` in a
// kernel). The results are the macros': the usual arithmetic conversions
// (int with unsigned compares and returns unsigned), by value. On a GPU build
// the host side of the kernel must not pick CUDA's device-only ::min.
#include <amp.h>
#include <cstdio>
#include <vector>

using namespace concurrency;

static int device_helper(int i) restrict(amp, cpu) { return min(i, 5) + max(i, 5); }
// A restrict(amp)-only function with external linkage, as the sample's
// binomial_options_kernel: compiled for the host side too.
int amp_only_clamp(int i, unsigned u) restrict(amp) { return min(max(i, 1), 6) + int(min(i, u)); }

int main() {
    const int n = 8;
    std::vector<int> ints(n);
    std::vector<unsigned> uns(n);
    std::vector<double> dbl(n);
    std::vector<long long> lls(n);
    array_view<int, 1> vi(n, ints);
    array_view<unsigned, 1> vu(n, uns);
    array_view<double, 1> vd(n, dbl);
    array_view<long long, 1> vl(n, lls);
    parallel_for_each(vi.extent, [=](index<1> idx) restrict(amp) {
        const int i = idx[0];
        vi[idx] = min(i, 3) * 100 + max(i - 4, 0) * 10 + device_helper(i) % 10 + 1000 * amp_only_clamp(i, 4u);
        vu[idx] = min(i - 4, 2u);  // -4..3 as unsigned: min is 2 unless i-4 is 0 or 1
        vd[idx] = max(float(i) * 0.5f, 1.25);
        vl[idx] = max(static_cast<long long>(i) << 33, 1LL << 34);
    });
    vi.synchronize(); vu.synchronize(); vd.synchronize(); vl.synchronize();
    int failures = 0;
    for (int i = 0; i < n; ++i) {
        const int clamp = (i > 1 ? i : 1) < 6 ? (i > 1 ? i : 1) : 6;
        const int wi = (i < 3 ? i : 3) * 100 + (i - 4 > 0 ? i - 4 : 0) * 10 + ((i < 5 ? i : 5) + (i > 5 ? i : 5)) % 10 +
                       1000 * (clamp + (i < 4 ? i : 4));
        const unsigned wu = (static_cast<unsigned>(i - 4) < 2u) ? static_cast<unsigned>(i - 4) : 2u;
        const double wd = (i * 0.5 > 1.25) ? i * 0.5 : 1.25;
        const long long wl = ((long long)i << 33) > (1LL << 34) ? ((long long)i << 33) : (1LL << 34);
        if (ints[i] != wi || uns[i] != wu || dbl[i] != wd || lls[i] != wl) {
            std::printf("FAIL %d: %d/%d %u/%u %g/%g %lld/%lld\n", i, ints[i], wi, uns[i], wu, dbl[i], wd, lls[i], wl);
            ++failures;
        }
    }
    std::printf("%d failed checks\n", failures);
    return failures == 0 ? 0 : 1;
}
