// Results across accelerators: kernels whose floating-point results depend on
// rounding (accumulations, matrix products in float and double, a tree
// reduction, a scan, division and square root, denormals), each compared bit
// for bit with a CPU loop that does the same operations in the same order.
//
// Contract (README.md, "Results across accelerators"): with the default flags
// (-ffp-contract=off, denormals kept) every accelerator gives exactly the CPU
// loop's bits. Any difference is reported with its index and both values in
// hexadecimal, and the program exits with status 1. The output (one line per
// check: the count and an FNV-1a hash of the result bytes) is the same on
// every accelerator when the contract holds, so the GPU bundle's differential
// check compares it byte for byte too.
//
// Built twice in GPU builds: fidelity_checks (default flags) and
// fidelity_checks_fast (AMP_FAST_MATH, contraction on). On the GPU the second
// one is expected to differ from the CPU loops: the control that shows these
// checks can see a fused multiply-add.
#include <amp.h>
#include <amp_math.h>

#include <cinttypes>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

using namespace concurrency;

namespace {

int failures = 0;

// Values that are not exactly representable sums of each other, so rounding
// (and contraction) shows in the last bits. Deterministic, no library RNG.
template <class T> std::vector<T> data(std::size_t n, std::uint32_t seed) {
  std::vector<T> v(n);
  std::uint32_t s = seed * 2654435761u + 12345u;
  for (std::size_t i = 0; i < n; ++i) {
    s = s * 1664525u + 1013904223u;
    // In (-1, 1), with 24 significant bits of noise, times 1/3-ish scale.
    v[i] = static_cast<T>(static_cast<double>(static_cast<std::int32_t>(s)) / 2147483648.0) * static_cast<T>(0.7310585);
  }
  return v;
}

// NaN as NaN: invalid operations make NaNs whose sign and payload differ
// between processors (x86: 0xffc00000, NVIDIA GPUs: 0x7fffffff), which IEEE 754
// leaves open; every other value is compared bit for bit.
template <class T> bool same_bits(const T& a, const T& b) {
  return std::memcmp(&a, &b, sizeof(T)) == 0 || (a != a && b != b);
}

// Hash of the values, each NaN hashed as the one quiet NaN (see same_bits).
template <class T> std::uint64_t fnv1a(const std::vector<T>& v) {
  std::uint64_t h = 1469598103934665603ull;
  for (T x : v) {
    if (x != x) x = std::numeric_limits<T>::quiet_NaN();
    unsigned char p[sizeof(T)];
    std::memcpy(p, &x, sizeof(T));
    for (unsigned char c : p) h = (h ^ c) * 1099511628211ull;
  }
  return h;
}

// The value's bits in hexadecimal (also right for denormals on a CPU thread
// that treats them as zero) and its value as %a.
template <class T> std::string hex(T x) {
  static_assert(sizeof(T) == 4 || sizeof(T) == 8, "float or double");
  std::uint64_t bits = 0;
  std::memcpy(&bits, &x, sizeof(T));
  char b[80];
  std::snprintf(b, sizeof b, "%0*" PRIx64 " (%a)", int(2 * sizeof(T)), bits, static_cast<double>(x));
  return b;
}

// Bitwise comparison of the accelerator's results with the CPU loop's.
template <class T> void report(const char* name, const std::vector<T>& got, const std::vector<T>& want) {
  std::size_t diff = 0, first = got.size();
  for (std::size_t i = 0; i < got.size(); ++i)
    if (!same_bits(got[i], want[i])) {
      if (first == got.size()) first = i;
      ++diff;
    }
  if (diff == 0) {
    std::printf("%-28s %6zu results, fnv1a %016" PRIx64 ", identical to the CPU loop\n", name, got.size(), fnv1a(got));
  } else {
    ++failures;
    std::printf("%-28s %6zu of %zu results differ from the CPU loop; first at %zu: %s, CPU %s\n", name, diff,
                got.size(), first, hex(got[first]).c_str(), hex(want[first]).c_str());
  }
}

// out[i] = c + sum_k a[i*K + k] * b[k], accumulated k = 0, 1, ... in T.
template <class T> void accumulation(const char* name) {
  const int n = 1024, K = 193;
  const std::vector<T> a = data<T>(std::size_t(n) * K, 1), b = data<T>(K, 2);
  std::vector<T> out(n), want(n);
  const T c = static_cast<T>(0.1);
  array_view<const T, 1> av(n * K, a), bv(K, b);
  array_view<T, 1> ov(n, out);
  ov.discard_data();
  parallel_for_each(ov.extent, [=](index<1> i) restrict(amp) {
    T s = c;
    for (int k = 0; k < K; ++k) s += av[i[0] * K + k] * bv[k];
    ov[i] = s;
  });
  ov.synchronize();
  for (int i = 0; i < n; ++i) {
    T s = c;
    for (int k = 0; k < K; ++k) s += a[std::size_t(i) * K + k] * b[k];
    want[i] = s;
  }
  report(name, out, want);
}

// C = A * B (M x W times W x N), the simple model: one thread per element.
template <class T> std::vector<T> cpu_matmul(const std::vector<T>& a, const std::vector<T>& b, int M, int N, int W) {
  std::vector<T> c(std::size_t(M) * N);
  for (int r = 0; r < M; ++r)
    for (int col = 0; col < N; ++col) {
      T s = 0;
      for (int k = 0; k < W; ++k) s += a[std::size_t(r) * W + k] * b[std::size_t(k) * N + col];
      c[std::size_t(r) * N + col] = s;
    }
  return c;
}

template <class T> void matmul_simple(const char* name) {
  const int M = 80, N = 96, W = 211;
  const std::vector<T> a = data<T>(std::size_t(M) * W, 3), b = data<T>(std::size_t(W) * N, 4);
  std::vector<T> c(std::size_t(M) * N);
  array_view<const T, 2> av(M, W, a), bv(W, N, b);
  array_view<T, 2> cv(M, N, c);
  cv.discard_data();
  parallel_for_each(cv.extent, [=](index<2> idx) restrict(amp) {
    const int r = idx[0], col = idx[1];
    T s = 0;
    for (int k = 0; k < W; ++k) s += av(r, k) * bv(k, col);
    cv[idx] = s;
  });
  cv.synchronize();
  report(name, c, cpu_matmul(a, b, M, N, W));
}

// The tiled model with tile_static blocks; the running sum goes through k in
// the same order as the CPU loop (tile by tile, k within the tile).
template <class T> void matmul_tiled(const char* name) {
  constexpr int TS = 16;
  const int M = 96, N = 112, W = 208; // multiples of TS
  const std::vector<T> a = data<T>(std::size_t(M) * W, 5), b = data<T>(std::size_t(W) * N, 6);
  std::vector<T> c(std::size_t(M) * N);
  array_view<const T, 2> av(M, W, a), bv(W, N, b);
  array_view<T, 2> cv(M, N, c);
  cv.discard_data();
  parallel_for_each(cv.extent.template tile<TS, TS>(), [=](tiled_index<TS, TS> t) restrict(amp) {
    tile_static T la[TS][TS];
    tile_static T lb[TS][TS];
    const int row = t.local[0], col = t.local[1];
    T s = 0;
    for (int i = 0; i < W; i += TS) {
      la[row][col] = av(t.global[0], i + col);
      lb[row][col] = bv(i + row, t.global[1]);
      t.barrier.wait();
      for (int k = 0; k < TS; ++k) s += la[row][k] * lb[k][col];
      t.barrier.wait();
    }
    cv[t.global] = s;
  });
  cv.synchronize();
  report(name, c, cpu_matmul(a, b, M, N, W));
}

// A tree reduction in tile_static memory (stride halving), one partial sum
// per tile, then the partial sums added on the CPU in tile order. The CPU
// loop performs the same tree.
template <class T> void tree_reduction(const char* name) {
  constexpr int TS = 256;
  const int n = TS * 64;
  const std::vector<T> x = data<T>(n, 7);
  std::vector<T> partial(n / TS);
  array_view<const T, 1> xv(n, x);
  array_view<T, 1> pv(n / TS, partial);
  pv.discard_data();
  parallel_for_each(xv.extent.template tile<TS>(), [=](tiled_index<TS> t) restrict(amp) {
    tile_static T s[TS];
    const int l = t.local[0];
    s[l] = xv[t.global];
    t.barrier.wait();
    for (int stride = TS / 2; stride > 0; stride /= 2) {
      if (l < stride) s[l] = s[l] + s[l + stride];
      t.barrier.wait();
    }
    if (l == 0) pv[t.tile] = s[0];
  });
  pv.synchronize();
  std::vector<T> want(n / TS);
  for (int tile = 0; tile < n / TS; ++tile) {
    T s[TS];
    for (int l = 0; l < TS; ++l) s[l] = x[std::size_t(tile) * TS + l];
    for (int stride = TS / 2; stride > 0; stride /= 2)
      for (int l = 0; l < stride; ++l) s[l] = s[l] + s[l + stride];
    want[tile] = s[0];
  }
  report(name, partial, want);
  T total = 0, want_total = 0;
  for (int i = 0; i < n / TS; ++i) {
    total += partial[i];
    want_total += want[i];
  }
  report((std::string(name) + " total").c_str(), std::vector<T>{total}, std::vector<T>{want_total});
}

// Inclusive scan of each tile (Hillis-Steele, double-buffered in tile_static
// memory): at step d every element adds the one d places before it.
template <class T> void tile_scan(const char* name) {
  constexpr int TS = 128;
  const int n = TS * 40;
  const std::vector<T> x = data<T>(n, 8);
  std::vector<T> y(n);
  array_view<const T, 1> xv(n, x);
  array_view<T, 1> yv(n, y);
  yv.discard_data();
  parallel_for_each(xv.extent.template tile<TS>(), [=](tiled_index<TS> t) restrict(amp) {
    tile_static T buf[2][TS];
    const int l = t.local[0];
    int cur = 0;
    buf[0][l] = xv[t.global];
    t.barrier.wait();
    for (int d = 1; d < TS; d *= 2) {
      buf[1 - cur][l] = l >= d ? buf[cur][l - d] + buf[cur][l] : buf[cur][l];
      cur = 1 - cur;
      t.barrier.wait();
    }
    yv[t.global] = buf[cur][l];
  });
  yv.synchronize();
  std::vector<T> want(n);
  for (int tile = 0; tile < n / TS; ++tile) {
    T cur[TS], next[TS];
    for (int l = 0; l < TS; ++l) cur[l] = x[std::size_t(tile) * TS + l];
    for (int d = 1; d < TS; d *= 2) {
      for (int l = 0; l < TS; ++l) next[l] = l >= d ? cur[l - d] + cur[l] : cur[l];
      std::memcpy(cur, next, sizeof cur);
    }
    for (int l = 0; l < TS; ++l) want[std::size_t(tile) * TS + l] = cur[l];
  }
  report(name, y, want);
}

// a*b+c written out, a/b and sqrt: IEEE-rounded operations on both sides
// (CUDA's default division and square root are correctly rounded).
template <class T> void expressions(const char* name) {
  const int n = 4096;
  const std::vector<T> a = data<T>(n, 9), b = data<T>(n, 10), c = data<T>(n, 11);
  std::vector<T> out(std::size_t(n) * 4);
  array_view<const T, 1> av(n, a), bv(n, b), cv(n, c);
  array_view<T, 1> ov(n * 4, out);
  ov.discard_data();
  parallel_for_each(av.extent, [=](index<1> idx) restrict(amp) {
    const int i = idx[0];
    ov[4 * i] = av[i] * bv[i] + cv[i];
    ov[4 * i + 1] = av[i] * bv[i] - cv[i] * av[i];
    ov[4 * i + 2] = av[i] / (bv[i] + static_cast<T>(2));
    ov[4 * i + 3] = concurrency::precise_math::sqrt(av[i] * av[i] + bv[i]);
  });
  ov.synchronize();
  std::vector<T> want(out.size());
  for (int i = 0; i < n; ++i) {
    want[4 * i] = a[i] * b[i] + c[i];
    want[4 * i + 1] = a[i] * b[i] - c[i] * a[i];
    want[4 * i + 2] = a[i] / (b[i] + static_cast<T>(2));
    want[4 * i + 3] = std::sqrt(a[i] * a[i] + b[i]);
  }
  report(name, out, want);
}

// Denormals are kept on every accelerator (no flush to zero of inputs or
// results): the expected bit patterns are exact IEEE results, written here
// as integers, so a flushing CPU thread would fail as well as a GPU.
void denormals() {
  const float tiny = std::ldexp(1.0f, -149); // the smallest float denormal, bits 0x00000001
  const double dtiny = std::ldexp(1.0, -1074);
  std::vector<float> f = {tiny, std::ldexp(1.0f, -126), 3 * tiny};
  std::vector<double> d = {dtiny, std::ldexp(1.0, -1022), 3 * dtiny};
  std::vector<float> fo(4);
  std::vector<double> dout(4);
  array_view<const float, 1> fv(3, f);
  array_view<const double, 1> dv(3, d);
  array_view<float, 1> fov(4, fo);
  array_view<double, 1> dov(4, dout);
  fov.discard_data();
  dov.discard_data();
  parallel_for_each(extent<1>(1), [=](index<1>) restrict(amp) {
    fov[0] = fv[0] * 2.0f;   // denormal input, denormal result: 0x00000002
    fov[1] = fv[1] * 0.5f;   // normal input, denormal result: 0x00400000
    fov[2] = fv[2] - fv[0];  // 3*tiny - tiny: 0x00000002
    fov[3] = fv[0] * 4096.0f; // back to bits 0x00001000
    dov[0] = dv[0] * 2.0;
    dov[1] = dv[1] * 0.5;
    dov[2] = dv[2] - dv[0];
    dov[3] = dv[0] * 4096.0;
  });
  fov.synchronize();
  dov.synchronize();
  const std::uint32_t fwant[4] = {0x00000002u, 0x00400000u, 0x00000002u, 0x00001000u};
  const std::uint64_t dwant[4] = {2ull, 0x0008000000000000ull, 2ull, 0x1000ull};
  std::vector<float> fw(4);
  std::vector<double> dw(4);
  std::memcpy(fw.data(), fwant, sizeof fwant);
  std::memcpy(dw.data(), dwant, sizeof dwant);
  report("denormals float", fo, fw);
  report("denormals double", dout, dw);
}

} // namespace

int main() {
  accumulation<float>("accumulation float");
  accumulation<double>("accumulation double");
  matmul_simple<float>("matmul simple float");
  matmul_simple<double>("matmul simple double");
  matmul_tiled<float>("matmul tiled float");
  matmul_tiled<double>("matmul tiled double");
  tree_reduction<float>("tree reduction float");
  tree_reduction<double>("tree reduction double");
  tile_scan<float>("tile scan float");
  tile_scan<double>("tile scan double");
  expressions<float>("expressions float");
  expressions<double>("expressions double");
  denormals();
  std::printf("%s\n", failures == 0 ? "all identical" : "DIFFERENCES FOUND");
  return failures == 0 ? 0 : 1;
}
