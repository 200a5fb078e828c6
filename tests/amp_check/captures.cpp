// amp_check: reject C3590 C3596 C3597
// What an amp lambda written in CPU code may capture (AMP spec 2.4.3.3 and
// 7.1): by reference only concurrency::array and textures (C3590), never
// `this`; by value no pointers (C3596) and no concurrency::array (C3597).
#include <amp.h>
using namespace concurrency;
struct Owner {
  int v = 1;
  void launch(array_view<int, 1> out) {
    parallel_for_each(out.extent, [=](index<1> i) restrict(amp) { out[i] = v; });  // error: C3590
  }
};
int main() {
  std::vector<int> data(8);
  array_view<int, 1> out(8, data);
  int k = 3;
  int* p = data.data();
  array<int, 1> a(8);
  parallel_for_each(out.extent, [=, &k](index<1> i) restrict(amp) { out[i] = k; });  // error: C3590
  parallel_for_each(out.extent, [=](index<1> i) restrict(amp) { out[i] = p ? 1 : 0; });  // error: C3596
  parallel_for_each(out.extent, [=](index<1> i) restrict(amp) { out[i] = a[i]; });  // error: C3597
  return 0;
}
