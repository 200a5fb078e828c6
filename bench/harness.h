// What every benchmark file shares: timing, result records, checks, and the
// raw-CUDA helpers of the GPU build.
//
// One set of sources, two binaries: amp_bench_host (host build: AMP on the
// default accelerator = Kokkos OpenMP, Kokkos on its DefaultExecutionSpace)
// and amp_bench_gpu (GPU build, compiled as CUDA: AMP on the GPU, Kokkos on
// Cuda, plus hand-written CUDA kernels and the roofs).
//
// Method (bench/README.md): each version's result is checked against a CPU
// reference before it is timed; then one warm-up and the median of REPS timed
// runs, each ending with the device idle. Only the kernels are timed unless a
// record's name says otherwise (`transfer-*`); setup that restores inputs runs
// untimed before each run.
#pragma once
#include <amp.h>
#include <Kokkos_Core.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

// BENCH_DEVICE: a GPU build (AMP and Kokkos on the GPU). BENCH_GPU: the
// hand-written CUDA versions and the CUDA roofs are compiled too (the CUDA
// build only: the AMD GPU build, compiled as HIP, measures AMP against Kokkos).
#if defined(__HIP__)
#define BENCH_DEVICE 1
#define BENCH_GPU 0
#elif defined(__CUDACC__)
#define BENCH_DEVICE 1
#define BENCH_GPU 1
#include <cuda_runtime.h>
#else
#define BENCH_DEVICE 0
#define BENCH_GPU 0
#endif

namespace bench {

using Exec = Kokkos::DefaultExecutionSpace;
using Team = Kokkos::TeamPolicy<Exec>::member_type;
using Scratch = Exec::scratch_memory_space;
template <class T> using ScratchView = Kokkos::View<T*, Scratch, Kokkos::MemoryUnmanaged>;

// A GPU Kokkos team has one thread per AMP work-item; a host team has one
// thread that plays every work-item of the tile in turn (as amp_compat's host
// tiles do), looping between team barriers.
constexpr bool gpu = BENCH_DEVICE;
template <int ITEMS> constexpr int team_size() { return gpu ? ITEMS : 1; }

struct options {
  bool quick = false;
  int reps = 20;
};
extern options opt;

struct record {
  std::string name, version;
  double ms;
  double rate;      // GB/s or GFLOP/s
  std::string unit; // "gbps", "gflops" or "" (a time per launch / per barrier)
  long long n;
};
extern std::vector<record> records;

[[noreturn]] void fail(const std::string& what);

// Median of opt.reps runs of f after one warm-up; setup() runs untimed before
// each. f must leave the device idle (each version synchronises its own way).
template <class F, class S> double median_ms(F&& f, S&& setup) {
  setup();
  f();
  std::vector<double> t;
  for (int r = 0; r < opt.reps; ++r) {
    setup();
    auto t0 = std::chrono::steady_clock::now();
    f();
    auto t1 = std::chrono::steady_clock::now();
    t.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
  }
  std::sort(t.begin(), t.end());
  const int n = static_cast<int>(t.size());
  return n % 2 ? t[n / 2] : 0.5 * (t[n / 2 - 1] + t[n / 2]);
}
template <class F> double median_ms(F&& f) {
  return median_ms(f, [] {});
}

// Records one result; work = bytes (unit "gbps") or flops ("gflops").
void add(const std::string& name, const std::string& version, double ms, double work, const std::string& unit,
         long long n);

template <class T> void check_equal(const std::string& what, const T* got, const T* want, long long n) {
  for (long long i = 0; i < n; ++i)
    if (!(got[i] == want[i]))
      fail(what + ": element " + std::to_string(i) + " is " + std::to_string(got[i]) + ", expected " +
           std::to_string(want[i]));
}

// Host builds: a tiled AMP kernel is timed again with every host tile on
// fibers (version "amp-fibers"), after check() verified that run's result.
// Its "amp" row takes the compiled host tile path wherever the tile compiler
// rewrote the kernel (amp_compat/detail/backend/host/compiled_tiles.h). Returns the fibers
// time; GPU builds: nothing (0).
template <class F, class S, class C>
double add_fibers_row(const std::string& name, F&& run, S&& setup, C&& check, double work, const std::string& unit,
                    long long n) {
#if BENCH_DEVICE
  (void)name, (void)run, (void)setup, (void)check, (void)work, (void)unit, (void)n;
  return 0;
#else
  namespace ht = Concurrency::detail::host_tiles;
  ht::force_mode(ht::mode::fibers);
  setup();
  run();
  check();
  const double ms = median_ms(run, setup);
  add(name, "amp-fibers", ms, work, unit, n);
  ht::force_mode(ht::mode::compiled);
  return ms;
#endif
}
inline Concurrency::accelerator_view amp_view() { return Concurrency::accelerator().get_default_view(); }

template <class T> Kokkos::View<T*> kokkos_from(const std::vector<T>& h, const char* label) {
  Kokkos::View<T*> v(Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string(label)), h.size());
  Kokkos::deep_copy(v, Kokkos::View<const T*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(h.data(), h.size()));
  return v;
}
template <class T> std::vector<T> kokkos_to(const Kokkos::View<T*>& v) {
  std::vector<T> h(v.extent(0));
  Kokkos::deep_copy(Kokkos::View<T*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(h.data(), h.size()), v);
  return h;
}

#if BENCH_GPU
#define CUDA_CHECK(x)                                                                                      \
  do {                                                                                                     \
    cudaError_t e_ = (x);                                                                                  \
    if (e_ != cudaSuccess) ::bench::fail(std::string(#x) + ": " + cudaGetErrorString(e_));                 \
  } while (0)

// A device buffer for the hand-written CUDA versions.
template <class T> struct dbuf {
  T* p = nullptr;
  size_t n = 0;
  explicit dbuf(size_t count) : n(count) { CUDA_CHECK(cudaMalloc(&p, n * sizeof(T))); }
  dbuf(const std::vector<T>& h) : dbuf(h.size()) { upload(h); }
  ~dbuf() { cudaFree(p); }
  dbuf(const dbuf&) = delete;
  dbuf& operator=(const dbuf&) = delete;
  void upload(const std::vector<T>& h) { CUDA_CHECK(cudaMemcpy(p, h.data(), n * sizeof(T), cudaMemcpyHostToDevice)); }
  std::vector<T> download() const {
    std::vector<T> h(n);
    CUDA_CHECK(cudaMemcpy(h.data(), p, n * sizeof(T), cudaMemcpyDeviceToHost));
    return h;
  }
};
inline void cuda_sync() { CUDA_CHECK(cudaDeviceSynchronize()); }
#endif

// Element-wise Kokkos loop over [0, n) as a TeamPolicy: on the GPU 256-thread
// teams with one element per thread (Kokkos 3.4's RangePolicy streams at about
// a third of that bandwidth there); on the host one-thread teams over chunks.
template <class F> void kokkos_team_for(const char* name, int n, const F& f) {
  constexpr int TEAM = gpu ? 256 : 1, PER = gpu ? 1 : 4096, chunk = TEAM * PER;
  Kokkos::parallel_for(
      name, Kokkos::TeamPolicy<Exec>((n + chunk - 1) / chunk, TEAM), KOKKOS_LAMBDA(const Team& m) {
        const int base = m.league_rank() * chunk;
        for (int j = m.team_rank(); j < chunk; j += TEAM)
          if (base + j < n) f(base + j);
      });
}

// The benchmarks, one per file.
void launch_and_stream();
void transfers();
void matmul();
void reductions();
void transposes();
void tile_kernels();
void multi();
void textures();
void facilities();

} // namespace bench
