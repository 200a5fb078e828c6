// amp_math.h: fast_math and precise_math give the C library's results (within
// float rounding for fast_math) inside kernels on every accelerator.
#include <amp.h>
#include <amp_math.h>

#include <cmath>
#include <gtest/gtest.h>
#include <vector>

using namespace concurrency;

namespace {

TEST(AmpMath, FastAndPreciseMatchTheCLibrary) {
  const int n = 64;
  std::vector<float> in(n), fast(n * 4), precise(n * 4);
  std::vector<double> dbl(n);
  for (int i = 0; i < n; ++i) in[i] = 0.25f + 0.125f * i;
  array_view<const float, 1> x(n, in);
  array_view<float, 2> f(n, 4, fast), p(n, 4, precise);
  array_view<double, 1> d(n, dbl);
  f.discard_data();
  p.discard_data();
  d.discard_data();
  parallel_for_each(x.extent, [=](index<1> i) restrict(amp) {
    const float v = x[i];
    f(i[0], 0) = fast_math::sqrt(v);
    f(i[0], 1) = fast_math::exp(v * 0.1f);
    f(i[0], 2) = fast_math::sin(v);
    f(i[0], 3) = fast_math::fmax(v, 2.0f);
    p(i[0], 0) = precise_math::pow(v, 1.5f);
    p(i[0], 1) = precise_math::log(v);
    p(i[0], 2) = precise_math::atan2(v, 3.0f);
    p(i[0], 3) = precise_math::cbrt(v);
    d[i] = precise_math::hypot(static_cast<double>(v), 1.0);
  });
  for (int i = 0; i < n; ++i) {
    const float v = in[i];
    EXPECT_FLOAT_EQ(f(i, 0), std::sqrt(v));
    EXPECT_NEAR(f(i, 1), std::exp(v * 0.1f), 1e-5f * std::exp(v * 0.1f));
    EXPECT_NEAR(f(i, 2), std::sin(v), 1e-5f);
    EXPECT_EQ(f(i, 3), std::fmax(v, 2.0f));
    EXPECT_FLOAT_EQ(p(i, 0), std::pow(v, 1.5f));
    EXPECT_FLOAT_EQ(p(i, 1), std::log(v));
    EXPECT_FLOAT_EQ(p(i, 2), std::atan2(v, 3.0f));
    EXPECT_FLOAT_EQ(p(i, 3), std::cbrt(v));
    EXPECT_DOUBLE_EQ(d[i], std::hypot(static_cast<double>(v), 1.0));
  }
}

} // namespace
