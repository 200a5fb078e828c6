// Test helpers shared by the math tests: a 113-bit reference (GCC's
// libquadmath, linked statically; its header is GCC-only, so the few functions
// used are declared here) and the ulp distance of a float/double result to it.
#pragma once
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

using quad = __float128;
extern "C" {
quad sinq(quad); quad cosq(quad); quad tanq(quad); quad asinq(quad); quad acosq(quad); quad atanq(quad);
quad atan2q(quad, quad); quad sinhq(quad); quad coshq(quad); quad tanhq(quad); quad asinhq(quad);
quad acoshq(quad); quad atanhq(quad); quad expq(quad); quad expm1q(quad); quad logq(quad); quad log2q(quad);
quad log10q(quad); quad log1pq(quad); quad cbrtq(quad); quad sqrtq(quad); quad hypotq(quad, quad);
quad powq(quad, quad); quad erfq(quad); quad erfcq(quad); quad tgammaq(quad); quad lgammaq(quad);
quad fmodq(quad, quad);
}

namespace mathref {
inline quad pi() { return 4 * atanq(1); }
inline quad qabs(quad x) { return x < 0 ? -x : x; }
inline bool qnan(quad x) { return x != x; }

// |got - exact| in units of the last place of the exact value rounded to T
// (the larger ulp at a binade edge). NaN expected: 0 iff got is NaN.
template <class T> double ulp_error(T got, quad exact) {
  const double inf = std::numeric_limits<double>::infinity();
  if (qnan(exact)) return std::isnan(got) ? 0 : inf;
  if (std::isnan(got)) return inf;
  const T r = static_cast<T>(exact);
  if (got == r) return 0;
  if (std::isinf(got)) return inf;
  T a = std::fabs(r);
  if (std::isinf(a)) a = std::numeric_limits<T>::max();
  T u = std::nextafter(a, std::numeric_limits<T>::infinity()) - a;
  if (std::isinf(u)) u = a - std::nextafter(a, T(0));
  return static_cast<double>(qabs(static_cast<quad>(got) - exact) / static_cast<quad>(u));
}

// Arguments in [lo, hi]: half uniform, half with log-uniform magnitude (so
// tiny, denormal-free and huge values all appear), reproducibly.
template <class T> std::vector<T> sample(double lo, double hi, int n, unsigned seed) {
  std::mt19937_64 g(seed);
  std::uniform_real_distribution<double> u(lo, hi), s(0, 1);
  std::vector<T> v;
  v.reserve(n);
  const double big = std::fmax(std::fabs(lo), std::fabs(hi));
  const double small = std::is_same<T, float>::value ? 1e-30 : 1e-290;
  while (static_cast<int>(v.size()) < n) {
    double x;
    if (v.size() % 2 == 0) {
      x = u(g);
    } else {
      x = std::exp(std::log(small) + s(g) * (std::log(big) - std::log(small)));
      if (s(g) < 0.5) x = -x;
    }
    const T t = static_cast<T>(x);
    if (t >= static_cast<T>(lo) && t <= static_cast<T>(hi)) v.push_back(t);
  }
  return v;
}

// x with Phi(x) = p (or erfc(x) = z...) by Newton's method in quad precision
// from a start near the root (the value under test): f must be increasing or
// decreasing with derivative df.
template <class F, class DF> quad newton_root(quad x, quad target, F f, DF df) {
  for (int i = 0; i < 60; ++i) {
    const quad d = (f(x) - target) / df(x);
    if (qnan(d)) break;
    x -= d;
    if (qabs(d) <= qabs(x) * static_cast<quad>(1e-33)) break;
  }
  return x;
}
} // namespace mathref
