// A tiled C++ AMP program as legacy code writes it (tile_static, barriers),
// shared by the consumer projects in tests/consumers/. Returns the number of
// wrong elements against a plain host matrix multiply.
#pragma once
#include <amp.h>
#include <cstdio>
#include <vector>

inline int consumer_tiled_matmul(int n) {
  using namespace concurrency;
  constexpr int TS = 16;
  std::vector<float> a(n * n), b(n * n), c(n * n);
  for (int i = 0; i < n * n; ++i) {
    a[i] = float((i * 7) % 13) - 6.0f;
    b[i] = float((i * 5) % 11) - 5.0f;
  }
  array_view<const float, 2> av(n, n, a), bv(n, n, b);
  array_view<float, 2> cv(n, n, c);
  cv.discard_data();
  parallel_for_each(cv.extent.tile<TS, TS>(), [=](tiled_index<TS, TS> t) restrict(amp) {
    tile_static float ta[TS][TS];
    tile_static float tb[TS][TS];
    int row = t.local[0], col = t.local[1];
    float sum = 0.0f;
    for (int k = 0; k < av.extent[1]; k += TS) {
      ta[row][col] = av(t.global[0], k + col);
      tb[row][col] = bv(k + row, t.global[1]);
      t.barrier.wait();
      for (int j = 0; j < TS; ++j) sum += ta[row][j] * tb[j][col];
      t.barrier.wait();
    }
    cv[t.global] = sum;
  });
  cv.synchronize();
  int wrong = 0;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      float want = 0.0f;
      for (int k = 0; k < n; ++k) want += a[i * n + k] * b[k * n + j];
      // Small integers: every partial sum is exact in float.
      if (c[i * n + j] != want) ++wrong;
    }
  std::printf("tiled matmul %dx%d on %ls: %s\n", n, n,
              accelerator().get_description().c_str(), wrong ? "WRONG" : "ok");
  return wrong;
}
