// Seed 003 (MSDN Magazine, Daniel Moth, "C++ AMP でのタイリングの概要"),
// Figure 5: tiled matrix multiplication with tile_static memory, with the
// tile size the article measures (TS = 16, 256 threads per tile).  Printed
// line numbers and non-breaking spaces removed.  The wrapper defines TS, adds
// includes, a main, input data and a check against a plain CPU loop for
// 64x64 (W=64) and non-square 32x48 (W=80); M, N and W must be multiples
// of TS.

// ---- wrapper ----
#include <amp.h>
#include <iostream>
#include <vector>
using namespace concurrency;
using std::vector;

static const int TS = 16;

// ---- as printed ----
void MatMul(vector<int>& vC, const vector<int>& vA,
  const vector<int>& vB, int M, int N, int W )
{
  array_view<const int,2> a(M, W, vA), b(W, N, vB);
  array_view<int,2> c(M, N, vC);
  c.discard_data();

  parallel_for_each(c.extent.tile<TS,TS>(),
    [=](tiled_index<TS,TS> t_idx) restrict(amp)
  {
    int row = t_idx.local[0]; int col = t_idx.local[1];
    tile_static int locA[TS][TS], locB[TS][TS];
    int sum = 0;
    for (int i = 0; i < a.extent[1]; i += TS) {
      locA[row][col] = a(t_idx.global[0], col + i);
      locB[row][col] = b(row + i, t_idx.global[1]);
      t_idx.barrier.wait();

      for (int k = 0; k < TS; k++)
        sum += locA[row][k] * locB[k][col];
      t_idx.barrier.wait();
    }
    c[t_idx.global] = sum;
  });
  c.synchronize();
}
// ---- wrapper ----

static void CheckCase(int M, int N, int W)
{
    vector<int> vA(M * W), vB(W * N), vC(M * N, -1), ref(M * N);
    for (int i = 0; i < M * W; ++i) vA[i] = (i * 7 + 3) % 11 - 5;
    for (int i = 0; i < W * N; ++i) vB[i] = (i * 5 + 1) % 13 - 6;
    for (int r = 0; r < M; ++r)
        for (int c = 0; c < N; ++c) {
            int s = 0;
            for (int k = 0; k < W; ++k) s += vA[r * W + k] * vB[k * N + c];
            ref[r * N + c] = s;
        }
    MatMul(vC, vA, vB, M, N, W);
    int mismatches = 0;
    long long checksum = 0;
    for (int i = 0; i < M * N; ++i) {
        if (vC[i] != ref[i]) ++mismatches;
        checksum += (long long)vC[i] * (i % 97 + 1);
    }
    std::cout << "M=" << M << " N=" << N << " W=" << W << ": checksum " << checksum
              << ", mismatches " << mismatches << (mismatches == 0 ? ": OK" : ": FAILED") << "\n";
}

int main()
{
    CheckCase(64, 64, 64);
    CheckCase(32, 48, 80);
    return 0;
}
