// Backend facilities, Kokkos or native (issue 23, bench/RESULTS.md "Backend
// facilities: Kokkos or native"): each facility the CUDA backend
// (amp_compat/detail/backend/cuda/device.h and kernel.h) hand-writes over the
// CUDA runtime, timed against what Kokkos provides for it, on one GPU and
// one stream. Version "cuda-native" is the exact call sequence of the
// backend; "kokkos" (and "kokkos-view") what a backend written over Kokkos
// would call instead, on a Kokkos::Cuda instance built on the same stream
// (a non-blocking stream, as every accelerator_view but the default one has).
//
//   fac-alloc@S        device_memory::alloc + free: cudaMalloc + cudaFree
//                      against Kokkos::kokkos_malloc<CudaSpace> + kokkos_free
//                      and a View<char*, CudaSpace> (WithoutInitializing)
//                      made and dropped. Time per pair.
//   fac-h2d@S          to_device: cudaMemcpyAsync(H2D, stream) +
//                      cudaStreamSynchronize, from pageable memory (a
//                      std::vector, as AMP's copy() gets), against
//                      deep_copy(instance, device View, unmanaged host View)
//                      + instance.fence(). Time per copy (GB/s from 1 MiB up).
//   fac-d2h@S          to_host: the same, device to host.
//   fac-d2d@S          device_to_device on one device: cudaMemcpyAsync(D2D)
//                      + cudaStreamSynchronize against deep_copy(instance,
//                      View, View) + instance.fence().
//   fac-h2d-queued@S   to_device_queued: 64 uploads queued (cudaMemcpyAsync,
//                      no wait) then one wait, against 64 deep_copy(instance,
//                      ...) then instance.fence(). Time per upload.
//   fac-wait-idle      queue_state::synchronize on an idle queue:
//                      cudaStreamSynchronize ("cuda-native"), a marker
//                      (cudaEventRecord + cudaEventSynchronize, version
//                      "cuda-event"), instance.fence() ("kokkos").
//   fac-wait-kernel    an empty kernel (launched natively, 1 thread) then the
//                      same three waits: what a wait costs when there is work.
//   fac-wait-all       device_memory::wait_all on one GPU after an empty
//                      kernel: cudaDeviceSynchronize against Kokkos::fence().
//   fac-atomic-<op>-<space>  the kernel-side atomics (backend/cuda/kernel.h):
//                      2^22 threads (cas: 2^18), 16 operations each on 64 words
//                      (contention), global memory or __shared__ (AMP's
//                      tile_static; 256-thread blocks): add, xor, max,
//                      float exchange, and an addition made of a
//                      compare-exchange loop (cas); CUDA's intrinsic
//                      against Kokkos' function of the Kokkos this binary is
//                      built with. The PTX of both is compared by
//                      tests/fidelity/atomics_isa.sh; this measures whether
//                      a difference there costs time. Time per kernel.
//
// Sizes: 64 B (a kernel closure), 4 KiB (latency-bound), 1 MiB, 64 MiB
// (bandwidth-bound; alloc 256 MiB). Every copy's result is checked before it
// is timed, the atomics' results against a CPU reference (exchange: every
// word holds a value some thread stored).
//
// Not measured because Kokkos has no counterpart to time: cross-queue
// ordering (queue_state::wait_for, lend/take_back: cudaEventRecord +
// cudaStreamWaitEvent; Kokkos has no event or instance-to-instance
// dependency in 3.4 or 4.6), stream-ordered allocation (alloc_queued:
// cudaMallocAsync/cudaFreeAsync, the host never waits; Kokkos 4.6 with
// Kokkos_ENABLE_IMPL_CUDA_MALLOC_ASYNC synchronises after its
// cudaMallocAsync and fences the device around its cudaFreeAsync, 3.4 has
// none), peer copies between GPUs (cudaMemcpyPeerAsync: Kokkos 3.4 drives
// one device per process, 4.3+ only experimentally more), the kernel-abort
// channel (mapped host memory).
#include "harness.h"

#include <cstring>
#include <type_traits>

