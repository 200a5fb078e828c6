// Seed 003 (MSDN Magazine, Daniel Moth, "C++ AMP でのタイリングの概要"),
// Figure 4: tiled matrix multiplication, step 1 (tile<16,16>, no
// tile_static).  The figure prints only lines 3-14 (the body of MatMul);
// printed line numbers and non-breaking spaces removed.  The wrapper supplies
// the function header of Figure 1 around the body, includes, a main, input
// data and the check against a plain CPU loop.  M and N must be multiples of
// 16 (W need not be): cases 64x64 (W=64) and 32x48 (W=20).

// ---- wrapper ----
#include <amp.h>
#include <iostream>
#include <vector>
using namespace concurrency;
using std::vector;

void MatMul(vector<int>& vC, const vector<int>& vA,
  const vector<int>& vB, int M, int N, int W )
{
// ---- as printed ----
array_view<const int, 2> a(M, W, vA), b(W, N, vB);
array_view<int, 2> c(M, N, vC);
c.discard_data();
parallel_for_each(c.extent.tile<16,16>(),
  [=](tiled_index<16,16> t_idx) restrict(amp)
{
int row = t_idx.global[0]; int col = t_idx.global[1];
int sum = 0;
for(int i = 0; i < b.extent[0]; i++)
  sum += a(row, i) * b(i, col);
c[t_idx.global] = sum;
});
c.synchronize();
// ---- wrapper ----
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
    CheckCase(64, 64, 64);
    CheckCase(32, 48, 20);
    return 0;
}
