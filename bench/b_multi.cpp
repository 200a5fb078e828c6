// Several GPUs and several queues (GPU build only; the host build prints that
// it has nothing to measure here).
//
// multi-gpu-matmul: the tiled float matmul (Fig. 5, TS = 16) with the rows of
//   C split evenly over the first k GPUs, one array set and one view per GPU;
//   timed: the launches on every GPU and the waits on every view (data
//   already on the devices). Version "amp-kgpu" for k = 1 .. the GPU count;
//   "speed-up" rows report t(1 GPU) / t(k GPUs) (in the rate column, unit
//   "x"). With one GPU only the 1-GPU row exists.
// pipeline-views: chunks of a host vector go through copy in (host -> GPU),
//   a compute kernel, copy out (GPU -> host), software-pipelined (chunk c's
//   copy in is issued before chunk c-1's copy out) with chunk c on view
//   c % V. With V = 1 every step waits for the previous one on the single
//   queue; with V = 2 a chunk's transfers overlap the other view's kernel.
//   Versions "amp-1view" and "amp-2views"; timed: the whole pipeline.
#include "harness.h"

#include <cstring>

namespace bench {

#if BENCH_DEVICE
using namespace Concurrency;

namespace {

std::vector<accelerator> gpu_accelerators() {
  std::vector<accelerator> r;
  for (const accelerator& a : accelerator::get_all())
    if (a.device_path.rfind(L"cuda", 0) == 0 || a.device_path.rfind(L"hip", 0) == 0) r.push_back(a);
  return r;
}

constexpr int MTS = 16;

void multi_gpu_matmul() {
  const std::vector<accelerator> gpus = gpu_accelerators();
  const int N = opt.quick ? 2048 : 8192;
  const double flops = 2.0 * N * N * (double)N;
  std::printf("multi-gpu matmul float, N = %d (tiled, TS = %d), %zu GPU(s)\n", N, MTS, gpus.size());
  std::vector<float> ha((size_t)N * N), hb((size_t)N * N), want;
  for (size_t i = 0; i < ha.size(); ++i) {
    ha[i] = float((i * 7 + 3) % 11) - 5.f;
    hb[i] = float((i * 5 + 1) % 13) - 6.f;
  }
  double t1 = 0;
  for (int k = 1; k <= (int)gpus.size(); ++k) {
    std::vector<accelerator_view> views;
    std::vector<array<float, 2>> a, b, c;
    for (int p = 0; p < k; ++p) {
      views.push_back(gpus[p].create_view());
      const int lo = N * p / k, hi = N * (p + 1) / k; // multiples of MTS: N is
      a.emplace_back(hi - lo, N, ha.begin() + (size_t)lo * N, ha.begin() + (size_t)hi * N, views[p]);
      b.emplace_back(N, N, hb.begin(), hb.end(), views[p]);
      c.emplace_back(hi - lo, N, views[p]);
    }
    auto run = [&] {
      for (int p = 0; p < k; ++p) {
        const array<float, 2>& ap = a[p];
        const array<float, 2>& bp = b[p];
        array<float, 2>& cp = c[p];
        parallel_for_each(views[p], cp.extent.tile<MTS, MTS>(), [&ap, &bp, &cp](tiled_index<MTS, MTS> t) restrict(amp) {
          const int row = t.local[0], col = t.local[1];
          tile_static float la[MTS][MTS], lb[MTS][MTS];
          float sum = 0;
          for (int i = 0; i < ap.extent[1]; i += MTS) {
            la[row][col] = ap(t.global[0], col + i);
            lb[row][col] = bp(row + i, t.global[1]);
            t.barrier.wait();
            for (int j = 0; j < MTS; ++j) sum += la[row][j] * lb[j][col];
            t.barrier.wait();
          }
          cp[t.global] = sum;
        });
      }
      for (auto& v : views) v.wait();
    };
    run();
    // The product assembled from every GPU's band equals the 1-GPU product.
    std::vector<float> got((size_t)N * N);
    for (int p = 0; p < k; ++p) copy(c[p], got.begin() + (size_t)(N * p / k) * N);
    if (k == 1) want = got;
    else check_equal("multi-gpu-matmul " + std::to_string(k) + " GPUs", got.data(), want.data(), (long long)got.size());
    const double ms = median_ms(run);
    add("multi-gpu-matmul", "amp-" + std::to_string(k) + "gpu", ms, flops, "gflops", N);
    if (k == 1) t1 = ms;
    else std::printf("  multi-gpu-matmul speed-up, %d GPUs vs 1: %.2fx\n", k, t1 / ms);
  }
  if (gpus.size() < 2) std::printf("  (one GPU: the 2-GPU speed-up needs a machine with two)\n");
}

void pipeline_views() {
  const accelerator acc = accelerator(); // the default GPU
  const int chunk = 1 << 22, chunks = opt.quick ? 8 : 32, iters = 16384; // 16 MB per chunk
  std::printf("pipeline: %d chunks of %d floats: copy in, kernel (%d FMA loops per element), copy out\n", chunks,
              chunk, iters);
  std::vector<float> in((size_t)chunk * chunks), out(in.size());
  for (size_t i = 0; i < in.size(); ++i) in[i] = float(i % 1000) * 0.001f;
  std::vector<float> ref;
  double t1 = 0;
  for (int nv = 1; nv <= 2; ++nv) {
    std::vector<accelerator_view> views;
    for (int v = 0; v < nv; ++v) views.push_back(acc.create_view());
    std::vector<array<float, 1>> dev;
    for (int c = 0; c < 2 * nv; ++c) dev.emplace_back(chunk, views[c % nv]);
    auto run = [&] {
      auto out_step = [&](int c) {
        copy(dev[c % (2 * nv)], out.begin() + (size_t)c * chunk);
      };
      for (int c = 0; c < chunks; ++c) {
        array<float, 1>& x = dev[c % (2 * nv)];
        // Buffer reuse: chunk c - 2*nv used x; its copy out was issued already.
        copy(in.begin() + (size_t)c * chunk, in.begin() + (size_t)(c + 1) * chunk, x);
        parallel_for_each(views[c % nv], x.extent, [&x](index<1> i) restrict(amp) {
          float v = x[i];
          for (int k = 0; k < iters; ++k) v = v * 0.999f + 0.001f;
          x[i] = v;
        });
        if (c > 0) out_step(c - 1);
      }
      out_step(chunks - 1);
    };
    run();
    if (nv == 1) ref = out;
    else check_equal("pipeline-views 2 views", out.data(), ref.data(), (long long)out.size());
    const double ms = median_ms(run);
    add("pipeline-views", nv == 1 ? "amp-1view" : "amp-2views", ms, 2.0 * sizeof(float) * in.size(), "gbps", chunk);
    if (nv == 1) t1 = ms;
    else std::printf("  pipeline speed-up, 2 views vs 1: %.2fx\n", t1 / ms);
  }
}

} // namespace

void multi() {
  multi_gpu_matmul();
  pipeline_views();
}
#else
void multi() { std::printf("multi: GPU-only benchmarks (several GPUs, overlapping views); nothing to run here\n"); }
#endif

} // namespace bench
