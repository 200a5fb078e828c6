// The cost of AMP_HOST_VIEWS=copy (migration_guide.md, "A view's source memory
// before synchronize()"): kernels on a host accelerator over array_views of
// user memory, each round ending in synchronize(), in place (the default) or
// through the private copies that give the GPU's observable behaviour.
//   stream: out[i] = 2 * in[i], 2^24 ints (the simple model; one copy-out of
//           `out` per round, `in` copied in once)
//   tiled:  a 512x512 float matrix multiply, 16x16 tiles with tile_static
// Run once per mode (the mode is read at the first kernel); bench/host_views.sh
// runs both modes on Serial and OpenMP and prints the ratios. Prints
// "NAME median_ms" lines (median of 7 rounds after one warm-up).
#include <amp.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>
using namespace concurrency;

template <class F> double median_ms(F round) {
  round();
  std::vector<double> t;
  for (int r = 0; r < 7; ++r) {
    const auto t0 = std::chrono::steady_clock::now();
    round();
    t.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
  }
  std::sort(t.begin(), t.end());
  return t[3];
}

int main() {
  const int n = 1 << 24;
  std::vector<int> in(n, 3), out(n, 0);
  array_view<const int, 1> a(n, in);
  array_view<int, 1> b(n, out);
  const double stream = median_ms([&] {
    parallel_for_each(b.extent, [=](index<1> i) restrict(amp) { b[i] = 2 * a[i]; });
    b.synchronize();
  });
  if (out[n - 1] != 6) return std::printf("FAIL: stream\n"), 1;

  const int m = 512, ts = 16;
  std::vector<float> x(m * m, 1.0f), y(m * m, 2.0f), z(m * m, 0.0f);
  array_view<const float, 2> xa(m, m, x), ya(m, m, y);
  array_view<float, 2> za(m, m, z);
  const double tiled = median_ms([&] {
    parallel_for_each(za.extent.tile<ts, ts>(), [=](tiled_index<ts, ts> t) restrict(amp) {
      tile_static float xs[ts][ts], ys[ts][ts];
      const int r = t.local[0], c = t.local[1];
      float sum = 0;
      for (int k = 0; k < m; k += ts) {
        xs[r][c] = xa(t.global[0], k + c);
        ys[r][c] = ya(k + r, t.global[1]);
        t.barrier.wait();
        for (int j = 0; j < ts; ++j) sum += xs[r][j] * ys[j][c];
        t.barrier.wait();
      }
      za[t.global] = sum;
    });
    za.synchronize();
  });
  if (z[m * m - 1] != 2.0f * m) return std::printf("FAIL: tiled\n"), 1;
  std::printf("stream %.3f\ntiled %.3f\n", stream, tiled);
  return 0;
}
