// Tile machinery: the tile-averages kernel of seed 000 on a large matrix, and
// the cost of tile_barrier::wait() per work-item.
#include "harness.h"

#include <cmath>

using namespace concurrency;

namespace bench {
namespace {

constexpr int SAMPLESIZE = 16;

#if BENCH_GPU
__global__ void cu_tile_averages(const float* m, float* avg, int N) {
  __shared__ float tileValues[SAMPLESIZE][SAMPLESIZE];
  const int ty = blockIdx.y, tx = blockIdx.x, ly = threadIdx.y, lx = threadIdx.x;
  tileValues[ly][lx] = m[(size_t)(ty * SAMPLESIZE + ly) * N + tx * SAMPLESIZE + lx];
  __syncthreads();
  if (ly == 0 && lx == 0) {
    float* a = &avg[ty * (N / SAMPLESIZE) + tx];
    for (int r = 0; r < SAMPLESIZE; r++)
      for (int c = 0; c < SAMPLESIZE; c++) *a += tileValues[r][c];
    *a /= (float)(SAMPLESIZE * SAMPLESIZE);
  }
}
__global__ void cu_barriers(int* out, int B) {
  __shared__ int s[256];
  const int l = threadIdx.x, g = blockIdx.x * 256 + l;
  int x = g;
  s[l] = g;
  for (int b = 0; b < B; ++b) {
    __syncthreads();
    x += s[(l + b + 1) & 255];
  }
  out[g] = x;
}
#endif

// Seed 000's SamplingExample kernel (averages += per tile on work-item (0,0)),
// SAMPLESIZE = 16, over an N x N matrix of small integers (exact in float).
void tile_averages() {
  const int N = opt.quick ? 256 : gpu ? 8192 : 2048, M = N / SAMPLESIZE;
  const long long NN = (long long)N * N;
  const double bytes = 4.0 * NN;
  std::printf("tile-averages: seed 000 kernel, %dx%d floats, %dx%d tiles\n", N, N, SAMPLESIZE, SAMPLESIZE);
  std::vector<float> rawData(NN), zeros((size_t)M * M, 0.0f), want((size_t)M * M, 0.0f);
  for (long long i = 0; i < NN; ++i) rawData[i] = (float)(i % 1024);
  for (int r = 0; r < N; ++r)
    for (int c = 0; c < N; ++c) want[(size_t)(r / SAMPLESIZE) * M + c / SAMPLESIZE] += rawData[(size_t)r * N + c];
  for (float& w : want) w /= (float)(SAMPLESIZE * SAMPLESIZE);
  accelerator_view view = amp_view();
  {
    array_view<float, 2> matrix(N, N, rawData);
    array<float, 2> averages(M, M, view);
    auto setup = [&] { copy(zeros.begin(), zeros.end(), averages); };
    auto run = [&] {
      parallel_for_each(view, matrix.extent.tile<SAMPLESIZE, SAMPLESIZE>(),
                        [=, &averages](tiled_index<SAMPLESIZE, SAMPLESIZE> t_idx) restrict(amp) {
                          tile_static float tileValues[SAMPLESIZE][SAMPLESIZE];
                          tileValues[t_idx.local[0]][t_idx.local[1]] = matrix[t_idx];
                          t_idx.barrier.wait();
                          if (t_idx.local[0] == 0 && t_idx.local[1] == 0) {
                            for (int trow = 0; trow < SAMPLESIZE; trow++) {
                              for (int tcol = 0; tcol < SAMPLESIZE; tcol++) {
                                averages(t_idx.tile[0], t_idx.tile[1]) += tileValues[trow][tcol];
                              }
                            }
                            averages(t_idx.tile[0], t_idx.tile[1]) /= (float)(SAMPLESIZE * SAMPLESIZE);
                          }
                        });
      view.wait();
    };
    setup();
    run();
    std::vector<float> got = averages;
    check_equal("tile-averages amp", got.data(), want.data(), (long long)M * M);
    add("tile-averages", "amp", median_ms(run, setup), bytes, "gbps", N);
    add_fibers_row("tile-averages", run, setup, [&] {
      std::vector<float> g = averages;
      check_equal("tile-averages amp-fibers", g.data(), want.data(), (long long)M * M);
    }, bytes, "gbps", N);
  }
  {
    constexpr int TEAM = team_size<SAMPLESIZE * SAMPLESIZE>(), ITEMS = SAMPLESIZE * SAMPLESIZE / TEAM;
    auto m = kokkos_from(rawData, "m");
    auto z = kokkos_from(zeros, "zeros");
    Kokkos::View<float*> avg("avg", (size_t)M * M);
    auto setup = [&] { Kokkos::deep_copy(avg, z); };
    auto run = [&] {
      Kokkos::parallel_for(
          "tile_averages",
          Kokkos::TeamPolicy<Exec>(M * M, TEAM).set_scratch_size(0, Kokkos::PerTeam(SAMPLESIZE * SAMPLESIZE * 4)),
          KOKKOS_LAMBDA(const Team& t) {
            ScratchView<float> tv(t.team_scratch(0), SAMPLESIZE * SAMPLESIZE);
            const int ty = t.league_rank() / M, tx = t.league_rank() % M;
            for (int it = 0; it < ITEMS; ++it) {
              const int l = t.team_rank() + it * TEAM;
              tv(l) = m((size_t)(ty * SAMPLESIZE + l / SAMPLESIZE) * N + tx * SAMPLESIZE + l % SAMPLESIZE);
            }
            t.team_barrier();
            if (t.team_rank() == 0) {
              float& a = avg(t.league_rank());
              for (int k = 0; k < SAMPLESIZE * SAMPLESIZE; ++k) a += tv(k);
              a /= (float)(SAMPLESIZE * SAMPLESIZE);
            }
          });
      Kokkos::fence();
    };
    setup();
    run();
    check_equal("tile-averages kokkos", kokkos_to(avg).data(), want.data(), (long long)M * M);
    add("tile-averages", "kokkos", median_ms(run, setup), bytes, "gbps", N);
  }
#if BENCH_GPU
  {
    dbuf<float> m(rawData), avg(zeros);
    auto setup = [&] { avg.upload(zeros); };
    auto run = [&] {
      cu_tile_averages<<<dim3(M, M), dim3(SAMPLESIZE, SAMPLESIZE)>>>(m.p, avg.p, N);
      cuda_sync();
    };
    setup();
    run();
    check_equal("tile-averages cuda", avg.download().data(), want.data(), (long long)M * M);
    add("tile-averages", "cuda", median_ms(run, setup), bytes, "gbps", N);
  }
#endif
}

// A tiled kernel (256 work-items per tile) whose work-items pass B barriers,
// reading a neighbour's tile_static value after each. Cost per work-item per
// barrier = (t(16) - t(0)) / (work-items * 16).
void barriers() {
  const int n = opt.quick ? 1 << 16 : gpu ? 1 << 24 : 1 << 20;
  const int Bs[] = {0, 1, 4, 16};
  std::printf("tile-barriers: %d work-items in tiles of 256, B barriers each\n", n);
  std::vector<int> want(n), got(n);
  auto expect = [&](int B) {
    for (int g = 0; g < n; ++g) {
      int x = g;
      for (int b = 0; b < B; ++b) x += (g & ~255) + ((g + b + 1) & 255);
      want[g] = x;
    }
  };
  double amp_t[4], kokkos_t[4], fibers_t[4];
  accelerator_view v = amp_view();
  for (int bi = 0; bi < 4; ++bi) {
    const int B = Bs[bi];
    expect(B);
    const std::string name = "tile-barriers-" + std::to_string(B);
    {
      array_view<int, 1> out(n, got);
      auto run = [&] {
        parallel_for_each(v, out.extent.tile<256>(), [=](tiled_index<256> t) restrict(amp) {
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
        v.wait();
      };
      out.discard_data();
      run();
      out.synchronize();
      check_equal(name + " amp", got.data(), want.data(), n);
      amp_t[bi] = median_ms(run, [&] { out.discard_data(); });
      add(name, "amp", amp_t[bi], 0, "", n);
      fibers_t[bi] = add_fibers_row(name, run, [&] { out.discard_data(); }, [&] {
        out.synchronize();
        check_equal(name + " amp-fibers", got.data(), want.data(), n);
      }, 0, "", n);
    }
    {
      constexpr int TEAM = team_size<256>(), ITEMS = 256 / TEAM;
      Kokkos::View<int*> out("out", n);
      auto run = [&] {
        Kokkos::parallel_for(
            "barriers", Kokkos::TeamPolicy<Exec>(n / 256, TEAM).set_scratch_size(0, Kokkos::PerTeam(256 * 4)),
            KOKKOS_LAMBDA(const Team& m) {
              ScratchView<int> s(m.team_scratch(0), 256);
              int x[ITEMS];
              for (int it = 0; it < ITEMS; ++it) {
                const int l = m.team_rank() + it * TEAM, g = m.league_rank() * 256 + l;
                x[it] = g;
                s(l) = g;
              }
              for (int b = 0; b < B; ++b) {
                m.team_barrier();
                for (int it = 0; it < ITEMS; ++it) {
                  const int l = m.team_rank() + it * TEAM;
                  x[it] += s((l + b + 1) & 255);
                }
              }
              for (int it = 0; it < ITEMS; ++it) out(m.league_rank() * 256 + m.team_rank() + it * TEAM) = x[it];
            });
        Kokkos::fence();
      };
      run();
      check_equal(name + " kokkos", kokkos_to(out).data(), want.data(), n);
      kokkos_t[bi] = median_ms(run);
      add(name, "kokkos", kokkos_t[bi], 0, "", n);
    }
#if BENCH_GPU
    {
      dbuf<int> out(n);
      auto run = [&] {
        cu_barriers<<<n / 256, 256>>>(out.p, B);
        cuda_sync();
      };
      run();
      check_equal(name + " cuda", out.download().data(), want.data(), n);
      add(name, "cuda", median_ms(run), 0, "", n);
    }
#endif
  }
  // Per work-item per barrier, from the 0- and 16-barrier runs.
  add("barrier-cost", "amp", (amp_t[3] - amp_t[0]) / (16.0 * n), 0, "", n);
  if (!gpu) add("barrier-cost", "amp-fibers", (fibers_t[3] - fibers_t[0]) / (16.0 * n), 0, "", n);
  add("barrier-cost", "kokkos", (kokkos_t[3] - kokkos_t[0]) / (16.0 * n), 0, "", n);
}

// Binomial-pricing shape (issue 24): one option per 256-item tile, two
// tile_static arrays, two barriers per time step in a time-step loop nested in
// a loop over volatilities. ROUNDS * STEPS * 2 barriers per work-item.
void pricing() {
  constexpr int STEPS = 256, ROUNDS = 4;
  const int options = opt.quick ? 16 : gpu ? 4096 : 256;
  std::printf("tile-pricing: %d options, tiles of 256, %d barriers per work-item\n", options, ROUNDS * STEPS * 2);
  std::vector<float> s0(options), strike(options), want(options), got(options);
  for (int o = 0; o < options; ++o) {
    s0[o] = 90.0f + static_cast<float>(o % 21);
    strike[o] = 100.0f;
  }
  auto leaf = [](float S, float X, float vol, int i) {
    const float v = S * (1.0f + vol * static_cast<float>(i - 128) / 128.0f) - X;
    return v > 0.0f ? v : 0.0f;
  };
  for (int o = 0; o < options; ++o) { // the reference, in the kernel's order
    std::vector<float> va(257), vb(257);
    float result = 0.0f;
    for (int r = 0; r < ROUNDS; ++r) {
      const float vol = 0.1f + 0.05f * static_cast<float>(r);
      for (int i = 0; i < 257; ++i) va[i] = leaf(s0[o], strike[o], vol, i);
      for (int st = STEPS; st > 0; --st) {
        for (int i = 0; i < st; ++i) vb[i] = 0.5f * va[i + 1] + 0.5f * va[i];
        for (int i = 0; i < st; ++i) va[i] = vb[i];
      }
      result += va[0];
    }
    want[o] = result / ROUNDS;
  }
  auto check = [&](const std::string& what, const std::vector<float>& g) {
    for (int o = 0; o < options; ++o)
      if (!(std::abs(g[o] - want[o]) <= 1e-4f * std::abs(want[o]) + 1e-4f))
        fail(what + ": option " + std::to_string(o) + " is " + std::to_string(g[o]) + ", expected " +
             std::to_string(want[o]));
  };
  accelerator_view v = amp_view();
  {
    array_view<const float, 1> S(options, s0), X(options, strike);
    array_view<float, 1> price(options, got);
    auto run = [&] {
      parallel_for_each(v, extent<1>(options * 256).tile<256>(), [=](tiled_index<256> t) restrict(amp) {
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
      v.wait();
    };
    price.discard_data();
    run();
    price.synchronize();
    check("tile-pricing amp", got);
    add("tile-pricing", "amp", median_ms(run, [&] { price.discard_data(); }), 0, "", options);
    add_fibers_row("tile-pricing", run, [&] { price.discard_data(); }, [&] {
      price.synchronize();
      check("tile-pricing amp-fibers", got);
    }, 0, "", options);
  }
  {
    constexpr int TEAM = team_size<256>(), ITEMS = 256 / TEAM;
    auto S = kokkos_from(s0, "s0");
    auto X = kokkos_from(strike, "strike");
    Kokkos::View<float*> price("price", options);
    auto run = [&] {
      Kokkos::parallel_for(
          "pricing", Kokkos::TeamPolicy<Exec>(options, TEAM).set_scratch_size(0, Kokkos::PerTeam(2 * 264 * 4)),
          KOKKOS_LAMBDA(const Team& m) {
            ScratchView<float> va(m.team_scratch(0), 257), vb(m.team_scratch(0), 257);
            const int o = m.league_rank();
            const float s = S(o), x = X(o);
            float result = 0.0f;
            for (int r = 0; r < ROUNDS; ++r) {
              const float vol = 0.1f + 0.05f * static_cast<float>(r);
              for (int it = 0; it < ITEMS; ++it) {
                const int i = m.team_rank() + it * TEAM;
                const float lv = s * (1.0f + vol * static_cast<float>(i - 128) / 128.0f) - x;
                va(i) = lv > 0.0f ? lv : 0.0f;
              }
              if (m.team_rank() == 0) {
                const float top = s * (1.0f + vol * 128.0f / 128.0f) - x;
                va(256) = top > 0.0f ? top : 0.0f;
              }
              m.team_barrier();
              for (int st = STEPS; st > 0; --st) {
                for (int it = 0; it < ITEMS; ++it) {
                  const int i = m.team_rank() + it * TEAM;
                  if (i < st) vb(i) = 0.5f * va(i + 1) + 0.5f * va(i);
                }
                m.team_barrier();
                for (int it = 0; it < ITEMS; ++it) {
                  const int i = m.team_rank() + it * TEAM;
                  if (i < st) va(i) = vb(i);
                }
                m.team_barrier();
              }
              result += va(0);
              m.team_barrier();
            }
            if (m.team_rank() == 0) price(o) = result / ROUNDS;
          });
      Kokkos::fence();
    };
    run();
    check("tile-pricing kokkos", kokkos_to(price));
    add("tile-pricing", "kokkos", median_ms(run), 0, "", options);
  }
}

} // namespace

void tile_kernels() {
  tile_averages();
  barriers();
  pricing();
}

} // namespace bench
