// Seed 003 (MSDN Magazine, Daniel Moth, "C++ AMP でのタイリングの概要"),
// Figure 1: matrix multiplication, simple (non-tiled) model.  Printed line
// numbers and non-breaking spaces removed.  The wrapper adds includes, a
// main, input data and printing:
//   * the article's walkthrough size M=2, N=6, W=4 with A = 1..8 and
//     B = 1..24 (row-major).  These inputs reproduce the article's numbers:
//     row 0 of A is (1,2,3,4), column 3 of B is (4,10,16,22), so
//     C(0,3) = 1*4 + 2*10 + 3*16 + 4*22 = 160;
//   * a 64x64 (W=64) case and a non-square 33x17 (W=50) case, checked
//     against a plain CPU loop.

// ---- wrapper ----
#include <amp.h>
#include <iostream>
#include <vector>
using namespace concurrency;
using std::vector;

// ---- as printed ----
void MatMul(vector<int>& vC, const vector<int>& vA,
  const vector<int>& vB, int M, int N, int W )
{
  array_view<const int, 2> a(M, W, vA), b(W, N, vB);
  array_view<int, 2> c(M, N, vC);
  c.discard_data();
  parallel_for_each(c.extent, [=](index<2> idx) restrict(amp)
  {
    int row = idx[0]; int col = idx[1];
    int sum = 0;
    for(int i = 0; i < b.extent[0]; i++)
      sum += a(row, i) * b(i, col);
    c[idx] = sum;
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
    CheckCase(64, 64, 64);
    CheckCase(33, 17, 50);
    return 0;
}
