// amp_compat benchmarks: each kernel three times -- through <amp.h>, as
// hand-written Kokkos, and (GPU build only) as hand-written CUDA -- checked
// against a CPU reference, then timed (median of REPS runs after a warm-up).
//
// One source for both binaries: amp_bench_host (host build: AMP runs on the
// default accelerator = Kokkos OpenMP, Kokkos on its DefaultExecutionSpace =
// OpenMP) and amp_bench_gpu (GPU build, compiled as CUDA: AMP on the GPU,
// Kokkos on Cuda, plus raw CUDA kernels, cudaMemcpy D2D and cuBLAS SGEMM as
// roofs). Usage: amp_bench_* [--quick] [--reps N] [--out DIR]
#include <amp.h>
#include <Kokkos_Core.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#if defined(__CUDACC__)
#define BENCH_GPU 1
#include <cuda_runtime.h>
#include <dlfcn.h>
#else
#define BENCH_GPU 0
#endif

using namespace concurrency;
using Exec = Kokkos::DefaultExecutionSpace;
using Team = Kokkos::TeamPolicy<Exec>::member_type;
using Scratch = Exec::scratch_memory_space;
template <class T> using ScratchView = Kokkos::View<T*, Scratch, Kokkos::MemoryUnmanaged>;

// ------------------------------------------------------------------ harness
static int REPS = 20;
static bool QUICK = false;

struct Rec {
  std::string name, version;
  double ms;
  double rate;      // GB/s or GFLOP/s
  std::string unit; // "gbps", "gflops" or "" (launch overhead)
  long long n;
};
static std::vector<Rec> recs;

static void fail(const std::string& what) {
  std::printf("FAIL: %s\n", what.c_str());
  std::fflush(stdout);
  std::exit(1);
}

static void device_sync() {
  Kokkos::fence();
#if BENCH_GPU
  if (cudaDeviceSynchronize() != cudaSuccess) fail(std::string("CUDA error: ") + cudaGetErrorString(cudaGetLastError()));
#endif
}

// f() must leave the device idle (each version synchronises its own way).
template <class F> double median_ms(F&& f, int reps = REPS) {
  f(); // warm-up
  std::vector<double> t;
  for (int r = 0; r < reps; ++r) {
    auto t0 = std::chrono::steady_clock::now();
    f();
    auto t1 = std::chrono::steady_clock::now();
    t.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
  }
  std::sort(t.begin(), t.end());
  return reps % 2 ? t[reps / 2] : 0.5 * (t[reps / 2 - 1] + t[reps / 2]);
}

static void add(const std::string& name, const std::string& version, double ms, double work, const std::string& unit,
                long long n) {
  double rate = unit.empty() ? 0 : work / (ms * 1e-3) / 1e9;
  recs.push_back({name, version, ms, rate, unit, n});
  std::printf("  %-22s %-14s %10.4f ms %10.2f %s\n", name.c_str(), version.c_str(), ms, rate,
              unit.empty() ? "" : unit == "gbps" ? "GB/s" : "GFLOP/s");
  std::fflush(stdout);
}

template <class T> static void check_equal(const std::string& what, const T* got, const T* want, long long n) {
  for (long long i = 0; i < n; ++i)
    if (!(got[i] == want[i]))
      fail(what + ": element " + std::to_string(i) + " is " + std::to_string(got[i]) + ", expected " +
           std::to_string(want[i]));
}

static accelerator_view av() { return accelerator().get_default_view(); }

