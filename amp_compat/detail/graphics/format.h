// Texel formats: which element types a texture may hold, how many channels
// they have, and how one channel is stored with a given bits_per_scalar_element
// (AMP spec 10.1; the conversions are Direct3D's for the matching DXGI formats).
//
//   int / uint      8, 16, 32 bits   narrower storage saturates on write
//   float           16, 32 bits      16: IEEE half, round to nearest even
//   norm / unorm    8, 16 bits       signed/unsigned normalized integers
//   double          64 bits          (double and double_2 only)
//
// Elements are scalars or 2- and 4-element short vectors, as in AMP (no *_3).
// The same code converts on the host and in kernels, so both give the same bits.
#pragma once
#include "short_vector.h"

#include <cstdint>

// Floating-point contraction off (no fused multiply-add on the GPU only) at the
// start of a block: conversions and filtering give the same bits everywhere.
#if defined(__clang__)
#define AMP_FP_EXACT _Pragma("clang fp contract(off)")
#else
#define AMP_FP_EXACT
#endif

namespace Concurrency {
namespace detail {

template <class T> struct texel_traits {
  static constexpr bool valid = false;
};
template <class S, int K, unsigned DefaultBits> struct texel_info {
  static constexpr bool valid = true;
  using scalar = S;
  static constexpr int channels = K;
  static constexpr unsigned default_bits = DefaultBits;
  static AMP_FN S& channel(S* v, int) { return *v; }
};
#define AMP_TEXEL(S, BITS)                                                                           \
  template <> struct texel_traits<S> : texel_info<S, 1, BITS> {};                                  \
  template <> struct texel_traits<short_vec<S, 2>> : texel_info<S, 2, BITS> {};                    \
  template <> struct texel_traits<short_vec<S, 4>> : texel_info<S, 4, BITS> {};
AMP_TEXEL(int, 32)
AMP_TEXEL(unsigned int, 32)
AMP_TEXEL(float, 32)
AMP_TEXEL(graphics::norm, 16)
AMP_TEXEL(graphics::unorm, 16)
#undef AMP_TEXEL
template <> struct texel_traits<double> : texel_info<double, 1, 64> {};
template <> struct texel_traits<short_vec<double, 2>> : texel_info<double, 2, 64> {};

template <class S> constexpr bool texel_bits_ok(unsigned bits) {
  if (std::is_same<S, int>::value || std::is_same<S, unsigned int>::value) return bits == 8 || bits == 16 || bits == 32;
  if (std::is_same<S, float>::value) return bits == 16 || bits == 32;
  if (std::is_same<S, double>::value) return bits == 64;
  return bits == 8 || bits == 16; // norm, unorm
}
template <class S> constexpr bool texel_is_float = std::is_same<S, float>::value || std::is_same<S, double>::value ||
                                                   std::is_same<S, graphics::norm>::value ||
                                                   std::is_same<S, graphics::unorm>::value;

// ---- IEEE half precision, bit-exact on host and GPU (integer operations only)
AMP_FN float half_to_float(std::uint16_t h) {
  const std::uint32_t sign = static_cast<std::uint32_t>(h & 0x8000u) << 16;
  std::uint32_t exp = (h >> 10) & 0x1fu, man = h & 0x3ffu, bits;
  if (exp == 0x1f) bits = sign | 0x7f800000u | (man << 13); // inf, NaN
  else if (exp != 0) bits = sign | ((exp + 112u) << 23) | (man << 13);
  else if (man == 0) bits = sign;
  else { // subnormal half: normalise
    exp = 113;
    while (!(man & 0x400u)) {
      man <<= 1;
      --exp;
    }
    bits = sign | (exp << 23) | ((man & 0x3ffu) << 13);
  }
  float f;
  __builtin_memcpy(&f, &bits, 4);
  return f;
}
AMP_FN std::uint16_t float_to_half(float f) {
  std::uint32_t x;
  __builtin_memcpy(&x, &f, 4);
  const std::uint32_t sign = (x >> 16) & 0x8000u, abs = x & 0x7fffffffu;
  if (abs >= 0x7f800000u) return static_cast<std::uint16_t>(sign | 0x7c00u | (abs > 0x7f800000u ? 0x200u : 0u));
  if (abs >= 0x477ff000u) return static_cast<std::uint16_t>(sign | 0x7c00u); // rounds to >= 65520: inf
  if (abs < 0x33000001u) return static_cast<std::uint16_t>(sign);          // below half the smallest subnormal
  const int e = static_cast<int>(abs >> 23) - 127;
  std::uint32_t man = (abs & 0x7fffffu) | 0x800000u;
  const int shift = e < -14 ? 13 + (-14 - e) : 13; // subnormal results lose more bits
  const std::uint32_t rest = man & ((1u << shift) - 1u), half_way = 1u << (shift - 1);
  man >>= shift;
  if (rest > half_way || (rest == half_way && (man & 1u))) ++man; // to nearest even
  const std::uint32_t h = e < -14 ? man : ((static_cast<std::uint32_t>(e + 15) << 10) + (man - 0x400u));
  return static_cast<std::uint16_t>(sign | h); // a carry out of the mantissa bumps the exponent correctly
}

// ---- one channel of S stored in `bits` bits at p
template <class S> struct channel_codec;
template <> struct channel_codec<int> {
  static AMP_FN int load(const unsigned char* p, unsigned bits) {
    return bits == 32 ? *reinterpret_cast<const std::int32_t*>(p)
                      : bits == 16 ? *reinterpret_cast<const std::int16_t*>(p) : *reinterpret_cast<const std::int8_t*>(p);
  }
  static AMP_FN void store(unsigned char* p, unsigned bits, int v) {
    if (bits == 32) *reinterpret_cast<std::int32_t*>(p) = v;
    else if (bits == 16) *reinterpret_cast<std::int16_t*>(p) = static_cast<std::int16_t>(v < -32768 ? -32768 : v > 32767 ? 32767 : v);
    else *reinterpret_cast<std::int8_t*>(p) = static_cast<std::int8_t>(v < -128 ? -128 : v > 127 ? 127 : v);
  }
};
template <> struct channel_codec<unsigned int> {
  static AMP_FN unsigned load(const unsigned char* p, unsigned bits) {
    return bits == 32 ? *reinterpret_cast<const std::uint32_t*>(p)
                      : bits == 16 ? *reinterpret_cast<const std::uint16_t*>(p) : *p;
  }
  static AMP_FN void store(unsigned char* p, unsigned bits, unsigned v) {
    if (bits == 32) *reinterpret_cast<std::uint32_t*>(p) = v;
    else if (bits == 16) *reinterpret_cast<std::uint16_t*>(p) = static_cast<std::uint16_t>(v > 65535u ? 65535u : v);
    else *p = static_cast<unsigned char>(v > 255u ? 255u : v);
  }
};
template <> struct channel_codec<float> {
  static AMP_FN float load(const unsigned char* p, unsigned bits) {
    return bits == 32 ? *reinterpret_cast<const float*>(p) : half_to_float(*reinterpret_cast<const std::uint16_t*>(p));
  }
  static AMP_FN void store(unsigned char* p, unsigned bits, float v) {
    if (bits == 32) *reinterpret_cast<float*>(p) = v;
    else *reinterpret_cast<std::uint16_t*>(p) = float_to_half(v);
  }
};
template <> struct channel_codec<double> {
  static AMP_FN double load(const unsigned char* p, unsigned) { return *reinterpret_cast<const double*>(p); }
  static AMP_FN void store(unsigned char* p, unsigned, double v) { *reinterpret_cast<double*>(p) = v; }
};
// UNORM: n-bit integer u is u / (2^n - 1); writes round to nearest.
template <> struct channel_codec<graphics::unorm> {
  static AMP_FN graphics::unorm load(const unsigned char* p, unsigned bits) {
    return graphics::unorm(bits == 16 ? *reinterpret_cast<const std::uint16_t*>(p) / 65535.0f : *p / 255.0f);
  }
  static AMP_FN void store(unsigned char* p, unsigned bits, graphics::unorm v) {
    AMP_FP_EXACT
    const float f = v; // already in [0, 1]
    if (bits == 16) *reinterpret_cast<std::uint16_t*>(p) = static_cast<std::uint16_t>(f * 65535.0f + 0.5f);
    else *p = static_cast<unsigned char>(f * 255.0f + 0.5f);
  }
};
// SNORM: n-bit integer s is max(s / (2^(n-1) - 1), -1); writes round to nearest.
template <> struct channel_codec<graphics::norm> {
  static AMP_FN graphics::norm load(const unsigned char* p, unsigned bits) {
    return graphics::norm(bits == 16 ? *reinterpret_cast<const std::int16_t*>(p) / 32767.0f
                                     : *reinterpret_cast<const std::int8_t*>(p) / 127.0f);
  }
  static AMP_FN void store(unsigned char* p, unsigned bits, graphics::norm v) {
    AMP_FP_EXACT
    const float f = v, r = f >= 0.0f ? 0.5f : -0.5f;
    if (bits == 16) *reinterpret_cast<std::int16_t*>(p) = static_cast<std::int16_t>(f * 32767.0f + r);
    else *reinterpret_cast<std::int8_t*>(p) = static_cast<std::int8_t>(f * 127.0f + r);
  }
};

// Whole texels: T <-> `channels` stored channels.
template <class T> AMP_FN T load_texel(const unsigned char* p, unsigned bits) {
  using tr = texel_traits<T>;
  using S = typename tr::scalar;
  T v;
  S* c = reinterpret_cast<S*>(&v);
  for (int k = 0; k < tr::channels; ++k) c[k] = channel_codec<S>::load(p + k * (bits / 8), bits);
  return v;
}
template <class T> AMP_FN void store_texel(unsigned char* p, unsigned bits, const T& v) {
  using tr = texel_traits<T>;
  using S = typename tr::scalar;
  const S* c = reinterpret_cast<const S*>(&v);
  for (int k = 0; k < tr::channels; ++k) channel_codec<S>::store(p + k * (bits / 8), bits, c[k]);
}

} // namespace detail
} // namespace Concurrency
