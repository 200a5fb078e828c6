// <amp_graphics.h>: texture construction and its errors, storage formats
// (8/16-bit, half, norm/unorm), element reads and writes in kernels, sampling
// for every filter and address mode against an independent double-precision
// reference, gathers, mip levels, views and copies. Kernels run on the default
// accelerator (host backends, and the GPU in the GPU run).
#include <amp.h>
#include <amp_graphics.h>

#include "amp_test_util.h"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <gtest/gtest.h>
#include <vector>

using namespace concurrency;
using namespace concurrency::graphics;

namespace {
using concurrency::graphics::norm; // GPU builds: see test_short_vectors.cpp

#define EXPECT_AMP_THROW(stmt) EXPECT_THROW(stmt, runtime_exception)

// ---------------------------------------------------------------- construction
TEST(Texture, ConstructorsAndProperties) {
  texture<int, 1> t1(10);
  EXPECT_EQ(t1.extent, extent<1>(10));
  EXPECT_EQ(t1.get_bits_per_scalar_element(), 32u);
  EXPECT_EQ(t1.get_data_length(), 40u);
  EXPECT_EQ(t1.get_mipmap_levels(), 1u);
  texture<float_4, 2> t2(3, 5);
  EXPECT_EQ(t2.get_extent(), extent<2>(3, 5));
  EXPECT_EQ(t2.get_data_length(), 3u * 5u * 16u);
  EXPECT_EQ(t2.get_row_pitch(), 5u * 16u);
  texture<unorm_2, 3> t3(extent<3>(2, 3, 4), 8u);
  EXPECT_EQ(t3.get_data_length(), 2u * 3u * 4u * 2u);
  EXPECT_EQ(t3.get_depth_pitch(), 3u * 4u * 2u);
  texture<norm, 2> t4(4, 4); // norm/unorm default to 16 bits
  EXPECT_EQ(t4.get_bits_per_scalar_element(), 16u);
  texture<double_2, 1> t5(3);
  EXPECT_EQ(t5.get_data_length(), 48u);
  texture<float, 2> t6(16, 8, 32u, 4u, accelerator().default_view); // 4 mip levels
  EXPECT_EQ(t6.get_mipmap_levels(), 4u);
  EXPECT_EQ(t6.get_extent(3), extent<2>(2, 1));
  EXPECT_TRUE(t6.get_accelerator_view() == accelerator().default_view);
}

TEST(Texture, BadInputRaises) {
  EXPECT_AMP_THROW((texture<float, 2>(0, 4)));
  EXPECT_AMP_THROW((texture<float, 1>(8, 8u)));   // no 8-bit float format
  EXPECT_AMP_THROW((texture<unorm, 1>(8, 32u)));  // no 32-bit unorm format
  EXPECT_AMP_THROW((texture<int, 1>(8, 12u)));
  EXPECT_AMP_THROW((texture<double, 1>(8, 32u)));
  EXPECT_AMP_THROW((texture<float, 2>(4, 4, 32u, 4u, accelerator().default_view))); // at most 3 levels
  EXPECT_AMP_THROW((texture<float, 2>(4, 4, 32u, 0u, accelerator().default_view)));
  std::vector<float> few(7);
  EXPECT_AMP_THROW((texture<float, 1>(8, few.begin(), few.end())));
  EXPECT_AMP_THROW((texture<float, 1>(extent<1>(8), few.data(), 28u, 32u)));
  texture<float, 1> t(8);
  EXPECT_AMP_THROW(copy(few.data(), 28u, t));
  EXPECT_AMP_THROW(copy(t, few.data(), 28u));
  texture<float, 1> other(9);
  EXPECT_AMP_THROW(copy(t, other));
  EXPECT_AMP_THROW((texture_view<const float, 1>(t, 0, 2)));
  EXPECT_AMP_THROW((texture_view<float, 1>(t, 1)));
  EXPECT_AMP_THROW(sampler(static_cast<filter_mode>(7)));
  EXPECT_AMP_THROW(sampler(static_cast<address_mode>(0)));
  try {
    texture<int, 1> bad(8, 7u);
    FAIL();
  } catch (const runtime_exception& e) {
    EXPECT_EQ(amp_test::hr_bits(e.get_error_code()), amp_test::E_INVALIDARG_BITS);
  }
}

// ---------------------------------------------------------------- formats
// Writes values in a kernel through a writeonly view, returns the raw bytes.
template <class T>
std::vector<unsigned char> stored_bytes(const std::vector<T>& values, unsigned bits) {
  texture<T, 1> t(extent<1>(static_cast<int>(values.size())), bits);
  array<T, 1> src(static_cast<int>(values.size()), values.begin(), values.end());
  writeonly_texture_view<T, 1> w(t);
  parallel_for_each(src.extent, [=, &src](index<1> i) restrict(amp) { w.set(i, src[i]); });
  std::vector<unsigned char> raw(t.get_data_length());
  copy(t, raw.data(), static_cast<unsigned>(raw.size()));
  return raw;
}
// Reads raw bytes back through texture reads in a kernel.
template <class T> std::vector<T> loaded_values(const std::vector<unsigned char>& raw, int n, unsigned bits) {
  texture<T, 1> t(extent<1>(n), raw.data(), static_cast<unsigned>(raw.size()), bits);
  array<T, 1> dst(n);
  parallel_for_each(dst.extent, [=, &t, &dst](index<1> i) restrict(amp) { dst[i] = t[i]; });
  return dst;
}

TEST(TextureFormats, NarrowIntegersSaturate) {
  const auto b8 = stored_bytes<int>({-300, -128, -1, 0, 127, 300}, 8);
  const std::vector<std::int8_t> e8 = {-128, -128, -1, 0, 127, 127};
  ASSERT_EQ(b8.size(), 6u);
  EXPECT_EQ(0, std::memcmp(b8.data(), e8.data(), 6));
  const auto b16 = stored_bytes<unsigned>({0u, 65535u, 70000u}, 16);
  const std::vector<std::uint16_t> e16 = {0, 65535, 65535};
  EXPECT_EQ(0, std::memcmp(b16.data(), e16.data(), 6));
  EXPECT_EQ(loaded_values<int>(b8, 6, 8), (std::vector<int>{-128, -128, -1, 0, 127, 127}));
  const auto u2 = stored_bytes<uint_2>({uint_2(1u, 256u)}, 8);
  EXPECT_EQ(u2, (std::vector<unsigned char>{1, 255}));
}

TEST(TextureFormats, NormalizedAndHalf) {
  // unorm: n / 255 and round(x * 255); norm: max(n / 127, -1) and round(x * 127).
  const auto u8 = stored_bytes<unorm>({unorm(0.0f), unorm(0.5f), unorm(1.0f), unorm(0.2f)}, 8);
  EXPECT_EQ(u8, (std::vector<unsigned char>{0, 128, 255, 51}));
  const auto back = loaded_values<unorm>(u8, 4, 8);
  EXPECT_EQ(float(back[1]), 128.0f / 255.0f);
  EXPECT_EQ(float(back[3]), 51.0f / 255.0f);
  const auto n8 = stored_bytes<norm>({norm(-1.0f), norm(0.5f), norm(-0.5f)}, 8);
  EXPECT_EQ(n8, (std::vector<unsigned char>{0x81, 64, 0xC0}));
  const std::vector<unsigned char> minus128 = {0x80};
  EXPECT_EQ(float(loaded_values<norm>(minus128, 1, 8)[0]), -1.0f);
  const auto u16 = stored_bytes<unorm>({unorm(1.0f), unorm(0.5f)}, 16);
  const std::vector<std::uint16_t> e16 = {65535, 32768};
  EXPECT_EQ(0, std::memcmp(u16.data(), e16.data(), 4));
  // IEEE half: 1/3 -> 0x3555, 65504 (largest), 1e-7 -> subnormal 0x0002, 1e6 -> inf.
  const auto h = stored_bytes<float>({1.0f / 3.0f, 65504.0f, 1e-7f, 1e6f, -2.0f}, 16);
  const std::vector<std::uint16_t> eh = {0x3555, 0x7bff, 0x0002, 0x7c00, 0xc000};
  EXPECT_EQ(0, std::memcmp(h.data(), eh.data(), 10));
  const auto hf = loaded_values<float>(h, 5, 16);
  EXPECT_EQ(hf[0], 0.333251953125f);
  EXPECT_EQ(hf[2], 2.0f * 5.9604644775390625e-8f);
  EXPECT_TRUE(std::isinf(hf[3]));
}

// ---------------------------------------------------------------- elements, views, copies
TEST(Texture, KernelReadsWritesAndCopies) {
  const int h = 6, w = 10;
  std::vector<int_2> init(h * w);
  for (int i = 0; i < h * w; ++i) init[i] = int_2(i, -i);
  texture<int_2, 2> tex(h, w, init.begin(), init.end());
  texture<int_2, 2> out(h, w), dbl(h, w);
  texture_view<int_2, 2> ov(out);
  parallel_for_each(tex.extent, [=, &tex, &dbl](index<2> i) restrict(amp) {
    const int_2 v = tex[i];
    const int_2 right = tex(i[0], (i[1] + 1) % w);
    ov.set(i, v.yx + right);
    dbl.set(i, v * 2);
  });
  std::vector<int_2> got(h * w), doubled(h * w);
  copy(out, got.begin());
  copy(dbl, doubled.begin());
  for (int r = 0; r < h; ++r)
    for (int c = 0; c < w; ++c) {
      const int k = r * w + c, kr = r * w + (c + 1) % w;
      ASSERT_TRUE(got[k] == int_2(-k + kr, k - kr)) << k;
      ASSERT_TRUE(doubled[k] == int_2(2 * k, -2 * k)) << k;
    }
  // Deep copy; copy between textures; asynchronous copy; host pointer.
  texture<int_2, 2> dup(dbl);
  copy(out, dbl);
  std::vector<int_2> a(h * w), b(h * w);
  copy_async(dup, a.begin()).get();
  copy(dbl, b.begin());
  EXPECT_TRUE(a[7] == int_2(14, -14));
  EXPECT_TRUE(b[7] == got[7]);
  EXPECT_EQ(std::memcmp(dbl.data(), got.data(), got.size() * sizeof(int_2)), 0);
  EXPECT_TRUE(dbl[index<2>(0, 7)] == got[7]); // host read with synchronisation
}

// ---------------------------------------------------------------- sampling reference
// Direct3D's rules in double precision, on coordinates: used to check sample().
double ref_address(double u, int size, address_mode m, bool& border) {
  border = false;
  (void)size;
  switch (m) {
  case address_wrap: return u - std::floor(u);
  case address_mirror: {
    const double p = u - 2.0 * std::floor(u / 2.0);
    return p <= 1.0 ? p : 2.0 - p;
  }
  case address_clamp: return u < 0.0 ? 0.0 : u > 1.0 ? 1.0 : u;
  default:
    border = u < 0.0 || u >= 1.0;
    return u;
  }
}
int ref_texel_of(double u, int size) {
  const int t = static_cast<int>(std::floor(u * size));
  return t < 0 ? 0 : t >= size ? size - 1 : t;
}
// Texel index (possibly outside) addressed as Direct3D does for filtering taps.
int ref_tap(int i, int size, address_mode m, bool& border) {
  border = false;
  const double centre = (i + 0.5) / size; // the tap's own coordinate
  const double a = ref_address(centre, size, m, border);
  return border ? 0 : ref_texel_of(a, size);
}

template <int N> struct sample_case {
  std::vector<float> texels; // one float channel, row-major
  extent<N> size;
  float texel(const int* i) const {
    int lin = 0;
    for (int d = 0; d < N; ++d) lin = lin * size[d] + i[d];
    return texels[lin];
  }
  // coord in D3D order (x = innermost)
  double point(const double* coord, address_mode m, double border_value) const {
    int i[N];
    for (int d = 0; d < N; ++d) {
      bool out;
      const double a = ref_address(coord[N - 1 - d], size[d], m, out);
      if (out) return border_value;
      i[d] = ref_texel_of(a, size[d]);
    }
    return texel(i);
  }
  double linear(const double* coord, address_mode m, double border_value) const {
    double sum = 0.0;
    for (int corner = 0; corner < (1 << N); ++corner) {
      double weight = 1.0;
      int i[N];
      bool out = false;
      for (int d = 0; d < N; ++d) {
        const double t = coord[N - 1 - d] * size[d] - 0.5;
        const double lo = std::floor(t), f = t - lo;
        const int up = (corner >> d) & 1;
        weight *= up ? f : 1.0 - f;
        bool o;
        i[d] = ref_tap(static_cast<int>(lo) + up, size[d], m, o);
        out |= o;
      }
      sum += weight * (out ? border_value : texel(i));
    }
    return sum;
  }
};

template <int N> void check_sampling(const extent<N>& size) {
  sample_case<N> sc;
  sc.size = size;
  const int n = size.size();
  for (int k = 0; k < n; ++k) sc.texels.push_back(static_cast<float>((k * 37) % 23) * 0.25f - 1.5f);
  texture<float, N> tex(size, sc.texels.begin(), sc.texels.end());
  // Coordinates inside, outside on both sides and far away, never on a texel edge.
  std::vector<float> coords;
  const float probe[] = {0.03f, 0.31f, 0.5f + 0.07f, 0.97f, -0.21f, 1.13f, -1.62f, 2.71f, 3.4f};
  const int m = sizeof(probe) / sizeof(probe[0]);
  int count = 1;
  for (int d = 0; d < N; ++d) count *= m;
  for (int c = 0; c < count; ++c) {
    int rest = c;
    for (int d = 0; d < N; ++d) {
      coords.push_back(probe[rest % m] + 0.013f * d);
      rest /= m;
    }
  }
  const float border_value = 7.5f;
  for (int filter = 0; filter < 2; ++filter)
    for (int mode = 1; mode <= 4; ++mode) { // wrap, mirror, clamp, border
      const sampler s(filter ? filter_linear : filter_point, static_cast<address_mode>(mode),
                      float_4(border_value, 0.0f, 0.0f, 0.0f));
      array<float, 1> c_arr(static_cast<int>(coords.size()), coords.begin(), coords.end());
      array<float, 1> result(count);
      texture_view<const float, N> tv(tex);
      parallel_for_each(result.extent, [=, &c_arr, &result](index<1> i) restrict(amp) {
        typename short_vector<float, N>::type coord;
        for (int d = 0; d < N; ++d) reinterpret_cast<float*>(&coord)[d] = c_arr[i[0] * N + d];
        result[i] = tv.sample(s, coord);
      });
      std::vector<float> got = result;
      for (int c = 0; c < count; ++c) {
        double coord[N];
        for (int d = 0; d < N; ++d) coord[d] = coords[c * N + d];
        const double want = filter ? sc.linear(coord, static_cast<address_mode>(mode), border_value)
                                   : sc.point(coord, static_cast<address_mode>(mode), border_value);
        if (filter) ASSERT_NEAR(got[c], want, 1e-5) << "rank " << N << " mode " << mode << " case " << c;
        else ASSERT_EQ(got[c], static_cast<float>(want)) << "rank " << N << " mode " << mode << " case " << c;
      }
    }
}

TEST(TextureSampling, EveryFilterAndAddressModeRank1) { check_sampling<1>(extent<1>(7)); }
TEST(TextureSampling, EveryFilterAndAddressModeRank2) { check_sampling<2>(extent<2>(5, 6)); }
TEST(TextureSampling, EveryFilterAndAddressModeRank3) { check_sampling<3>(extent<3>(3, 4, 5)); }

TEST(TextureSampling, UnormClampsAndPredefinedSamplers) {
  // A 2x2 unorm_4 texture, linear sample in the middle: the average of the four.
  std::vector<unorm_4> px = {unorm_4(0.0f, 1.0f, 0.2f, 1.0f), unorm_4(1.0f, 1.0f, 0.4f, 1.0f),
                             unorm_4(0.0f, 0.0f, 0.6f, 1.0f), unorm_4(1.0f, 0.0f, 0.8f, 1.0f)};
  texture<unorm_4, 2> tex(extent<2>(2, 2), 8u);
  copy(px.begin(), px.end(), tex);
  array<float_4, 1> out(3);
  parallel_for_each(out.extent, [=, &tex, &out](index<1> i) restrict(amp) {
    texture_view<const unorm_4, 2> tv(tex);
    if (i[0] == 0) out[i] = float_4(tv.sample(float_2(0.5f, 0.5f)));
    if (i[0] == 1) out[i] = float_4(tv.sample<filter_point, address_wrap>(float_2(1.3f, 0.7f)));
    if (i[0] == 2) out[i] = float_4(tv.sample(sampler(filter_linear, address_border, float_4(2.0f)), float_2(-0.5f, 0.5f)));
  });
  const std::vector<float_4> r = out;
  EXPECT_NEAR(r[0].x, 0.5f, 1e-6f);
  EXPECT_NEAR(r[0].y, 0.5f, 1e-6f);
  EXPECT_NEAR(r[0].z, (51 + 102 + 153 + 204) / 4.0f / 255.0f, 1e-6f);
  EXPECT_TRUE(r[1] == float_4(float(px[2].x), float(px[2].y), float(px[2].z), 1.0f)); // wrap: (0.3, 0.7)
  EXPECT_EQ(r[2].x, 1.0f); // border colour 2 blended, then clamped to unorm
}

TEST(TextureSampling, GatherOrder) {
  // 3x3 texture of 2 channels: (10 * row + col, -(10 * row + col)).
  std::vector<float_2> px;
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c) px.push_back(float_2(10.0f * r + c, -(10.0f * r + c)));
  texture<float_2, 2> tex(3, 3, px.begin(), px.end());
  array<float_4, 1> out(3);
  parallel_for_each(out.extent, [=, &tex, &out](index<1> i) restrict(amp) {
    texture_view<const float_2, 2> tv(tex);
    const float_2 between(1.0f / 3.0f, 2.0f / 3.0f); // between columns 0,1 and rows 1,2
    if (i[0] == 0) out[i] = tv.gather_red(sampler(address_clamp), between);
    if (i[0] == 1) out[i] = tv.gather_green<address_wrap>(float_2(0.0f, 0.0f)); // taps -1 and 0: wraps to 2
    if (i[0] == 2) out[i] = tv.gather_red(sampler(address_border, float_4(-5.0f)), float_2(1.0f, 1.0f));
  });
  const std::vector<float_4> r = out;
  EXPECT_TRUE(r[0] == float_4(20.0f, 21.0f, 11.0f, 10.0f)); // (x0,y1) (x1,y1) (x1,y0) (x0,y0)
  EXPECT_TRUE(r[1] == float_4(-2.0f, -0.0f, -20.0f, -22.0f));
  EXPECT_TRUE(r[2] == float_4(-5.0f, -5.0f, -5.0f, 22.0f));
}

