// Must not compile: an array_view of pointers (here through reinterpret_as,
// as Microsoft's conformance suite tries it) is not amp-compatible (MSVC
// C3581): a host pointer means nothing on the accelerator.
// Expected diagnostic: "it cannot be a pointer".
#include <amp.h>

using namespace concurrency;

int main() {
  array<int, 1> a(2);
  array_view<int*, 1> r = a.reinterpret_as<int*>();
  return r.extent[0] == 0;
}
