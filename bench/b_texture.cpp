// Texture sampling (amp_graphics.h): every output pixel samples a float
// texture at a rotated and scaled coordinate (an image warp), clamped at the
// edges, with point and with bilinear filtering.
//   amp:    texture<float, 2> + texture_view<const float, 2>::sample (texels
//           in plain device memory, filtering in software: bit-identical to
//           the host implementation)
//   kokkos: the same arithmetic hand-written over a Kokkos::View
//   cuda:   a CUDA texture object, tex2D<float> with the texture unit's
//           addressing and filtering (GPU build; point results must match
//           exactly, linear ones within the hardware's 8-bit weights)
#include "harness.h"

#include <amp_graphics.h>

#include <cmath>

using namespace concurrency;
using namespace concurrency::graphics;

namespace bench {
namespace {

// The warp: output pixel (r, c) of an n x n image reads texture coordinate
// (u, v), slightly outside [0, 1] at the corners so that clamping matters.
struct warp {
  float c0, s0, scale;
  // Contraction off: the reference is computed on the host, and a fused
  // multiply-add on the GPU alone moves coordinates near texel edges onto the
  // neighbouring texel (a point sample then reads a different value).
  KOKKOS_INLINE_FUNCTION void at(int r, int c, int n, float& u, float& v) const {
#if defined(__clang__)
#pragma clang fp contract(off)
#endif
    const float x = (c + 0.5f) / n - 0.5f, y = (r + 0.5f) / n - 0.5f;
    u = (c0 * x - s0 * y) * scale + 0.5f;
    v = (s0 * x + c0 * y) * scale + 0.5f;
  }
};

// Software sampling as amp_compat defines it (sampler.h), for the Kokkos version.
KOKKOS_INLINE_FUNCTION int clamp_texel(int i, int n) { return i < 0 ? 0 : i >= n ? n - 1 : i; }
KOKKOS_INLINE_FUNCTION int floor_int(float x) {
  const int i = static_cast<int>(x);
  return static_cast<float>(i) > x ? i - 1 : i;
}
KOKKOS_INLINE_FUNCTION float sample_soft(const float* t, int n, float u, float v, bool linear) {
#if defined(__clang__)
#pragma clang fp contract(off)
#endif
  const float tx = u * n - (linear ? 0.5f : 0.0f), ty = v * n - (linear ? 0.5f : 0.0f);
  const int x0 = floor_int(tx), y0 = floor_int(ty);
  const size_t r0 = (size_t)clamp_texel(y0, n) * n, r1 = (size_t)clamp_texel(y0 + 1, n) * n;
  if (!linear) return t[r0 + clamp_texel(x0, n)];
  const float fx = tx - x0, fy = ty - y0;
  const float a = t[r0 + clamp_texel(x0, n)], b = t[r0 + clamp_texel(x0 + 1, n)];
  const float c = t[r1 + clamp_texel(x0, n)], d = t[r1 + clamp_texel(x0 + 1, n)];
  const float top = a * (1.0f - fx) + b * fx, bottom = c * (1.0f - fx) + d * fx;
  return top * (1.0f - fy) + bottom * fy;
}

#if BENCH_GPU
__global__ void cu_warp(cudaTextureObject_t tex, float* out, int n, warp w) {
  const int c = blockIdx.x * blockDim.x + threadIdx.x, r = blockIdx.y * blockDim.y + threadIdx.y;
  if (r >= n || c >= n) return;
  float u, v;
  w.at(r, c, n, u, v);
  out[(size_t)r * n + c] = tex2D<float>(tex, u, v);
}
#endif

void run_warp(int n, bool linear) {
  const std::string name = std::string("texture-") + (linear ? "linear" : "point");
  const long long nn = (long long)n * n;
  const double bytes = 2.0 * sizeof(float) * nn;
  const warp w{std::cos(0.3f), std::sin(0.3f), 1.1f};
  std::vector<float> img(nn), ref(nn), got(nn);
  for (long long i = 0; i < nn; ++i) img[i] = (float)((i * 7919) % 1021) / 1021.0f;
  for (int r = 0; r < n; ++r)
    for (int c = 0; c < n; ++c) {
      float u, v;
      w.at(r, c, n, u, v);
      ref[(size_t)r * n + c] = sample_soft(img.data(), n, u, v, linear);
    }
  accelerator_view av = amp_view();
  {
    texture<float, 2> tex(n, n, img.begin(), img.end(), av);
    texture_view<const float, 2> tv(tex);
    array_view<float, 2> out(n, n, got);
    const sampler s(linear ? filter_linear : filter_point, address_clamp);
    auto run = [&] {
      parallel_for_each(av, out.extent, [=](index<2> i) restrict(amp) {
        float u, v;
        w.at(i[0], i[1], n, u, v);
        out[i] = tv.sample(s, float_2(u, v));
      });
      av.wait();
    };
    out.discard_data();
    run();
    out.synchronize();
    check_equal(name + " amp", got.data(), ref.data(), nn); // same arithmetic: exact
    add(name, "amp", median_ms(run, [&] { out.discard_data(); }), bytes, "gbps", n);
  }
  {
    auto t = kokkos_from(img, "tex");
    Kokkos::View<float*> out("out", nn);
    auto run = [&] {
      kokkos_team_for("warp", (int)nn, KOKKOS_LAMBDA(int k) {
        float u, v;
        w.at(k / n, k % n, n, u, v);
        out(k) = sample_soft(t.data(), n, u, v, linear);
      });
      Kokkos::fence();
    };
    run();
    check_equal(name + " kokkos", kokkos_to(out).data(), ref.data(), nn);
    add(name, "kokkos", median_ms(run), bytes, "gbps", n);
  }
#if BENCH_GPU
  {
    cudaChannelFormatDesc fmt = cudaCreateChannelDesc<float>();
    cudaArray_t arr;
    CUDA_CHECK(cudaMallocArray(&arr, &fmt, n, n));
    CUDA_CHECK(cudaMemcpy2DToArray(arr, 0, 0, img.data(), n * sizeof(float), n * sizeof(float), n,
                                   cudaMemcpyHostToDevice));
    cudaResourceDesc res{};
    res.resType = cudaResourceTypeArray;
    res.res.array.array = arr;
    cudaTextureDesc td{};
    td.addressMode[0] = td.addressMode[1] = cudaAddressModeClamp;
    td.filterMode = linear ? cudaFilterModeLinear : cudaFilterModePoint;
    td.readMode = cudaReadModeElementType;
    td.normalizedCoords = 1;
    cudaTextureObject_t tex;
    CUDA_CHECK(cudaCreateTextureObject(&tex, &res, &td, nullptr));
    dbuf<float> out(nn);
    auto run = [&] {
      cu_warp<<<dim3((n + 31) / 32, (n + 7) / 8), dim3(32, 8)>>>(tex, out.p, n, w);
      cuda_sync();
    };
    run();
    const std::vector<float> h = out.download();
    // The texture unit computes coordinates and weights in fixed point (8
    // fractional bits for the weights): exact for point sampling away from
    // texel edges; for linear, each of the two interpolation steps may be off
    // by up to 1/256 of its neighbours' difference (at most 1 here: texels are
    // in [0, 1)), so 2/256 in all (1/256 alone left 0.13% of the pixels of an
    // H100 run outside).
    long long off = 0;
    for (long long i = 0; i < nn; ++i)
      if (std::fabs(h[i] - ref[i]) > (linear ? 2.0f / 256.0f + 1e-6f : 0.0f)) ++off;
    if (off > nn / 1000) fail(name + " cuda: " + std::to_string(off) + " pixels differ from the reference");
    add(name, "cuda", median_ms(run), bytes, "gbps", n);
    cudaDestroyTextureObject(tex);
    cudaFreeArray(arr);
  }
#endif
}

} // namespace

void textures() {
  const int n = opt.quick ? 256 : gpu ? 8192 : 2048;
  std::printf("texture: %dx%d float image warped (rotate + scale, clamp), point and bilinear sampling\n", n, n);
  run_warp(n, false);
  run_warp(n, true);
}

} // namespace bench
