// A value-returning function that falls off its end, its result unused
// (MSVC's C4716, a warning in the Visual Studio versions AMP code was written
// for): MSVC returns whatever is in the register and the program runs;
// Clang's default makes the end a trap (SIGILL at -O0, unreachable code when
// optimizing). -fno-strict-return (compat/msvc/flags.txt) gives MSVC's
// behaviour for trivially copyable results; a function returning a reference
// (Microsoft's conformance suite: `A1_base& operator=(const A1_base&)
// restrict(amp) {}`) gets a return statement from the launcher
// (passes/msvc.py, amp_compat_msvc_no_value) instead of Clang's trap.
// MSVC prints "3 4 15 13".
#include <amp.h>
#include <cstdio>
#include <vector>

int bump(int& n) restrict(cpu, amp) { n += 1; } // no return

struct Counter {
  int n = 0;
  Counter& operator=(const Counter& o) restrict(cpu, amp) { n = o.n + 10; } // no return
};

int main() {
  int a = 2;
  bump(a);
  Counter c1, c2;
  c2.n = 5;
  c1 = c2;
  std::vector<int> out{3, 3};
  concurrency::array_view<int, 1> v(2, out);
  concurrency::parallel_for_each(v.extent, [=](concurrency::index<1> i) restrict(amp) {
    int x = v[i];
    if (i[0] == 0) {
      bump(x);
    } else {
      Counter k, l;
      l.n = x;
      k = l;
      x = k.n;
    }
    v[i] = x;
  });
  v.synchronize();
  std::printf("%d %d %d %d\n", a + 0, out[0], c1.n, out[1]);
  return 0;
}
