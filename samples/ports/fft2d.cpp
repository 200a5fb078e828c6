// Port of seed 004 (OpenCL book chapter 13.6) to C++ AMP: the chapter's 2-D
// FFT procedure that avoids column access (strided memory / bank conflicts):
//   1. 1-D FFT of all rows   2. transpose   3. 1-D FFT of all rows
//   4. transpose
// using the chapter's padded-tile transpose kernel (16x16 tiles).  The
// chapter does not print its 1-D FFT kernel; the row FFT here is an iterative
// radix-2 decimation-in-time FFT, one tile per row (N/2 threads, one
// butterfly each per stage, the row held in tile_static memory, a tile
// barrier between stages).  Twiddle factors and the bit-reversal permutation
// are computed on the host in double precision, so the kernel needs no math
// library.
//
// The result is compared with a double-precision 2-D DFT computed on the CPU
// as separable 1-D DFTs (rows, then columns).  Printed: the DC term X[0][0]
// (exact in float for this input, see below) and the class of
// max|error| / max|X| against a fixed tolerance, so that the output does not
// depend on the accelerator's rounding.
#include "padded_transpose.h"
#include <cmath>
#include <iostream>
#include <vector>
using namespace concurrency;

// In-place forward FFT (sign -1) of each of the `rows` rows of length N
// (a power of two) of the row-major matrix `data`.
// tw[k] = exp(-2*pi*i*k/N) for k < N/2; bitrev[k] = k with its log2(N) bits
// reversed.
template <int N>
void fft_rows(const array_view<cfloat2, 1>& data, int rows,
              const array_view<const cfloat2, 1>& tw, const array_view<const int, 1>& bitrev)
{
    parallel_for_each(extent<2>(rows, N / 2).tile<1, N / 2>(),
        [=](tiled_index<1, N / 2> t_idx) restrict(amp)
    {
        tile_static cfloat2 buf[N];
        const int t = t_idx.local[1];
        const int base = t_idx.global[0] * N;

        buf[bitrev[t]] = data[base + t];
        buf[bitrev[t + N / 2]] = data[base + t + N / 2];
        t_idx.barrier.wait();

        for (int len = 2; len <= N; len *= 2) {
            const int half = len / 2;
            const int i = (t / half) * len + (t % half);
            const int j = i + half;
            const cfloat2 w = tw[(t % half) * (N / len)];
            const cfloat2 u = buf[i];
            const cfloat2 v = buf[j];
            cfloat2 vw;
            vw.x = v.x * w.x - v.y * w.y;
            vw.y = v.x * w.y + v.y * w.x;
            buf[i].x = u.x + vw.x;
            buf[i].y = u.y + vw.y;
            buf[j].x = u.x - vw.x;
            buf[j].y = u.y - vw.y;
            t_idx.barrier.wait();
        }

        data[base + t] = buf[t];
        data[base + t + N / 2] = buf[t + N / 2];
    });
}

static void MakeTables(int n, std::vector<cfloat2>& tw, std::vector<int>& bitrev)
{
    const double pi = 3.14159265358979323846;
    tw.resize(n / 2);
    for (int k = 0; k < n / 2; ++k) {
        tw[k].x = (float)std::cos(-2.0 * pi * k / n);
        tw[k].y = (float)std::sin(-2.0 * pi * k / n);
    }
    int bits = 0;
    while ((1 << bits) < n) ++bits;
    bitrev.resize(n);
    for (int k = 0; k < n; ++k) {
        int r = 0;
        for (int b = 0; b < bits; ++b)
            if (k & (1 << b)) r |= 1 << (bits - 1 - b);
        bitrev[k] = r;
    }
}

// 2-D FFT of the H x W (rows x columns) matrix: rows, transpose, rows,
// transpose.
template <int H, int W>
void fft2d(std::vector<cfloat2>& matrix)
{
    std::vector<cfloat2> twW, twH;
    std::vector<int> brW, brH;
    MakeTables(W, twW, brW);
    MakeTables(H, twH, brH);
    array_view<const cfloat2, 1> twWv(W / 2, twW), twHv(H / 2, twH);
    array_view<const int, 1> brWv(W, brW), brHv(H, brH);

    array_view<cfloat2, 1> data(H * W, matrix);
    array<cfloat2, 1> tmpArray(H * W);
    array_view<cfloat2, 1> tmp(tmpArray);

    fft_rows<W>(data, H, twWv, brWv);          // 1. FFT of all H rows (length W)
    transpose<16>(data, tmp, W, H);            // 2. H x W -> W x H
    fft_rows<H>(tmp, W, twHv, brHv);           // 3. FFT of all W rows (length H)
    transpose<16>(tmp, data, H, W);            // 4. W x H -> H x W
    data.synchronize();
}

// Input: multiples of 1/8 and 1/4 in [-1, 1].  Every partial sum along the
// DC path (twiddle factor exactly 1) is then exactly representable, so
// X[0][0] is exact on any accelerator.
static cfloat2 Input(int r, int c)
{
    cfloat2 v;
    v.x = (float)((r * 7 + c * 3) % 11 - 5) / 8.0f;
    v.y = (float)((r * 5 + c * 2 + (r * c) % 3) % 7 - 3) / 4.0f;
    return v;
}

template <int H, int W>
void RunCase()
{
    std::vector<cfloat2> m(H * W);
    for (int r = 0; r < H; ++r)
        for (int c = 0; c < W; ++c) m[r * W + c] = Input(r, c);

    // Double-precision reference: DFT of the rows, then of the columns.
    const double pi = 3.14159265358979323846;
    std::vector<double> re(H * W), im(H * W), re2(H * W), im2(H * W);
    for (int r = 0; r < H; ++r)
        for (int k = 0; k < W; ++k) {
            double sr = 0, si = 0;
            for (int c = 0; c < W; ++c) {
                const double a = -2.0 * pi * (double)((long long)k * c % W) / W;
                const cfloat2 x = m[r * W + c];
                sr += x.x * std::cos(a) - x.y * std::sin(a);
                si += x.x * std::sin(a) + x.y * std::cos(a);
            }
            re[r * W + k] = sr;
            im[r * W + k] = si;
        }
    for (int c = 0; c < W; ++c)
        for (int k = 0; k < H; ++k) {
            double sr = 0, si = 0;
            for (int r = 0; r < H; ++r) {
                const double a = -2.0 * pi * (double)((long long)k * r % H) / H;
                sr += re[r * W + c] * std::cos(a) - im[r * W + c] * std::sin(a);
                si += re[r * W + c] * std::sin(a) + im[r * W + c] * std::cos(a);
            }
            re2[k * W + c] = sr;
            im2[k * W + c] = si;
        }

    fft2d<H, W>(m);

    double maxErr = 0, maxMag = 0;
    for (int i = 0; i < H * W; ++i) {
        maxErr = std::fmax(maxErr, std::hypot(m[i].x - re2[i], m[i].y - im2[i]));
        maxMag = std::fmax(maxMag, std::hypot(re2[i], im2[i]));
    }
    const double tolerance = 1e-5;
    const bool ok = maxErr <= tolerance * maxMag;
    std::cout << "fft2d " << H << "x" << W << ": X[0][0] = (" << m[0].x << ", " << m[0].y
              << "); max|error| / max|X| " << (ok ? "< 1e-5: OK" : ">= 1e-5: FAILED") << "\n";
}

int main()
{
    RunCase<64, 64>();
    RunCase<32, 128>();
    return 0;
}