// ------------------------------------------------------------------ CUDA kernels
#if BENCH_GPU
#define CUDA_CHECK(x)                                                                       \
  do {                                                                                      \
    cudaError_t e_ = (x);                                                                   \
    if (e_ != cudaSuccess) fail(std::string(#x) + ": " + cudaGetErrorString(e_));          \
  } while (0)

__global__ void cu_empty() {}
__global__ void cu_scale(const int* in, int* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = 2 * in[i];
}
template <class T> __global__ void cu_mm_simple(const T* a, const T* b, T* c, int N) {
  int col = blockIdx.x * blockDim.x + threadIdx.x, row = blockIdx.y * blockDim.y + threadIdx.y;
  T sum = 0;
  for (int k = 0; k < N; ++k) sum += a[row * N + k] * b[k * N + col];
  c[row * N + col] = sum;
}
template <class T, int TS> __global__ void cu_mm_tiled(const T* a, const T* b, T* c, int N) {
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
template <int RT, int K> __global__ void cu_reduce(const int* in, int* part, int G) {
  __shared__ int s[RT];
  int l = threadIdx.x, g = blockIdx.x * RT + l;
  int sum = 0;
  for (int k = 0; k < K; ++k) sum += in[g + k * G * RT];
  s[l] = sum;
  __syncthreads();
  for (int st = RT / 2; st > 0; st >>= 1) {
    if (l < st) s[l] += s[l + st];
    __syncthreads();
  }
  if (l == 0) part[blockIdx.x] = s[0];
}
__global__ void cu_transpose(const float* in, float* out, int N) {
  __shared__ float t[32][33];
  int lx = threadIdx.x, ly = threadIdx.y;
  t[ly][lx] = in[(blockIdx.y * 32 + ly) * N + blockIdx.x * 32 + lx];
  __syncthreads();
  out[(blockIdx.x * 32 + ly) * N + blockIdx.y * 32 + lx] = t[lx][ly];
}

// cuBLAS through dlopen: no link-time dependency, skipped when absent.
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

// ------------------------------------------------------------------ 1. launch overhead
static void bench_launch() {
  std::printf("launch overhead (1 work-item, synchronised after each launch)\n");
  const int L = 200;
  accelerator_view v = av();
  double ms = median_ms([&] {
    for (int i = 0; i < L; ++i) {
      parallel_for_each(v, extent<1>(1), [=](index<1>) restrict(amp) {});
      v.wait();
    }
  });
  add("launch", "amp", ms / L, 0, "", 1);
  ms = median_ms([&] {
    for (int i = 0; i < L; ++i) {
      Kokkos::parallel_for("empty", Kokkos::RangePolicy<Exec>(0, 1), KOKKOS_LAMBDA(int) {});
      Kokkos::fence();
    }
  });
  add("launch", "kokkos", ms / L, 0, "", 1);
#if BENCH_GPU
  ms = median_ms([&] {
    for (int i = 0; i < L; ++i) {
      cu_empty<<<1, 1>>>();
      cudaDeviceSynchronize();
    }
  });
  add("launch", "cuda", ms / L, 0, "", 1);
#endif
}

// ------------------------------------------------------------------ 2. stream
static void bench_stream() {
  const int n = QUICK ? 1 << 20 : 1 << 26;
  const double bytes = 2.0 * sizeof(int) * n;
  std::printf("stream out[i] = 2*in[i], %d ints\n", n);
  std::vector<int> hin(n), ref(n), hout(n);
  for (int i = 0; i < n; ++i) {
    hin[i] = (int)((i * 2654435761u) >> 20) + 1;
    ref[i] = 2 * hin[i];
  }
  accelerator_view v = av();
  { // AMP, simple model
    array_view<const int, 1> in(n, hin);
    array_view<int, 1> out(n, hout);
    auto run = [&] {
      out.discard_data();
      parallel_for_each(v, out.extent, [=](index<1> i) restrict(amp) { out[i] = 2 * in[i]; });
      v.wait();
    };
    run();
    out.synchronize();
    check_equal("stream amp", hout.data(), ref.data(), n);
    add("stream", "amp", median_ms(run), bytes, "gbps", n);
  }
  { // Kokkos
    Kokkos::View<int*> in("in", n), out("out", n);
    auto hv = Kokkos::create_mirror_view(in);
    for (int i = 0; i < n; ++i) hv(i) = hin[i];
    Kokkos::deep_copy(in, hv);
    auto run = [&] {
      Kokkos::parallel_for("scale", Kokkos::RangePolicy<Exec>(0, n), KOKKOS_LAMBDA(int i) { out(i) = 2 * in(i); });
      Kokkos::fence();
    };
    auto check = [&](const char* what) {
      auto ho = Kokkos::create_mirror_view(out);
      Kokkos::deep_copy(ho, out);
      check_equal(what, ho.data(), ref.data(), n);
    };
    run();
    check("stream kokkos");
    add("stream", "kokkos", median_ms(run), bytes, "gbps", n);
    // The same with a TeamPolicy of 256-thread teams (what amp_compat launches on the GPU).
    const int TEAM = BENCH_GPU ? 256 : 1, PER = BENCH_GPU ? 1 : 4096;
    auto team = [&] {
      const int chunk = TEAM * PER;
      Kokkos::parallel_for(
          "scale_team", Kokkos::TeamPolicy<Exec>((n + chunk - 1) / chunk, TEAM), KOKKOS_LAMBDA(const Team& m) {
            const int base = m.league_rank() * chunk;
            for (int j = m.team_rank(); j < chunk; j += TEAM) {
              const int i = base + j;
              if (i < n) out(i) = 2 * in(i);
            }
          });
      Kokkos::fence();
    };
    Kokkos::deep_copy(out, 0);
    team();
    check("stream kokkos-team");
    add("stream", "kokkos-team", median_ms(team), bytes, "gbps", n);
  }
#if BENCH_GPU
  { // CUDA + D2D roof
    int *din, *dout;
    CUDA_CHECK(cudaMalloc(&din, n * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&dout, n * sizeof(int)));
    CUDA_CHECK(cudaMemcpy(din, hin.data(), n * sizeof(int), cudaMemcpyHostToDevice));
    auto run = [&] {
      cu_scale<<<(n + 255) / 256, 256>>>(din, dout, n);
      CUDA_CHECK(cudaDeviceSynchronize());
    };
    run();
    CUDA_CHECK(cudaMemcpy(hout.data(), dout, n * sizeof(int), cudaMemcpyDeviceToHost));
    check_equal("stream cuda", hout.data(), ref.data(), n);
    add("stream", "cuda", median_ms(run), bytes, "gbps", n);
    auto roof = [&] {
      CUDA_CHECK(cudaMemcpy(dout, din, n * sizeof(int), cudaMemcpyDeviceToDevice));
      CUDA_CHECK(cudaDeviceSynchronize());
    };
    add("copy-roof", "cudaMemcpyD2D", median_ms(roof), bytes, "gbps", n);
    cudaFree(din);
    cudaFree(dout);
  }
#else
  { // host roofs: memcpy (one thread) and an OpenMP copy loop (all threads)
    add("copy-roof", "memcpy", median_ms([&] { std::memcpy(hout.data(), hin.data(), n * sizeof(int)); }), bytes,
        "gbps", n);
    int* o = hout.data();
    const int* s = hin.data();
    add("copy-roof", "omp-copy",
        median_ms([&] {
#pragma omp parallel for schedule(static)
          for (int i = 0; i < n; ++i) o[i] = s[i];
        }),
        bytes, "gbps", n);
  }
#endif
}

// ------------------------------------------------------------------ 3. matmul
static const int TS = 16;

template <class T> static void mm_check(const char* what, const std::vector<T>& a, const std::vector<T>& b,
                                        const std::vector<T>& c, int N) {
  // Every element for small N; for large N 8 full rows and 4096 scattered elements.
  auto elem = [&](int r, int col) {
    T s = 0;
    for (int k = 0; k < N; ++k) s += a[(size_t)r * N + k] * b[(size_t)k * N + col];
    return s;
  };
  auto one = [&](int r, int col) {
    T want = elem(r, col), got = c[(size_t)r * N + col];
    if (!(got == want))
      fail(std::string(what) + ": C(" + std::to_string(r) + "," + std::to_string(col) + ") is " +
           std::to_string(got) + ", expected " + std::to_string(want));
  };
  if (N <= 1024) {
    std::vector<T> row(N);
    for (int r = 0; r < N; ++r) {
      std::fill(row.begin(), row.end(), T(0));
      for (int k = 0; k < N; ++k) {
        T x = a[(size_t)r * N + k];
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
    int r = (s >> 8) % N;
    s = s * 1664525u + 1013904223u;
    one(r, (s >> 8) % N);
  }
}

template <class T> static void bench_matmul(const char* tname, int N) {
  const double flops = 2.0 * N * N * (double)N;
  const long long NN = (long long)N * N;
  std::printf("matmul %s, N = %d\n", tname, N);
  // Small integers: exact in int and in float (every partial sum < 2^24).
  std::vector<T> ha(NN), hb(NN), hc(NN);
  for (long long i = 0; i < NN; ++i) {
    ha[i] = T((i * 7 + 3) % 11 - 5);
    hb[i] = T((i * 5 + 1) % 13 - 6);
  }
  const std::string sfx = std::string("-") + tname;
  accelerator_view v = av();
  { // AMP: Fig. 1 (simple) and Fig. 5 (tile_static, TS = 16)
    array_view<const T, 2> a(N, N, ha), b(N, N, hb);
    array_view<T, 2> c(N, N, hc);
    auto simple = [&] {
      c.discard_data();
      parallel_for_each(v, c.extent, [=](index<2> idx) restrict(amp) {
        int row = idx[0], col = idx[1];
        T sum = 0;
        for (int k = 0; k < N; ++k) sum += a(row, k) * b(k, col);
        c[idx] = sum;
      });
      v.wait();
    };
    auto tiled = [&] {
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
    // Diagnostic variants: the same kernels indexing raw pointers from
    // array_view::data() with 32-bit int arithmetic instead of a(row, k),
    // to separate the accessor's cost from the launch path's.
    auto simple_ptr = [&] {
      c.discard_data();
      parallel_for_each(v, c.extent, [=](index<2> idx) restrict(amp) {
        const T* pa = a.data();
        const T* pb = b.data();
        int row = idx[0], col = idx[1];
        T sum = 0;
        for (int k = 0; k < N; ++k) sum += pa[row * N + k] * pb[k * N + col];
        c.data()[row * N + col] = sum;
      });
      v.wait();
    };
    auto tiled_ptr = [&] {
      c.discard_data();
      parallel_for_each(v, c.extent.template tile<TS, TS>(), [=](tiled_index<TS, TS> t_idx) restrict(amp) {
        const T* pa = a.data();
        const T* pb = b.data();
        int row = t_idx.local[0];
        int col = t_idx.local[1];
        int grow = t_idx.global[0], gcol = t_idx.global[1];
        tile_static T locA[TS][TS], locB[TS][TS];
        T sum = 0;
        for (int i = 0; i < N; i += TS) {
          locA[row][col] = pa[grow * N + col + i];
          locB[row][col] = pb[(row + i) * N + gcol];
          t_idx.barrier.wait();
          for (int k = 0; k < TS; k++) sum += locA[row][k] * locB[k][col];
          t_idx.barrier.wait();
        }
        c.data()[grow * N + gcol] = sum;
      });
      v.wait();
    };
    simple();
    c.synchronize();
    mm_check(("matmul-simple amp " + sfx).c_str(), ha, hb, hc, N);
    add("matmul-simple" + sfx, "amp", median_ms(simple), flops, "gflops", N);
    std::fill(hc.begin(), hc.end(), T(-1));
    c.refresh();
    tiled();
    c.synchronize();
    mm_check(("matmul-tiled amp " + sfx).c_str(), ha, hb, hc, N);
    add("matmul-tiled" + sfx, "amp", median_ms(tiled), flops, "gflops", N);
    std::fill(hc.begin(), hc.end(), T(-1));
    c.refresh();
    simple_ptr();
    c.synchronize();
    mm_check(("matmul-simple amp-ptr " + sfx).c_str(), ha, hb, hc, N);
    add("matmul-simple" + sfx, "amp-ptr", median_ms(simple_ptr), flops, "gflops", N);
    std::fill(hc.begin(), hc.end(), T(-1));
    c.refresh();
    tiled_ptr();
    c.synchronize();
    mm_check(("matmul-tiled amp-ptr " + sfx).c_str(), ha, hb, hc, N);
    add("matmul-tiled" + sfx, "amp-ptr", median_ms(tiled_ptr), flops, "gflops", N);
  }
  { // Kokkos: flat RangePolicy (simple); TeamPolicy + scratch + team_barrier (tiled).
    // A GPU team has one thread per tile element; a host team has one thread
    // that plays all TS*TS work-items (ITEMS accumulators), as AMP's host tiles do.
    constexpr int TEAM = BENCH_GPU ? TS * TS : 1;
    constexpr int ITEMS = TS * TS / TEAM;
    Kokkos::View<T*> a("a", NN), b("b", NN), c("c", NN);
    {
      auto ma = Kokkos::create_mirror_view(a);
      auto mb = Kokkos::create_mirror_view(b);
      for (long long i = 0; i < NN; ++i) ma(i) = ha[i];
      for (long long i = 0; i < NN; ++i) mb(i) = hb[i];
      Kokkos::deep_copy(a, ma);
      Kokkos::deep_copy(b, mb);
    }
    auto check = [&](const std::string& what) {
      Kokkos::deep_copy(c, T(-1));
      auto m = Kokkos::create_mirror_view(c);
      return [&, m, what]() mutable {
        Kokkos::deep_copy(m, c);
        std::vector<T> got(m.data(), m.data() + NN);
        mm_check(what.c_str(), ha, hb, got, N);
      };
    };
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
    auto tiled_with = [&](auto policy) {
      const int tiles = N / TS;
      Kokkos::parallel_for(
          "mm_tiled",
          decltype(policy)(tiles * tiles, TEAM).set_scratch_size(0, Kokkos::PerTeam(2 * TS * TS * sizeof(T))),
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
    auto tiled = [&] { tiled_with(Kokkos::TeamPolicy<Exec>()); };
    auto chk = check("matmul-simple kokkos " + sfx);
    simple();
    chk();
    add("matmul-simple" + sfx, "kokkos", median_ms(simple), flops, "gflops", N);
    auto chk2 = check("matmul-tiled kokkos " + sfx);
    tiled();
    chk2();
    add("matmul-tiled" + sfx, "kokkos", median_ms(tiled), flops, "gflops", N);
#if BENCH_GPU
    // Diagnostic: the same kernel under LaunchBounds<256, 1>, the launch
    // bounds amp_compat's tiled launcher uses (launch_cuda.h).
    auto tiled_lb = [&] { tiled_with(Kokkos::TeamPolicy<Exec, Kokkos::LaunchBounds<TS * TS, 1>>()); };
    auto chk3 = check("matmul-tiled kokkos-lb256,1 " + sfx);
    tiled_lb();
    chk3();
    add("matmul-tiled" + sfx, "kokkos-lb256,1", median_ms(tiled_lb), flops, "gflops", N);
#endif
  }
#if BENCH_GPU
  {
    T *a, *b, *c;
    const size_t bytes = NN * sizeof(T);
    CUDA_CHECK(cudaMalloc(&a, bytes));
    CUDA_CHECK(cudaMalloc(&b, bytes));
    CUDA_CHECK(cudaMalloc(&c, bytes));
    CUDA_CHECK(cudaMemcpy(a, ha.data(), bytes, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(b, hb.data(), bytes, cudaMemcpyHostToDevice));
    auto fetch = [&](const char* what) {
      CUDA_CHECK(cudaMemcpy(hc.data(), c, bytes, cudaMemcpyDeviceToHost));
      mm_check(what, ha, hb, hc, N);
      CUDA_CHECK(cudaMemset(c, 0xff, bytes));
    };
    dim3 blk(TS, TS), grd(N / TS, N / TS);
    auto simple = [&] {
      cu_mm_simple<T><<<grd, blk>>>(a, b, c, N);
      CUDA_CHECK(cudaDeviceSynchronize());
    };
    auto tiled = [&] {
      cu_mm_tiled<T, TS><<<grd, blk>>>(a, b, c, N);
      CUDA_CHECK(cudaDeviceSynchronize());
    };
    simple();
    fetch(("matmul-simple cuda " + sfx).c_str());
    add("matmul-simple" + sfx, "cuda", median_ms(simple), flops, "gflops", N);
    tiled();
    fetch(("matmul-tiled cuda " + sfx).c_str());
    add("matmul-tiled" + sfx, "cuda", median_ms(tiled), flops, "gflops", N);
    if constexpr (std::is_same<T, float>::value) {
      cublas_api cb;
      void* h = nullptr;
      if (cb.load() && cb.create(&h) == 0) {
        const float one = 1, zero = 0;
        // Row-major C = A*B is column-major C^T = B^T * A^T.
        auto gemm = [&] {
          if (cb.sgemm(h, 0, 0, N, N, N, &one, b, N, a, N, &zero, c, N) != 0) fail("cublasSgemm");
          CUDA_CHECK(cudaDeviceSynchronize());
        };
        gemm();
        fetch("cuBLAS SGEMM");
        add("matmul-roof-float", "cublas-sgemm", median_ms(gemm), flops, "gflops", N);
        cb.destroy(h);
      } else {
        std::printf("  cuBLAS not available: SGEMM roof skipped\n");
      }
    }
    cudaFree(a);
    cudaFree(b);
    cudaFree(c);
  }
#endif
}

// ------------------------------------------------------------------ 4. tiled reduction
static const int RT = 256; // work-items per tile
static const int RK = 64;  // elements per work-item

static void bench_reduce() {
  const int n = QUICK ? 1 << 20 : 1 << 26;
  const int G = n / (RT * RK); // tiles; work-item g sums in[g + k*G*RT], k < RK
  std::printf("tiled reduction, %d ints (%d tiles of %d, %d elements per work-item; partial sums summed on the host)\n",
              n, G, RT, RK);
  std::vector<int> hin(n), hpart(G);
  long long want = 0;
  for (int i = 0; i < n; ++i) {
    hin[i] = (int)((i * 2654435761u) >> 28) + 1; // 1..16: the sum fits in int
    want += hin[i];
  }
  const double bytes = 4.0 * n;
  auto total = [&](const int* p) {
    long long s = 0;
    for (int i = 0; i < G; ++i) s += p[i];
    return s;
  };
  auto verify = [&](const char* what, long long got) {
    if (got != want) fail(std::string(what) + ": sum " + std::to_string(got) + ", expected " + std::to_string(want));
  };
  accelerator_view v = av();
  long long got = 0;
  {
    array_view<const int, 1> in(n, hin);
    array_view<int, 1> part(G, hpart);
    auto run = [&] {
      part.discard_data();
      parallel_for_each(v, extent<1>(G * RT).tile<RT>(), [=](tiled_index<RT> t) restrict(amp) {
        tile_static int s[RT];
        const int l = t.local[0], g = t.global[0];
        int sum = 0;
        for (int k = 0; k < RK; ++k) sum += in[g + k * G * RT];
        s[l] = sum;
        t.barrier.wait();
        for (int st = RT / 2; st > 0; st >>= 1) {
          if (l < st) s[l] += s[l + st];
          t.barrier.wait();
        }
        if (l == 0) part[t.tile[0]] = s[0];
      });
      part.synchronize();
      got = total(hpart.data());
    };
    run();
    verify("reduce amp", got);
    add("reduce", "amp", median_ms(run), bytes, "gbps", n);
  }
  {
    constexpr int TEAM = BENCH_GPU ? RT : 1;
    constexpr int ITEMS = RT / TEAM;
    Kokkos::View<int*> in("in", n), part("part", G);
    auto hp = Kokkos::create_mirror_view(part);
    {
      auto m = Kokkos::create_mirror_view(in);
      for (int i = 0; i < n; ++i) m(i) = hin[i];
      Kokkos::deep_copy(in, m);
    }
    auto run = [&] {
      Kokkos::parallel_for(
          "reduce", Kokkos::TeamPolicy<Exec>(G, TEAM).set_scratch_size(0, Kokkos::PerTeam(RT * sizeof(int))),
          KOKKOS_LAMBDA(const Team& m) {
            ScratchView<int> s(m.team_scratch(0), RT);
            for (int it = 0; it < ITEMS; ++it) {
              const int l = m.team_rank() + it * TEAM, g = m.league_rank() * RT + l;
              int sum = 0;
              for (int k = 0; k < RK; ++k) sum += in(g + k * G * RT);
              s(l) = sum;
            }
            m.team_barrier();
            for (int st = RT / 2; st > 0; st >>= 1) {
              for (int it = 0; it < ITEMS; ++it) {
                const int l = m.team_rank() + it * TEAM;
                if (l < st) s(l) += s(l + st);
              }
              m.team_barrier();
            }
            if (m.team_rank() == 0) part(m.league_rank()) = s(0);
          });
      Kokkos::deep_copy(hp, part);
      got = total(hp.data());
    };
    run();
    verify("reduce kokkos", got);
    add("reduce", "kokkos", median_ms(run), bytes, "gbps", n);
  }
#if BENCH_GPU
  {
    int *din, *dpart;
    CUDA_CHECK(cudaMalloc(&din, n * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&dpart, G * sizeof(int)));
    CUDA_CHECK(cudaMemcpy(din, hin.data(), n * sizeof(int), cudaMemcpyHostToDevice));
    auto run = [&] {
      cu_reduce<RT, RK><<<G, RT>>>(din, dpart, G);
      CUDA_CHECK(cudaMemcpy(hpart.data(), dpart, G * sizeof(int), cudaMemcpyDeviceToHost));
      got = total(hpart.data());
    };
    run();
    verify("reduce cuda", got);
    add("reduce", "cuda", median_ms(run), bytes, "gbps", n);
    cudaFree(din);
    cudaFree(dpart);
  }
#endif
}

// ------------------------------------------------------------------ 5. transpose
static void bench_transpose() {
  const int N = QUICK ? 256 : (BENCH_GPU ? 8192 : 2048);
  const long long NN = (long long)N * N;
  const double bytes = 2.0 * sizeof(float) * NN;
  std::printf("transpose %dx%d floats, 32x32 tiles padded to [32][33]\n", N, N);
  std::vector<float> hin(NN), hout(NN), ref(NN);
  for (long long i = 0; i < NN; ++i) hin[i] = (float)(i % 1000003) + 0.5f;
  for (int r = 0; r < N; ++r)
    for (int c = 0; c < N; ++c) ref[(size_t)c * N + r] = hin[(size_t)r * N + c];
  accelerator_view v = av();
  {
    array_view<const float, 2> in(N, N, hin);
    array_view<float, 2> out(N, N, hout);
    auto run = [&] {
      out.discard_data();
      parallel_for_each(v, in.extent.tile<32, 32>(), [=](tiled_index<32, 32> t) restrict(amp) {
        tile_static float tile[32][33];
        const int lx = t.local[1], ly = t.local[0];
        tile[ly][lx] = in[t.global];
        t.barrier.wait_with_tile_static_memory_fence();
        out(t.tile[1] * 32 + ly, t.tile[0] * 32 + lx) = tile[lx][ly];
      });
      v.wait();
    };
    run();
    out.synchronize();
    check_equal("transpose amp", hout.data(), ref.data(), NN);
    add("transpose", "amp", median_ms(run), bytes, "gbps", NN);
  }
  {
    constexpr int TEAM = BENCH_GPU ? 1024 : 1;
    constexpr int ITEMS = 1024 / TEAM;
    Kokkos::View<float*> in("in", NN), out("out", NN);
    {
      auto m = Kokkos::create_mirror_view(in);
      for (long long i = 0; i < NN; ++i) m(i) = hin[i];
      Kokkos::deep_copy(in, m);
    }
    auto run = [&] {
      const int tiles = N / 32;
      Kokkos::parallel_for(
          "transpose",
          Kokkos::TeamPolicy<Exec, Kokkos::LaunchBounds<TEAM, 1>>(tiles * tiles, TEAM)
              .set_scratch_size(0, Kokkos::PerTeam(32 * 33 * sizeof(float))),
          KOKKOS_LAMBDA(const Kokkos::TeamPolicy<Exec, Kokkos::LaunchBounds<TEAM, 1>>::member_type& m) {
            ScratchView<float> tile(m.team_scratch(0), 32 * 33);
            const int ty = m.league_rank() / tiles, tx = m.league_rank() % tiles;
            for (int it = 0; it < ITEMS; ++it) {
              const int t = m.team_rank() + it * TEAM, ly = t / 32, lx = t % 32;
              tile(ly * 33 + lx) = in((ty * 32 + ly) * N + tx * 32 + lx);
            }
            m.team_barrier();
            for (int it = 0; it < ITEMS; ++it) {
              const int t = m.team_rank() + it * TEAM, ly = t / 32, lx = t % 32;
              out((tx * 32 + ly) * N + ty * 32 + lx) = tile(lx * 33 + ly);
            }
          });
      Kokkos::fence();
    };
    run();
    auto m = Kokkos::create_mirror_view(out);
    Kokkos::deep_copy(m, out);
    check_equal("transpose kokkos", m.data(), ref.data(), NN);
    add("transpose", "kokkos", median_ms(run), bytes, "gbps", NN);
  }
#if BENCH_GPU
  {
    float *din, *dout;
    CUDA_CHECK(cudaMalloc(&din, NN * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&dout, NN * sizeof(float)));
    CUDA_CHECK(cudaMemcpy(din, hin.data(), NN * sizeof(float), cudaMemcpyHostToDevice));
    auto run = [&] {
      cu_transpose<<<dim3(N / 32, N / 32), dim3(32, 32)>>>(din, dout, N);
      CUDA_CHECK(cudaDeviceSynchronize());
    };
    run();
    CUDA_CHECK(cudaMemcpy(hout.data(), dout, NN * sizeof(float), cudaMemcpyDeviceToHost));
    check_equal("transpose cuda", hout.data(), ref.data(), NN);
    add("transpose", "cuda", median_ms(run), bytes, "gbps", NN);
    cudaFree(din);
    cudaFree(dout);
  }
#endif
}

// ------------------------------------------------------------------ report
static const Rec* find(const std::string& name, const std::string& version) {
  for (const Rec& r : recs)
    if (r.name == name && r.version == version) return &r;
  return nullptr;
}
static const Rec* best_kokkos(const std::string& name) {
  const Rec* b = nullptr;
  for (const Rec& r : recs)
    if (r.name == name && (r.version == "kokkos" || r.version == "kokkos-team") && (!b || r.ms < b->ms)) b = &r;
  return b;
}
static const Rec* roof_for(const std::string& name) {
  if (name.rfind("matmul", 0) == 0) return find("matmul-roof-float", "cublas-sgemm");
  if (name == "stream" || name == "reduce" || name == "transpose") {
    const Rec* b = nullptr;
    for (const Rec& r : recs)
      if (r.name == "copy-roof" && (!b || r.rate > b->rate)) b = &r;
    return b;
  }
  return nullptr;
}

static void report(const std::string& dir) {
  std::printf("\n%-20s %-14s %12s %10s %8s %10s %9s %8s\n", "kernel", "version", "median ms", "rate", "unit",
              "amp/kokkos", "amp/cuda", "% roof");
  for (const Rec& r : recs) {
    char ak[16] = "", ac[16] = "", pr[16] = "";
    if (r.version == "amp") {
      if (const Rec* k = best_kokkos(r.name)) std::snprintf(ak, sizeof ak, "%.2f", r.ms / k->ms);
      if (const Rec* c = find(r.name, "cuda")) std::snprintf(ac, sizeof ac, "%.2f", r.ms / c->ms);
    }
    if (const Rec* roof = roof_for(r.name))
      if (roof->rate > 0 && r.name != roof->name) std::snprintf(pr, sizeof pr, "%.1f", 100.0 * r.rate / roof->rate);
    const bool launch = r.unit.empty();
    std::printf("%-20s %-14s %12.4f %10.2f %8s %10s %9s %8s\n", r.name.c_str(), r.version.c_str(), r.ms,
                launch ? r.ms * 1000 : r.rate, launch ? "us" : r.unit == "gbps" ? "GB/s" : "GFLOP/s", ak, ac, pr);
  }
  std::string path = dir + "/bench.json";
  std::ofstream f(path);
  if (!f) fail("cannot write " + path);
  f << "[\n";
  for (size_t i = 0; i < recs.size(); ++i) {
    const Rec& r = recs[i];
    f << "  {\"name\": \"" << r.name << "\", \"version\": \"" << r.version << "\", \"median_ms\": " << r.ms;
    if (!r.unit.empty()) f << ", \"" << r.unit << "\": " << r.rate;
    f << ", \"n\": " << r.n << "}" << (i + 1 < recs.size() ? "," : "") << "\n";
  }
  f << "]\n";
  std::printf("\nwrote %s\n", path.c_str());
}

int main(int argc, char** argv) {
  std::string out = ".";
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--quick") QUICK = true;
    else if (a == "--out" && i + 1 < argc) out = argv[++i];
    else if (a == "--reps" && i + 1 < argc) REPS = std::max(1, std::atoi(argv[++i]));
    else {
      std::printf("usage: %s [--quick] [--reps N] [--out DIR]\n", argv[0]);
      return 2;
    }
  }
  if (QUICK && REPS == 20) REPS = 5;
  {
    std::string cmd = "mkdir -p '" + out + "'";
    if (std::system(cmd.c_str()) != 0) fail("cannot create " + out);
  }
  accelerator acc;
  const std::wstring wd = acc.description;
  std::printf("AMP default accelerator: %s\n", std::string(wd.begin(), wd.end()).c_str());
  std::printf("Kokkos execution space: %s (concurrency %d)%s, %d timed runs each\n", Exec::name(), Exec::concurrency(),
              QUICK ? ", --quick" : "", REPS);
  bench_launch();
  bench_stream();
  if (BENCH_GPU && !QUICK) {
    bench_matmul<int>("int", 4096);
    bench_matmul<float>("float", 4096);
  } else {
    bench_matmul<int>("int", QUICK ? 128 : 512);
    bench_matmul<float>("float", QUICK ? 128 : 512);
  }
  bench_reduce();
  bench_transpose();
  report(out);
  return 0;
}