namespace bench {

#if BENCH_GPU

namespace {

__global__ void fac_empty() {}

// Sizes as labels: 64B, 4KiB, 1MiB, 64MiB.
std::string size_label(std::size_t b) {
  if (b >= (1u << 20) && b % (1u << 20) == 0) return std::to_string(b >> 20) + "MiB";
  if (b >= 1024 && b % 1024 == 0) return std::to_string(b >> 10) + "KiB";
  return std::to_string(b) + "B";
}

// Records a per-operation time (ns, from `ms` over `ops` operations), or a
// bandwidth for copies of 1 MiB and more (one operation per timed run).
void add_op(const std::string& name, const std::string& version, double ms, int ops, std::size_t bytes) {
  if (ops == 1 && bytes >= (1u << 20)) add(name, version, ms, static_cast<double>(bytes), "gbps", bytes);
  else add(name, version, ms / ops, 0, "", static_cast<long long>(bytes));
}

using DevBytes = Kokkos::View<unsigned char*, Kokkos::CudaSpace, Kokkos::MemoryUnmanaged>;
using HostBytes = Kokkos::View<unsigned char*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>;

// One non-blocking stream and a Kokkos instance on it, for the whole group.
struct queue {
  cudaStream_t s = nullptr;
  queue() { CUDA_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking)); }
  ~queue() { cudaStreamDestroy(s); }
  queue(const queue&) = delete;
  queue& operator=(const queue&) = delete;
};

void allocations() {
  std::printf("fac-alloc: device allocation + release, per pair (cuda-native: cudaMalloc + cudaFree, what\n"
              "  backend/cuda/device.h does; kokkos: kokkos_malloc<CudaSpace> + kokkos_free; kokkos-view:\n"
              "  a View<char*, CudaSpace> WithoutInitializing made and dropped)\n");
  std::vector<std::size_t> sizes = {64, 4096, std::size_t(1) << 20, std::size_t(256) << 20};
  if (opt.quick) sizes.pop_back();
  for (std::size_t b : sizes) {
    const std::string name = "fac-alloc@" + size_label(b);
    const int L = b >= (std::size_t(64) << 20) ? 4 : 64;
    { // checked: each returns distinct, usable memory
      void* p = nullptr;
      CUDA_CHECK(cudaMalloc(&p, b));
      void* q = Kokkos::kokkos_malloc<Kokkos::CudaSpace>("fac", b);
      if (!p || !q) fail(name + ": allocation returned null");
      CUDA_CHECK(cudaMemset(q, 1, b));
      CUDA_CHECK(cudaDeviceSynchronize());
      Kokkos::kokkos_free<Kokkos::CudaSpace>(q);
      CUDA_CHECK(cudaFree(p));
    }
    add_op(name, "cuda-native", median_ms([&] {
             for (int i = 0; i < L; ++i) {
               void* p = nullptr;
               CUDA_CHECK(cudaMalloc(&p, b));
               CUDA_CHECK(cudaFree(p));
             }
           }),
           L, 0);
    add_op(name, "kokkos", median_ms([&] {
             for (int i = 0; i < L; ++i) Kokkos::kokkos_free<Kokkos::CudaSpace>(Kokkos::kokkos_malloc<Kokkos::CudaSpace>("fac", b));
           }),
           L, 0);
    add_op(name, "kokkos-view", median_ms([&] {
             for (int i = 0; i < L; ++i) {
               Kokkos::View<unsigned char*, Kokkos::CudaSpace> v(Kokkos::view_alloc(Kokkos::WithoutInitializing, "fac"), b);
               (void)v;
             }
           }),
           L, 0);
  }
}

