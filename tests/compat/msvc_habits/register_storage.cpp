// `register` on parameters and locals, in cpu and amp code (Microsoft's
// conformance suite declares `void func(register int* (*pointer)(...))`):
// MSVC ignores the keyword (C5033, a warning, under /std:c++17); C++17
// removed it, and Clang rejects it there unless told otherwise (flags.txt).
// MSVC prints "12 20".
#include <amp.h>
#include <cstdio>
#include <vector>

int twice(register int x) restrict(cpu, amp) {
  register int y = x * 2;
  return y;
}

int main() {
  std::vector<int> out{10};
  concurrency::array_view<int, 1> v(1, out);
  concurrency::parallel_for_each(v.extent, [=](concurrency::index<1> i) restrict(amp) { v[i] = twice(v[i]); });
  v.synchronize();
  std::printf("%d %d\n", twice(6), out[0]);
  return 0;
}
