// concurrency::direct3d intrinsics with HLSL's semantics, bit-identical between
// a kernel and a host call of the same function (so the GPU run checks GPU ==
// host), checked against independent references; direct3d_printf, and
// direct3d_abort / direct3d_errorf ending in runtime_exception.
#include <amp.h>

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <gtest/gtest.h>
#include <limits>
#include <string>
#include <vector>

using namespace concurrency;

namespace {

const std::vector<int> ints = {0, 1, -1, 2, -2, 3, 7, 8, -8, 12345, -12345, 0x40000000, INT_MAX, INT_MIN,
                               INT_MIN + 1, 0x00f00000, -0x00f00001, 255, 256, -256};

int ref_firstbithigh(int x) {
  const unsigned u = static_cast<unsigned>(x), sign = u >> 31;
  for (int b = 31; b >= 0; --b)
    if (((u >> b) & 1u) != sign) return b;
  return -1;
}
int ref_firstbitlow(int x) {
  for (int b = 0; b < 32; ++b)
    if ((static_cast<unsigned>(x) >> b) & 1u) return b;
  return -1;
}
unsigned ref_reverse(unsigned x) {
  unsigned r = 0;
  for (int b = 0; b < 32; ++b) r |= ((x >> b) & 1u) << (31 - b);
  return r;
}
unsigned ref_popcount(unsigned x) {
  unsigned c = 0;
  for (; x; x >>= 1) c += x & 1u;
  return c;
}

const int n_int_cols = 12;
void int_row(int x, int y, int* o) restrict(amp) {
  using namespace concurrency::direct3d;
  const unsigned u = static_cast<unsigned>(x), v = static_cast<unsigned>(y);
  o[0] = direct3d::abs(x);
  o[1] = direct3d::sign(x);
  o[2] = direct3d::firstbithigh(x);
  o[3] = direct3d::firstbitlow(x);
  o[4] = static_cast<int>(direct3d::countbits(u));
  o[5] = static_cast<int>(direct3d::reversebits(u));
  o[6] = direct3d::imax(x, y);
  o[7] = direct3d::imin(x, y);
  o[8] = static_cast<int>(direct3d::umax(u, v));
  o[9] = static_cast<int>(direct3d::umin(u, v));
  o[10] = static_cast<int>(static_cast<unsigned>(direct3d::clamp(x, -100, 1000)) + static_cast<unsigned>(direct3d::mad(x, y, 7)));
  o[11] = static_cast<int>(direct3d::mad(u, v, 3u)) ^ abs(y); // unqualified: ::abs or direct3d::abs
}

TEST(Direct3d, IntegerIntrinsics) {
  std::vector<int> xs, ys;
  for (int x : ints)
    for (int y : {3, -5, INT_MIN + 1, 77}) xs.push_back(x), ys.push_back(y);
  const int n = static_cast<int>(xs.size());
  std::vector<int> out(n * n_int_cols);
  array_view<const int, 1> ax(n, xs), ay(n, ys);
  array_view<int, 2> r(n, n_int_cols, out);
  r.discard_data();
  parallel_for_each(ax.extent, [=](index<1> i) restrict(amp) {
    int o[n_int_cols];
    int_row(ax[i], ay[i], o);
    for (int k = 0; k < n_int_cols; ++k) r(i[0], k) = o[k];
  });
  for (int i = 0; i < n; ++i) {
    const int x = xs[i], y = ys[i];
    const unsigned u = static_cast<unsigned>(x), v = static_cast<unsigned>(y);
    const long long ax_ = x < 0 ? -static_cast<long long>(x) : x;
    EXPECT_EQ(r(i, 0), static_cast<int>(static_cast<unsigned>(ax_))) << x;
    EXPECT_EQ(r(i, 1), x > 0 ? 1 : x < 0 ? -1 : 0) << x;
    EXPECT_EQ(r(i, 2), ref_firstbithigh(x)) << x;
    EXPECT_EQ(r(i, 3), ref_firstbitlow(x)) << x;
    EXPECT_EQ(r(i, 4), static_cast<int>(ref_popcount(u))) << x;
    EXPECT_EQ(r(i, 5), static_cast<int>(ref_reverse(u))) << x;
    EXPECT_EQ(r(i, 6), std::max(x, y));
    EXPECT_EQ(r(i, 7), std::min(x, y));
    EXPECT_EQ(r(i, 8), static_cast<int>(std::max(u, v)));
    EXPECT_EQ(r(i, 9), static_cast<int>(std::min(u, v)));
    EXPECT_EQ(r(i, 10), static_cast<int>(static_cast<unsigned>(std::min(std::max(x, -100), 1000)) + (u * v + 7u)))
        << x << " " << y;
    EXPECT_EQ(r(i, 11), static_cast<int>(u * v + 3u) ^ static_cast<int>(y < 0 ? 0u - v : v));
  }
  // The documented edge cases.
  EXPECT_EQ(direct3d::firstbithigh(0), -1);
  EXPECT_EQ(direct3d::firstbithigh(-1), -1);
  EXPECT_EQ(direct3d::firstbithigh(-2), 0);
  EXPECT_EQ(direct3d::firstbithigh(INT_MIN), 30);
  EXPECT_EQ(direct3d::firstbitlow(0), -1);
}

const int n_float_cols = 10;
void float_row(float x, float y, float* o) restrict(amp) {
  o[0] = direct3d::clamp(x, -1.5f, 2.0f);
  o[1] = direct3d::saturate(x);
  o[2] = direct3d::step(y, x);
  o[3] = direct3d::smoothstep(-1.0f, 3.0f, x);
  o[4] = direct3d::radians(x);
  o[5] = direct3d::rcp(x);
  o[6] = direct3d::mad(x, y, 0.1f);
  o[7] = static_cast<float>(direct3d::mad(static_cast<double>(x), static_cast<double>(y), 0.1) -
                            direct3d::rcp(static_cast<double>(y)));
  o[8] = direct3d::noise(x);
  o[9] = direct3d::noise(::fmaf(x, 0.37f, y)); // explicit fma: GPU contraction cannot differ
}
TEST(Direct3d, FloatIntrinsicsMatchHlslAndTheHost) {
  const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
  std::vector<float> xs = {0.0f, -0.0f, 0.25f, 0.5f, 1.0f, 1.5f, -0.75f, 2.5f, -3.0f, 180.0f, 1e-30f, 1e30f,
                           nan, inf, -inf, 0.999f, 2.0001f, -1.25f, 17.3f, 1e7f};
  std::vector<float> in_x, in_y;
  for (float x : xs)
    for (float y : {0.5f, -2.0f, 3.0f}) in_x.push_back(x), in_y.push_back(y);
  const int n = static_cast<int>(in_x.size());
  std::vector<float> out(n * n_float_cols);
  array_view<const float, 1> ax(n, in_x), ay(n, in_y);
  array_view<float, 2> r(n, n_float_cols, out);
  r.discard_data();
  parallel_for_each(ax.extent, [=](index<1> i) restrict(amp) {
    float o[n_float_cols];
    float_row(ax[i], ay[i], o);
    for (int k = 0; k < n_float_cols; ++k) r(i[0], k) = o[k];
  });
  auto same = [](float a, float b) { return (std::isnan(a) && std::isnan(b)) || std::memcmp(&a, &b, 4) == 0; };
  for (int i = 0; i < n; ++i) {
    const float x = in_x[i], y = in_y[i];
    float host[n_float_cols];
    float_row(x, y, host); // the same functions called on the host
    for (int k = 0; k < n_float_cols; ++k)
      EXPECT_TRUE(same(r(i, k), host[k])) << "column " << k << " at (" << x << ", " << y << "): kernel " << r(i, k)
                                          << ", host " << host[k];
    // HLSL semantics, independently.
    const float cl = std::isnan(x) ? -1.5f : std::min(std::max(x, -1.5f), 2.0f);
    EXPECT_EQ(r(i, 0), cl) << x;
    EXPECT_EQ(r(i, 1), std::isnan(x) ? 0.0f : std::min(std::max(x, 0.0f), 1.0f)) << x;
    if (!(x > 0)) EXPECT_FALSE(std::signbit(r(i, 1))) << "saturate(" << x << ") is +0";
    EXPECT_EQ(r(i, 2), x >= y ? 1.0f : 0.0f) << x;
    if (!std::isnan(x)) {
      const double t = std::min(std::max((x + 1.0) / 4.0, 0.0), 1.0);
      EXPECT_NEAR(r(i, 3), t * t * (3 - 2 * t), 1e-6) << x;
    }
    if (!std::isnan(x)) EXPECT_FLOAT_EQ(r(i, 4), static_cast<float>(x * (M_PI / 180)));
    EXPECT_TRUE(same(r(i, 5), 1.0f / x)) << x;
    EXPECT_TRUE(same(r(i, 6), std::fma(x, y, 0.1f))) << x;
    if (std::isfinite(x)) {
      EXPECT_GE(r(i, 8), -1.0f);
      EXPECT_LE(r(i, 8), 1.0f);
    }
  }
}

TEST(Direct3d, NoiseIsSmoothBoundedAndZeroAtIntegers) {
  const int n = 4096;
  std::vector<float> v(n);
  array_view<float, 1> r(n, v);
  r.discard_data();
  parallel_for_each(r.extent, [=](index<1> i) restrict(amp) { r[i] = direct3d::noise(-50.0f + i[0] * (1.0f / 32)); });
  double sum2 = 0, max_step = 0;
  for (int i = 0; i < n; ++i) {
    const float x = -50.0f + i * (1.0f / 32);
    EXPECT_GE(r[i], -1.0f);
    EXPECT_LE(r[i], 1.0f);
    if (x == std::floor(x)) EXPECT_EQ(r[i], 0.0f) << x;
    sum2 += r[i] * r[i];
    if (i) max_step = std::max(max_step, std::fabs(static_cast<double>(r[i]) - r[i - 1]));
  }
  EXPECT_GT(sum2 / n, 0.01);   // not flat
  EXPECT_LT(max_step, 0.125);  // |slope| <= 2 * max gradient: continuous
}

TEST(Direct3d, PrintfPrintsFromAKernel) {
  array_view<int, 1> dummy(4);
  testing::internal::CaptureStdout();
  parallel_for_each(dummy.extent, [=](index<1> i) restrict(amp) {
    dummy[i] = i[0];
    if (i[0] == 2) direct3d_printf("work-item %d says %d and %.2f\n", i[0], 42, 2.5);
  });
  dummy.synchronize();
  accelerator().get_default_view().wait();
  std::fflush(stdout);
  const std::string out = testing::internal::GetCapturedStdout();
  EXPECT_NE(out.find("work-item 2 says 42 and 2.50"), std::string::npos) << out;
}

// direct3d_abort / direct3d_errorf end the kernel in runtime_exception with
// the (formatted) message: raised by parallel_for_each on host accelerators,
// by the next synchronisation on the GPU. Twice, so a second abort is
// reported too; later kernels run normally.
TEST(Direct3d, AbortAndErrorfRaiseRuntimeException) {
  const int n = 1 << 14;
  std::vector<int> data(n, 0);
  for (int round = 0; round < 2; ++round) {
    array_view<int, 1> a(n, data);
    try {
      parallel_for_each(a.extent, [=](index<1> i) restrict(amp) {
        if (i[0] == 1234) direct3d_abort();
        a[i] = 1;
      });
      a.synchronize();
      ADD_FAILURE() << "direct3d_abort did not raise";
    } catch (const runtime_exception& e) {
      EXPECT_NE(std::string(e.what()).find("direct3d_abort"), std::string::npos) << e.what();
    }
    array_view<int, 1> b(n, data);
    testing::internal::CaptureStdout();
    try {
      parallel_for_each(b.extent, [=](index<1> i) restrict(amp) {
        if (i[0] == 77) direct3d_errorf("bad value at %d (%.2f, %s, %u%%)\n", i[0], 0.5f * i[0], "left", 7u);
        b[i] = 2;
      });
      b.synchronize();
      accelerator().get_default_view().wait();
      ADD_FAILURE() << "direct3d_errorf did not raise";
    } catch (const runtime_exception& e) {
      EXPECT_NE(std::string(e.what()).find("bad value at 77 (38.50, left, 7%)"), std::string::npos) << e.what();
    }
    std::fflush(stdout);
    const std::string printed = testing::internal::GetCapturedStdout();
    (void)printed; // the GPU prints the formatted text once its printf buffer is flushed
  }
  // The accelerator is still usable.
  std::vector<int> ok(n, 0);
  array_view<int, 1> c(n, ok);
  parallel_for_each(c.extent, [=](index<1> i) restrict(amp) { c[i] = i[0] * 3; });
  c.synchronize();
  for (int i = 0; i < n; ++i) ASSERT_EQ(ok[i], i * 3);
}

} // namespace

