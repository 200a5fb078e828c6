// Must not compile: AMP's index and extent have component constructors for
// ranks 1 to 3 only. Expected diagnostic: "ranks 1 to 3 only".
#include <amp.h>

using namespace concurrency;

int main() {
  index<4> i(1, 2, 3, 4);
  return i[0];
}
