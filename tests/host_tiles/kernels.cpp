// Tiled kernels for the compiled host tile path (tools/tile_compiler), run by
// tests/host_tiles/check.py:
//  * each kernel's `// expect:` comment, on the line where its lambda starts,
//    says which path the tile compiler must choose: `compiled`, or `fibers:`
//    and a part of the reason it must give; the run-time report
//    (AMP_HOST_TILES_REPORT=1) must agree;
//  * the program prints a digest of every kernel's output; the output with
//    AMP_HOST_TILES=compiled and with AMP_HOST_TILES=fibers must be identical.
// The kernels that must fall back are correct AMP (no divergent barrier):
// the compiler only cannot prove them safe. returns() ends with a divergent
// return on purpose: both paths must raise the same error. Kernels written in
// a project header (header_kernels.h, reached through an -I folder written
// with `..`) are rewritten too.
#include <amp.h>

#include <header_kernels.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

using namespace concurrency;

namespace {

template <class T> void digest(const char* name, const std::vector<T>& v) {
  std::uint64_t h = 1469598103934665603ull; // FNV-1a over the bytes
  const auto* p = reinterpret_cast<const unsigned char*>(v.data());
  for (std::size_t i = 0; i < v.size() * sizeof(T); ++i) h = (h ^ p[i]) * 1099511628211ull;
  std::printf("%-24s %016llx first %g last %g\n", name, static_cast<unsigned long long>(h), double(v.front()),
              double(v.back()));
}

std::vector<int> ints(int n, int mul) {
  std::vector<int> v(n);
  for (int i = 0; i < n; ++i) v[i] = (i * mul + 7) % 1009 - 500;
  return v;
}

// Neighbour reads after each of B barriers (bench/b_tiles.cpp's shape).
void neighbours() {
  const int n = 4096, B = 5;
  std::vector<int> got(n);
  array_view<int, 1> out(n, got);
  out.discard_data();
  parallel_for_each(out.extent.tile<256>(), [=](tiled_index<256> t) restrict(amp) { // expect: compiled
    tile_static int s[256];
    const int l = t.local[0], g = t.global[0];
    int x = g;
    s[l] = g;
    for (int b = 0; b < B; ++b) {
      t.barrier.wait();
      x += s[(l + b + 1) & 255];
    }
    out[g] = x;
  });
  out.synchronize();
  digest("neighbours", got);
}

// Tree reduction in a tile: a barrier in a loop whose variable halves.
void reduce() {
  const int n = 8192;
  std::vector<int> in = ints(n, 31), part(n / 128);
  array_view<const int, 1> a(n, in);
  array_view<int, 1> p(n / 128, part);
  p.discard_data();
  parallel_for_each(a.extent.tile<128>(), [=](tiled_index<128> t) restrict(amp) { // expect: compiled
    tile_static int s[128];
    const int l = t.local[0];
    s[l] = a[t.global];
    t.barrier.wait();
    for (int st = 128 / 2; st > 0; st >>= 1) {
      if (l < st) s[l] += s[l + st];
      t.barrier.wait_with_tile_static_memory_fence();
    }
    if (l == 0) p[t.tile[0]] = s[0];
  });
  p.synchronize();
  digest("reduce", part);
}

// bench/b_reduce.cpp's shape: strided sums (GCC vectorises that region across
// work-items once it is marked ivdep), a tile_static tree; then a region
// whose work-items do see each other: work-item l writes the slot l + d
// (d = 1, a value the optimiser cannot see, so that only a run-time alias
// check or the absence of `#pragma GCC ivdep` keeps GCC from vectorising) that
// work-item l + 1 reads. That is a race AMP leaves undefined; fibers run it in
// work-item order (a chain: each reads what the one before it wrote), and the
// compiled path, which must leave that loop unmarked (in SIMD lanes the reads
// see the old values: checked by hand, marking it changes this digest at -O3),
// has to give the same bytes.
void strided_sums() {
  constexpr int T = 64, K = 8, G = 16;
  std::vector<int> in = ints(T * K * G, 17), part(G), shifted(T * G);
  volatile int one = 1;
  const int d = one;
  array_view<const int, 1> a(T * K * G, in);
  array_view<int, 1> p(G, part), sh(T * G, shifted);
  p.discard_data();
  sh.discard_data();
  parallel_for_each(extent<1>(G * T).tile<T>(), [=](tiled_index<T> t) restrict(amp) { // expect: compiled
    tile_static int s[T + 1];
    const int l = t.local[0], g = t.global[0];
    int sum = 0;
    for (int k = 0; k < K; ++k) sum += a[g + k * G * T];
    s[l] = sum;
    t.barrier.wait();
    s[l + d] = (s[l] & 1023) + l;
    t.barrier.wait();
    sh[g] = s[l];
    t.barrier.wait();
    for (int st = T / 2; st > 0; st >>= 1) {
      if (l < st) s[l] += s[l + st];
      t.barrier.wait();
    }
    if (l == 0) p[t.tile[0]] = s[0];
  });
  p.synchronize();
  sh.synchronize();
  digest("strided-sums", part);
  digest("strided-sums-shifted", shifted);
}

// 2-D transpose through a tile_static block; a float kept across the barrier.
void transpose() {
  const int R = 64, C = 96;
  std::vector<float> in(R * C), out(R * C);
  for (int i = 0; i < R * C; ++i) in[i] = static_cast<float>(i % 97) * 0.5f;
  array_view<const float, 2> a(R, C, in);
  array_view<float, 2> b(C, R, out);
  b.discard_data();
  parallel_for_each(a.extent.tile<16, 16>(), [=](tiled_index<16, 16> t) restrict(amp) { // expect: compiled
    tile_static float blk[16][16];
    float v = a[t.global] * 2.0f;
    blk[t.local[0]][t.local[1]] = v;
    t.barrier.wait_with_all_memory_fence();
    const index<2> o(t.tile_origin[1] + t.local[0], t.tile_origin[0] + t.local[1]);
    b[o] = blk[t.local[1]][t.local[0]] + v * 0.0f;
  });
  b.synchronize();
  digest("transpose", out);
}

// Binomial-pricing shape: 256-item tiles, two tile_static arrays, barriers in
// a time-step loop nested in a loop, a uniform `if` and a `while` around
// barriers, a tile-uniform local, an index<1> kept across barriers.
void pricing() {
  const int tiles = 8, steps = 12, rounds = 3;
  std::vector<float> got(tiles * 256);
  array_view<float, 1> out(tiles * 256, got);
  out.discard_data();
  extent<1> e(tiles * 256);
  parallel_for_each(e.tile<256>(), [=](tiled_index<256> t) restrict(amp) { // expect: compiled
    tile_static float va[257];
    tile_static float vb[257];
    const int i = t.local[0];
    const int base = t.tile[0] * 3 + 1;
    const index<1> me = t.global;
    float acc = 0.0f;
    va[i] = static_cast<float>((i * base) % 17);
    if (i == 0) va[256] = 0.0f;
    t.barrier.wait();
    for (int r = 0; r < rounds; ++r) {
      for (int s = steps; s > 0; --s) {
        vb[i] = 0.5f * (va[i] + va[i + 1]) + 0.01f * static_cast<float>(r);
        t.barrier.wait();
        va[i] = vb[i];
        t.barrier.wait_with_tile_static_memory_fence();
      }
      if (r % 2 == 0) {
        acc += va[(i + r) & 255];
        t.barrier.wait();
      } else {
        acc -= 0.25f * va[i];
      }
    }
    int k = base;
    while (k < 3 * tiles) {
      acc += vb[(i + k) & 255];
      k += 7;
      t.barrier.wait_with_global_memory_fence();
    }
    out[me] = acc;
  });
  out.synchronize();
  digest("pricing", got);
}

// Microsoft's BinomialOptions shape: the coefficients read from views at the
// tile's index inside the step loop's regions, which write only tile_static
// memory (read once per tile, hoist.cpp); the last region writes the result.
void coefficients() {
  const int tiles = 6, steps = 40;
  std::vector<float> up(tiles), down(tiles), got(tiles * 128);
  for (int k = 0; k < tiles; ++k) up[k] = 0.25f + 0.0625f * k, down[k] = 0.7f - 0.05f * k;
  array_view<const float, 1> pu(tiles, up), pd(tiles, down);
  array_view<float, 1> out(tiles * 128, got);
  out.discard_data();
  parallel_for_each(out.extent.tile<128>(), [=](tiled_index<128> t) restrict(amp) { // expect: compiled hoisted=2
    tile_static float a[129];
    tile_static float b[129];
    const int i = t.local[0];
    a[i] = static_cast<float>((i * 7 + t.tile[0]) % 23);
    if (i == 0) a[128] = 1.0f;
    for (int s = 0; s < steps; ++s) {
      t.barrier.wait();
      b[i] = pu[t.tile] * a[i + 1] + pd[t.tile] * a[i];
      if (i == 0) b[128] = a[128];
      t.barrier.wait();
      a[i] = b[i];
    }
    t.barrier.wait();
    out[t.global] = a[i] * pu[t.tile];
  });
  out.synchronize();
  digest("coefficients", got);
  // The binomial_macro shape: the coefficients read once into const locals
  // before the step loop, one value of the tile each (kept=0).
  parallel_for_each(out.extent.tile<128>(), [=](tiled_index<128> t) restrict(amp) { // expect: compiled kept=0
    tile_static float a[129];
    tile_static float b[129];
    const int i = t.local[0];
    const float u = pu[t.tile], d = pd[t.tile];
    a[i] = static_cast<float>((i * 5 + t.tile[0]) % 19);
    if (i == 0) a[128] = 2.0f;
    for (int s = 0; s < steps; ++s) {
      t.barrier.wait();
      b[i] = u * a[i + 1] + d * a[i];
      if (i == 0) b[128] = a[128];
      t.barrier.wait();
      a[i] = b[i];
    }
    out[t.global] = a[i] * u + d;
  });
  out.synchronize();
  digest("coefficients in locals", got);
}

// Atomics on tile_static between barriers.
void atomics() {
  const int n = 2048;
  std::vector<int> got(n / 64), in = ints(n, 13);
  array_view<const int, 1> a(n, in);
  array_view<int, 1> out(n / 64, got);
  out.discard_data();
  parallel_for_each(a.extent.tile<64>(), [=](tiled_index<64> t) restrict(amp) { // expect: compiled
    tile_static int count;
    if (t.local[0] == 0) count = 0;
    t.barrier.wait();
    if (a[t.global] > 0) atomic_fetch_add(&count, 1);
    t.barrier.wait();
    if (t.local[0] == 0) out[t.tile[0]] = count;
  });
  out.synchronize();
  digest("atomics", got);
}

// ---- kernels the compiler must leave on fibers

int waits(const tiled_index<64>& t, int x) restrict(amp) {
  t.barrier.wait();
  return x + 1;
}

// A launcher whose kernel hands its tiled_index to the function object it
// is given (habits.cpp `forwarding_launcher`): given one that keeps fibers,
// it keeps fibers too.
template <typename F> void forward_each(const array_view<const int, 1>& a, const F& function) {
  parallel_for_each(a.extent.tile<64>(), [=](tiled_index<64> t) restrict(amp) { // expect: fibers: a function object that keeps fibers
    function(t);
  });
}

void fallbacks() {
  const int n = 1024;
  std::vector<int> in = ints(n, 17), got(n);
  array_view<const int, 1> a(n, in);
  array_view<int, 1> out(n, got);
  std::vector<int> flag(1, 3);
  array_view<const int, 1> f(1, flag);
  const int three = 3;

  out.discard_data();
  parallel_for_each(a.extent.tile<64>(), [=](tiled_index<64> t) restrict(amp) { // expect: fibers: not provably uniform
    tile_static int s[64];
    s[t.local[0]] = a[t.global];
    if (f[0] > 0) {
      t.barrier.wait();
    }
    out[t.global] = s[63 - t.local[0]];
  });
  out.synchronize();
  digest("fallback-memory-cond", got);

  out.discard_data();
  forward_each(a, [=](tiled_index<64> t) restrict(amp) { // expect: unwrapped
    tile_static int s[64];
    s[t.local[0]] = a[t.global];
    if (f[0] > 0) {
      t.barrier.wait();
    }
    out[t.global] = s[63 - t.local[0]] + 1;
  });
  out.synchronize();
  digest("fallback-forwarded", got);

  out.discard_data();
  parallel_for_each(a.extent.tile<64>(), [=](tiled_index<64> t) restrict(amp) { // expect: compiled
    tile_static int s[64];
    s[t.local[0]] = a[t.global];
    t.barrier.wait();
    if (three < 0) return;
    out[t.global] = s[(t.local[0] + 1) % 64];
  });
  out.synchronize();
  digest("fallback-return", got);

  out.discard_data();
  parallel_for_each(a.extent.tile<64>(), [=](tiled_index<64> t) restrict(amp) { // expect: compiled
    out[t.global] = waits(t, a[t.global]);
  });
  out.synchronize();
  digest("fallback-call", got);

  out.discard_data();
  parallel_for_each(a.extent.tile<64>(), [=](tiled_index<64> t) restrict(amp) { // expect: compiled
    out[t.global] = 1 + waits(t, a[t.global]);
  });
  out.synchronize();
  digest("call-expr", got);

  // Beside an operand that reads a view: GCC may read it before or after
  // the call (and its barrier). The call is moved ahead of the read only
  // when no work-item of the kernel writes through that view (then every
  // order reads the same value) and the call writes no memory but
  // tile_static memory and locals.
  out.discard_data();
  parallel_for_each(a.extent.tile<64>(), [=](tiled_index<64> t) restrict(amp) { // expect: compiled
    out[t.global] = a[t.global] + waits(t, a[t.global]);
  });
  out.synchronize();
  digest("call-expr-read", got);

  out.discard_data();
  parallel_for_each(a.extent.tile<64>(), [=](tiled_index<64> t) restrict(amp) { // expect: fibers: other operands read memory
    out[t.global] = 5;
    const int v = out[(t.global[0] + 1) % n] + waits(t, a[t.global]);
    out[t.global] = v;
  });
  out.synchronize();
  digest("fallback-call-expr", got);

  out.discard_data();
  parallel_for_each(a.extent.tile<64>(), [=](tiled_index<64> t) restrict(amp) { // expect: compiled
    tile_static int s[64];
    int x = a[t.global];
    for (int k = 0; k < 8; ++k) {
      s[t.local[0]] = x;
      t.barrier.wait();
      x += s[(t.local[0] + k) % 64];
      if (k == three) break;
      t.barrier.wait();
    }
    out[t.global] = x;
  });
  out.synchronize();
  digest("uniform-break", got);

  out.discard_data();
  parallel_for_each(a.extent.tile<64>(), [=](tiled_index<64> t) restrict(amp) { // expect: fibers: not provably uniform
    tile_static int s[64];
    int x = a[t.global], k = 0;
    do {
      s[t.local[0]] = x;
      t.barrier.wait();
      x += s[(t.local[0] + 5) % 64] % 7;
      t.barrier.wait();
    } while (++k < 3);
    out[t.global] = x;
  });
  out.synchronize();
  digest("fallback-do", got);

  // A `switch` on a uniform value with barriers in its cases, fallthrough
  // and `break`, in a loop: compiled.
  out.discard_data();
  parallel_for_each(a.extent.tile<64>(), [=](tiled_index<64> t) restrict(amp) { // expect: compiled
    tile_static int s[64];
    int x = a[t.global];
    for (int k = 0; k < 5; ++k) {
      switch (k % 4) {
      case 0:
        s[t.local[0]] = x;
        t.barrier.wait();
        x += s[(t.local[0] + 3) % 64];
        break;
      case 1:
        x *= 2;
      case 2:
        t.barrier.wait();
        x -= t.local[0];
        break;
      default:
        x += three;
      }
    }
    out[t.global] = x;
  });
  out.synchronize();
  digest("uniform-switch", got);

  // A `do` loop with a uniform condition and a uniform `break`: compiled.
  out.discard_data();
  parallel_for_each(a.extent.tile<64>(), [=](tiled_index<64> t) restrict(amp) { // expect: compiled
    tile_static int s[64];
    int x = a[t.global];
    int k = 0;
    do {
      s[t.local[0]] = x;
      t.barrier.wait();
      x += s[(t.local[0] + 5) % 64] % 7;
      if (k == three) break;
      t.barrier.wait();
      k++;
    } while (k < 5);
    out[t.global] = x + k;
  });
  out.synchronize();
  digest("uniform-do", got);

  out.discard_data();
  parallel_for_each(a.extent.tile<64>(), [=](tiled_index<64> t) restrict(amp) { // expect: fibers: loop variable
    tile_static int s[64];
    int x = a[t.global];
    for (int k = t.local[0] / 64; k < 3; ++k) {
      s[t.local[0]] = x;
      t.barrier.wait();
      x -= s[(t.local[0] + 9) % 64] / 3;
      t.barrier.wait();
    }
    out[t.global] = x;
  });
  out.synchronize();
  digest("fallback-loopvar", got);

  out.discard_data();
  parallel_for_each(a.extent.tile<64>(), [=](tiled_index<64> t) restrict(amp) { // expect: compiled
    tile_static int s[64];
    int two[2] = {a[t.global], 1};
    s[t.local[0]] = two[0];
    t.barrier.wait();
    out[t.global] = two[1] + s[(t.local[0] + 2) % 64];
  });
  out.synchronize();
  digest("fallback-array", got);

  out.discard_data();
  parallel_for_each(a.extent.tile<64>(), [=](tiled_index<64> t) mutable restrict(amp) { // expect: fibers: `mutable`
    tile_static int s[64];
    s[t.local[0]] = a[t.global];
    t.barrier.wait();
    out[t.global] = s[(t.local[0] + 3) % 64];
  });
  out.synchronize();
  digest("fallback-mutable", got);
}

// Kernels in templates: analysed in each instantiation, compiled when every
// instantiation gives the same code.
template <int TS> void templated(std::vector<int>& got) {
  const int n = 1024;
  std::vector<int> in = ints(n, 5);
  array_view<const int, 1> a(n, in);
  array_view<int, 1> out(n, got);
  out.discard_data();
  parallel_for_each(a.extent.tile<TS>(), [=](tiled_index<TS> t) restrict(amp) { // expect: compiled
    tile_static int s[TS];
    const int x = a[t.global];
    s[t.local[0]] = x;
    t.barrier.wait();
    out[t.global] = s[TS - 1 - t.local[0]] - x;
  });
  out.synchronize();
}

// A value of the template's type kept across a barrier (int in one
// instantiation, float in the other): its array is declared as written, T.
template <class T> void typed(std::vector<T>& got) {
  const int n = 512;
  std::vector<T> in(n);
  for (int i = 0; i < n; ++i) in[i] = static_cast<T>(i % 13) / static_cast<T>(2);
  array_view<const T, 1> a(n, in);
  array_view<T, 1> out(n, got);
  out.discard_data();
  parallel_for_each(a.extent.template tile<32>(), [=](tiled_index<32> t) restrict(amp) { // expect: compiled
    tile_static T s[32];
    const T x = a[t.global];
    s[t.local[0]] = x;
    t.barrier.wait();
    out[t.global] = s[31 - t.local[0]] + x;
  });
  out.synchronize();
}

// `return` in compiled kernels: per work-item after the last barrier, a whole
// tile before the barriers, a guard on the local index, inside a loop of a
// region; and a divergent return (an error on both paths, the same message).
void returns() {
  const int n = 1024;
  std::vector<int> in = ints(n, 11), got(n);
  array_view<const int, 1> a(n, in);
  array_view<int, 1> out(n, got);
  const int limit = 1000, skip_tile = 3;
  out.discard_data();
  parallel_for_each(a.extent.tile<64>(), [=](tiled_index<64> t) restrict(amp) { // expect: compiled
    if (t.tile[0] == skip_tile) return; // the whole tile: no barrier is reached
    tile_static int s[64];
    const int l = t.local[0];
    s[l] = a[t.global];
    t.barrier.wait();
    int x = s[63 - l];
    for (int k = 0; k < 64; ++k) {
      if (s[k] > 400) {
        out[t.global] = -k;
        return; // out of a loop, after the last barrier
      }
      x += s[k] & 1;
    }
    if (t.global[0] >= limit) return;
    out[t.global] = x;
  });
  out.synchronize();
  digest("return-late", got);

  out.discard_data();
  parallel_for_each(a.extent.tile<128>(), [=](tiled_index<128> t) restrict(amp) { // expect: compiled
    tile_static int s[128];
    const int i = t.local[0];
    s[i] = a[t.global];
    for (int w = 64; w > 0; w /= 2) {
      t.barrier.wait();
      if (i < w) s[i] += s[i + w];
    }
    if (i != 0) return;
    out[t.tile[0]] = s[0];
  });
  out.synchronize();
  digest("return-guard", got);

  out.discard_data();
  parallel_for_each(a.extent.tile<64>(), [=](tiled_index<64> t) restrict(amp) { // expect: compiled
    tile_static int s[64];
    int x = 0;
    for (int k = 0; k < 6; ++k) {
      s[t.local[0]] = a[t.global] + k;
      t.barrier.wait();
      if (k % 2 == 1) {
        continue;
      }
      x += s[(t.local[0] + k) % 64];
      t.barrier.wait();
    }
    out[t.global] = x;
  });
  out.synchronize();
  digest("uniform-continue", got);

  for (int item : {0, 5}) {
    out.discard_data();
    try {
      parallel_for_each(a.extent.tile<16>(), [=](tiled_index<16> t) restrict(amp) { // expect: compiled
        if (t.tile[0] == 9 && t.local[0] == item) return;
        out[t.global] = 1;
        t.barrier.wait();
        out[t.global] = 2;
      });
      std::printf("divergent return of item %d: no error\n", item);
    } catch (const runtime_exception& e) {
      std::printf("divergent return of item %d: %s\n", item, e.what());
    }
  }
}

} // namespace
template <int TS> void header_functor<TS>::operator()(tiled_index<TS> t) const restrict(amp) { // expect: compiled
  tile_static int s[TS];
  s[t.local[0]] = out[t.global];
  t.barrier.wait();
  out[t.global] = s[(t.local[0] + shift) % TS] * 3 + t.local[0];
}
namespace {

void headers() {
  const int n = 1024;
  std::vector<int> in = ints(n, 5), got(n);
  array_view<const int, 1> a(n, in);
  array_view<int, 1> out(n, got);
  out.discard_data();
  header_tile_sums<128>(a, out);
  out.synchronize();
  digest("header-sums", got);
  out.discard_data();
  header_memory_cond(a, out);
  out.synchronize();
  digest("header-fallback", got);
  out.discard_data();
  header_calls_waiting<64>(a, out);
  out.synchronize();
  digest("header-calls-waiting", got);
  parallel_for_each(out.extent.tile<64>(), header_functor<64>{out, 5});
  out.synchronize();
  digest("header-functor", got);
}

// ---- barriers in called functions (inlined by the tile compiler's first
// pass, then split as any kernel; see tools/tile_compiler/README.md).
void rotate_by_value(tiled_index<64> t, array_view<int, 1> out, array_view<const int, 1> in, int k) restrict(amp) {
  tile_static int s[64];
  s[t.local[0]] = in[t.global] * k;
  t.barrier.wait();
  out[t.global] = s[(t.local[0] + k) % 64];
}
void rotate_by_cref(const tiled_index<64>& t, const array_view<int, 1>& out, const array_view<const int, 1>& in)
    restrict(amp) {
  const int l = t.local[0];
  tile_static int s[64];
  s[l] = in[t.global];
  t.barrier.wait();
  out[t.global] += s[(l + 5) % 64];
  return;
}
template <typename T, int N>
void reverse_tile(tiled_index<N> t, const array_view<T, 1>& out) restrict(amp) {
  tile_static T s[N];
  s[t.local[0]] = out[t.global];
  t.barrier.wait();
  out[t.global] = s[N - 1 - t.local[0]] + T(1);
}
// A uniform loop around barriers, called from another waiting function.
void shift_rounds(tiled_index<64> t, array_view<int, 1> out, int rounds) restrict(amp) {
  tile_static int s[64];
  for (int r = 0; r < rounds; ++r) {
    s[t.local[0]] = out[t.global];
    t.barrier.wait();
    out[t.global] = s[(t.local[0] + r + 1) % 64] - r;
    t.barrier.wait();
  }
}
void outer_step(tiled_index<64> idx, array_view<int, 1> out, int rounds, int scale = 3) restrict(amp) {
  out[idx.global] *= scale;
  shift_rounds(idx, out, rounds);
  idx.barrier.wait();
  out[idx.global] += idx.local[0];
}
// tile_static storage persists from one call to the next (a loop around the call).
void accumulate(tiled_index<64> t, array_view<int, 1> out, int round) restrict(amp) {
  tile_static int acc[64];
  if (round == 0) acc[t.local[0]] = 0;
  acc[t.local[0]] += out[t.global];
  t.barrier.wait();
  out[t.global] = acc[63 - t.local[0]];
  t.barrier.wait();
}
void early_exit(tiled_index<64> t, array_view<int, 1> out) restrict(amp) {
  if (out[t.global] == 123456) return; // never taken
  t.barrier.wait();
  out[t.global] += 1;
}
// A function of the kernel's own namespace with the name the callee uses
// for its own: the inlined text must still call the callee's (its names
// are written qualified there).
int bump(int v) restrict(amp) { return v - 100; }
namespace elsewhere {
int bump(int v) restrict(amp) { return v + 2; }
void waits_there(tiled_index<64> t, array_view<int, 1> out) restrict(amp) {
  tile_static int s[64];
  s[t.local[0]] = out[t.global];
  t.barrier.wait();
  out[t.global] = bump(s[63 - t.local[0]]);
}
} // namespace elsewhere
// The work-item's element passed by reference (conformance MatrixMult2's shape).
void sum_into(tiled_index<64> t, int& c, const array_view<const int, 1>& in) restrict(amp) {
  tile_static int s[64];
  int acc = 0;
  for (int r = 0; r < 3; ++r) {
    s[t.local[0]] = in[t.global] + r;
    t.barrier.wait();
    acc += s[(t.local[0] + 7 * r) % 64];
    t.barrier.wait();
  }
  c = acc;
}
// Unbraced uniform branches and loops around a barrier (the conformance
// suite's ControlFlow shape), with a uniform `break`.
void unbraced(tiled_index<64> t, array_view<int, 1> out, int x) restrict(amp) {
  tile_static int s[64];
  if (x > 1) if (x > 2)
    for (; x > 3;) {
      s[t.local[0]] = out[t.global];
      t.barrier.wait();
      out[t.global] = s[63 - t.local[0]] * 2;
      break;
    }
}
template <typename T> void neighbour_sum(tiled_index<64> t, const array_view<T, 1>& out) restrict(amp) {
  tile_static T s[64];
  s[t.local[0]] = out[t.global];
  t.barrier.wait();
  out[t.global] += s[(t.local[0] + 1) % 64];
}
// A template callee calling another with deduced arguments (in a kernel template).
template <typename T> void twice_neighbour(tiled_index<64> t, const array_view<T, 1>& out) restrict(amp) {
  neighbour_sum(t, out);
  t.barrier.wait();
  out[t.global] *= T(2);
}
template <typename T> void called_in_template(std::vector<T>& got) {
  array_view<T, 1> out(static_cast<int>(got.size()), got);
  parallel_for_each(out.extent.template tile<64>(), [=](tiled_index<64> t) restrict(amp) { // expect: compiled
    out[t.global] = static_cast<T>(t.global[0] % 17);
    reverse_tile<T, 64>(t, out);
  });
  parallel_for_each(out.extent.template tile<64>(), [=](tiled_index<64> t) restrict(amp) { // expect: compiled
    twice_neighbour<T>(t, out);
  });
  // `case 0: break;` in a template: the `break` is the same node in the
  // template and its instantiations (the analysis walks its own tree).
  const int sel = got.size() > 100 ? 1 : 0;
  parallel_for_each(out.extent.template tile<64>(), [=](tiled_index<64> t) restrict(amp) { // expect: compiled
    switch (sel) { case 0: break; case 1:
      switch (sel + 1) { case 0: break; case 2:
        twice_neighbour<T>(t, out);
      }
    }
  });
  out.synchronize();
}

void called() {
  const int n = 1024;
  std::vector<int> in = ints(n, 11), got(n);
  array_view<const int, 1> a(n, in);
  array_view<int, 1> out(n, got);
  const int k = 3, rounds = 4;

  out.discard_data();
  parallel_for_each(out.extent.tile<64>(), [=](tiled_index<64> t) restrict(amp) { // expect: compiled
    rotate_by_value(t, out, a, k);
  });
  out.synchronize();
  digest("call-by-value", got);

  parallel_for_each(out.extent.tile<64>(), [=](tiled_index<64> t) restrict(amp) { // expect: compiled
    rotate_by_cref(t, out, a);
    if (k > 2) {
      rotate_by_value(t, out, a, k + 1);
    }
  });
  out.synchronize();
  digest("call-by-cref", got);

  parallel_for_each(out.extent.tile<64>(), [=](tiled_index<64> t) restrict(amp) { // expect: compiled
    reverse_tile<int, 64>(t, out);
  });
  out.synchronize();
  digest("call-template", got);

  parallel_for_each(out.extent.tile<64>(), [=](tiled_index<64> t) restrict(amp) { // expect: compiled
    reverse_tile(t, out);
  });
  out.synchronize();
  digest("call-template-deduced", got);

  parallel_for_each(out.extent.tile<64>(), [=](tiled_index<64> t) restrict(amp) { // expect: compiled
    outer_step(t, out, rounds);
  });
  out.synchronize();
  digest("call-nested", got);

  parallel_for_each(out.extent.tile<64>(), [=](tiled_index<64> t) restrict(amp) { // expect: compiled
    for (int r = 0; r < rounds; ++r) {
      accumulate(t, out, r);
    }
  });
  out.synchronize();
  digest("call-in-loop", got);

  parallel_for_each(out.extent.tile<64>(), [=](tiled_index<64> t) restrict(amp) { // expect: fibers: around a barrier is not provably uniform
    early_exit(t, out);
  });
  out.synchronize();
  digest("call-early-return", got);

  parallel_for_each(out.extent.tile<64>(), [=](tiled_index<64> t) restrict(amp) { // expect: compiled
    elsewhere::waits_there(t, out);
  });
  out.synchronize();
  digest("call-other-namespace", got);

  parallel_for_each(out.extent.tile<64>(), [=](tiled_index<64> t) restrict(amp) { // expect: compiled
    sum_into(t, out[t], a);
  });
  out.synchronize();
  digest("call-element-ref", got);

  parallel_for_each(out.extent.tile<64>(), [=](tiled_index<64> t) restrict(amp) { // expect: compiled
    unbraced(t, out, k + 2);
  });
  out.synchronize();
  digest("call-unbraced", got);

  std::vector<float> gf(512);
  called_in_template(gf);
  digest("call-in-template-float", gf);
  std::vector<int> gi(512);
  called_in_template(gi);
  digest("call-in-template-int", gi);
}

} // namespace

int main() {
  headers();
  returns();
  neighbours();
  reduce();
  strided_sums();
  transpose();
  pricing();
  coefficients();
  atomics();
  fallbacks();
  called();
  std::vector<int> got(1024);
  templated<32>(got);
  digest("template-32", got);
  templated<128>(got);
  digest("template-128", got);
  std::vector<int> ti(512);
  std::vector<float> tf(512);
  typed(ti);
  typed(tf);
  digest("typed-int", ti);
  digest("typed-float", tf);
  return 0;
}
