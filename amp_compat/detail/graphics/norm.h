// norm and unorm (C++ AMP spec 10.7): a float kept in [-1, 1] / [0, 1].
//
// Every construction from a number and every arithmetic result is clamped
// into the range ("saturating" arithmetic, as Microsoft's header does: the
// operation is done in float, then clamped). NaN becomes 0 for both types, the
// Direct3D rule for normalized formats; Microsoft's CPU path kept NaN and its
// GPU path gave 0, so this is the one behaviour that is identical on host and
// GPU. Conversions: unorm -> norm and both -> float are implicit, everything
// else is explicit, as in AMP. The same comparisons run on host and GPU (no
// fminf/fmaxf), so results are bit-identical.
#pragma once
#include "../config.h"

namespace Concurrency {
namespace graphics {
class norm;

class unorm {
  float v_;
  static AMP_FN float clamp(float v) { return v > 0.0f ? (v < 1.0f ? v : 1.0f) : 0.0f; } // NaN -> 0
  friend class norm;

public:
  AMP_FN unorm() : v_(0.0f) {}
  AMP_FN explicit unorm(float v) : v_(clamp(v)) {}
  AMP_FN explicit unorm(unsigned int v) : v_(clamp(static_cast<float>(v))) {}
  AMP_FN explicit unorm(int v) : v_(clamp(static_cast<float>(v))) {}
  AMP_FN explicit unorm(double v) : v_(clamp(static_cast<float>(v))) {}
  AMP_FN explicit unorm(const norm& n);
  unorm(const unorm&) = default;
  unorm& operator=(const unorm&) = default;

  AMP_FN operator float() const { return v_; }

  AMP_FN unorm& operator+=(const unorm& o) { v_ = clamp(v_ + o.v_); return *this; }
  AMP_FN unorm& operator-=(const unorm& o) { v_ = clamp(v_ - o.v_); return *this; }
  AMP_FN unorm& operator*=(const unorm& o) { v_ = clamp(v_ * o.v_); return *this; }
  AMP_FN unorm& operator/=(const unorm& o) { v_ = clamp(v_ / o.v_); return *this; }
  AMP_FN unorm& operator++() { v_ = clamp(v_ + 1.0f); return *this; }
  AMP_FN unorm& operator--() { v_ = clamp(v_ - 1.0f); return *this; }
  AMP_FN unorm operator++(int) { unorm r = *this; ++*this; return r; }
  AMP_FN unorm operator--(int) { unorm r = *this; --*this; return r; }
};

class norm {
  float v_;
  static AMP_FN float clamp(float v) {
    return v != v ? 0.0f : (v > -1.0f ? (v < 1.0f ? v : 1.0f) : -1.0f); // NaN -> 0
  }
  friend class unorm;

public:
  AMP_FN norm() : v_(0.0f) {}
  AMP_FN explicit norm(float v) : v_(clamp(v)) {}
  AMP_FN explicit norm(unsigned int v) : v_(clamp(static_cast<float>(v))) {}
  AMP_FN explicit norm(int v) : v_(clamp(static_cast<float>(v))) {}
  AMP_FN explicit norm(double v) : v_(clamp(static_cast<float>(v))) {}
  AMP_FN norm(const unorm& u) : v_(u.v_) {}
  norm(const norm&) = default;
  norm& operator=(const norm&) = default;

  AMP_FN operator float() const { return v_; }

  AMP_FN norm& operator+=(const norm& o) { v_ = clamp(v_ + o.v_); return *this; }
  AMP_FN norm& operator-=(const norm& o) { v_ = clamp(v_ - o.v_); return *this; }
  AMP_FN norm& operator*=(const norm& o) { v_ = clamp(v_ * o.v_); return *this; }
  AMP_FN norm& operator/=(const norm& o) { v_ = clamp(v_ / o.v_); return *this; }
  AMP_FN norm& operator++() { v_ = clamp(v_ + 1.0f); return *this; }
  AMP_FN norm& operator--() { v_ = clamp(v_ - 1.0f); return *this; }
  AMP_FN norm operator++(int) { norm r = *this; ++*this; return r; }
  AMP_FN norm operator--(int) { norm r = *this; --*this; return r; }
  AMP_FN norm operator-() const { norm r; r.v_ = -v_; return r; }
};

AMP_FN unorm::unorm(const norm& n) : v_(clamp(n.v_)) {}

// Binary arithmetic saturates; comparisons compare the float values.
#define AMP_NORM_OPS(N)                                                                                  \
  AMP_FN N operator+(const N& a, const N& b) { return N(float(a) + float(b)); }                        \
  AMP_FN N operator-(const N& a, const N& b) { return N(float(a) - float(b)); }                        \
  AMP_FN N operator*(const N& a, const N& b) { return N(float(a) * float(b)); }                        \
  AMP_FN N operator/(const N& a, const N& b) { return N(float(a) / float(b)); }                        \
  AMP_FN bool operator==(const N& a, const N& b) { return float(a) == float(b); }                      \
  AMP_FN bool operator!=(const N& a, const N& b) { return float(a) != float(b); }                      \
  AMP_FN bool operator<(const N& a, const N& b) { return float(a) < float(b); }                        \
  AMP_FN bool operator>(const N& a, const N& b) { return float(a) > float(b); }                        \
  AMP_FN bool operator<=(const N& a, const N& b) { return float(a) <= float(b); }                      \
  AMP_FN bool operator>=(const N& a, const N& b) { return float(a) >= float(b); }
AMP_NORM_OPS(unorm)
AMP_NORM_OPS(norm)
#undef AMP_NORM_OPS

} // namespace graphics
} // namespace Concurrency

#define UNORM_ZERO ((concurrency::graphics::unorm)0.0f)
#define UNORM_MIN ((concurrency::graphics::unorm)0.0f)
#define UNORM_MAX ((concurrency::graphics::unorm)1.0f)
#define NORM_ZERO ((concurrency::graphics::norm)0.0f)
#define NORM_MIN ((concurrency::graphics::norm)-1.0f)
#define NORM_MAX ((concurrency::graphics::norm)1.0f)
