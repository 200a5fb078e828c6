// dotdot_paths.sh: built as SRC/../src/main.cpp with -ISRC/../inc.
#include <waits.h>
#include <cstdio>
#include <vector>

int main() {
  const int n = 256;
  std::vector<int> in(n), got(n);
  for (int i = 0; i < n; ++i) in[i] = (i * 7) % 31;
  concurrency::array_view<const int, 1> a(n, in);
  concurrency::array_view<int, 1> out(n, got);
  dd_kernel<64>(a, out);
  out.synchronize();
  long long sum = 0;
  for (int i = 0; i < n; ++i) sum = sum * 31 + got[i];
  std::printf("digest %lld\n", sum);
  return 0;
}
