// Must not compile: a class with only static data members is empty (size 1);
// AMP's element types have a size that is a multiple of sizeof(int).
// Expected diagnostic: "must be a multiple of sizeof(int)".
#include <amp.h>

using namespace concurrency;

struct only_static {
  static int count;
};

int main() {
  array<only_static, 1> a(10);
  return 0;
}
