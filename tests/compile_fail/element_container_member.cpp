// Must not compile: an element type with an array_view member (AMP
// containers cannot be nested). Expected diagnostic: "cannot have a data member".
#include <amp.h>

using namespace concurrency;

struct holds_view {
  array_view<float, 1> v;
  int i;
};

int main() {
  array<holds_view, 1> a(4);
  return 0;
}