// The copies: native and Kokkos, each checked once, then timed.
void copies(queue& q, Kokkos::Cuda& inst) {
  std::printf("fac-h2d / fac-d2h / fac-d2d: one copy on a stream, then a wait for it (cuda-native:\n"
              "  cudaMemcpyAsync + cudaStreamSynchronize, what backend/cuda/device.h does; kokkos: deep_copy on a\n"
              "  Kokkos::Cuda instance of the same stream + instance.fence()). Host memory is pageable (std::vector)\n");
  std::vector<std::size_t> sizes = {64, 4096, std::size_t(1) << 20, std::size_t(64) << 20};
  if (opt.quick) sizes.pop_back();
  for (std::size_t b : sizes) {
    const std::string lab = size_label(b);
    const int L = b >= (std::size_t(1) << 20) ? 1 : 200;
    std::vector<unsigned char> h(b), back(b);
    for (std::size_t i = 0; i < b; ++i) h[i] = static_cast<unsigned char>((i * 2654435761u) >> 24);
    dbuf<unsigned char> d(b), d2(b);
    const DevBytes dv(d.p, b), dv2(d2.p, b);
    const HostBytes hv(h.data(), b), bv(back.data(), b);
    auto zero = [&] {
      CUDA_CHECK(cudaMemset(d.p, 0, b));
      CUDA_CHECK(cudaMemset(d2.p, 0, b));
      CUDA_CHECK(cudaDeviceSynchronize());
      std::fill(back.begin(), back.end(), 0);
    };
    auto native_h2d = [&] {
      CUDA_CHECK(cudaMemcpyAsync(d.p, h.data(), b, cudaMemcpyHostToDevice, q.s));
      CUDA_CHECK(cudaStreamSynchronize(q.s));
    };
    auto native_d2h = [&] {
      CUDA_CHECK(cudaMemcpyAsync(back.data(), d.p, b, cudaMemcpyDeviceToHost, q.s));
      CUDA_CHECK(cudaStreamSynchronize(q.s));
    };
    auto native_d2d = [&] {
      CUDA_CHECK(cudaMemcpyAsync(d2.p, d.p, b, cudaMemcpyDeviceToDevice, q.s));
      CUDA_CHECK(cudaStreamSynchronize(q.s));
    };
    auto kokkos_h2d = [&] {
      Kokkos::deep_copy(inst, dv, hv);
      inst.fence();
    };
    auto kokkos_d2h = [&] {
      Kokkos::deep_copy(inst, bv, dv);
      inst.fence();
    };
    auto kokkos_d2d = [&] {
      Kokkos::deep_copy(inst, dv2, dv);
      inst.fence();
    };
    // Checked: host -> device -> device -> host, each way.
    zero();
    native_h2d(), native_d2d();
    CUDA_CHECK(cudaMemcpy(back.data(), d2.p, b, cudaMemcpyDeviceToHost));
    check_equal("fac h2d+d2d cuda-native " + lab, back.data(), h.data(), (long long)b);
    std::fill(back.begin(), back.end(), 0);
    native_d2h();
    check_equal("fac d2h cuda-native " + lab, back.data(), h.data(), (long long)b);
    zero();
    kokkos_h2d(), kokkos_d2d();
    CUDA_CHECK(cudaMemcpy(back.data(), d2.p, b, cudaMemcpyDeviceToHost));
    check_equal("fac h2d+d2d kokkos " + lab, back.data(), h.data(), (long long)b);
    std::fill(back.begin(), back.end(), 0);
    kokkos_d2h();
    check_equal("fac d2h kokkos " + lab, back.data(), h.data(), (long long)b);

    auto times = [&](auto&& f) {
      return median_ms([&] {
        for (int i = 0; i < L; ++i) f();
      });
    };
    add_op("fac-h2d@" + lab, "cuda-native", times(native_h2d), L, b);
    add_op("fac-h2d@" + lab, "kokkos", times(kokkos_h2d), L, b);
    add_op("fac-d2h@" + lab, "cuda-native", times(native_d2h), L, b);
    add_op("fac-d2h@" + lab, "kokkos", times(kokkos_d2h), L, b);
    add_op("fac-d2d@" + lab, "cuda-native", times(native_d2d), L, b);
    add_op("fac-d2d@" + lab, "kokkos", times(kokkos_d2d), L, b);

    if (b <= 4096) { // queued small uploads (kernel closures, to_device_queued)
      const int Q = 64;
      add_op("fac-h2d-queued@" + lab, "cuda-native", median_ms([&] {
               for (int i = 0; i < Q; ++i) CUDA_CHECK(cudaMemcpyAsync(d.p, h.data(), b, cudaMemcpyHostToDevice, q.s));
               CUDA_CHECK(cudaStreamSynchronize(q.s));
             }),
             Q, b);
      add_op("fac-h2d-queued@" + lab, "kokkos", median_ms([&] {
               for (int i = 0; i < Q; ++i) Kokkos::deep_copy(inst, dv, hv);
               inst.fence();
             }),
             Q, b);
    }
  }
}

