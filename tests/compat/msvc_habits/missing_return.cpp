// A value-returning function that falls off its end, its result unused
// (MSVC's C4716, a warning in the Visual Studio versions AMP code was written
// for): MSVC returns whatever is in the register and the program runs;
// Clang's default makes the end a trap (SIGILL at -O0, unreachable code when
// optimizing). -fno-strict-return (compat/msvc/flags.txt) gives MSVC's
// behaviour for trivially copyable results; a function returning a reference
// (Microsoft's conformance suite: `A1_base& operator=(const A1_base&)
// restrict(amp) {}`) still traps: Clang keeps the trap there.
// MSVC prints "3 4".
#include <amp.h>
#include <cstdio>
#include <vector>

int bump(int& n) restrict(cpu, amp) { n += 1; } // no return

int main() {
  int a = 2;
  bump(a);
  std::vector<int> out(1, 3);
  concurrency::array_view<int, 1> v(1, out);
  concurrency::parallel_for_each(v.extent, [=](concurrency::index<1> i) restrict(amp) {
    int x = v[i];
    bump(x);
    v[i] = x;
  });
  v.synchronize();
  std::printf("%d %d\n", a + 0, out[0]);
  return 0;
}
