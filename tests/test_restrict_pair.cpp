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

// A member pair whose cpu version carries no restriction (implicitly
// restrict(cpu)).
struct implicit_cpu {
  int f(int x) restrict(amp) { return 20 + x; }
  int f(int x) { return 10 + x; }
};

// Constructor pair: one constructor selecting by context. Members named in one
// mem-initializer list only are value-initialised on the other side.
struct made {
  int side, copy, only_cpu;
  made() restrict(cpu) : side(1), copy(0), only_cpu(7) {}
  made() restrict(amp) : side(2), copy(0) {}
  made(const made& o) restrict(cpu) : side(o.side), copy(1), only_cpu(o.only_cpu) {}
  made(const made& o) restrict(amp) : side(o.side), copy(2), only_cpu(o.only_cpu) { copy += 10; }
};
// Its implicitly defaulted constructors reach the pair through the base.
struct derived_made : made {};

// Conversion-operator pair (same target type).
struct tag {
  int v;
};
struct converts {
  operator tag() const restrict(cpu) { return tag{1}; }
  operator tag() const restrict(amp) { return tag{2}; }
};

TEST(RestrictPair, HostCallsCpuVersion) {
  EXPECT_EQ(which(5), 1005);
  EXPECT_EQ(through(5), 1006);
  EXPECT_EQ(host_only(0.f, 3), -3);
  EXPECT_EQ(counter{7}.get(1), 701);
  int (*p)(int) = &which;  // the address of the pair: its cpu side on the host
  EXPECT_EQ(p(1), 1001);
  EXPECT_EQ(implicit_cpu{}.f(1), 11);
  made m;
  EXPECT_EQ(m.side, 1);
  EXPECT_EQ(m.only_cpu, 7);
  made c(m);
  EXPECT_EQ(c.copy, 1);
  derived_made d;
  derived_made dc(d);
  EXPECT_EQ(dc.side, 1);
  EXPECT_EQ(dc.copy, 1);
  tag t = converts{};
  EXPECT_EQ(t.v, 1);
}

TEST(RestrictPair, KernelReachesAmpMembersConstructorsConversions) {
  const int n = 16;
  std::vector<int> a(n), b(n), c(n), d(n);
  array_view<int, 1> av(n, a), bv(n, b), cv(n, c), dv(n, d);
  parallel_for_each(av.extent, [=](index<1> i) restrict(amp) {
    implicit_cpu o;
    av[i] = o.f(i[0]);
    made m;
    made copy(m);
    bv[i] = m.side * 100 + copy.copy;  // 2, then the amp copy: 2 + 10
    derived_made dm;
    cv[i] = dm.side * 100 + dm.only_cpu;  // only_cpu: value-initialised on the amp side
    tag t = converts{};
    dv[i] = t.v;
  });
  av.synchronize();
  bv.synchronize();
  cv.synchronize();
  dv.synchronize();
  for (int i = 0; i < n; ++i) {
    EXPECT_EQ(a[i], 20 + i);
    EXPECT_EQ(b[i], 212);
    EXPECT_EQ(c[i], 200);
    EXPECT_EQ(d[i], 2);
  }
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

// Visual C++'s <amp.h> spellings (code written against it uses them with no
// definition of its own): __GPU is restrict(amp, cpu), __GPU_ONLY
// restrict(amp), __CPU_ONLY the implied restrict(cpu); a __GPU_ONLY /
// __CPU_ONLY pair is a restriction pair as any other.
int spelled(int x) __CPU_ONLY { return 100 + x; }
int spelled(int x) __GPU_ONLY { return 200 + x; }
int doubled(int x) __GPU { return 2 * x; }

TEST(RestrictPair, VisualCppSpellings) {
  const int n = 32;
  std::vector<int> a(n), b(n);
  array_view<int, 1> av(n, a), bv(n, b);
  parallel_for_each(av.extent.tile<8>(), [=](tiled_index<8> t) __GPU_ONLY {
    tile_static int s[8];
    s[t.local[0]] = spelled(t.local[0]);
    t.barrier.wait();
    av[t.global] = s[7 - t.local[0]];
    bv[t.global] = doubled(t.global[0]);
  });
  av.synchronize();
  bv.synchronize();
  for (int i = 0; i < n; ++i) {
    EXPECT_EQ(a[i], 207 - i % 8);
    EXPECT_EQ(b[i], 2 * i);
  }
  EXPECT_EQ(spelled(1), 101);
  EXPECT_EQ(doubled(4), 8);
}

} // namespace
