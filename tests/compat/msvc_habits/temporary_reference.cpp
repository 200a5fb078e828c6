// MSVC binds a temporary to a non-const reference and keeps it alive as
// long as the reference (its C4239 extension): public AMP samples write
// `accelerator_view& v = accelerator().default_view;`.
#include <amp.h>
#include <cstdio>
#include <string>
using namespace concurrency;

int main() {
  accelerator_view& av = accelerator().default_view;
  std::string& s = std::string("temporary");
  std::vector<int> data(8, 1);
  array_view<int, 1> v(8, data);
  parallel_for_each(av, v.extent, [=](index<1> i) restrict(amp) { v[i] *= 2; });
  v.synchronize();
  std::printf("%s %d %d\n", s.c_str(), data[0], data[7]);
  return 0;
}
