// concurrency::direct3d's kernel intrinsics (HLSL semantics, identical results
// on the host and the GPU) and direct3d_printf / direct3d_errorf /
// direct3d_abort. The Direct3D interop functions (get_device,
// create_accelerator_view(IUnknown*), make_array, get_buffer, the D3D access
// locks) have no counterpart here (migration_guide.md).
#pragma once
#include "config.h"
#include "exceptions.h"
#include "runtime/kernel_abort.h"
#include "target.h"

#include <cmath>
#include <cstdio>
#include <string>

namespace Concurrency {
namespace detail {
namespace d3d {

// Ending a kernel from inside it: the one target choice of this file.
#if AMP_DEVICE_PASS
// The GPU: the message (errorf: its format and arguments) goes to the
// device's abort record and the thread ends (the device backend's
// abort_kernel, stage "kernel"); the host raises runtime_exception with the
// formatted message at the next synchronisation (runtime/kernel_abort.h).
// errorf also prints, as on the host.
AMP_DEVICE_ONLY inline void kernel_abort(const char* message) { abort_kernel(false, message); }
template <class... A> AMP_DEVICE_ONLY void errorf(const char* fmt, A... args) {
  printf(fmt, args...);
  abort_kernel(true, fmt, args...);
}
#else
// The host: an exception, which the host launcher carries out of the kernel.
[[noreturn]] inline void kernel_abort(const char* message) { throw runtime_exception(message, e_fail); }
template <class... A> [[noreturn]] void errorf(const char* fmt, A... args) {
  const int n = std::snprintf(nullptr, 0, fmt, args...);
  std::string m(n > 0 ? static_cast<std::size_t>(n) : 0, '\0');
  if (n > 0) std::snprintf(&m[0], m.size() + 1, fmt, args...);
  std::fputs(m.c_str(), stdout);
  kernel_abort(m.c_str());
}
#endif

// 1-D gradient noise (Perlin): gradients in [-1, 1] at the integers from an
// integer hash, quintic fade; 0 at every integer, within [-1, 1]. Every
// multiply-add is an explicit fma, so GPU contraction cannot change a bit.
AMP_FN float gradient(int i) {
  unsigned h = static_cast<unsigned>(i) * 0x27d4eb2du;
  h ^= h >> 15;
  h *= 0x85ebca6bu;
  h ^= h >> 13;
  return static_cast<float>(2 * static_cast<int>(h & 0xffu) - 255) / 255.0f; // odd multiples of 1/255
}
AMP_FN float noise(float x) {
  if (!(::fabsf(x) < 8388608.0f)) return x - x; // integers (0) from 2^23 on; NaN/inf -> NaN
  const float fl = ::floorf(x);
  const int i = static_cast<int>(fl);
  const float f = x - fl, fm1 = f - 1.0f;
  const float u = f * f * f * ::fmaf(f, ::fmaf(f, 6.0f, -15.0f), 10.0f);
  const float a = gradient(i) * f;
  const float d = ::fmaf(gradient(i + 1), fm1, -a);
  return 2.0f * ::fmaf(u, d, a);
}

} // namespace d3d
} // namespace detail

// Template functions (never deduced), like amp_math.h's: an unqualified call
// under `using namespace concurrency::direct3d` that also sees ::abs picks
// ::abs, which computes the same.
namespace direct3d {
#define AMP_D3D_FN template <int = 0> AMP_FN
AMP_D3D_FN int abs(int x) { return static_cast<int>(x < 0 ? 0u - static_cast<unsigned>(x) : static_cast<unsigned>(x)); }
AMP_D3D_FN int imax(int x, int y) { return x > y ? x : y; }
AMP_D3D_FN int imin(int x, int y) { return x < y ? x : y; }
AMP_D3D_FN unsigned int umax(unsigned int x, unsigned int y) { return x > y ? x : y; }
AMP_D3D_FN unsigned int umin(unsigned int x, unsigned int y) { return x < y ? x : y; }
AMP_D3D_FN int clamp(int x, int lo, int hi) { return imin(imax(x, lo), hi); }
// HLSL min/max return the non-NaN operand: clamp(NaN, lo, hi) = lo. Written
// with comparisons, not fminf/fmaxf, whose choice between -0 and +0 differs
// between glibc and the GPU: saturate(-0) is +0 everywhere.
AMP_D3D_FN float clamp(float x, float lo, float hi) {
  const float m = x > lo ? x : lo; // NaN x -> lo
  return m < hi ? m : hi;
}
AMP_D3D_FN float saturate(float x) { return x > 0.0f ? (x < 1.0f ? x : 1.0f) : 0.0f; } // NaN, -0 -> +0
AMP_D3D_FN int sign(int x) { return (x > 0) - (x < 0); }
AMP_D3D_FN unsigned int countbits(unsigned int x) { return static_cast<unsigned>(__builtin_popcount(x)); }
// Position (from bit 0) of the highest bit that differs from the sign bit;
// -1 for 0 and -1.
AMP_D3D_FN int firstbithigh(int x) {
  const unsigned u = x < 0 ? ~static_cast<unsigned>(x) : static_cast<unsigned>(x);
  return u ? 31 - __builtin_clz(u) : -1;
}
AMP_D3D_FN int firstbitlow(int x) { return x ? __builtin_ctz(static_cast<unsigned>(x)) : -1; }
AMP_D3D_FN unsigned int reversebits(unsigned int x) {
  x = ((x >> 1) & 0x55555555u) | ((x & 0x55555555u) << 1);
  x = ((x >> 2) & 0x33333333u) | ((x & 0x33333333u) << 2);
  x = ((x >> 4) & 0x0f0f0f0fu) | ((x & 0x0f0f0f0fu) << 4);
  x = ((x >> 8) & 0x00ff00ffu) | ((x & 0x00ff00ffu) << 8);
  return (x >> 16) | (x << 16);
}
// mad: fused on every target (one rounding), so host and GPU agree exactly.
AMP_D3D_FN float mad(float x, float y, float z) { return ::fmaf(x, y, z); }
AMP_D3D_FN double mad(double x, double y, double z) { return ::fma(x, y, z); }
AMP_D3D_FN int mad(int x, int y, int z) {
  return static_cast<int>(static_cast<unsigned>(x) * static_cast<unsigned>(y) + static_cast<unsigned>(z));
}
AMP_D3D_FN unsigned int mad(unsigned int x, unsigned int y, unsigned int z) { return x * y + z; }
AMP_D3D_FN float noise(float x) { return detail::d3d::noise(x); }
AMP_D3D_FN float radians(float x) { return x * 0.0174532924f; } // pi/180 rounded to float
AMP_D3D_FN float rcp(float x) { return 1.0f / x; }
AMP_D3D_FN double rcp(double x) { return 1.0 / x; }
AMP_D3D_FN float smoothstep(float lo, float hi, float x) {
  const float t = saturate((x - lo) / (hi - lo));
  return t * t * (3.0f - 2.0f * t);
}
AMP_D3D_FN float step(float y, float x) { return x >= y ? 1.0f : 0.0f; }
#undef AMP_D3D_FN
} // namespace direct3d

// direct3d_printf: printf from a kernel (the GPU's printf buffer is flushed at
// synchronisation). direct3d_errorf: prints the message and ends the kernel
// with runtime_exception carrying it. direct3d_abort: ends the kernel with
// runtime_exception. On host accelerators parallel_for_each raises it; on the
// GPU the next synchronisation does (a wait, a copy back).
template <class... A> AMP_FN void direct3d_printf(const char* fmt, A... args) { printf(fmt, args...); }
template <class... A> AMP_FN void direct3d_errorf(const char* fmt, A... args) { detail::d3d::errorf(fmt, args...); }
AMP_FN void direct3d_abort() { detail::d3d::kernel_abort("direct3d_abort was called in a kernel"); }

} // namespace Concurrency