// The host half of a GPU errorf: the record a kernel leaves (format plus
// typed arguments) formatted conversion by conversion as printf would.
TEST(Direct3d, GpuErrorfRecordFormatsLikePrintf) {
  detail::kernel_abort_record r{};
  std::snprintf(r.text, sizeof r.text, "%s", "i=%d u=%u x=%#x c=%c f=%.3f e=%e s=[%-6s] p=%p w=%*d %% %d %q");
  const detail::abort_arg_kind k[] = {detail::abort_arg_signed,  detail::abort_arg_unsigned, detail::abort_arg_unsigned,
                                      detail::abort_arg_signed,  detail::abort_arg_double,   detail::abort_arg_double,
                                      detail::abort_arg_string,  detail::abort_arg_pointer,  detail::abort_arg_signed,
                                      detail::abort_arg_signed,  detail::abort_arg_signed};
  const long long ints[] = {-42, 4000000000LL, 255, 'Z', 0, 0, 0, 0x1000, 5, 17, 3};
  const double reals[] = {0, 0, 0, 0, 3.14159, 12345.678, 0, 0, 0, 0, 0};
  r.nargs = 11;
  for (int a = 0; a < r.nargs; ++a) {
    r.kind[a] = k[a];
    r.ints[a] = ints[a];
    r.reals[a] = reals[a];
  }
  std::snprintf(r.strings[6], sizeof r.strings[6], "%s", "abc");
  char want[256];
  std::snprintf(want, sizeof want, "i=%d u=%u x=%#x c=%c f=%.3f e=%e s=[%-6s] p=0x1000 w=%*d %% %d %%q", -42,
                4000000000u, 255u, 'Z', 3.14159, 12345.678, "abc", 5, 17, 3);
  EXPECT_EQ(detail::format_abort(r), std::string(want)); // "%q" (unknown) stays as written
  // Fewer arguments than conversions: the rest of the format stays.
  r.nargs = 1;
  std::snprintf(r.text, sizeof r.text, "%s", "a=%d b=%d");
  EXPECT_EQ(detail::format_abort(r), "a=-42 b=%d");
  // direct3d_abort: the text is the message, '%' and all.
  r.nargs = -1;
  std::snprintf(r.text, sizeof r.text, "%s", "100% done");
  EXPECT_EQ(detail::format_abort(r), "100% done");
}
