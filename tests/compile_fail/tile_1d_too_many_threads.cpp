// Must not compile: launching a 1-D tile of 1025 work-items (the limit is
// 1024). Naming tiled_extent<1025> alone is allowed (AMP checks the limit at
// parallel_for_each); the launch is what fails. Expected diagnostic: "at most
// 1024 threads".
#include <amp.h>

using namespace concurrency;

int main() {
  std::vector<int> v(1025);
  array_view<int, 1> av(1025, v);
  tiled_extent<1025> te(extent<1>(1025));
  parallel_for_each(te, [=](tiled_index<1025> t) restrict(amp) { av[t] = 1; });
  return 0;
}
