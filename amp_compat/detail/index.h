// index<N> and extent<N>: rank-generic integer N-tuples (C++ AMP spec 4.1, 4.2).
// Both share one storage/arithmetic base; they differ only in which operators
// AMP defines for them and in extent's size/contains/tile.
#pragma once
#include "config.h"
#include "restrict.h"

#include <type_traits>

namespace Concurrency {

template <int N> class index;
template <int N> class extent;
template <int D0, int D1 = 0, int D2 = 0> class tiled_extent;

namespace detail {

template <class... I> struct all_ints : std::conjunction<std::is_convertible<I, int>...> {};

template <int N, class Derived> class int_tuple {
  static_assert(N > 0, "C++ AMP: rank must be at least 1");

public:
  static constexpr int rank = N;

  AMP_FN int_tuple() : v_{} {}
  // As in AMP, the one-component constructor is explicit; the others are not.
  // AMP has component constructors for ranks 1 to 3 only (index(int, int, int)
  // is the longest); a higher rank is built from an int array.
  // detail::from_components builds any rank.
  template <class... I, std::enable_if_t<sizeof...(I) == N && (N > 1) && all_ints<I...>::value, int> = 0>
  AMP_FN int_tuple(I... i) : v_{static_cast<int>(i)...} {
    static_assert(sizeof...(I) <= 3,
                  "C++ AMP: index<N> and extent<N> have component constructors for ranks 1 to 3 only; for a "
                  "higher rank, construct from an int array (index<N>(const int components[]))");
  }
  template <class I, std::enable_if_t<N == 1 && std::is_convertible<I, int>::value, int> = 0>
  AMP_FN explicit int_tuple(I i) : v_{static_cast<int>(i)} {}
  AMP_FN explicit int_tuple(const int components[]) {
    for (int d = 0; d < N; ++d) v_[d] = components[d];
  }

  AMP_FN int operator[](unsigned c) const { return v_[c]; }
  AMP_FN int& operator[](unsigned c) { return v_[c]; }

  AMP_FN friend bool operator==(const Derived& a, const Derived& b) {
    for (int d = 0; d < N; ++d)
      if (a.v_[d] != b.v_[d]) return false;
    return true;
  }
  AMP_FN friend bool operator!=(const Derived& a, const Derived& b) { return !(a == b); }

protected:
  template <class Op> AMP_FN Derived& each(Op op) {
    for (int d = 0; d < N; ++d) v_[d] = op(v_[d], d);
    return self();
  }
  AMP_FN Derived& self() { return static_cast<Derived&>(*this); }

  int v_[N];
  template <int, class> friend class int_tuple;
};

// Element-wise operator families. Index and extent each pick the ones AMP gives them.
#define AMP_TUPLE_SCALAR_OPS(T)                                                                    \
  AMP_FN T& operator+=(int r) { return this->each([r](int a, int) { return a + r; }); }           \
  AMP_FN T& operator-=(int r) { return this->each([r](int a, int) { return a - r; }); }           \
  AMP_FN T& operator*=(int r) { return this->each([r](int a, int) { return a * r; }); }           \
  AMP_FN T& operator/=(int r) { return this->each([r](int a, int) { return a / r; }); }           \
  AMP_FN T& operator%=(int r) { return this->each([r](int a, int) { return a % r; }); }           \
  AMP_FN friend T operator+(T a, int r) { return a += r; }                                         \
  AMP_FN friend T operator+(int r, T a) { return a += r; }                                         \
  AMP_FN friend T operator-(T a, int r) { return a -= r; }                                         \
  AMP_FN friend T operator-(int r, T a) { return a.each([r](int x, int) { return r - x; }); }     \
  AMP_FN friend T operator*(T a, int r) { return a *= r; }                                         \
  AMP_FN friend T operator*(int r, T a) { return a *= r; }                                         \
  AMP_FN friend T operator/(T a, int r) { return a /= r; }                                         \
  AMP_FN friend T operator/(int r, T a) { return a.each([r](int x, int) { return r / x; }); }     \
  AMP_FN friend T operator%(T a, int r) { return a %= r; }                                         \
  AMP_FN friend T operator%(int r, T a) { return a.each([r](int x, int) { return r % x; }); }     \
  AMP_FN T& operator++() { return *this += 1; }                                                    \
  AMP_FN T operator++(int) { T o = *this; *this += 1; return o; }                                 \
  AMP_FN T& operator--() { return *this -= 1; }                                                    \
  AMP_FN T operator--(int) { T o = *this; *this -= 1; return o; }

#define AMP_TUPLE_ADD_OPS(T, R)                                                                    \
  AMP_FN T& operator+=(const R& r) { return this->each([&r](int a, int d) { return a + r[d]; }); } \
  AMP_FN T& operator-=(const R& r) { return this->each([&r](int a, int d) { return a - r[d]; }); } \
  AMP_FN T operator+(const R& r) const { T o = static_cast<const T&>(*this); return o += r; }      \
  AMP_FN T operator-(const R& r) const { T o = static_cast<const T&>(*this); return o -= r; }

// Same-type sums are non-members in AMP (operator+(a, b) may be called by
// name); hidden friends here, found by argument-dependent lookup.
#define AMP_TUPLE_SAME_ADD_OPS(T)                                                                  \
  AMP_FN T& operator+=(const T& r) { return this->each([&r](int a, int d) { return a + r[d]; }); } \
  AMP_FN T& operator-=(const T& r) { return this->each([&r](int a, int d) { return a - r[d]; }); } \
  AMP_FN friend T operator+(const T& l, const T& r) { T o = l; return o += r; }                    \
  AMP_FN friend T operator-(const T& l, const T& r) { T o = l; return o -= r; }

} // namespace detail

template <int N> class index : public detail::int_tuple<N, index<N>> {
  using base = detail::int_tuple<N, index<N>>;

public:
  using value_type = int;
  using base::base;
  AMP_FN index() = default;
  AMP_TUPLE_SCALAR_OPS(index)
  AMP_TUPLE_SAME_ADD_OPS(index)
};

template <int N> class extent : public detail::int_tuple<N, extent<N>> {
  using base = detail::int_tuple<N, extent<N>>;

public:
  using value_type = int;
  using base::base;
  AMP_FN extent() = default;
  AMP_TUPLE_SCALAR_OPS(extent)
  AMP_TUPLE_SAME_ADD_OPS(extent)
  AMP_TUPLE_ADD_OPS(extent, index<N>)

  // Number of points; unsigned int as in AMP. size_64 is this layer's addition
  // for the domain checks.
  AMP_FN unsigned int size() const { return static_cast<unsigned int>(size_64()); }
  AMP_FN long long size_64() const {
    long long s = 1;
    for (int d = 0; d < N; ++d) s *= this->v_[d];
    return s;
  }
  AMP_FN bool contains(const index<N>& i) const {
    for (int d = 0; d < N; ++d)
      if (i[d] < 0 || i[d] >= this->v_[d]) return false;
    return true;
  }
  template <int D0> AMP_FN tiled_extent<D0> tile() const {
    static_assert(N == 1, "extent::tile<D0>() needs a rank-1 extent");
    return tiled_extent<D0>(*this);
  }
  template <int D0, int D1> AMP_FN tiled_extent<D0, D1> tile() const {
    static_assert(N == 2, "extent::tile<D0, D1>() needs a rank-2 extent");
    return tiled_extent<D0, D1>(*this);
  }
  template <int D0, int D1, int D2> AMP_FN tiled_extent<D0, D1, D2> tile() const {
    static_assert(N == 3, "extent::tile<D0, D1, D2>() needs a rank-3 extent");
    return tiled_extent<D0, D1, D2>(*this);
  }
};

#undef AMP_TUPLE_SCALAR_OPS
#undef AMP_TUPLE_ADD_OPS
#undef AMP_TUPLE_SAME_ADD_OPS

namespace detail {
// Row-major position of i in e (int64 so that >2^31-element data is addressed).
template <int N> AMP_FN long long linearize(const index<N>& i, const extent<N>& e) {
  long long l = i[0];
  for (int d = 1; d < N; ++d) l = l * e[d] + i[d];
  return l;
}
template <int N> AMP_FN index<N> delinearize(long long l, const extent<N>& e) {
  index<N> i;
  for (int d = N - 1; d > 0; --d) {
    i[d] = static_cast<int>(l % e[d]);
    l /= e[d];
  }
  i[0] = static_cast<int>(l);
  return i;
}
// The same in 32-bit arithmetic, for kernels (the domain has at most INT_MAX
// points; 64-bit division is an order of magnitude slower on the GPU).
template <int N> AMP_FN index<N> delinearize_u32(unsigned l, const extent<N>& e) {
  index<N> i;
  for (int d = N - 1; d > 0; --d) {
    const unsigned ed = static_cast<unsigned>(e[d]);
    i[d] = static_cast<int>(l % ed);
    l /= ed;
  }
  i[0] = static_cast<int>(l);
  return i;
}
// An index or extent of any rank from its components (AMP's component
// constructors stop at rank 3; the kernel paths need ranks up to 6).
template <class R, class... I> AMP_FN R from_components(I... i) {
  const int c[sizeof...(I)] = {static_cast<int>(i)...};
  return R(c);
}
} // namespace detail
} // namespace Concurrency