void waits(queue& q, Kokkos::Cuda& inst) {
  std::printf("fac-wait-*: waiting for a queue (cuda-native: cudaStreamSynchronize, queue_state::synchronize;\n"
              "  cuda-event: cudaEventRecord + cudaEventSynchronize, a marker's wait; kokkos: instance.fence()),\n"
              "  idle and after an empty kernel; fac-wait-all: cudaDeviceSynchronize against Kokkos::fence()\n");
  const int L = 1000;
  cudaEvent_t e;
  CUDA_CHECK(cudaEventCreateWithFlags(&e, cudaEventDisableTiming));
  auto stream_wait = [&] { CUDA_CHECK(cudaStreamSynchronize(q.s)); };
  auto event_wait = [&] {
    CUDA_CHECK(cudaEventRecord(e, q.s));
    CUDA_CHECK(cudaEventSynchronize(e));
  };
  auto kokkos_wait = [&] { inst.fence(); };
  auto kernel = [&] { fac_empty<<<1, 1, 0, q.s>>>(); };
  for (int i = 0; i < 20 * L; ++i) kernel(), stream_wait(); // clocks up (b_basic.cpp's launch)
  auto per = [&](auto&& w, bool with_kernel) {
    return median_ms([&] {
             for (int i = 0; i < L; ++i) {
               if (with_kernel) kernel();
               w();
             }
           }) /
           L;
  };
  add("fac-wait-idle", "cuda-native", per(stream_wait, false), 0, "", 1);
  add("fac-wait-idle", "cuda-event", per(event_wait, false), 0, "", 1);
  add("fac-wait-idle", "kokkos", per(kokkos_wait, false), 0, "", 1);
  add("fac-wait-kernel", "cuda-native", per(stream_wait, true), 0, "", 1);
  add("fac-wait-kernel", "cuda-event", per(event_wait, true), 0, "", 1);
  add("fac-wait-kernel", "kokkos", per(kokkos_wait, true), 0, "", 1);
  add("fac-wait-all", "cuda-native", per([] { CUDA_CHECK(cudaDeviceSynchronize()); }, true), 0, "", 1);
  add("fac-wait-all", "kokkos", per([] { Kokkos::fence(); }, true), 0, "", 1);
  CUDA_CHECK(cudaEventDestroy(e));
}

// ---- kernel-side atomics: CUDA's intrinsic against Kokkos' function.
constexpr int AT_WORDS = 64, AT_PER = 16, AT_BLOCK = 256;

template <class T> __device__ inline T fac_operand(unsigned t, int k);
template <> __device__ inline int fac_operand<int>(unsigned t, int k) { return static_cast<int>((t * 2654435761u + k) >> 8) & 0xffff; }
template <> __device__ inline unsigned fac_operand<unsigned>(unsigned t, int k) { return (t * 2654435761u + k) | 1u; }
template <> __device__ inline float fac_operand<float>(unsigned t, int k) { return static_cast<float>((t + k) & 1023); }
template <class T> T fac_operand_host(unsigned t, int k) {
  if constexpr (std::is_same_v<T, int>) return static_cast<int>((t * 2654435761u + k) >> 8) & 0xffff;
  else if constexpr (std::is_same_v<T, unsigned>) return (t * 2654435761u + k) | 1u;
  else return static_cast<float>((t + k) & 1023);
}

