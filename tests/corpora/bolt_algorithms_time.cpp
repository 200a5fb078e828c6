// How fast Bolt's own algorithms run on a host accelerator, compiled tiles
// against fibers (tools/tile_compiler/README.md, "Bolt's algorithms on 16
// cores"). Bolt's test programs spend most of their time outside Bolt (rand()
// filling inputs, std:: reference results, GoogleTest's comparisons), so their
// wall time cannot show what the host tiles change; this program times the
// calls themselves: bolt::amp::sort, stable_sort and inclusive_scan_by_key,
// the three algorithms of the SortTest, StableSortTest and ScanByKeyTest
// programs, on int and float data of 2^16 to 2^22 elements, with the data of
// those tests (rand(), keys in runs), through std::vector iterators as the
// tests pass them.
//
// Each line: algorithm, type, log2(n), the best of AMP_BOLT_TIME_REPS calls
// (default 3, after one untimed call), whether the result equals the std::
// algorithm's (int: exactly; float scans: within 1e-3 relative, since Bolt's
// tree order differs from a sequential sum), and an FNV-1a hash of the result
// bytes, which must be the same under AMP_HOST_TILES=compiled and =fibers.
// Bolt's int sorts are its radix sort, whose tile_static race gives wrong
// results on every host path (tests/corpora/README.md); they are timed all the
// same and reported as "differs".
//
// Built as bolt.sh builds Bolt's tests (its include directories, its runtime
// objects, Boost): tests/corpora/bolt.sh time-build OUT_DIR.
#include <bolt/amp/scan_by_key.h>
#include <bolt/amp/sort.h>
#include <bolt/amp/stablesort.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <numeric>
#include <string>
#include <vector>

namespace {

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

template <class T> std::uint64_t fnv1a(const std::vector<T>& v) {
  std::uint64_t h = 1469598103934665603ull;
  const unsigned char* p = reinterpret_cast<const unsigned char*>(v.data());
  for (std::size_t i = 0; i < v.size() * sizeof(T); ++i) h = (h ^ p[i]) * 1099511628211ull;
  return h;
}

template <class T> std::vector<T> random_data(std::size_t n) {
  std::vector<T> v(n);
  for (auto& x : v) x = static_cast<T>(std::rand()) / (std::is_floating_point<T>::value ? T(RAND_MAX) : T(1));
  return v;
}

int reps() {
  const char* r = std::getenv("AMP_BOLT_TIME_REPS");
  const int n = r ? std::atoi(r) : 3;
  return n > 0 ? n : 3;
}

// Times `call` (which makes its own copy of the input) best of reps() runs
// after one untimed run; returns the best seconds and leaves the last result.
template <class Call> double best_of(Call call) {
  call();
  double best = 1e300;
  for (int r = 0; r < reps(); ++r) {
    const auto t0 = std::chrono::steady_clock::now();
    call();
    best = std::min(best, seconds_since(t0));
  }
  return best;
}

void report(const char* algo, const char* type, int lg, double s, bool same, std::uint64_t hash) {
  std::printf("%-22s %-6s %4d %12.3f %-8s %016llx\n", algo, type, lg, s * 1e3, same ? "equal" : "differs",
              static_cast<unsigned long long>(hash));
  std::fflush(stdout);
}

template <class T> void time_sort(const char* type, int lg, bool stable) {
  const std::vector<T> in = random_data<T>(std::size_t(1) << lg);
  std::vector<T> ref = in, out;
  std::stable_sort(ref.begin(), ref.end());
  const double s = best_of([&] {
    out = in;
    if (stable)
      bolt::amp::stable_sort(out.begin(), out.end());
    else
      bolt::amp::sort(out.begin(), out.end());
  });
  report(stable ? "stable_sort" : "sort", type, lg, s, out == ref, fnv1a(out));
}

template <class T> bool close_enough(const std::vector<T>& a, const std::vector<T>& b) {
  for (std::size_t i = 0; i < a.size(); ++i)
    if (std::fabs(double(a[i]) - double(b[i])) > 1e-3 * (1.0 + std::fabs(double(b[i])))) return false;
  return true;
}

template <class T> void time_scan_by_key(const char* type, int lg) {
  const std::size_t n = std::size_t(1) << lg;
  std::vector<int> keys(n);
  for (std::size_t i = 0; i < n; ++i) keys[i] = int(i / 7);  // runs of 7, as ScanByKeyTest's "each" keys
  std::vector<T> vals = random_data<T>(n);  // not const: Bolt wraps it in a writable array_view
  std::vector<T> ref(n), out(n);
  for (std::size_t i = 0; i < n; ++i) ref[i] = (i > 0 && keys[i] == keys[i - 1]) ? ref[i - 1] + vals[i] : vals[i];
  const double s = best_of([&] {
    bolt::amp::inclusive_scan_by_key(keys.begin(), keys.end(), vals.begin(), out.begin());
  });
  report("inclusive_scan_by_key", type, lg, s, close_enough(out, ref), fnv1a(out));
}

} // namespace

int main(int argc, char** argv) {
  const int lo = argc > 1 ? std::atoi(argv[1]) : 16, hi = argc > 2 ? std::atoi(argv[2]) : 22;
  const std::string only = argc > 3 ? argv[3] : "";
  std::printf("%-22s %-6s %4s %12s %-8s %s\n", "algorithm", "type", "lg", "best_ms", "result", "fnv1a");
  for (int lg = lo; lg <= hi; lg += 2) {
    if (only.empty() || only == "sort") {
      time_sort<int>("int", lg, false);
      time_sort<float>("float", lg, false);
    }
    if (only.empty() || only == "stable_sort") {
      time_sort<int>("int", lg, true);
      time_sort<float>("float", lg, true);
    }
    if (only.empty() || only == "scan_by_key") {
      time_scan_by_key<int>("int", lg);
      time_scan_by_key<float>("float", lg);
    }
  }
  return 0;
}
