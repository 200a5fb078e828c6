// restrict(cpu)/restrict(amp) overload pairs with the same signature (C++ AMP
// spec 2.3.2). The build compiles this file through scripts/restrict_launcher.sh
// (CMAKE_CXX_COMPILER_LAUNCHER), which makes each pair one restrict(cpu, amp)
// function: kernels must reach the amp version (on the GPU and on the host
// accelerators), host code the cpu version, whatever calls it in between.
#include "amp_test_util.h"

#include <sstream>
#include <stdexcept>

using namespace concurrency;

namespace {

int which(int x) restrict(cpu) { return 1000 + x; }
int which(int x) restrict(amp) { return 2000 + x; }

// A cpu version that only the host can run (streams, exceptions): must never be
// referenced from device code.
int host_only(float, int scale) restrict(cpu) {
  std::ostringstream s;
  s << scale;
  if (s.str().empty()) throw std::logic_error("unreachable");
  return -scale;
}
int host_only(float, int scale) restrict(amp) { return scale; }

// Reached through a restrict(cpu, amp) function: the caller's context decides.
int through(int x) restrict(cpu, amp) { return which(x) + 1; }

struct counter {
  int base;
  int get(int d) const restrict(cpu);
  int get(int d) const restrict(amp) { return base * 10 + d; }
};
int counter::get(int d) const restrict(cpu) { return base * 100 + d; }

TEST(RestrictPair, HostCallsCpuVersion) {
  EXPECT_EQ(which(5), 1005);
  EXPECT_EQ(through(5), 1006);
  EXPECT_EQ(host_only(0.f, 3), -3);
  EXPECT_EQ(counter{7}.get(1), 701);
  int (*p)(int) = &which;  // the address of the pair: its cpu side on the host
  EXPECT_EQ(p(1), 1001);
}

TEST(RestrictPair, KernelCallsAmpVersion) {
  const int n = 64;
  std::vector<int> a(n), b(n), c(n), d(n);
  array_view<int, 1> av(n, a), bv(n, b), cv(n, c), dv(n, d);
  const counter k{3};
  parallel_for_each(av.extent, [=](index<1> i) restrict(amp) {
    av[i] = which(i[0]);
    bv[i] = through(i[0]);
    cv[i] = host_only(1.f, i[0]);
    dv[i] = k.get(i[0]);
  });
  av.synchronize();
  bv.synchronize();
  cv.synchronize();
  dv.synchronize();
  for (int i = 0; i < n; ++i) {
    EXPECT_EQ(a[i], 2000 + i);
    EXPECT_EQ(b[i], 2001 + i);
    EXPECT_EQ(c[i], i);
    EXPECT_EQ(d[i], 30 + i);
  }
  // Back on the host after the kernel: the cpu versions again.
  EXPECT_EQ(which(1), 1001);
}

TEST(RestrictPair, TiledKernelCallsAmpVersion) {
  const int n = 32;
  std::vector<int> a(n);
  array_view<int, 1> av(n, a);
  parallel_for_each(av.extent.tile<8>(), [=](tiled_index<8> t) restrict(amp) {
    t.barrier.wait();
    av[t.global] = which(t.local[0]);
  });
  av.synchronize();
  for (int i = 0; i < n; ++i) EXPECT_EQ(a[i], 2000 + i % 8);
}

} // namespace
