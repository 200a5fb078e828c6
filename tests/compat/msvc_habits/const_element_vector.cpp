// std::vector of const elements (Microsoft's conformance suite, 4 tests:
// `using std::vector; vector<const int> v(n); v[i] = i;`, `vector<const S>
// g(n); g[i].x = 2;`, and a helper `template <class T> bool compare(const
// vector<T>&, const array_view<T, 2>&)` called with a vector<const int> and
// an array_view<const int, 2>): Visual C++'s library accepted the type and
// gave non-const element access; libstdc++ rejects it. MSVC prints "1 5 2 6 2".
#include <amp.h>
#include <cstdio>
#include <vector>
using namespace concurrency;
using std::vector;
struct S { int i; double d; };
template <typename T> bool compare(const vector<T>& v, const array_view<T, 2>& av) {
  for (int i = 0; i < av.extent[0]; ++i)
    for (int j = 0; j < av.extent[1]; ++j)
      if (v[i * av.extent[1] + j] != av(i, j)) return false;
  return true;
}
int main() {
  vector<const int> v(6);
  for (int i = 0; i < 6; ++i) v[i] = i;
  vector<const S> g(2);
  g[1].i = 2;
  vector<const int> w(v);
  array_view<const int, 2> av(2, 3, v);
  std::printf("%d %d %d %zu %d\n", compare(v, av) ? 1 : 0, v[5], g[1].i, w.size(), (int)v.data()[2]);
}
