// Seed 003 (MSDN Magazine, Daniel Moth, "C++ AMP でのタイリングの概要"),
// Figure 5: tiled matrix multiplication with tile_static memory, with the
// article's walkthrough configuration TS = 2, M = 2, N = 6, W = 4 (Figure 6).
// Printed line numbers and non-breaking spaces removed.  The wrapper defines
// TS (the article leaves its definition to the reader), adds includes, a main,
// input data and printing.  Inputs A = 1..8 and B = 1..24 (row-major)
// reproduce the walkthrough: the focused thread (tile 2 of 3) computes
// 1*4 + 2*10 = 24 for i = 0 and 24 + 3*16 + 4*22 = 160 for i = 2.
// A second case (M=6, N=10, W=8) is checked against a plain CPU loop.

// ---- wrapper ----
#include <amp.h>
#include <iostream>
#include <vector>
using namespace concurrency;
using std::vector;

static const int TS = 2;

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

static void PrintMatrix(const char* name, const vector<int>& v, int rows, int cols)
{
    std::cout << name << " (" << rows << "x" << cols << "):\n";
    for (int r = 0; r < rows; ++r) {
        for (int c = 0; c < cols; ++c)
            std::cout << (c ? " " : "") << v[r * cols + c];
        std::cout << "\n";
    }
}

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
    const int M = 2, N = 6, W = 4;
    vector<int> vA(M * W), vB(W * N), vC(M * N);
    for (int i = 0; i < M * W; ++i) vA[i] = i + 1;
    for (int i = 0; i < W * N; ++i) vB[i] = i + 1;
    MatMul(vC, vA, vB, M, N, W);
    PrintMatrix("A", vA, M, W);
    PrintMatrix("B", vB, W, N);
    PrintMatrix("C = A*B", vC, M, N);
    std::cout << "C(0,3) = " << vC[0 * N + 3] << "\n";
    CheckCase(6, 10, 8);
    return 0;
}