TEST(TextureMipmaps, LevelsViewsAndLod) {
  texture<float, 2> tex(extent<2>(8, 8), 32u, 3u, accelerator().default_view);
  EXPECT_EQ(tex.get_data_length(), (64u + 16u + 4u) * 4u);
  for (unsigned level = 0; level < 3; ++level) {
    texture_view<float, 2> lv(tex, level);
    EXPECT_EQ(lv.get_extent(), extent<2>(8 >> level, 8 >> level));
    parallel_for_each(lv.extent, [=](index<2> i) restrict(amp) { lv.set(i, 100.0f * level + i[0] * 10 + i[1]); });
  }
  texture_view<const float, 2> all(tex);
  texture_view<const float, 2> upper(tex, 1, 2);
  EXPECT_EQ(all.get_mipmap_levels(), 3u);
  EXPECT_EQ(upper.get_mipmap_levels(), 2u);
  EXPECT_EQ(upper.get_extent(), extent<2>(4, 4));
  array<float, 1> out(5);
  parallel_for_each(out.extent, [=, &out](index<1> i) restrict(amp) {
    const float_2 c(0.6f, 0.3f); // level 1 texel (1, 2); level 2 texel (0, 1)
    if (i[0] == 0) out[i] = all.get(index<2>(1, 2), 1);
    if (i[0] == 1) out[i] = upper[index<2>(1, 2)];
    if (i[0] == 2) out[i] = all.sample(sampler(filter_point), c, 1.4f);  // nearest level 1
    if (i[0] == 3) out[i] = upper.sample(sampler(filter_point), c, 0.6f); // nearest: upper's level 1 = 2
    if (i[0] == 4) out[i] = all.sample(sampler(filter_point, address_clamp), c, 9.0f); // clamps to level 2
  });
  const std::vector<float> r = out;
  EXPECT_EQ(r[0], 112.0f);
  EXPECT_EQ(r[1], 112.0f);
  EXPECT_EQ(r[2], 112.0f);
  EXPECT_EQ(r[3], 201.0f);
  EXPECT_EQ(r[4], 201.0f);
  std::vector<float> bytes((64 + 16 + 4));
  copy(tex, bytes.data(), static_cast<unsigned>(bytes.size() * 4));
  EXPECT_EQ(bytes[64 + 4 * 1 + 2], 112.0f);
  EXPECT_EQ(bytes[80 + 1], 201.0f);
}

