// amp_math.h beyond accuracy: every overload exists and computes in kernels;
// the exact functions (rounding, fmod, frexp, classification...) equal the C
// library bit for bit, edge cases (NaN, +-0, +-inf, denormals, huge
// arguments) follow C/IEEE, out-parameters are written, and unqualified calls
// under `using namespace` resolve in host and GPU builds.
#include <amp.h>
#include <amp_math.h>
#include <math.h> // the C++ <math.h>: puts std::sqrt & co. into the global namespace too

#include <cfloat>
#include <cmath>
#include <cstring>
#include <gtest/gtest.h>
#include <limits>
#include <vector>

using namespace concurrency;

namespace {

template <class T> bool same_bits(T a, T b) {
  if (std::isnan(a) && std::isnan(b)) return true;
  return std::memcmp(&a, &b, sizeof(T)) == 0;
}

template <class T> std::vector<T> edge_inputs() {
  using L = std::numeric_limits<T>;
  return {T(0),       -T(0),        T(1),        T(-1),      T(0.5),      T(-2.5),     T(3.75),    T(-7.5),
          T(1e-3),    L::denorm_min(), -L::denorm_min() * 5, L::min(), L::max(), -L::max(), L::infinity(),
          -L::infinity(), L::quiet_NaN(), T(123456.789), T(-98765.4321), T(2.5), T(1e20), T(-3e-20), T(6.0)};
}

// ---- exact unary functions: the kernel's results equal the C library's.
#define EXACT_UNARY(X) X(ceil) X(floor) X(trunc) X(round) X(nearbyint) X(fabs) X(logb)
enum exact_unary_id {
#define ID(N) u_##N,
  EXACT_UNARY(ID)
#undef ID
      n_exact_unary
};
template <class T> T exact_unary_amp(int k, T x) restrict(amp) {
  switch (k) {
#define CASE(N) \
  case u_##N: return precise_math::N(x);
    EXACT_UNARY(CASE)
#undef CASE
  }
  return 0;
}
template <class T> T exact_unary_ref(int k, T x) {
  switch (k) {
#define CASE(N) \
  case u_##N: return std::N(x);
    EXACT_UNARY(CASE)
#undef CASE
  }
  return 0;
}
// The other spellings (Nf, fast_math::N, fast_math::Nf) give the same float.
inline int float_spellings_differ(int k, float x) restrict(amp) {
  float a = 0, b = 0, c = 0, d = 0;
  switch (k) {
#define CASE(N)                     \
  case u_##N:                       \
    a = precise_math::N(x);         \
    b = precise_math::N##f(x);      \
    c = a;                          \
    d = a;                          \
    break;
    EXACT_UNARY(CASE)
#undef CASE
  }
  if (k == u_ceil) c = fast_math::ceil(x), d = fast_math::ceilf(x);
  if (k == u_floor) c = fast_math::floor(x), d = fast_math::floorf(x);
  if (k == u_trunc) c = fast_math::trunc(x), d = fast_math::truncf(x);
  if (k == u_round) c = fast_math::round(x), d = fast_math::roundf(x);
  if (k == u_fabs) c = fast_math::fabs(x), d = fast_math::fabsf(x);
  auto differ = [](float p, float q) restrict(amp) { return !(p == q || (p != p && q != q)); };
  return differ(a, b) || differ(a, c) || differ(a, d);
}

template <class T> void check_exact_unary() {
  const auto in = edge_inputs<T>();
  const int n = static_cast<int>(in.size());
  std::vector<T> out(n_exact_unary * n);
  std::vector<int> spelling(n_exact_unary * n, 0);
  array_view<const T, 1> x(n, in);
  array_view<T, 2> r(n_exact_unary, n, out);
  array_view<int, 2> s(n_exact_unary, n, spelling);
  parallel_for_each(r.extent, [=](index<2> i) restrict(amp) {
    r[i] = exact_unary_amp(i[0], x[i[1]]);
    s[i] = float_spellings_differ(i[0], static_cast<float>(x[i[1]]));
  });
  for (int k = 0; k < n_exact_unary; ++k)
    for (int j = 0; j < n; ++j) {
      EXPECT_TRUE(same_bits(r(k, j), exact_unary_ref(k, in[j]))) << "function " << k << " at " << in[j];
      EXPECT_EQ(s(k, j), 0) << "float spellings of function " << k << " differ at " << in[j];
    }
}
TEST(MathFunctions, ExactUnaryFunctionsEqualTheCLibrary) {
  check_exact_unary<float>();
  check_exact_unary<double>();
}

// ---- exact binary functions and the out-parameter / int-result functions.
// Each input pair (x, y) gives a row of results, computed in the kernel and
// with the C library on the host, compared bit for bit.
const int n_row = 24;
template <class T> void row_amp(T x, T y, T* o) restrict(amp) {
  int e = 0, q = 0;
  T ip = 0;
  o[0] = precise_math::copysign(x, y);
  o[1] = precise_math::fdim(x, y);
  o[2] = precise_math::fmax(x, y);
  o[3] = precise_math::fmin(x, y);
  o[4] = precise_math::fmod(x, y);
  o[5] = precise_math::remainder(x, y);
  o[6] = precise_math::nextafter(x, y);
  o[7] = precise_math::frexp(x, &e);
  o[8] = static_cast<T>(e);
  o[9] = precise_math::ldexp(x, 7);
  o[10] = precise_math::scalbn(x, -9);
  o[11] = static_cast<T>(precise_math::ilogb(x));
  o[12] = precise_math::modf(x, &ip);
  o[13] = ip;
  o[14] = precise_math::remquo(x, y, &q);
  o[15] = static_cast<T>(q % 8); // C guarantees the sign and the low 3 bits
  o[16] = precise_math::fma(x, y, T(0.1));
  o[17] = static_cast<T>(precise_math::isfinite(x));
  o[18] = static_cast<T>(precise_math::isinf(x));
  o[19] = static_cast<T>(precise_math::isnan(x));
  o[20] = static_cast<T>(precise_math::isnormal(x));
  o[21] = static_cast<T>(precise_math::fpclassify(x));
  o[22] = static_cast<T>(precise_math::signbit(x));
  o[23] = precise_math::scalb(x, T(3));
}
template <class T> void row_ref(T x, T y, T* o) {
  int e = 0, q = 0;
  T ip = 0;
  o[0] = std::copysign(x, y);
  o[1] = std::fdim(x, y);
  o[2] = std::fmax(x, y);
  o[3] = std::fmin(x, y);
  o[4] = std::fmod(x, y);
  o[5] = std::remainder(x, y);
  o[6] = std::nextafter(x, y);
  o[7] = std::frexp(x, &e);
  o[8] = static_cast<T>(e);
  o[9] = std::ldexp(x, 7);
  o[10] = std::scalbn(x, -9);
  o[11] = static_cast<T>(std::ilogb(x));
  o[12] = std::modf(x, &ip);
  o[13] = ip;
  o[14] = std::remquo(x, y, &q);
  o[15] = static_cast<T>(q % 8);
  o[16] = std::fma(x, y, T(0.1));
  o[17] = std::isfinite(x);
  o[18] = std::isinf(x);
  o[19] = std::isnan(x);
  o[20] = std::isnormal(x);
  o[21] = static_cast<T>(std::fpclassify(x));
  o[22] = std::signbit(x);
  o[23] = std::isnan(x) ? x : std::scalbn(x, 3);
}
template <class T> void check_rows() {
  const auto xs = edge_inputs<T>();
  std::vector<T> ys = {T(0.75), T(-3), T(0), std::numeric_limits<T>::infinity(), T(1e-3), T(-2.5)};
  std::vector<T> in_x, in_y;
  for (T x : xs)
    for (T y : ys) in_x.push_back(x), in_y.push_back(y);
  const int n = static_cast<int>(in_x.size());
  std::vector<T> out(n * n_row);
  array_view<const T, 1> ax(n, in_x), ay(n, in_y);
  array_view<T, 2> r(n, n_row, out);
  r.discard_data();
  parallel_for_each(ax.extent, [=](index<1> i) restrict(amp) {
    T o[n_row];
    row_amp(ax[i], ay[i], o);
    for (int k = 0; k < n_row; ++k) r(i[0], k) = o[k];
  });
  for (int i = 0; i < n; ++i) {
    T ref[n_row];
    row_ref(in_x[i], in_y[i], ref);
    for (int k = 0; k < n_row; ++k) {
      // frexp's exponent and ilogb of inf/NaN are unspecified in C.
      if ((k == 8 || k == 11) && !std::isfinite(in_x[i])) continue;
      // fmax/fmin of two zeros may return either zero.
      if ((k == 2 || k == 3) && in_x[i] == 0 && in_y[i] == 0) {
        EXPECT_EQ(r(i, k), T(0));
        continue;
      }
      EXPECT_TRUE(same_bits(r(i, k), ref[k])) << "column " << k << " at (" << in_x[i] << ", " << in_y[i]
                                              << "): " << r(i, k) << " vs " << ref[k];
    }
  }
}
TEST(MathFunctions, BinaryOutParameterAndClassificationFunctionsEqualTheCLibrary) {
  check_rows<float>();
  check_rows<double>();
}

// ---- special values of the functions the C library lacks (C23 / IEEE 754).
TEST(MathFunctions, SpecialFunctionsAtTheirSpecialValues) {
  const double inf = HUGE_VAL, nan = std::nan("");
  // check: 0 exact value, 1 exact including the sign of zero, 2 within 4 ulp
  struct expect_t {
    int fn;
    double x, want;
    int check;
  };
  // fn: 0 sinpi 1 cospi 2 tanpi 3 erfinv 4 erfcinv 5 probit 6 phi 7 rsqrt 8 rcbrt 9 exp10
  const std::vector<expect_t> cases = {
      {0, 0.0, 0.0, 1},   {0, -0.0, -0.0, 1}, {0, 0.5, 1, 2},     {0, -0.5, -1, 2},   {0, 1e300, 0, 0},
      {0, 2.5, 1, 2},     {0, inf, nan, 0},   {1, 0.5, 0, 0},     {1, 1, -1, 2},      {1, 1e300, 1, 0},
      {1, 0, 1, 0},       {1, -inf, nan, 0},  {2, 0.25, 1, 2},    {2, -0.25, -1, 2},  {2, 0.5, inf, 0},
      {2, 1.5, -inf, 0},  {2, 0, 0, 1},       {3, 0, 0, 1},       {3, -0.0, -0.0, 1}, {3, 1, inf, 0},
      {3, -1, -inf, 0},   {3, 1.5, nan, 0},   {3, nan, nan, 0},   {4, 0, inf, 0},     {4, 2, -inf, 0},
      {4, 1, 0, 0},       {4, -0.5, nan, 0},  {4, 2.5, nan, 0},   {5, 0, -inf, 0},    {5, 1, inf, 0},
      {5, 0.5, 0, 0},     {5, 1.5, nan, 0},   {6, 0, 0.5, 2},     {6, -inf, 0, 0},    {6, inf, 1, 0},
      {6, nan, nan, 0},   {7, 4, 0.5, 2},     {7, 0, inf, 0},     {7, -0.0, -inf, 0}, {7, inf, 0, 0},
      {7, -1, nan, 0},    {8, 8, 0.5, 2},     {8, -8, -0.5, 2},   {8, 0, inf, 0},     {8, -inf, -0.0, 1},
      {9, -inf, 0, 0},    {9, 0, 1, 0},       {9, inf, inf, 0},   {9, nan, nan, 0}};
  const int n = static_cast<int>(cases.size());
  std::vector<int> fn(n);
  std::vector<double> x(n), got_d(n);
  std::vector<float> got_f(n);
  for (int i = 0; i < n; ++i) fn[i] = cases[i].fn, x[i] = cases[i].x;
  array_view<const int, 1> af(n, fn);
  array_view<const double, 1> ax(n, x);
  array_view<double, 1> rd(n, got_d);
  array_view<float, 1> rf(n, got_f);
  parallel_for_each(ax.extent, [=](index<1> i) restrict(amp) {
    const double v = ax[i];
    const float w = static_cast<float>(v);
    double d = 0;
    float f = 0;
    switch (af[i]) {
    case 0: d = precise_math::sinpi(v), f = precise_math::sinpif(w); break;
    case 1: d = precise_math::cospi(v), f = precise_math::cospif(w); break;
    case 2: d = precise_math::tanpi(v), f = precise_math::tanpif(w); break;
    case 3: d = precise_math::erfinv(v), f = precise_math::erfinvf(w); break;
    case 4: d = precise_math::erfcinv(v), f = precise_math::erfcinvf(w); break;
    case 5: d = precise_math::probit(v), f = precise_math::probitf(w); break;
    case 6: d = precise_math::phi(v), f = precise_math::phif(w); break;
    case 7: d = precise_math::rsqrt(v), f = precise_math::rsqrtf(w); break;
    case 8: d = precise_math::rcbrt(v), f = precise_math::rcbrtf(w); break;
    case 9: d = precise_math::exp10(v), f = precise_math::exp10f(w); break;
    }
    rd[i] = d;
    rf[i] = f;
  });
  for (int i = 0; i < n; ++i) {
    const auto& c = cases[i];
    // The float form is checked where the argument is a float.
    const bool float_arg = std::isnan(c.x) || static_cast<double>(static_cast<float>(c.x)) == c.x;
    for (int t = 0; t < (float_arg ? 2 : 1); ++t) {
      const double got = t == 0 ? rd[i] : static_cast<double>(rf[i]);
      const double ulp = t == 0 ? DBL_EPSILON : FLT_EPSILON;
      if (std::isnan(c.want)) {
        EXPECT_TRUE(std::isnan(got)) << "function " << c.fn << " at " << c.x << " gave " << got;
      } else if (c.check == 2) {
        EXPECT_NEAR(got, c.want, 4 * ulp * std::fabs(c.want)) << "function " << c.fn << " at " << c.x;
      } else {
        EXPECT_EQ(got, c.want) << "function " << c.fn << " at " << c.x << (t ? " (float)" : "");
        if (c.check == 1) EXPECT_EQ(std::signbit(got), std::signbit(c.want)) << "function " << c.fn << " at " << c.x;
      }
    }
  }
}

// scalb: C's scalb (NaN for a non-integral or invalid exponent); lgamma's sign
// output equals glibc's lgamma_r, poles and signed zeros included; nan().
TEST(MathFunctions, ScalbLgammaSignAndNan) {
  const double inf = HUGE_VAL;
  const std::vector<double> xs = {1, 3, 0, -0.0, 5, inf, -inf, 2, std::nan("")};
  const std::vector<double> ns = {3, 0.5, inf, -inf, -1100, 2000, -inf, 1, 1};
  const std::vector<double> gx = {3, 0.5, -0.5, -1.5, -2.5, -0.0, 0.0, -1, -2, -inf, inf, -1e-300, -170.5, -171.5};
  const int n = static_cast<int>(xs.size()), m = static_cast<int>(gx.size());
  std::vector<double> sd(n), gv(m);
  std::vector<float> sf(n);
  std::vector<int> gs(m), gsf(m), nan_ok(1);
  array_view<const double, 1> ax(n, xs), an(n, ns), ag(m, gx);
  array_view<double, 1> rsd(n, sd), rgv(m, gv);
  array_view<float, 1> rsf(n, sf);
  array_view<int, 1> rgs(m, gs), rgsf(m, gsf), rnan(1, nan_ok);
  parallel_for_each(ax.extent, [=](index<1> i) restrict(amp) {
    rsd[i] = precise_math::scalb(ax[i], an[i]);
    rsf[i] = precise_math::scalbf(static_cast<float>(ax[i]), static_cast<float>(an[i]));
  });
  parallel_for_each(ag.extent, [=](index<1> i) restrict(amp) {
    int s = 0, sf2 = 0;
    rgv[i] = precise_math::lgamma(ag[i], &s);
    precise_math::lgammaf(static_cast<float>(ag[i]), &sf2);
    rgs[i] = s;
    rgsf[i] = sf2;
    if (i[0] == 0)
      rnan[0] = precise_math::isnan(precise_math::nan(1)) && precise_math::isnan(precise_math::nanf(2)) &&
                fast_math::isnan(precise_math::nanf(0));
  });
  for (int i = 0; i < n; ++i) {
    const double want = ::scalb(xs[i], ns[i]);
    EXPECT_TRUE(same_bits(rsd[i], want)) << "scalb(" << xs[i] << ", " << ns[i] << ") = " << rsd[i] << ", glibc " << want;
    const float wantf = ::scalbf(static_cast<float>(xs[i]), static_cast<float>(ns[i]));
    EXPECT_TRUE(same_bits(rsf[i], wantf)) << "scalbf(" << xs[i] << ", " << ns[i] << ")";
  }
  for (int i = 0; i < m; ++i) {
    int s = 0;
    const double v = ::lgamma_r(gx[i], &s);
    EXPECT_EQ(rgs[i], s) << "lgamma sign at " << gx[i];
    EXPECT_EQ(rgsf[i], s) << "lgammaf sign at " << gx[i];
    if (std::isfinite(v)) EXPECT_NEAR(rgv[i], v, 1e-12 * std::fmax(1, std::fabs(v))) << "lgamma at " << gx[i];
    else EXPECT_EQ(rgv[i], v) << "lgamma at " << gx[i];
  }
  EXPECT_EQ(rnan[0], 1); // through the view: on a GPU the vector is current only after a synchronisation
}

// sincos writes both outputs; fast_math's sincos and frexp/modf/ldexp forms.
TEST(MathFunctions, OutParameterFormsWriteTheirOutputs) {
  const int n = 16;
  std::vector<double> out(n * 8);
  array_view<double, 2> r(n, 8, out);
  r.discard_data();
  parallel_for_each(extent<1>(n), [=](index<1> i) restrict(amp) {
    const double x = precise_math::fma(0.37, static_cast<double>(i[0]), -2.5); // no contraction differences
    const float xf = static_cast<float>(x);
    double s, c;
    float sf, cf, fs, fc, ip;
    int e;
    precise_math::sincos(x, &s, &c);
    precise_math::sincosf(xf, &sf, &cf);
    fast_math::sincos(xf, &fs, &fc);
    r(i[0], 0) = s;
    r(i[0], 1) = c;
    r(i[0], 2) = sf;
    r(i[0], 3) = cf;
    r(i[0], 4) = fs;
    r(i[0], 5) = fc;
    r(i[0], 6) = static_cast<double>(fast_math::frexpf(xf, &e)) * 1000 + e; // exact in double
    r(i[0], 7) = static_cast<double>(fast_math::modff(xf, &ip)) + 10.0 * ip + fast_math::ldexpf(xf, 2);
  });
  for (int i = 0; i < n; ++i) {
    const double x = std::fma(0.37, static_cast<double>(i), -2.5);
    const float xf = static_cast<float>(x);
    EXPECT_NEAR(r(i, 0), std::sin(x), 2e-16);
    EXPECT_NEAR(r(i, 1), std::cos(x), 2e-16);
    EXPECT_NEAR(r(i, 2), std::sin(xf), 3e-7);
    EXPECT_NEAR(r(i, 3), std::cos(xf), 3e-7);
    EXPECT_NEAR(r(i, 4), std::sin(xf), 1e-6);
    EXPECT_NEAR(r(i, 5), std::cos(xf), 1e-6);
    int e;
    const float m = std::frexp(xf, &e);
    EXPECT_EQ(r(i, 6), static_cast<double>(m) * 1000 + e);
    float ip;
    const float fr = std::modf(xf, &ip);
    EXPECT_EQ(r(i, 7), static_cast<double>(fr) + 10.0 * ip + std::ldexp(xf, 2));
  }
}

// Unqualified calls under using-directives, with the global C functions also
// visible (<math.h>): they compile on every target and compute the function
// (the pitfall: scalb, which glibc declares for the host only).
TEST(MathFunctions, UnqualifiedCallsUnderUsingDirectives) {
  const int n = 8;
  std::vector<double> out(n * 6);
  array_view<double, 2> r(n, 6, out);
  r.discard_data();
  parallel_for_each(extent<1>(n), [=](index<1> i) restrict(amp) {
    using namespace concurrency::precise_math;
    const double x = 1.5 + i[0];
    const float y = static_cast<float>(x);
    int e;
    r(i[0], 0) = sqrt(x) + sqrt(y) + sqrtf(y);
    r(i[0], 1) = scalb(x, 2.0) + scalb(y, 1.0f) + scalbf(y, 1.0f);
    r(i[0], 2) = rsqrt(x) + cospi(x) + frexp(x, &e) + e + fabs(-x) + pow(x, 2.0) + fmod(x, 1.0);
    r(i[0], 3) = isnan(x) + isinf(y) + signbit(-x) + fpclassify(x);
  });
  parallel_for_each(extent<1>(n), [=](index<1> i) restrict(amp) {
    using namespace concurrency::fast_math;
    const float y = 1.5f + i[0];
    int e;
    r(i[0], 4) = sqrt(y) + exp(y) + frexp(y, &e) + e + ldexp(y, 2) + isnan(y);
    r(i[0], 5) = log(y) + pow(y, 2.0f) + rsqrt(y);
  });
  for (int i = 0; i < n; ++i) {
    const double x = 1.5 + i;
    const float y = static_cast<float>(x);
    int e;
    const double fr = std::frexp(x, &e);
    EXPECT_NEAR(r(i, 0), std::sqrt(x) + 2 * std::sqrt(y), 1e-5);
    EXPECT_EQ(r(i, 1), 4 * x + 4 * y);
    EXPECT_NEAR(r(i, 2), 1 / std::sqrt(x) + std::cos(M_PI * x) + fr + e + x + x * x + std::fmod(x, 1.0), 1e-12);
    EXPECT_EQ(r(i, 3), 1 + FP_NORMAL);
    int ef;
    const float frf = std::frexp(y, &ef);
    EXPECT_NEAR(r(i, 4), std::sqrt(y) + std::exp(y) + frf + ef + 4 * y, 1e-5 * std::exp(y));
    EXPECT_NEAR(r(i, 5), std::log(y) + y * y + 1 / std::sqrt(y), 1e-4);
  }
}

} // namespace
