// Matrix multiply from seed 003 (Daniel Moth, MSDN Magazine): Fig. 1 (simple
// model), Fig. 4 (tiled, no tile_static) and Fig. 5 (tile_static, TS = 16),
// int and float; cuBLAS SGEMM as the roof on the GPU.
#include "harness.h"

#include <type_traits>
#if BENCH_GPU
#include <dlfcn.h>
#endif

using namespace concurrency;

namespace bench {
namespace {

constexpr int TS = 16;

#if BENCH_GPU
// One thread per element in 16x16 blocks: the CUDA form of Fig. 1 and Fig. 4.
template <class T> __global__ void cu_mm_simple(const T* a, const T* b, T* c, int N) {
  int col = blockIdx.x * blockDim.x + threadIdx.x, row = blockIdx.y * blockDim.y + threadIdx.y;
  T sum = 0;
  for (int k = 0; k < N; ++k) sum += a[row * N + k] * b[k * N + col];
  c[row * N + col] = sum;
}
template <class T> __global__ void cu_mm_tiled(const T* a, const T* b, T* c, int N) {
  __shared__ T locA[TS][TS], locB[TS][TS];
  int row = threadIdx.y, col = threadIdx.x;
  int grow = blockIdx.y * TS + row, gcol = blockIdx.x * TS + col;
  T sum = 0;
  for (int i = 0; i < N; i += TS) {
    locA[row][col] = a[grow * N + col + i];
    locB[row][col] = b[(row + i) * N + gcol];
    __syncthreads();
    for (int k = 0; k < TS; ++k) sum += locA[row][k] * locB[k][col];
    __syncthreads();
  }
  c[grow * N + gcol] = sum;
}

// cuBLAS through dlopen: no link-time dependency; skipped when absent.
struct cublas_api {
  using create_t = int (*)(void**);
  using destroy_t = int (*)(void*);
  using sgemm_t = int (*)(void*, int, int, int, int, int, const float*, const float*, int, const float*, int,
                          const float*, float*, int);
  create_t create = nullptr;
  destroy_t destroy = nullptr;
  sgemm_t sgemm = nullptr;
  bool load() {
    const char* names[] = {"libcublas.so.13", "libcublas.so", "/usr/local/cuda/lib64/libcublas.so.13",
                           "libcublas.so.12", "/usr/local/cuda/lib64/libcublas.so.12"};
    for (const char* n : names)
      if (void* h = dlopen(n, RTLD_NOW | RTLD_GLOBAL)) {
        create = (create_t)dlsym(h, "cublasCreate_v2");
        destroy = (destroy_t)dlsym(h, "cublasDestroy_v2");
        sgemm = (sgemm_t)dlsym(h, "cublasSgemm_v2");
        if (create && destroy && sgemm) {
          std::printf("  (cuBLAS: %s)\n", n);
          return true;
        }
      }
    return false;
  }
};
#endif

// Every element for small N; for large N 8 full rows and 4096 scattered ones.
template <class T>
void mm_check(const std::string& what, const std::vector<T>& a, const std::vector<T>& b, const std::vector<T>& c,
              int N) {
  auto one = [&](int r, int col) {
    T want = 0;
    for (int k = 0; k < N; ++k) want += a[(size_t)r * N + k] * b[(size_t)k * N + col];
    const T got = c[(size_t)r * N + col];
    if (!(got == want))
      fail(what + ": C(" + std::to_string(r) + "," + std::to_string(col) + ") is " + std::to_string(got) +
           ", expected " + std::to_string(want));
  };
  if (N <= 1024) {
    std::vector<T> row(N);
    for (int r = 0; r < N; ++r) {
      std::fill(row.begin(), row.end(), T(0));
      for (int k = 0; k < N; ++k) {
        const T x = a[(size_t)r * N + k];
        for (int col = 0; col < N; ++col) row[col] += x * b[(size_t)k * N + col];
      }
      for (int col = 0; col < N; ++col)
        if (!(c[(size_t)r * N + col] == row[col])) one(r, col);
    }
    return;
  }
  for (int r = 0; r < N; r += N / 8)
    for (int col = 0; col < N; ++col) one(r, col);
  unsigned s = 12345;
  for (int i = 0; i < 4096; ++i) {
    s = s * 1664525u + 1013904223u;
    const int r = (s >> 8) % N;
    s = s * 1664525u + 1013904223u;
    one(r, (s >> 8) % N);
  }
}

template <class T> void run_matmul(const char* tname, int N) {
  const double flops = 2.0 * N * N * (double)N;
  const long long NN = (long long)N * N;
  std::printf("matmul %s, N = %d (Fig. 1 simple, Fig. 4 tiled, Fig. 5 tile_static TS = %d)\n", tname, N, TS);
  // Small integers: exact in int and in float (every partial sum < 2^24).
  std::vector<T> ha(NN), hb(NN), hc(NN);
  for (long long i = 0; i < NN; ++i) {
    ha[i] = T((i * 7 + 3) % 11 - 5);
    hb[i] = T((i * 5 + 1) % 13 - 6);
  }
  const std::string sfx = std::string("-") + tname;
  const std::string simple_name = "matmul-simple" + sfx, fig4_name = "matmul-tiled-nots" + sfx,
                    fig5_name = "matmul-tiled" + sfx;
  accelerator_view v = amp_view();
  { // AMP: the printed kernels
    array_view<const T, 2> a(N, N, ha), b(N, N, hb);
    array_view<T, 2> c(N, N, hc);
    auto simple = [&] {
      c.discard_data();
      parallel_for_each(v, c.extent, [=](index<2> idx) restrict(amp) {
        int row = idx[0];
        int col = idx[1];
        T sum = 0;
        for (int i = 0; i < b.extent[0]; i++) sum += a(row, i) * b(i, col);
        c[idx] = sum;
      });
      v.wait();
    };
    auto fig4 = [&] {
      c.discard_data();
      parallel_for_each(v, c.extent.template tile<TS, TS>(), [=](tiled_index<TS, TS> t_idx) restrict(amp) {
        int row = t_idx.global[0];
        int col = t_idx.global[1];
        T sum = 0;
        for (int i = 0; i < b.extent[0]; i++) sum += a(row, i) * b(i, col);
        c[t_idx.global] = sum;
      });
      v.wait();
    };
    auto fig5 = [&] {
      c.discard_data();
      parallel_for_each(v, c.extent.template tile<TS, TS>(), [=](tiled_index<TS, TS> t_idx) restrict(amp) {
        int row = t_idx.local[0];
        int col = t_idx.local[1];
        tile_static T locA[TS][TS], locB[TS][TS];
        T sum = 0;
        for (int i = 0; i < a.extent[1]; i += TS) {
          locA[row][col] = a(t_idx.global[0], col + i);
          locB[row][col] = b(row + i, t_idx.global[1]);
          t_idx.barrier.wait();
          for (int k = 0; k < TS; k++) sum += locA[row][k] * locB[k][col];
          t_idx.barrier.wait();
        }
        c[t_idx.global] = sum;
      });
      v.wait();
    };
    const std::pair<const std::string*, std::function<void()>> kernels[] = {
        {&simple_name, simple}, {&fig4_name, fig4}, {&fig5_name, fig5}};
    for (const auto& k : kernels) {
      std::fill(hc.begin(), hc.end(), T(-1));
      c.refresh();
      k.second();
      c.synchronize();
      mm_check(*k.first + " amp", ha, hb, hc, N);
      add(*k.first, "amp", median_ms(k.second), flops, "gflops", N);
      if (k.first == &fig5_name)
        add_fibers_row(*k.first, k.second, [] {}, [&] {
          c.synchronize();
          mm_check(*k.first + " amp-fibers", ha, hb, hc, N);
        }, flops, "gflops", N);
    }
  }
  { // Kokkos: RangePolicy (simple); TeamPolicy, one team per tile (Fig. 4);
    // TeamPolicy + scratch + team_barrier (Fig. 5).
    constexpr int TEAM = team_size<TS * TS>(), ITEMS = TS * TS / TEAM;
    auto a = kokkos_from(ha, "a"), b = kokkos_from(hb, "b");
    Kokkos::View<T*> c("c", NN);
    const int tiles = N / TS;
    auto simple = [&] {
      Kokkos::parallel_for(
          "mm_simple", Kokkos::RangePolicy<Exec>(0, (int)NN), KOKKOS_LAMBDA(int l) {
            const int row = l / N, col = l % N;
            T sum = 0;
            for (int k = 0; k < N; ++k) sum += a(row * N + k) * b(k * N + col);
            c(l) = sum;
          });
      Kokkos::fence();
    };
    auto fig4 = [&] {
      Kokkos::parallel_for(
          "mm_tiled_nots", Kokkos::TeamPolicy<Exec>(tiles * tiles, TEAM), KOKKOS_LAMBDA(const Team& m) {
            const int tr = m.league_rank() / tiles, tc = m.league_rank() % tiles;
            for (int it = 0; it < ITEMS; ++it) {
              const int t = m.team_rank() + it * TEAM, row = tr * TS + t / TS, col = tc * TS + t % TS;
              T sum = 0;
              for (int k = 0; k < N; ++k) sum += a(row * N + k) * b(k * N + col);
              c(row * N + col) = sum;
            }
          });
      Kokkos::fence();
    };
    auto fig5 = [&] {
      Kokkos::parallel_for(
          "mm_tiled",
          Kokkos::TeamPolicy<Exec>(tiles * tiles, TEAM).set_scratch_size(0, Kokkos::PerTeam(2 * TS * TS * sizeof(T))),
          KOKKOS_LAMBDA(const Team& m) {
            ScratchView<T> locA(m.team_scratch(0), TS * TS), locB(m.team_scratch(0), TS * TS);
            const int tr = m.league_rank() / tiles, tc = m.league_rank() % tiles;
            T sum[ITEMS];
            for (int it = 0; it < ITEMS; ++it) sum[it] = 0;
            for (int i = 0; i < N; i += TS) {
              for (int it = 0; it < ITEMS; ++it) {
                const int t = m.team_rank() + it * TEAM, row = t / TS, col = t % TS;
                locA(t) = a((tr * TS + row) * N + col + i);
                locB(t) = b((row + i) * N + tc * TS + col);
              }
              m.team_barrier();
              for (int it = 0; it < ITEMS; ++it) {
                const int t = m.team_rank() + it * TEAM, row = t / TS, col = t % TS;
                for (int k = 0; k < TS; ++k) sum[it] += locA(row * TS + k) * locB(k * TS + col);
              }
              m.team_barrier();
            }
            for (int it = 0; it < ITEMS; ++it) {
              const int t = m.team_rank() + it * TEAM, row = t / TS, col = t % TS;
              c((tr * TS + row) * N + tc * TS + col) = sum[it];
            }
          });
      Kokkos::fence();
    };
    const std::pair<const std::string*, std::function<void()>> kernels[] = {
        {&simple_name, simple}, {&fig4_name, fig4}, {&fig5_name, fig5}};
    for (const auto& k : kernels) {
      Kokkos::deep_copy(c, T(-1));
      k.second();
      mm_check(*k.first + " kokkos", ha, hb, kokkos_to(c), N);
      add(*k.first, "kokkos", median_ms(k.second), flops, "gflops", N);
    }
  }
#if BENCH_GPU
  {
    dbuf<T> a(ha), b(hb), c(NN);
    const dim3 blk(TS, TS), grd(N / TS, N / TS);
    auto simple = [&] {
      cu_mm_simple<T><<<grd, blk>>>(a.p, b.p, c.p, N);
      cuda_sync();
    };
    auto tiled = [&] {
      cu_mm_tiled<T><<<grd, blk>>>(a.p, b.p, c.p, N);
      cuda_sync();
    };
    const std::pair<const std::string*, std::function<void()>> kernels[] = {
        {&simple_name, simple}, {&fig4_name, simple}, {&fig5_name, tiled}};
    for (const auto& k : kernels) {
      CUDA_CHECK(cudaMemset(c.p, 0xff, NN * sizeof(T)));
      k.second();
      mm_check(*k.first + " cuda", ha, hb, c.download(), N);
      add(*k.first, "cuda", median_ms(k.second), flops, "gflops", N);
    }
    if constexpr (std::is_same<T, float>::value) {
      cublas_api cb;
      void* h = nullptr;
      if (cb.load() && cb.create(&h) == 0) {
        const float one = 1, zero = 0;
        // Row-major C = A*B is column-major C^T = B^T * A^T.
        auto gemm = [&] {
          if (cb.sgemm(h, 0, 0, N, N, N, &one, b.p, N, a.p, N, &zero, c.p, N) != 0) fail("cublasSgemm");
          cuda_sync();
        };
        gemm();
        mm_check("cuBLAS SGEMM", ha, hb, c.download(), N);
        add("matmul-roof-float", "cublas-sgemm", median_ms(gemm), flops, "gflops", N);
        cb.destroy(h);
      } else {
        std::printf("  cuBLAS not available: SGEMM roof skipped\n");
      }
    }
  }
#endif
}

} // namespace

void matmul() {
  const int N = opt.quick ? 128 : gpu ? 4096 : 512;
  run_matmul<int>("int", N);
  run_matmul<float>("float", N);
}

} // namespace bench