// Global memory: 64 words, thread t's k-th operation on word (t + k) % 64.
// Shared memory: each block's own 64 words, stored to `sink` at the end (so
// the work is not dead code; `words` is unused there, the signature is the
// global kernel's).
#define FAC_ATOMIC_KERNELS(op, T, native, kokkos, init)                                                \
  template <bool K> __global__ void fac_##op##_global(T* words, T* sink) {                                  \
    const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;                                                \
    T acc{};                                                                                                 \
    for (int k = 0; k < AT_PER; ++k) {                                                                       \
      T* p = words + (t + k) % AT_WORDS;                                                                     \
      const T v = fac_operand<T>(t, k);                                                                      \
      if constexpr (K) acc = kokkos;                                                                         \
      else acc = native;                                                                                     \
    }                                                                                                        \
    if (acc == T(-12345)) sink[0] = acc; /* keeps the returned values live, never true in practice */      \
  }                                                                                                          \
  template <bool K> __global__ void fac_##op##_shared(T*, T* sink) {                                        \
    __shared__ T s[AT_WORDS];                                                                                \
    if (threadIdx.x < AT_WORDS) s[threadIdx.x] = init;                                                       \
    __syncthreads();                                                                                         \
    const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;                                                \
    T acc{};                                                                                                 \
    for (int k = 0; k < AT_PER; ++k) {                                                                       \
      T* p = s + (t + k) % AT_WORDS;                                                                         \
      const T v = fac_operand<T>(t, k);                                                                      \
      if constexpr (K) acc = kokkos;                                                                         \
      else acc = native;                                                                                     \
    }                                                                                                        \
    __syncthreads();                                                                                         \
    if (threadIdx.x < AT_WORDS) sink[1 + blockIdx.x % 1024 * AT_WORDS + threadIdx.x] = s[threadIdx.x];       \
    if (acc == T(-12345)) sink[0] = acc;                                                                     \
  }
FAC_ATOMIC_KERNELS(add, int, atomicAdd(p, v), Kokkos::atomic_fetch_add(p, v), 0)
FAC_ATOMIC_KERNELS(xor, unsigned, atomicXor(p, v), Kokkos::atomic_fetch_xor(p, v), 0u)
FAC_ATOMIC_KERNELS(max, int, atomicMax(p, v), Kokkos::atomic_fetch_max(p, v), -(1 << 30))
// Compare-exchange in AMP's classic loop (an addition built from it, as
// tests/test_atomics.cpp's CompareExchangeLoopsAreLinearizable): retried
// until it succeeds, so contention costs round trips.
template <bool K> __device__ unsigned fac_cas_add(unsigned* p, unsigned v) {
  unsigned old = *static_cast<volatile unsigned*>(p);
  for (;;) {
    const unsigned found = K ? Kokkos::atomic_compare_exchange(p, old, old + v) : atomicCAS(p, old, old + v);
    if (found == old) return old;
    old = found;
  }
}
FAC_ATOMIC_KERNELS(cas, unsigned, fac_cas_add<false>(p, v), fac_cas_add<true>(p, v), 0u)
FAC_ATOMIC_KERNELS(exchf, float, atomicExch(p, v), Kokkos::atomic_exchange(p, v), 0.f)
#undef FAC_ATOMIC_KERNELS

// The global kernels' final words: add, xor, max and the compare-exchange
// addition do not depend on the order and are compared with a CPU fold;
// exchange does, and each word must hold a value some thread stored.
template <class T, class Fold> std::vector<T> fac_reference(unsigned threads, T init, Fold fold) {
  std::vector<T> w(AT_WORDS, init);
  for (unsigned t = 0; t < threads; ++t)
    for (int k = 0; k < AT_PER; ++k) {
      T& a = w[(t + k) % AT_WORDS];
      a = fold(a, fac_operand_host<T>(t, k));
    }
  return w;
}

