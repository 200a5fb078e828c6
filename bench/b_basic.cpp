// Launch overhead, a streaming kernel with the copy roofs, and host<->device
// transfers (reported apart from kernel times).
#include "harness.h"

#include <cstring>

using namespace concurrency;

namespace bench {

#if BENCH_GPU
__global__ void cu_empty() {}
__global__ void cu_scale(const int* in, int* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = 2 * in[i];
}
#endif

static void launch_overhead() {
  std::printf("launch: empty kernel over 1 work-item, synchronised after each launch (time per launch)\n");
  const int L = 200;
  accelerator_view v = amp_view();
  // Warm-up long enough for the GPU and the CPU to leave their idle clocks
  // (the first version timed otherwise paid for it: 13.3 against 10.6 us).
  for (int i = 0; i < 20 * L; ++i) {
    parallel_for_each(v, extent<1>(1), [=](index<1>) restrict(amp) {});
    v.wait();
    Kokkos::parallel_for("warm", Kokkos::RangePolicy<Exec>(0, 1), KOKKOS_LAMBDA(int) {});
    Kokkos::fence();
  }
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

static void stream() {
  const int n = opt.quick ? 1 << 20 : 1 << 26;
  const double bytes = 2.0 * sizeof(int) * n;
  std::printf("stream: out[i] = 2*in[i], %d ints (simple model)\n", n);
  std::vector<int> hin(n), ref(n), hout(n);
  for (int i = 0; i < n; ++i) {
    hin[i] = (int)((i * 2654435761u) >> 20) + 1;
    ref[i] = 2 * hin[i];
  }
  accelerator_view v = amp_view();
  {
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
  {
    auto in = kokkos_from(hin, "in");
    Kokkos::View<int*> out("out", n);
    auto run = [&] {
      Kokkos::parallel_for("scale", Kokkos::RangePolicy<Exec>(0, n), KOKKOS_LAMBDA(int i) { out(i) = 2 * in(i); });
      Kokkos::fence();
    };
    run();
    check_equal("stream kokkos", kokkos_to(out).data(), ref.data(), n);
    add("stream", "kokkos", median_ms(run), bytes, "gbps", n);
    // Kokkos 3.4's RangePolicy is slow on the GPU; see kokkos_team_for.
    auto team = [&] {
      kokkos_team_for("scale_team", n, KOKKOS_LAMBDA(int i) { out(i) = 2 * in(i); });
      Kokkos::fence();
    };
    Kokkos::deep_copy(out, 0);
    team();
    check_equal("stream kokkos-team", kokkos_to(out).data(), ref.data(), n);
    add("stream", "kokkos-team", median_ms(team), bytes, "gbps", n);
  }
#if BENCH_GPU
  {
    dbuf<int> din(hin), dout(n);
    auto run = [&] {
      cu_scale<<<(n + 255) / 256, 256>>>(din.p, dout.p, n);
      cuda_sync();
    };
    run();
    check_equal("stream cuda", dout.download().data(), ref.data(), n);
    add("stream", "cuda", median_ms(run), bytes, "gbps", n);
    auto roof = [&] {
      CUDA_CHECK(cudaMemcpy(dout.p, din.p, n * sizeof(int), cudaMemcpyDeviceToDevice));
      cuda_sync();
    };
    add("copy-roof", "cudaMemcpyD2D", median_ms(roof), bytes, "gbps", n);
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

void launch_and_stream() {
  launch_overhead();
  stream();
}

// Host -> accelerator and back, 2^26 ints from/to a std::vector (pageable
// memory): AMP copy(), Kokkos deep_copy, cudaMemcpy.
void transfers() {
  const int n = opt.quick ? 1 << 20 : 1 << 26;
  const double bytes = 1.0 * sizeof(int) * n;
  std::printf("transfers: %d ints between a std::vector and the accelerator\n", n);
  std::vector<int> h(n), back(n);
  for (int i = 0; i < n; ++i) h[i] = i ^ 0x5a5a;
  {
    array<int, 1> a(n, amp_view());
    const double up = median_ms([&] { copy(h.begin(), h.end(), a); });
    const double down = median_ms([&] { copy(a, back.begin()); });
    check_equal("transfer amp", back.data(), h.data(), n);
    add("transfer-h2d", "amp", up, bytes, "gbps", n);
    add("transfer-d2h", "amp", down, bytes, "gbps", n);
  }
  {
    Kokkos::View<int*> d(Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string("d")), n);
    Kokkos::View<int*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged> hv(h.data(), n), bv(back.data(), n);
    std::fill(back.begin(), back.end(), 0);
    const double up = median_ms([&] { Kokkos::deep_copy(d, hv); });
    const double down = median_ms([&] { Kokkos::deep_copy(bv, d); });
    check_equal("transfer kokkos", back.data(), h.data(), n);
    add("transfer-h2d", "kokkos", up, bytes, "gbps", n);
    add("transfer-d2h", "kokkos", down, bytes, "gbps", n);
  }
#if BENCH_GPU
  {
    dbuf<int> d(n);
    std::fill(back.begin(), back.end(), 0);
    const double up = median_ms([&] { CUDA_CHECK(cudaMemcpy(d.p, h.data(), bytes, cudaMemcpyHostToDevice)); });
    const double down = median_ms([&] { CUDA_CHECK(cudaMemcpy(back.data(), d.p, bytes, cudaMemcpyDeviceToHost)); });
    check_equal("transfer cuda", back.data(), h.data(), n);
    add("transfer-h2d", "cuda", up, bytes, "gbps", n);
    add("transfer-d2h", "cuda", down, bytes, "gbps", n);
  }
#endif
}

} // namespace bench
