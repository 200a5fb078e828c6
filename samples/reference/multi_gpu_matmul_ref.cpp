// Reference for ports/multi_gpu_matmul: the same product computed in plain
// C++ on one thread, printed in the sample's format.
#include <cstdio>
#include <vector>

int main() {
  const int M = 384, K = 320, N = 256;
  std::vector<int> A(M * K), B(K * N), C(M * N, 0);
  for (int i = 0; i < M * K; ++i) A[i] = (i * 7 + 3) % 13 - 6;
  for (int i = 0; i < K * N; ++i) B[i] = (i * 5 + 1) % 11 - 5;
  for (int r = 0; r < M; ++r)
    for (int c = 0; c < N; ++c) {
      int sum = 0;
      for (int k = 0; k < K; ++k) sum += A[r * K + k] * B[k * N + c];
      C[r * N + c] = sum;
    }
  std::printf("C = A * B, %d x %d x %d, split by rows over the accelerators\n", M, K, N);
  long long total = 0;
  for (int r0 = 0; r0 < M; r0 += 32) {
    long long band = 0;
    for (int r = r0; r < r0 + 32; ++r)
      for (int c = 0; c < N; ++c) band += static_cast<long long>(C[r * N + c]) * ((r * 31 + c) % 17 + 1);
    total += band;
    std::printf("rows %3d-%3d: weighted sum %lld, C[%d][%d] = %d\n", r0, r0 + 31, band, r0 + 5, (r0 * 7) % N,
                C[(r0 + 5) * N + (r0 * 7) % N]);
  }
  std::printf("total %lld\n", total);
  return 0;
}
