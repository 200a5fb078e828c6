// Reference for samples/ports/fft2d.cpp.  Plain C++: runs the same float
// radix-2 algorithm (rows, transpose, rows, transpose) sequentially and a
// double-precision separable DFT, and checks that (a) X[0][0] is exact
// (it equals the double sum of the inputs) and (b) max|error| / max|X| is at
// least 10x below the sample's tolerance of 1e-5, so the expected "OK" does
// not hinge on rounding details of the accelerator.
#include <cassert>
#include <cmath>
#include <iostream>
#include <vector>

struct cf { float x, y; };

static cf Input(int r, int c) {  // identical to the sample's input
    cf v;
    v.x = (float)((r * 7 + c * 3) % 11 - 5) / 8.0f;
    v.y = (float)((r * 5 + c * 2 + (r * c) % 3) % 7 - 3) / 4.0f;
    return v;
}

static void FftRow(cf* row, int n) {
    const double pi = 3.14159265358979323846;
    int bits = 0;
    while ((1 << bits) < n) ++bits;
    std::vector<cf> buf(n);
    for (int k = 0; k < n; ++k) {
        int r = 0;
        for (int b = 0; b < bits; ++b)
            if (k & (1 << b)) r |= 1 << (bits - 1 - b);
        buf[r] = row[k];
    }
    for (int len = 2; len <= n; len *= 2)
        for (int t = 0; t < n / 2; ++t) {
            int half = len / 2, pos = t % half;
            int i = (t / half) * len + pos, j = i + half;
            int k = pos * (n / len);
            cf w = {(float)std::cos(-2.0 * pi * k / n), (float)std::sin(-2.0 * pi * k / n)};
            cf u = buf[i], v = buf[j];
            cf vw = {v.x * w.x - v.y * w.y, v.x * w.y + v.y * w.x};
            buf[i] = {u.x + vw.x, u.y + vw.y};
            buf[j] = {u.x - vw.x, u.y - vw.y};
        }
    for (int k = 0; k < n; ++k) row[k] = buf[k];
}

static void Case(int H, int W) {
    const double pi = 3.14159265358979323846;
    std::vector<cf> m(H * W), t(H * W);
    double sumRe = 0, sumIm = 0;
    for (int r = 0; r < H; ++r)
        for (int c = 0; c < W; ++c) {
            m[r * W + c] = Input(r, c);
            sumRe += m[r * W + c].x;
            sumIm += m[r * W + c].y;
        }
    std::vector<double> re(H * W), im(H * W), re2(H * W), im2(H * W);
    for (int r = 0; r < H; ++r)
        for (int k = 0; k < W; ++k) {
            double sr = 0, si = 0;
            for (int c = 0; c < W; ++c) {
                double a = -2.0 * pi * (double)((long long)k * c % W) / W;
                sr += m[r * W + c].x * std::cos(a) - m[r * W + c].y * std::sin(a);
                si += m[r * W + c].x * std::sin(a) + m[r * W + c].y * std::cos(a);
            }
            re[r * W + k] = sr;
            im[r * W + k] = si;
        }
    for (int c = 0; c < W; ++c)
        for (int k = 0; k < H; ++k) {
            double sr = 0, si = 0;
            for (int r = 0; r < H; ++r) {
                double a = -2.0 * pi * (double)((long long)k * r % H) / H;
                sr += re[r * W + c] * std::cos(a) - im[r * W + c] * std::sin(a);
                si += re[r * W + c] * std::sin(a) + im[r * W + c] * std::cos(a);
            }
            re2[k * W + c] = sr;
            im2[k * W + c] = si;
        }
    for (int r = 0; r < H; ++r) FftRow(&m[r * W], W);
    for (int r = 0; r < H; ++r)
        for (int c = 0; c < W; ++c) t[c * H + r] = m[r * W + c];
    for (int c = 0; c < W; ++c) FftRow(&t[c * H], H);
    for (int c = 0; c < W; ++c)
        for (int r = 0; r < H; ++r) m[r * W + c] = t[c * H + r];

    double maxErr = 0, maxMag = 0;
    for (int i = 0; i < H * W; ++i) {
        maxErr = std::fmax(maxErr, std::hypot(m[i].x - re2[i], m[i].y - im2[i]));
        maxMag = std::fmax(maxMag, std::hypot(re2[i], im2[i]));
    }
    assert(m[0].x == sumRe && m[0].y == sumIm);
    assert(maxErr <= 1e-6 * maxMag);
    std::cerr << "fft2d " << H << "x" << W << ": float CPU max|error|/max|X| = "
              << maxErr / maxMag << "\n";
    std::cout << "fft2d " << H << "x" << W << ": X[0][0] = (" << (float)sumRe << ", "
              << (float)sumIm << "); max|error| / max|X| < 1e-5: OK\n";
}

int main() {
    Case(64, 64);
    Case(32, 128);
}
