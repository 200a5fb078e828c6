// Transpose with a padded tile (seed 004, the OpenCL chapter's padded-tile
// transpose as ported in samples/ports): a 32x32 tile held in [32][33]
// tile_static floats so that the column reads hit 32 different banks.
//  transpose-32x32: as in the port, one element per work-item (32x32 tiles).
//  transpose-32x8:  the same padded tile, 32x8 work-items moving 4 elements
//                   each (more loads in flight per thread).
// Both at 8192^2 floats on the GPU (2048^2 on the host), then swept in size.
#include "harness.h"

using namespace concurrency;

namespace bench {
namespace {

#if BENCH_GPU
template <int ROWS> __global__ void cu_transpose(const float* in, float* out, int N) {
  __shared__ float t[32][33];
  const int lx = threadIdx.x, ly = threadIdx.y, bx = blockIdx.x * 32, by = blockIdx.y * 32;
  for (int j = 0; j < 32; j += ROWS) t[ly + j][lx] = in[(size_t)(by + ly + j) * N + bx + lx];
  __syncthreads();
  for (int j = 0; j < 32; j += ROWS) out[(size_t)(bx + ly + j) * N + by + lx] = t[lx][ly + j];
}
#endif

// ROWS = work-item rows per 32x32 tile (32: one element each; 8: four each).
template <int ROWS> void run_transpose(int N, const std::string& name) {
  const long long NN = (long long)N * N;
  const double bytes = 2.0 * sizeof(float) * NN;
  std::vector<float> hin(NN), hout(NN), ref(NN);
  for (long long i = 0; i < NN; ++i) hin[i] = (float)(i % 1000003) + 0.5f;
  for (int r = 0; r < N; ++r)
    for (int c = 0; c < N; ++c) ref[(size_t)c * N + r] = hin[(size_t)r * N + c];
  accelerator_view v = amp_view();
  {
    array_view<const float, 2> in(N, N, hin);
    array_view<float, 2> out(N, N, hout);
    auto run = [&] {
      if constexpr (ROWS == 32) { // the port's kernel
        parallel_for_each(v, in.extent.tile<32, 32>(), [=](tiled_index<32, 32> t) restrict(amp) {
          tile_static float tile[32][33];
          const int lx = t.local[1], ly = t.local[0];
          tile[ly][lx] = in[t.global];
          t.barrier.wait_with_tile_static_memory_fence();
          out(t.tile[1] * 32 + ly, t.tile[0] * 32 + lx) = tile[lx][ly];
        });
      } else {
        parallel_for_each(v, extent<2>(N / 32 * ROWS, N).tile<ROWS, 32>(), [=](tiled_index<ROWS, 32> t) restrict(amp) {
          tile_static float tile[32][33];
          const int lx = t.local[1], ly = t.local[0], bx = t.tile[1] * 32, by = t.tile[0] * 32;
          for (int j = 0; j < 32; j += ROWS) tile[ly + j][lx] = in(by + ly + j, bx + lx);
          t.barrier.wait_with_tile_static_memory_fence();
          for (int j = 0; j < 32; j += ROWS) out(bx + ly + j, by + lx) = tile[lx][ly + j];
        });
      }
      v.wait();
    };
    out.discard_data();
    run();
    out.synchronize();
    check_equal(name + " amp", hout.data(), ref.data(), NN);
    add(name, "amp", median_ms(run, [&] { out.discard_data(); }), bytes, "gbps", N);
    add_fibers_row(name, run, [&] { out.discard_data(); }, [&] {
      out.synchronize();
      check_equal(name + " amp-fibers", hout.data(), ref.data(), NN);
    }, bytes, "gbps", N);
  }
  {
    constexpr int TEAM = team_size<32 * ROWS>(), ITEMS = 32 * ROWS / TEAM;
    auto in = kokkos_from(hin, "in");
    Kokkos::View<float*> out("out", NN);
    const int tiles = N / 32;
    auto run = [&] {
      Kokkos::parallel_for(
          "transpose",
          Kokkos::TeamPolicy<Exec>(tiles * tiles, TEAM).set_scratch_size(0, Kokkos::PerTeam(32 * 33 * sizeof(float))),
          KOKKOS_LAMBDA(const Team& m) {
            ScratchView<float> tile(m.team_scratch(0), 32 * 33);
            const int by = m.league_rank() / tiles * 32, bx = m.league_rank() % tiles * 32;
            for (int it = 0; it < ITEMS; ++it) {
              const int t = m.team_rank() + it * TEAM, ly = t / 32, lx = t % 32;
              for (int j = 0; j < 32; j += ROWS) tile((ly + j) * 33 + lx) = in((size_t)(by + ly + j) * N + bx + lx);
            }
            m.team_barrier();
            for (int it = 0; it < ITEMS; ++it) {
              const int t = m.team_rank() + it * TEAM, ly = t / 32, lx = t % 32;
              for (int j = 0; j < 32; j += ROWS) out((size_t)(bx + ly + j) * N + by + lx) = tile(lx * 33 + ly + j);
            }
          });
      Kokkos::fence();
    };
    run();
    check_equal(name + " kokkos", kokkos_to(out).data(), ref.data(), NN);
    add(name, "kokkos", median_ms(run), bytes, "gbps", N);
  }
#if BENCH_GPU
  {
    dbuf<float> in(hin), out(NN);
    auto run = [&] {
      cu_transpose<ROWS><<<dim3(N / 32, N / 32), dim3(32, ROWS)>>>(in.p, out.p, N);
      cuda_sync();
    };
    run();
    check_equal(name + " cuda", out.download().data(), ref.data(), NN);
    add(name, "cuda", median_ms(run), bytes, "gbps", N);
  }
#endif
}

} // namespace

void transposes() {
  const int N = opt.quick ? 256 : gpu ? 8192 : 2048;
  std::printf("transpose: %dx%d floats, padded [32][33] tiles\n", N, N);
  run_transpose<32>(N, "transpose-32x32");
  run_transpose<8>(N, "transpose-32x8");
  if (opt.quick) return;
  std::printf("transpose size sweep\n");
  for (int n = gpu ? 1024 : 256; n <= (gpu ? 16384 : 4096); n *= 2) {
    if (n == N) continue;
    run_transpose<32>(n, "transpose-32x32@" + std::to_string(n));
    run_transpose<8>(n, "transpose-32x8@" + std::to_string(n));
  }
}

} // namespace bench
