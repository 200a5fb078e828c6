// A matrix multiply C = A * B split across every accelerator, the AMP way:
// accelerator::get_all(), one set of arrays per accelerator (a band of A's
// rows, a copy of B, the band of C), one parallel_for_each per accelerator,
// each on its own accelerator_view, then copy() back. B goes to the first
// accelerator once and from there to the others (device to device between
// GPUs).
//
// The accelerators used are the GPUs (not emulated); a machine without one
// splits the work over the emulated ones (the host accelerators), so the
// program runs everywhere and prints the same output whatever the split.
#include <amp.h>

#include <cstdio>
#include <vector>

using namespace concurrency;

static std::vector<accelerator> compute_accelerators() {
  std::vector<accelerator> gpus, emulated;
  for (const accelerator& a : accelerator::get_all()) {
    if (a.device_path == accelerator::cpu_accelerator) continue;
    (a.is_emulated ? emulated : gpus).push_back(a);
  }
  return gpus.empty() ? emulated : gpus;
}

int main() {
  const int M = 384, K = 320, N = 256;
  std::vector<int> A(M * K), B(K * N), C(M * N, 0);
  for (int i = 0; i < M * K; ++i) A[i] = (i * 7 + 3) % 13 - 6;
  for (int i = 0; i < K * N; ++i) B[i] = (i * 5 + 1) % 11 - 5;

  const std::vector<accelerator> accs = compute_accelerators();
  const int parts = static_cast<int>(accs.size());
  std::vector<accelerator_view> views;
  for (const accelerator& a : accs) views.push_back(a.create_view());

  array<int, 2> b0(K, N, B.begin(), B.end(), views[0]);
  std::vector<array<int, 2>> a_band, b_copy, c_band;
  for (int p = 0; p < parts; ++p) {
    const int lo = M * p / parts, hi = M * (p + 1) / parts, rows = hi - lo > 0 ? hi - lo : 1;
    a_band.emplace_back(rows, K, A.begin() + lo * K, A.begin() + (lo + rows) * K, views[p]);
    b_copy.emplace_back(K, N, views[p]);
    copy(b0, b_copy.back());
    c_band.emplace_back(rows, N, views[p]);
  }
  // Every accelerator works at once: launches return before the kernels end.
  for (int p = 0; p < parts; ++p) {
    const array<int, 2>& a = a_band[p];
    const array<int, 2>& b = b_copy[p];
    array<int, 2>& c = c_band[p];
    parallel_for_each(views[p], c.extent, [&a, &b, &c](index<2> idx) restrict(amp) {
      int sum = 0;
      for (int k = 0; k < a.extent[1]; ++k) sum += a(idx[0], k) * b(k, idx[1]);
      c[idx] = sum;
    });
  }
  for (int p = 0; p < parts; ++p) {
    const int lo = M * p / parts, hi = M * (p + 1) / parts;
    if (hi > lo) copy(c_band[p].section(0, 0, hi - lo, N), C.begin() + lo * N);
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