// Four rows for one operation: global and shared, native and Kokkos.
// `check(what, words)` verifies the global kernels' words.
template <class T, class Check>
void atomic_rows(const char* op, unsigned threads, T init, void (*native_global)(T*, T*),
                 void (*kokkos_global)(T*, T*), void (*native_shared)(T*, T*), void (*kokkos_shared)(T*, T*),
                 Check check) {
  const unsigned blocks = threads / AT_BLOCK;
  dbuf<T> words(AT_WORDS), sink(1 + 1024 * AT_WORDS);
  const std::vector<T> initial(AT_WORDS, init);
  auto reset = [&] {
    words.upload(initial);
    cuda_sync();
  };
  struct row {
    const char* space;
    const char* version;
    void (*kernel)(T*, T*);
  } rows[] = {{"global", "cuda-native", native_global}, {"global", "kokkos", kokkos_global},
              {"shared", "cuda-native", native_shared}, {"shared", "kokkos", kokkos_shared}};
  for (const row& r : rows) {
    auto run = [&] {
      r.kernel<<<blocks, AT_BLOCK>>>(words.p, sink.p);
      cuda_sync();
    };
    const std::string name = std::string("fac-atomic-") + op + "-" + r.space;
    reset();
    run();
    if (std::string(r.space) == "global") check(name + " " + r.version, words.download(), threads);
    add(name, r.version, median_ms(run, reset), 0, "", static_cast<long long>(threads) * AT_PER);
  }
}

template <class T, class Fold> auto folded(T init, Fold fold) {
  return [init, fold](const std::string& what, const std::vector<T>& got, unsigned threads) {
    const std::vector<T> want = fac_reference<T>(threads, init, fold);
    check_equal(what, got.data(), want.data(), AT_WORDS);
  };
}

void atomics() {
  // The compare-exchange loop retries under contention: 16 times fewer threads.
  const unsigned nt = opt.quick ? 1u << 18 : 1u << 22, nt_cas = nt / 16;
  std::printf("fac-atomic-<op>-<space>: %u threads (cas: %u) x %d atomics on %d words, global or __shared__ memory,\n"
              "  256-thread blocks; cuda-native: CUDA's intrinsic (backend/cuda/kernel.h), kokkos: Kokkos' function\n"
              "  (time per kernel)\n",
              nt, nt_cas, AT_PER, AT_WORDS);
  atomic_rows<int>("add", nt, 0, fac_add_global<false>, fac_add_global<true>, fac_add_shared<false>, fac_add_shared<true>,
                   folded<int>(0, [](int a, int v) { return static_cast<int>(static_cast<unsigned>(a) + static_cast<unsigned>(v)); }));
  atomic_rows<unsigned>("xor", nt, 0u, fac_xor_global<false>, fac_xor_global<true>, fac_xor_shared<false>,
                        fac_xor_shared<true>, folded<unsigned>(0u, [](unsigned a, unsigned v) { return a ^ v; }));
  atomic_rows<int>("max", nt, -(1 << 30), fac_max_global<false>, fac_max_global<true>, fac_max_shared<false>,
                   fac_max_shared<true>, folded<int>(-(1 << 30), [](int a, int v) { return v > a ? v : a; }));
  atomic_rows<unsigned>("cas", nt_cas, 0u, fac_cas_global<false>, fac_cas_global<true>, fac_cas_shared<false>,
                        fac_cas_shared<true>, folded<unsigned>(0u, [](unsigned a, unsigned v) { return a + v; }));
  // Stored values are the integers 0 .. 1023 (fac_operand<float>).
  atomic_rows<float>("exchf", nt, 0.f, fac_exchf_global<false>, fac_exchf_global<true>, fac_exchf_shared<false>,
                     fac_exchf_shared<true>, [](const std::string& what, const std::vector<float>& got, unsigned) {
                       for (float w : got)
                         if (!(w >= 0.f && w <= 1023.f && w == static_cast<float>(static_cast<int>(w))))
                           fail(what + ": a word holds " + std::to_string(w) + ", never stored");
                     });
}

} // namespace

void facilities() {
  std::printf("facilities: the CUDA backend's native runtime calls and atomics against Kokkos' (one GPU)\n");
  queue q;
  {
    Kokkos::Cuda inst(q.s); // Kokkos' instance on the backend's kind of stream
    allocations();
    copies(q, inst);
    waits(q, inst);
  }
  atomics();
}

#else
void facilities() {
  std::printf("facilities: CUDA build only (the CUDA backend's runtime calls against Kokkos'); nothing to run here\n");
}
#endif

} // namespace bench
