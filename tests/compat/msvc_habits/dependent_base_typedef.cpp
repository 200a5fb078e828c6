// A typedef of a dependent base class named like a namespace-scope class
// template (here AMP's `index` and `extent`, visible through `using
// namespace concurrency`): MSVC looked the name up at instantiation and used
// the base's typedef; GCC and Clang take the template and reject the use.
#include <amp.h>
#include <cstdio>
#include <vector>
using namespace concurrency;

template <class T> struct grid_base {
  typedef int index;        // a flat element number
  typedef unsigned extent;  // the element count
};

template <class T> struct grid : grid_base<T> {
  std::vector<T> cells;
  explicit grid(extent n) : cells(n) {}
  T& at(index i) { return cells[static_cast<std::size_t>(i)]; }
  extent size() const { return static_cast<extent>(cells.size()); }
  index last() const {
    index k = static_cast<index>(cells.size()) - 1;
    return k;
  }
};

int main() {
  grid<float> g(4);
  for (grid<float>::index i = 0; i < 4; ++i) g.at(i) = 1.5f * i;
  // The cells through a kernel, so the program is an AMP one.
  array_view<float, 1> v(4, g.cells);
  parallel_for_each(v.extent, [=](concurrency::index<1> i) restrict(amp) { v[i] += 1.0f; });
  v.synchronize();
  std::printf("%u %d %.1f %.1f\n", g.size(), g.last(), g.at(0), g.at(g.last()));
  return 0;
}
