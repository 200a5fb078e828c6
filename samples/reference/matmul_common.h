// Shared by the matmul_*_ref.cpp reference programs (seed 003 MatMul samples):
// plain CPU matrix products, printed in the samples' format.
#include <cassert>
#include <iostream>
#include <vector>

inline std::vector<int> CpuMatMul(const std::vector<int>& A, const std::vector<int>& B,
                                  int M, int N, int W) {
    std::vector<int> C(M * N);
    for (int r = 0; r < M; ++r)
        for (int c = 0; c < N; ++c) {
            int s = 0;
            for (int k = 0; k < W; ++k) s += A[r * W + k] * B[k * N + c];
            C[r * N + c] = s;
        }
    return C;
}

inline void RefPrintMatrix(const char* name, const std::vector<int>& v, int rows, int cols) {
    std::cout << name << " (" << rows << "x" << cols << "):\n";
    for (int r = 0; r < rows; ++r) {
        for (int c = 0; c < cols; ++c) std::cout << (c ? " " : "") << v[r * cols + c];
        std::cout << "\n";
    }
}

// The article's walkthrough: M=2, N=6, W=4, A = 1..8, B = 1..24.
inline void RefSmallCase() {
    const int M = 2, N = 6, W = 4;
    std::vector<int> A(M * W), B(W * N);
    for (int i = 0; i < M * W; ++i) A[i] = i + 1;
    for (int i = 0; i < W * N; ++i) B[i] = i + 1;
    std::vector<int> C = CpuMatMul(A, B, M, N, W);
    // The article: the focused thread's partial sums are 1*4 + 2*10 = 24 and
    // 24 + 3*16 + 4*22 = 160.  (C is also exactly seed 002's input matrix.)
    assert(A[0] * B[3] + A[1] * B[N + 3] == 24);
    assert(C[3] == 160);
    assert((C == std::vector<int>{130, 140, 150, 160, 170, 180, 290, 316, 342, 368, 394, 420}));
    RefPrintMatrix("A", A, M, W);
    RefPrintMatrix("B", B, W, N);
    RefPrintMatrix("C = A*B", C, M, N);
    std::cout << "C(0,3) = " << C[3] << "\n";
}

inline void RefCheckCase(int M, int N, int W) {
    std::vector<int> A(M * W), B(W * N);
    for (int i = 0; i < M * W; ++i) A[i] = (i * 7 + 3) % 11 - 5;
    for (int i = 0; i < W * N; ++i) B[i] = (i * 5 + 1) % 13 - 6;
    std::vector<int> C = CpuMatMul(A, B, M, N, W);
    long long checksum = 0;
    for (int i = 0; i < M * N; ++i) checksum += (long long)C[i] * (i % 97 + 1);
    std::cout << "M=" << M << " N=" << N << " W=" << W << ": checksum " << checksum
              << ", mismatches 0: OK\n";
}
