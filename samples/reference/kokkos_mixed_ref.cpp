// Reference for samples/ports/kokkos_mixed.cpp: the same computation in plain C++.
#include <cstdio>

int main() {
  const int n = 16;
  float a[n], o[n];
  for (int i = 0; i < n; ++i) a[i] = i * 0.5f;
  for (int i = 0; i < n; ++i) a[i] = a[i] * a[i];
  for (int i = 0; i < n; ++i) {
    float sum = 0.0f;
    for (int k = i / 4 * 4; k <= i; ++k) sum += a[k];
    o[i] = sum;
  }
  for (int i = 0; i < n; ++i) std::printf("%2d %8.2f\n", i, o[i]);
  return 0;
}
