// Kokkos Tools see every AMP kernel: run with the tool library of
// kernel_name_tool.cpp loaded (tests/CMakeLists.txt sets KOKKOS_TOOLS_LIBS),
// launch simple and tiled kernels on both kernel paths, and check that each
// launch reached the tool's begin_parallel_for hook named after its model and
// the kernel's type. Exit status 0 on success.
#include <amp.h>

#include <dlfcn.h>

#include <cstdio>
#include <string>
#include <vector>

using namespace concurrency;
namespace d = Concurrency::detail;

struct scale_kernel { // a named functor: its type must appear in the kernel's name
  array_view<int, 1> a;
  void operator()(index<1> i) const restrict(amp) { a[i] = a[i] * 3; }
};
struct tile_sum_kernel {
  array_view<int, 1> a;
  void operator()(tiled_index<64> t) const restrict(amp) {
    tile_static int s[64];
    s[t.local[0]] = a[t.global];
    t.barrier.wait();
    if (t.local[0] == 0) {
      int sum = 0;
      for (int k = 0; k < 64; ++k) sum += s[k];
      a[t.global] = sum;
    }
  }
};

static int count(const std::string& hay, const std::string& needle) {
  int n = 0;
  for (std::size_t p = hay.find(needle); p != std::string::npos; p = hay.find(needle, p + 1)) ++n;
  return n;
}

int main() {
  std::vector<int> v(256, 1);
  array_view<int, 1> a(256, v);
  for (auto path : {d::kernel_path::portable, d::kernel_path::native}) {
    d::force_kernel_path(path);
    parallel_for_each(a.extent, scale_kernel{a});
    parallel_for_each(a.extent.tile<64>(), tile_sum_kernel{a});
    parallel_for_each(a.extent, [=](index<1> i) restrict(amp) { a[i] += 1; });
  }
  a.synchronize();
  auto events_fn = reinterpret_cast<const char* (*)()>(dlsym(RTLD_DEFAULT, "amp_tool_events"));
  if (!events_fn) {
    std::printf("FAIL: the tool library is not loaded (KOKKOS_TOOLS_LIBS)\n");
    return 1;
  }
  const std::string ev = events_fn();
  std::printf("%s", ev.c_str());
  int bad = 0;
  auto expect = [&](const std::string& what, int want) {
    const int got = count(ev, what);
    if (got != want) {
      std::printf("FAIL: %d events with \"%s\", expected %d\n", got, what.c_str(), want);
      ++bad;
    }
  };
  // Each kernel once per path.
  expect("amp::parallel_for_each[simple] scale_kernel\n", 2);
  expect("amp::parallel_for_each[tiled] tile_sum_kernel\n", 2);
  expect("amp::parallel_for_each[simple] main", 2); // the lambda, named after its enclosing function
  expect("amp::parallel_for_each[", 6);
  // The kernels' effect, computed here: x*3, tile sums at local index 0, +1.
  std::vector<int> want(256, 1);
  for (int pass = 0; pass < 2; ++pass) {
    for (int& x : want) x *= 3;
    for (int t = 0; t < 256; t += 64) {
      int sum = 0;
      for (int k = 0; k < 64; ++k) sum += want[t + k];
      want[t] = sum;
    }
    for (int& x : want) x += 1;
  }
  if (v != want) {
    std::printf("FAIL: wrong results (v[0] = %d, expected %d)\n", v[0], want[0]);
    ++bad;
  }
  if (bad == 0) std::printf("kernel names: ok\n");
  return bad ? 1 : 0;
}
