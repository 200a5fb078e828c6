// Must not compile: array_view::data() exists on views of rank 1 only.
// Expected diagnostic: "data() is only permissible".
#include <amp.h>

#include <vector>

using namespace concurrency;

int main() {
  std::vector<int> v(12);
  array_view<int, 2> av(3, 4, v);
  return av.data() == v.data() ? 0 : 1;
}
