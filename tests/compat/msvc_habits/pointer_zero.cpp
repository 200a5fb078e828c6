// `if (p <= 0)` with a pointer p: MSVC compares it with the null pointer.
#include <amp.h>
#include <cstdio>

static const char* describe(const int* p) { return (p <= 0) ? "null" : "set"; }

int main() {
  int x = 1;
  std::printf("%s %s\n", describe(&x), describe(nullptr));
  return 0;
}
