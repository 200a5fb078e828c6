// A member declared with its class's name inside the class (`int
// Counter::get() const`): MSVC accepts the extra qualification (a level-4
// warning, C4596, since Visual Studio 2015); GCC rejects it.
#include <amp.h>
#include <cstdio>
#include <vector>
using namespace concurrency;

struct Counter {
  std::vector<int> hits = std::vector<int>(16, 0);
  int Counter::total() const {
    int t = 0;
    for (int h : hits) t += h;
    return t;
  }
  void Counter::count() {
    array_view<int, 1> v(16, hits);
    parallel_for_each(v.extent, [=](index<1> i) restrict(amp) { v[i] += i[0] % 3; });
    v.synchronize();
  }
};

int main() {
  Counter c;
  c.count();
  c.count();
  std::printf("%d\n", c.total());
  return 0;
}
