// Serial instruction counts of host tiles: compiled (tools/tile_compiler),
// fibers, and a hand-written loop, for the barrier kernels of bench/
// (tile-barriers-B, reduce, transpose-32x32, transpose-32x8, tile-pricing). Run by bench/serial_tiles.sh
// under callgrind: each process measures one (kernel, version) pair, and
// only the second launch is counted (CALLGRIND_TOGGLE_COLLECT around it, the
// first one warms up). Timing on a loaded 2-core machine is noise;
// instruction counts repeat exactly.
//
//   serial_tiles KERNEL VERSION     KERNEL: barriers0 barriers16 reduce transpose transpose8 pricing
//                                   VERSION: compiled fibers loop
// Prints a checksum of the result (the three versions must agree).
#include <amp.h>
#include <valgrind/callgrind.h>

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

using namespace concurrency;
namespace ht = Concurrency::detail::host_tiles;

namespace {

constexpr int N_ITEMS = 1 << 16; // barriers: 256 tiles of 256
constexpr int RT = 256, RK = 16; // reduce: tiles of 256, 16 loads per work-item
constexpr int TN = 512;          // transpose: 512x512 floats, 32x32 tiles

template <class F> void measured(F&& f) {
  f(); // warm-up: fibers created, pages touched
  CALLGRIND_TOGGLE_COLLECT;
  f();
  CALLGRIND_TOGGLE_COLLECT;
}

long long barriers(int B, bool loop) {
  std::vector<int> got(N_ITEMS);
  if (loop) {
    // What the compiled path should reach: the region loops by hand.
    measured([&] {
      static int s[256];
      static int x[256];
      for (int tile = 0; tile < N_ITEMS / 256; ++tile) {
        for (int l = 0; l < 256; ++l) x[l] = s[l] = tile * 256 + l;
        for (int b = 0; b < B; ++b)
          for (int l = 0; l < 256; ++l) x[l] += s[(l + b + 1) & 255];
        for (int l = 0; l < 256; ++l) got[tile * 256 + l] = x[l];
      }
    });
  } else {
    array_view<int, 1> out(N_ITEMS, got);
    measured([&] {
      parallel_for_each(out.extent.tile<256>(), [=](tiled_index<256> t) restrict(amp) {
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
    });
  }
  long long sum = 0;
  for (int v : got) sum = sum * 31 + v;
  return sum;
}

long long reduce(bool loop) {
  const int G = 64, n = G * RT * RK;
  std::vector<int> in(n), part(G);
  for (int i = 0; i < n; ++i) in[i] = (i * 7) % 1001 - 500;
  if (loop) {
    measured([&] {
      static int s[RT];
      for (int tile = 0; tile < G; ++tile) {
        for (int l = 0; l < RT; ++l) {
          const int g = tile * RT + l;
          int sum = 0;
          for (int k = 0; k < RK; ++k) sum += in[g + k * G * RT];
          s[l] = sum;
        }
        for (int st = RT / 2; st > 0; st >>= 1)
          for (int l = 0; l < RT; ++l)
            if (l < st) s[l] += s[l + st];
        part[tile] = s[0];
      }
    });
  } else {
    array_view<const int, 1> data(n, in);
    array_view<int, 1> p(G, part);
    measured([&] {
      parallel_for_each(extent<1>(G * RT).tile<RT>(), [=](tiled_index<RT> t) restrict(amp) {
        tile_static int s[RT];
        const int l = t.local[0], g = t.global[0];
        int sum = 0;
        for (int k = 0; k < RK; ++k) sum += data[g + k * G * RT];
        s[l] = sum;
        t.barrier.wait();
        for (int st = RT / 2; st > 0; st >>= 1) {
          if (l < st) s[l] += s[l + st];
          t.barrier.wait();
        }
        if (l == 0) p[t.tile[0]] = s[0];
      });
      p.synchronize();
    });
  }
  long long sum = 0;
  for (int v : part) sum = sum * 31 + v;
  return sum;
}

long long transpose(bool loop) {
  std::vector<float> hin(TN * TN), hout(TN * TN);
  for (int i = 0; i < TN * TN; ++i) hin[i] = static_cast<float>(i % 1000) + 0.5f;
  if (loop) {
    measured([&] {
      static float tile[32][33];
      for (int ty = 0; ty < TN / 32; ++ty)
        for (int tx = 0; tx < TN / 32; ++tx) {
          for (int ly = 0; ly < 32; ++ly)
            for (int lx = 0; lx < 32; ++lx) tile[ly][lx] = hin[(ty * 32 + ly) * TN + tx * 32 + lx];
          for (int ly = 0; ly < 32; ++ly)
            for (int lx = 0; lx < 32; ++lx) hout[(tx * 32 + ly) * TN + ty * 32 + lx] = tile[lx][ly];
        }
    });
  } else {
    array_view<const float, 2> in(TN, TN, hin);
    array_view<float, 2> out(TN, TN, hout);
    measured([&] {
      parallel_for_each(in.extent.tile<32, 32>(), [=](tiled_index<32, 32> t) restrict(amp) {
        tile_static float tile[32][33];
        const int lx = t.local[1], ly = t.local[0];
        tile[ly][lx] = in[t.global];
        t.barrier.wait_with_tile_static_memory_fence();
        out(t.tile[1] * 32 + ly, t.tile[0] * 32 + lx) = tile[lx][ly];
      });
      out.synchronize();
    });
  }
  long long sum = 0;
  for (float v : hout) sum = sum * 31 + static_cast<long long>(v);
  return sum;
}

// bench/b_transpose.cpp's transpose-32x8 kernel (tiles of 8 rows of 32, each
// work-item moving 4 elements); the loop is its hand-written Kokkos version
// run serially (team size 1 on the host: the team's 256 work-items in turn).
long long transpose8(bool loop) {
  constexpr int ROWS = 8;
  std::vector<float> hin(TN * TN), hout(TN * TN);
  for (int i = 0; i < TN * TN; ++i) hin[i] = static_cast<float>(i % 1000) + 0.5f;
  if (loop) {
    measured([&] {
      static float tile[32 * 33];
      const int tiles = TN / 32;
      const float* in = hin.data();
      float* out = hout.data();
      for (int league = 0; league < tiles * tiles; ++league) {
        const int by = league / tiles * 32, bx = league % tiles * 32;
        for (int t = 0; t < 32 * ROWS; ++t) {
          const int ly = t / 32, lx = t % 32;
          for (int j = 0; j < 32; j += ROWS) tile[(ly + j) * 33 + lx] = in[(size_t)(by + ly + j) * TN + bx + lx];
        }
        for (int t = 0; t < 32 * ROWS; ++t) {
          const int ly = t / 32, lx = t % 32;
          for (int j = 0; j < 32; j += ROWS) out[(size_t)(bx + ly + j) * TN + by + lx] = tile[lx * 33 + ly + j];
        }
      }
    });
  } else {
    array_view<const float, 2> in(TN, TN, hin);
    array_view<float, 2> out(TN, TN, hout);
    measured([&] {
      parallel_for_each(extent<2>(TN / 32 * ROWS, TN).tile<ROWS, 32>(), [=](tiled_index<ROWS, 32> t) restrict(amp) {
        tile_static float tile[32][33];
        const int lx = t.local[1], ly = t.local[0], bx = t.tile[1] * 32, by = t.tile[0] * 32;
        for (int j = 0; j < 32; j += ROWS) tile[ly + j][lx] = in(by + ly + j, bx + lx);
        t.barrier.wait_with_tile_static_memory_fence();
        for (int j = 0; j < 32; j += ROWS) out(bx + ly + j, by + lx) = tile[lx][ly + j];
      });
      out.synchronize();
    });
  }
  long long sum = 0;
  for (float v : hout) sum = sum * 31 + static_cast<long long>(v);
  return sum;
}

// bench/b_tiles.cpp's tile-pricing kernel (binomial-pricing shape: 256-item
// tiles, 2 barriers per time step, time steps nested in rounds), 16 options.
long long pricing(bool loop) {
  constexpr int STEPS = 256, ROUNDS = 4, OPTIONS = 16;
  std::vector<float> s0(OPTIONS), strike(OPTIONS, 100.0f), got(OPTIONS);
  for (int o = 0; o < OPTIONS; ++o) s0[o] = 90.0f + static_cast<float>(o % 21);
  if (loop) {
    measured([&] {
      static float va[257], vb[257];
      for (int o = 0; o < OPTIONS; ++o) {
        const float s = s0[o], x = strike[o];
        float result = 0.0f;
        for (int r = 0; r < ROUNDS; ++r) {
          const float vol = 0.1f + 0.05f * static_cast<float>(r);
          for (int i = 0; i < 256; ++i) {
            const float lv = s * (1.0f + vol * static_cast<float>(i - 128) / 128.0f) - x;
            va[i] = lv > 0.0f ? lv : 0.0f;
          }
          const float top = s * (1.0f + vol * 128.0f / 128.0f) - x;
          va[256] = top > 0.0f ? top : 0.0f;
          for (int st = STEPS; st > 0; --st) {
            for (int i = 0; i < 256; ++i)
              if (i < st) vb[i] = 0.5f * va[i + 1] + 0.5f * va[i];
            for (int i = 0; i < 256; ++i)
              if (i < st) va[i] = vb[i];
          }
          result += va[0];
        }
        got[o] = result / ROUNDS;
      }
    });
  } else {
    array_view<const float, 1> S(OPTIONS, s0), X(OPTIONS, strike);
    array_view<float, 1> price(OPTIONS, got);
    measured([&] {
      parallel_for_each(extent<1>(OPTIONS * 256).tile<256>(), [=](tiled_index<256> t) restrict(amp) {
        tile_static float va[257];
        tile_static float vb[257];
        const int i = t.local[0];
        const float s = S[t.tile[0]], x = X[t.tile[0]];
        float result = 0.0f;
        for (int r = 0; r < ROUNDS; ++r) {
          const float vol = 0.1f + 0.05f * static_cast<float>(r);
          const float lv = s * (1.0f + vol * static_cast<float>(i - 128) / 128.0f) - x;
          va[i] = lv > 0.0f ? lv : 0.0f;
          if (i == 0) {
            const float top = s * (1.0f + vol * 128.0f / 128.0f) - x;
            va[256] = top > 0.0f ? top : 0.0f;
          }
          t.barrier.wait();
          for (int st = STEPS; st > 0; --st) {
            if (i < st) vb[i] = 0.5f * va[i + 1] + 0.5f * va[i];
            t.barrier.wait();
            if (i < st) va[i] = vb[i];
            t.barrier.wait();
          }
          result += va[0];
          t.barrier.wait();
        }
        if (i == 0) price[t.tile[0]] = result / ROUNDS;
      });
      price.synchronize();
    });
  }
  long long sum = 0;
  for (float v : got) sum = sum * 31 + static_cast<long long>(v * 1000.0f);
  return sum;
}

} // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: %s barriers0|barriers16|reduce|transpose|transpose8|pricing compiled|fibers|loop\n",
                 argv[0]);
    return 2;
  }
  const std::string k = argv[1], v = argv[2];
  const bool loop = v == "loop";
  if (v == "fibers") ht::force_mode(ht::mode::fibers);
  else if (v != "compiled" && !loop) return 2;
  long long r;
  if (k == "barriers0") r = barriers(0, loop);
  else if (k == "barriers16") r = barriers(16, loop);
  else if (k == "reduce") r = reduce(loop);
  else if (k == "transpose") r = transpose(loop);
  else if (k == "transpose8") r = transpose8(loop);
  else if (k == "pricing") r = pricing(loop);
  else return 2;
  std::printf("%s %s %lld\n", k.c_str(), v.c_str(), r);
  return 0;
}
