// <amp_short_vectors.h>: norm/unorm clamping and saturation, every short
// vector type's constructors and operators against element-wise scalar
// arithmetic, swizzle reads and writes, the Windows layout, and use inside
// kernels (array, array_view) on the default accelerator.
#include <amp.h>
#include <amp_short_vectors.h>

#include <cmath>
#include <cstddef>
#include <gtest/gtest.h>
#include <limits>
#include <vector>

using namespace concurrency;
using namespace concurrency::graphics;

namespace {
// GPU builds: Clang's CUDA headers declare a global function norm(int, const
// double*), so a bare `norm` after `using namespace concurrency::graphics` is
// ambiguous there. The documented fix (migration_guide.md): a using-declaration
// in the user's own namespace or function, as here.
using concurrency::graphics::norm;

// ---------------------------------------------------------------- layout
template <class V, class T, int N> constexpr bool layout_is() {
  return sizeof(V) == N * sizeof(T) && alignof(V) == alignof(T) && std::is_standard_layout<V>::value;
}
static_assert(layout_is<int_2, int, 2>() && layout_is<int_3, int, 3>() && layout_is<int_4, int, 4>(), "int_N");
static_assert(layout_is<uint_3, unsigned, 3>() && layout_is<float_3, float, 3>() && layout_is<double_3, double, 3>(),
              "uint_3/float_3/double_3");
static_assert(layout_is<norm_3, float, 3>() && layout_is<unorm_4, float, 4>() && sizeof(norm) == 4, "norm_N");
static_assert(std::is_same<short_vector<unorm, 4>::type, unorm_4>::value &&
                  std::is_same<short_vector<double, 1>::type, double>::value,
              "short_vector");
static_assert(std::is_same<short_vector_traits<uint_3>::value_type, unsigned>::value &&
                  short_vector_traits<uint_3>::size == 3 && short_vector_traits<float>::size == 1,
              "short_vector_traits");
static_assert(std::is_same<graphics::direct3d::float4, float_4>::value && std::is_same<graphics::direct3d::unorm2, unorm_2>::value &&
                  std::is_same<graphics::direct3d::norm_3, norm_3>::value,
              "direct3d names");
static_assert(float_4::size == 4 && std::is_same<int_2::value_type, int>::value, "value_type/size");

TEST(ShortVectors, ComponentsAreTheElementsInOrder) {
  float_4 v(1.0f, 2.0f, 3.0f, 4.0f);
  const float* p = reinterpret_cast<const float*>(&v);
  EXPECT_EQ(p[0], 1.0f);
  EXPECT_EQ(p[3], 4.0f);
  EXPECT_EQ(&v.x, p);
  EXPECT_EQ(&v.a, p + 3);
  EXPECT_EQ(&v.ref_z(), p + 2);
}

// ---------------------------------------------------------------- norm / unorm
TEST(Norm, ConstructionClamps) {
  EXPECT_EQ(float(unorm()), 0.0f);
  EXPECT_EQ(float(norm()), 0.0f);
  EXPECT_EQ(float(unorm(1.66f)), 1.0f);
  EXPECT_EQ(float(unorm(-0.25f)), 0.0f);
  EXPECT_EQ(float(unorm(0.25f)), 0.25f);
  EXPECT_EQ(float(unorm(3)), 1.0f);
  EXPECT_EQ(float(unorm(-3)), 0.0f);
  EXPECT_EQ(float(unorm(2u)), 1.0f);
  EXPECT_EQ(float(unorm(0.5)), 0.5f);
  EXPECT_EQ(float(norm(-1.5f)), -1.0f);
  EXPECT_EQ(float(norm(1.5)), 1.0f);
  EXPECT_EQ(float(norm(-7)), -1.0f);
  EXPECT_EQ(float(norm(-0.75f)), -0.75f);
  EXPECT_EQ(float(norm(std::numeric_limits<float>::infinity())), 1.0f);
  EXPECT_EQ(float(unorm(-std::numeric_limits<float>::infinity())), 0.0f);
  // NaN becomes 0 (Direct3D's rule for normalized values).
  EXPECT_EQ(float(unorm(std::nanf(""))), 0.0f);
  EXPECT_EQ(float(norm(std::nanf(""))), 0.0f);
}

TEST(Norm, ConversionsBetweenNormAndUnorm) {
  norm n = unorm(0.75f); // implicit
  EXPECT_EQ(float(n), 0.75f);
  EXPECT_EQ(float(unorm(norm(-0.5f))), 0.0f); // explicit, clamps
  EXPECT_EQ(float(unorm(norm(0.5f))), 0.5f);
  static_assert(!std::is_convertible<norm, unorm>::value && !std::is_convertible<float, norm>::value &&
                    std::is_convertible<unorm, norm>::value && std::is_convertible<norm, float>::value,
                "AMP's implicit/explicit conversions");
  EXPECT_EQ(float(UNORM_MAX), 1.0f);
  EXPECT_EQ(float(NORM_MIN), -1.0f);
  EXPECT_EQ(float(NORM_ZERO), 0.0f);
}

TEST(Norm, ArithmeticSaturates) {
  EXPECT_EQ(float(unorm(0.75f) + unorm(0.5f)), 1.0f);
  EXPECT_EQ(float(unorm(0.25f) - unorm(0.5f)), 0.0f);
  EXPECT_EQ(float(unorm(0.5f) * unorm(0.5f)), 0.25f);
  EXPECT_EQ(float(unorm(0.5f) / unorm(0.25f)), 1.0f);
  EXPECT_EQ(float(unorm(0.5f) / unorm(0.0f)), 1.0f); // +inf clamps
  EXPECT_EQ(float(unorm(0.0f) / unorm(0.0f)), 0.0f); // NaN -> 0
  EXPECT_EQ(float(norm(-0.75f) - norm(0.5f)), -1.0f);
  EXPECT_EQ(float(norm(0.75f) + norm(0.5f)), 1.0f);
  EXPECT_EQ(float(norm(-0.5f) * norm(0.5f)), -0.25f);
  EXPECT_EQ(float(-norm(-0.25f)), 0.25f);
  unorm u(0.25f);
  EXPECT_EQ(float(u++), 0.25f);
  EXPECT_EQ(float(u), 1.0f);
  EXPECT_EQ(float(--u), 0.0f);
  norm m(0.5f);
  m -= norm(1.0f);
  m -= norm(1.0f);
  EXPECT_EQ(float(m), -1.0f);
  m *= norm(-1.0f);
  EXPECT_EQ(float(m), 1.0f);
  EXPECT_TRUE(unorm(0.2f) < unorm(0.3f));
  EXPECT_TRUE(norm(-0.2f) >= norm(-0.3f));
  EXPECT_TRUE(norm(2.0f) == norm(1.0f));
  EXPECT_FALSE(unorm(0.1f) != unorm(0.1f));
  // Mixed with float: plain float arithmetic, no clamping.
  EXPECT_EQ(unorm(1.0f) + 1.0f, 2.0f);
}

// ---------------------------------------------------------------- every type, every operator
// Values per element type, chosen so that each operator is defined (no
// division by zero, shifts within range) and norm/unorm results saturate.
template <class T> struct samples;
template <> struct samples<int> {
  static int a(int k) { return 7 * k - 9; }
  static int b(int k) { return k + 2; }
};
template <> struct samples<unsigned int> {
  static unsigned a(int k) { return 40u + 13u * k; }
  static unsigned b(int k) { return 1u + k; }
};
template <> struct samples<float> {
  static float a(int k) { return 1.5f * k - 2.25f; }
  static float b(int k) { return 0.5f + k; }
};
template <> struct samples<double> {
  static double a(int k) { return 1.25 * k - 3.5; }
  static double b(int k) { return 0.75 + k; }
};
template <> struct samples<norm> {
  static norm a(int k) { return norm(0.6f * k - 0.9f); }
  static norm b(int k) { return norm(0.7f - 0.5f * k); }
};
template <> struct samples<unorm> {
  static unorm a(int k) { return unorm(0.3f * k + 0.2f); }
  static unorm b(int k) { return unorm(0.9f - 0.25f * k); }
};

template <class V> class ShortVectorOps : public ::testing::Test {};
using AllVectors = ::testing::Types<int_2, int_3, int_4, uint_2, uint_3, uint_4, float_2, float_3, float_4, double_2,
                                    double_3, double_4, norm_2, norm_3, norm_4, unorm_2, unorm_3, unorm_4>;
TYPED_TEST_SUITE(ShortVectorOps, AllVectors);

template <class V> V make(typename V::value_type (*f)(int)) {
  V v;
  for (int k = 0; k < V::size; ++k) reinterpret_cast<typename V::value_type*>(&v)[k] = f(k);
  return v;
}
template <class V> typename V::value_type at(const V& v, int k) {
  return reinterpret_cast<const typename V::value_type*>(&v)[k];
}
template <class T> bool same(T x, T y) { return static_cast<double>(x) == static_cast<double>(y); }

TYPED_TEST(ShortVectorOps, ConstructorsAndArithmetic) {
  using V = TypeParam;
  using T = typename V::value_type;
  constexpr int N = V::size;
  const V zero;
  for (int k = 0; k < N; ++k) EXPECT_TRUE(same(at(zero, k), T()));
  const V a = make<V>(samples<T>::a), b = make<V>(samples<T>::b);
  const V bc(samples<T>::b(1)); // broadcast
  for (int k = 0; k < N; ++k) EXPECT_TRUE(same(at(bc, k), samples<T>::b(1)));

  const V sum = a + b, dif = a - b, pro = a * b, quo = a / b;
  V c = a;
  c += b;
  EXPECT_TRUE(c == sum);
  c -= b;
  for (int k = 0; k < N; ++k) {
    const T x = at(a, k), y = at(b, k);
    EXPECT_TRUE(same(at(sum, k), T(x + y))) << k;
    EXPECT_TRUE(same(at(dif, k), T(x - y))) << k;
    EXPECT_TRUE(same(at(pro, k), T(x * y))) << k;
    EXPECT_TRUE(same(at(quo, k), T(x / y))) << k;
    T inc = x;
    ++inc;
    EXPECT_TRUE(same(at(V(a)++ , k), x));
    V pre = a;
    EXPECT_TRUE(same(at(++pre, k), inc));
  }
  EXPECT_TRUE(a == a);
  EXPECT_FALSE(a != a);
  EXPECT_TRUE(a != b);
  // Scalar operands broadcast through the implicit constructor.
  const V twice = a * T(samples<T>::b(1));
  EXPECT_TRUE(twice == a * bc);
}

TYPED_TEST(ShortVectorOps, IntegerAndSignedOperators) {
  using V = TypeParam;
  using T = typename V::value_type;
  const V a = make<V>(samples<T>::a), b = make<V>(samples<T>::b);
  if constexpr (std::is_integral<T>::value) {
    const V rem = a % b, x = a ^ b, o = a | b, n = a & b, l = a << b, r = a >> b, inv = ~a;
    for (int k = 0; k < V::size; ++k) {
      const T p = at(a, k), q = at(b, k);
      EXPECT_EQ(at(rem, k), T(p % q));
      EXPECT_EQ(at(x, k), T(p ^ q));
      EXPECT_EQ(at(o, k), T(p | q));
      EXPECT_EQ(at(n, k), T(p & q));
      EXPECT_EQ(at(l, k), T(p << q));
      EXPECT_EQ(at(r, k), T(p >> q));
      EXPECT_EQ(at(inv, k), T(~p));
    }
    V c = a;
    c <<= b;
    c >>= b;
    c |= b;
    EXPECT_TRUE(c == ((a << b) >> b | b));
  }
  if constexpr (!std::is_same<T, unsigned>::value && !std::is_same<T, unorm>::value) {
    const V m = -a;
    for (int k = 0; k < V::size; ++k) EXPECT_TRUE(same(at(m, k), T(-at(a, k))));
  }
}

TEST(ShortVectors, ElementTypeConversions) {
  const float_3 f(1.75f, -2.5f, 0.5f);
  const int_3 i(f);
  EXPECT_TRUE(i == int_3(1, -2, 0));
  const unorm_3 u(f);
  EXPECT_EQ(float(u.x), 1.0f);
  EXPECT_EQ(float(u.y), 0.0f);
  EXPECT_EQ(float(u.z), 0.5f);
  const norm_3 n(int_3(5, -5, 0));
  EXPECT_TRUE(n == norm_3(norm(1.0f), norm(-1.0f), norm(0.0f)));
  const norm_2 from_floats(0.25f, -3.0f); // explicit element construction
  EXPECT_EQ(float(from_floats.y), -1.0f);
  const double_4 d(uint_4(1u, 2u, 3u, 4u));
  EXPECT_EQ(d.w, 4.0);
  static_assert(!std::is_convertible<int_2, float_2>::value && std::is_convertible<float, float_2>::value &&
                    !std::is_convertible<float, norm_2>::value,
                "conversions between vector types are explicit, broadcast is implicit");
}

// ---------------------------------------------------------------- swizzles
TEST(ShortVectors, SwizzleReads) {
  const float_4 v(1.0f, 2.0f, 3.0f, 4.0f);
  EXPECT_EQ(v.x, 1.0f);
  EXPECT_EQ(v.a, 4.0f);
  EXPECT_TRUE(float_2(v.xy) == float_2(1.0f, 2.0f));
  EXPECT_TRUE(float_2(v.wx) == float_2(4.0f, 1.0f));
  EXPECT_TRUE(float_3(v.zyx) == float_3(3.0f, 2.0f, 1.0f));
  EXPECT_TRUE(float_4(v.bgra) == float_4(3.0f, 2.0f, 1.0f, 4.0f));
  EXPECT_TRUE(v.get_ywz() == float_3(2.0f, 4.0f, 3.0f));
  EXPECT_EQ(v.get_b(), 3.0f);
  // Swizzles take part in vector arithmetic directly.
  const float_2 s = v.xy + v.wz * 2.0f;
  EXPECT_TRUE(s == float_2(9.0f, 8.0f));
  EXPECT_TRUE(v.xy == float_2(1.0f, 2.0f));
  const int_3 i(4, 5, 6);
  EXPECT_TRUE(int_2(i.zx % 4) == int_2(2, 0));
}

TEST(ShortVectors, SwizzleWrites) {
  int_4 v(1, 2, 3, 4);
  v.zx = int_2(7, 8);
  EXPECT_TRUE(v == int_4(8, 2, 7, 4));
  v.wzyx = v; // reverses, the source aliases the destination
  EXPECT_TRUE(v == int_4(4, 7, 2, 8));
  v.yz += int_2(10, 20);
  EXPECT_TRUE(v == int_4(4, 17, 22, 8));
  v.rg = v.ba; // different swizzles of one vector
  EXPECT_TRUE(v == int_4(22, 8, 22, 8));
  int_4 w(0);
  w.xy = v.zw; // same swizzle type from another vector
  w.zw = v.zw;
  EXPECT_TRUE(w == int_4(22, 8, 22, 8));
  w.x = 5;
  w.g += 1;
  w.ref_w() = -1;
  w.set_z(3);
  w.set_xw(int_2(1, 2));
  EXPECT_TRUE(w == int_4(1, 9, 3, 2));
  unorm_3 u(0.5f, 0.5f, 0.5f);
  u.xz += unorm_2(unorm(0.75f)); // saturates per element
  EXPECT_EQ(float(u.x), 1.0f);
  EXPECT_EQ(float(u.y), 0.5f);
  EXPECT_EQ(float(u.z), 1.0f);
  float_3 f(0.0f);
  f.zy = 2.5f; // broadcast into a swizzle
  EXPECT_TRUE(f == float_3(0.0f, 2.5f, 2.5f));
  f.yz = {}; // Visual C++ code clears components so (a public marker solver): V{}
  EXPECT_TRUE(f == float_3(0.0f, 0.0f, 0.0f));
  f.xz = {1.5f, 4.0f};
  EXPECT_TRUE(f == float_3(1.5f, 0.0f, 4.0f));
  const float_3 g(7.0f, 8.0f, 9.0f);
  f.yz = g.yz; // the same swizzle of a const vector
  EXPECT_TRUE(f == float_3(1.5f, 8.0f, 9.0f));
}

// ---------------------------------------------------------------- in kernels
TEST(ShortVectors, InArraysAndKernels) {
  const int n = 1000;
  std::vector<float_4> in(n);
  for (int i = 0; i < n; ++i) in[i] = float_4(float(i), 0.5f * i, -1.0f * i, 0.25f);
  array<float_4, 1> src(n, in.begin(), in.end());
  std::vector<unorm_4> out(n);
  std::vector<int_2> ints(n);
  array_view<unorm_4, 1> dst(n, out);
  array_view<int_2, 1> iv(n, ints);
  dst.discard_data();
  iv.discard_data();
  parallel_for_each(dst.extent, [=, &src](index<1> idx) restrict(amp) {
    float_4 v = src[idx];
    v.xyz = v.zyx * 0.001f; // (-i, 0.5 i, i) / 1000
    v.w += 0.5f;
    dst[idx] = unorm_4(v); // clamps x to 0
    int_2 k(int(v.y * 1000.0f), idx[0]);
    k.yx ^= int_2(3);
    iv[idx] = k;
  });
  for (int i = 0; i < n; ++i) {
    const float x = -1.0f * i * 0.001f, z = float(i) * 0.001f;
    ASSERT_EQ(float(dst[i].x), 0.0f) << i;
    ASSERT_EQ(float(dst[i].y), 0.5f * i * 0.001f) << i;
    ASSERT_EQ(float(dst[i].z), z < 1.0f ? z : 1.0f) << i;
    ASSERT_EQ(float(dst[i].w), 0.75f) << i;
    (void)x;
    ASSERT_TRUE(iv[i] == int_2(int(0.5f * i * 0.001f * 1000.0f) ^ 3, i ^ 3)) << i;
  }
}

} // namespace