TEST(Texture, SectionCopiesAndMsad4) {
  // 4x6 texture 0..23; copy the 2x3 block at (1, 2) out, into another
  // texture at (2, 0), and through iterators and raw bytes.
  std::vector<int> v(24);
  for (int i = 0; i < 24; ++i) v[i] = i;
  texture<int, 2> src(4, 6, v.begin(), v.end());
  const std::vector<int> minus(24, -1);
  texture<int, 2> dst(4, 6, minus.begin(), minus.end());
  const std::vector<int> block = {8, 9, 10, 14, 15, 16};
  std::vector<int> got(6);
  copy(src, index<2>(1, 2), extent<2>(2, 3), got.begin());
  EXPECT_EQ(got, block);
  copy(src, index<2>(1, 2), dst, index<2>(2, 0), extent<2>(2, 3));
  std::vector<int> all(24);
  copy(dst, all.begin());
  for (int r = 0; r < 4; ++r)
    for (int c = 0; c < 6; ++c) {
      const bool in = r >= 2 && c < 3;
      EXPECT_EQ(all[r * 6 + c], in ? block[(r - 2) * 3 + c] : -1) << r << "," << c;
    }
  const std::vector<int> ones = {1, 2, 3};
  copy(ones.begin(), ones.end(), dst, index<2>(0, 3), extent<2>(1, 3));
  std::vector<int> raw(3);
  copy(dst, index<2>(0, 3), extent<2>(1, 3), raw.data(), 12u);
  EXPECT_EQ(raw, ones);
  copy(raw.data(), 12u, dst, index<2>(3, 3), extent<2>(1, 3));
  EXPECT_EQ(dst[index<2>(3, 5)], 3);
  EXPECT_AMP_THROW(copy(src, index<2>(3, 4), extent<2>(2, 3), got.begin())); // outside
  EXPECT_AMP_THROW(copy(raw.data(), 8u, dst, index<2>(0, 0), extent<2>(1, 3)));   // too few bytes

  // msad4: reference bytes (0, 5, 10, 20) (byte 0 masked), source bytes 1..8.
  array<uint_4, 1> out(1);
  parallel_for_each(out.extent, [&out](index<1> i) restrict(amp) {
    out[i] = graphics::direct3d::msad4(0x140A0500u, uint_2(0x04030201u, 0x08070605u), uint_4(100u, 0u, 0u, 0u));
  });
  const std::vector<uint_4> m = out;
  // alignment 0: |5-2| + |10-3| + |20-4| = 26; 1: 2+6+15 = 23; 2: 1+5+14 = 20; 3: 0+4+13 = 17
  EXPECT_TRUE(m[0] == uint_4(126u, 23u, 20u, 17u));
}

} // namespace
