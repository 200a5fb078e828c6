// A GPU build in the MSVC dialect (amp++ --gpu --windows-compat --msvc) of
// code shaped like Microsoft's AMP Algorithms Library: a class template named
// `min` in the user's namespace, then `using namespace std;` and `using
// namespace` of that namespace at file scope, after <amp.h>. Under
// -fdelayed-template-parsing Kokkos' CUDA launch code is parsed at the end of
// the file, where an unqualified `min` there became ambiguous (Kokkos 3.4
// patch 0006 qualifies it). Compile and link are the test; run, it prints 2.
#include <amp.h>

#include <algorithm>
#include <cstdio>
#include <vector>

namespace lib {
template <class T> struct min {
  T operator()(T a, T b) const restrict(cpu, amp) { return a < b ? a : b; }
};
} // namespace lib

int main() {
  std::vector<int> v(64, 1);
  concurrency::array_view<int, 2> a(8, 8, v);
  parallel_for_each(a.extent, [=](concurrency::index<2> i) restrict(amp) { a[i] = lib::min<int>()(a[i] * 2, 5); });
  a.synchronize();
  std::printf("%d\n", v[63]);
  return v[63] == 2 ? 0 : 1;
}

using namespace std;
using namespace lib;
