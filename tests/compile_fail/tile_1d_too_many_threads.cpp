// Must not compile: a 1-D tile of 1025 work-items (the limit is 1024), named
// only as a type. Expected diagnostic: "at most 1024 threads".
#include <amp.h>

using namespace concurrency;

int main() {
  tiled_extent<1025> te(extent<1>(1025));
  return te[0] == 1025 ? 0 : 1;
}
