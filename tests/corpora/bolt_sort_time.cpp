// Where SortTest's time goes (tests/corpora/README.md, "SortTest's time"):
// for each size of Bolt's Integer/SortArrayTest (2^20 .. 2^26 ints), the work
// one test does apart from Bolt (its fixture's std::generate with rand and
// three copies, then std::sort of the whole range and of the range less 17 at
// each end) against Bolt's bolt::amp::sort of the same two ranges on
// AMP_DEFAULT_ACCELERATOR, each result checked against std::sort's. Bolt's
// sort of int keys is its radix sort (8 passes of 3 tiled kernels); the
// array_view over the caller's memory costs one copy in and one copy out.
//
// Built as bolt.sh builds Bolt's tests (its include directories, its runtime
// objects, Boost); bolt.sh bundle adds it to the GPU bundle.
#include <bolt/amp/sort.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace {
double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}
} // namespace

int main(int argc, char** argv) {
  const int max_log2 = argc > 1 ? std::atoi(argv[1]) : 26;
  std::printf("%8s %10s %10s %10s %10s %10s %s\n", "log2(n)", "fixture_s", "std_sort_s", "bolt_1st_s",
              "bolt_2nd_s", "bolt_off_s", "result");
  int bad = 0;
  for (int lg = 20; lg <= max_log2; lg += 2) {
    const std::size_t n = std::size_t(1) << lg;
    auto t0 = std::chrono::steady_clock::now();
    std::vector<int> ref(n);
    std::generate(ref.begin(), ref.end(), std::rand);
    std::vector<int> a = ref, b = ref, off = ref;
    const double fixture = seconds_since(t0);

    t0 = std::chrono::steady_clock::now();
    std::sort(ref.begin(), ref.end());
    std::vector<int> ref_off = off;
    std::sort(ref_off.begin() + 17, ref_off.end() - 17);
    const double std_sort = seconds_since(t0);

    t0 = std::chrono::steady_clock::now();
    bolt::amp::sort(a.begin(), a.end());
    const double first = seconds_since(t0);
    t0 = std::chrono::steady_clock::now();
    bolt::amp::sort(b.begin(), b.end());
    const double second = seconds_since(t0);
    t0 = std::chrono::steady_clock::now();
    bolt::amp::sort(off.begin() + 17, off.end() - 17);
    const double offset = seconds_since(t0);

    const bool ok = a == ref && b == ref && off == ref_off;
    bad += !ok;
    std::printf("%8d %10.3f %10.3f %10.3f %10.3f %10.3f %s\n", lg, fixture, std_sort, first, second, offset,
                ok ? "sorted" : "WRONG");
    std::fflush(stdout);
  }
  return bad ? 1 : 0;
}
