// `using namespace std; using namespace concurrency;` then an unqualified
// array: Visual Studio's <amp.h> brought no std::array, so AMP's was meant.
#include <amp.h>
#include <cstdio>
#include <vector>
using namespace std;
using namespace concurrency;

int main() {
  vector<float> in(4, 1.5f);
  array<float, 1> a(4, in.begin());
  parallel_for_each(a.extent, [&a](index<1> i) restrict(amp) { a[i] += static_cast<float>(i[0]); });
  vector<float> out = a;
  printf("%.1f %.1f\n", out[0], out[3]);
  return 0;
}
