// The short vector family (C++ AMP spec 10.8): one template, short_vec<T, N>,
// for T in {int, unsigned int, float, double, norm, unorm} and N in 2..4;
// int_2 ... unorm_4 are aliases of it. The storage with the component and
// swizzle names is generated (swizzles.h). Operators are those Microsoft's
// header defines: + - * / == != for all, % ^ | & << >> and ~ for the integer
// ones, unary - for the signed ones, all element-wise with the element type's
// own arithmetic (so norm/unorm vectors saturate per element). The one-value
// constructor broadcasts and, as in AMP, is implicit: `v * 2.0f` works.
// Default construction sets every element to 0, as AMP specifies.
#pragma once
#include "norm.h"
#include "swizzles.h"

#include <type_traits>
#include <utility>

namespace Concurrency {
namespace detail {

template <class T> constexpr bool sv_integral = std::is_same<T, int>::value || std::is_same<T, unsigned int>::value;
template <class T>
constexpr bool sv_signed = std::is_same<T, int>::value || std::is_same<T, float>::value ||
                           std::is_same<T, double>::value || std::is_same<T, graphics::norm>::value;
template <class T, class... A> constexpr bool sv_convertible = (std::is_convertible<A, T>::value && ...);
template <class T, class... A> constexpr bool sv_constructible = (std::is_constructible<T, A>::value && ...);
template <int> struct sv_same {
  template <class T> static AMP_FN const T& get(const T& v) { return v; }
};

// A swizzle member (v.zyx): reads as, and is assigned from, the vector V of
// its components; it aliases the N elements of the vector it belongs to.
// V is a template argument so that V's operators are found for swizzles too.
template <class V, class T, int N, int... I> struct swizzle {
  T e_[N];

  AMP_FN operator V() const { return V(e_[I]...); }
  // By value: the source may alias this vector (v.wzyx = v).
  AMP_FN swizzle& operator=(V v) {
    assign(v, std::make_integer_sequence<int, sizeof...(I)>());
    return *this;
  }
  // The copy assignment takes `const volatile swizzle&`, which no temporary
  // binds to: `v.yz = {};` (Visual C++ code clearing two components) then
  // means V{}, where a `const swizzle&` one made it ambiguous (a swizzle is
  // an aggregate). Still the copy assignment: no implicit one is declared.
  AMP_FN swizzle& operator=(const volatile swizzle& s) { return *this = V(const_cast<const swizzle&>(s)); }
#define AMP_SWZ_COMPOUND(OP)                                                                       \
  AMP_FN swizzle& operator OP##=(const V& v) { return *this = V(*this) OP v; }
  AMP_SWZ_COMPOUND(+) AMP_SWZ_COMPOUND(-) AMP_SWZ_COMPOUND(*) AMP_SWZ_COMPOUND(/)
  AMP_SWZ_COMPOUND(%) AMP_SWZ_COMPOUND(^) AMP_SWZ_COMPOUND(|) AMP_SWZ_COMPOUND(&)
  AMP_SWZ_COMPOUND(<<) AMP_SWZ_COMPOUND(>>)
#undef AMP_SWZ_COMPOUND

private:
  template <int... K> AMP_FN void assign(const V& v, std::integer_sequence<int, K...>) {
    ((e_[I] = v.e_[K]), ...);
  }
};

template <class T, int N> class short_vec : public sv_storage<T, N> {
  static_assert(N >= 2 && N <= 4, "short vectors have 2 to 4 elements");
  using base = sv_storage<T, N>;
  using seq = std::make_integer_sequence<int, N>;
  template <class, int> friend class short_vec;
  template <class, class, int, int...> friend struct swizzle;
  using base::e_;

public:
  using value_type = T;
  static constexpr int size = N;

  AMP_FN short_vec() : base() {}
  short_vec(const short_vec&) = default;
  // One value for every element (implicit, as in AMP).
  AMP_FN short_vec(T v) : short_vec(v, seq()) {}
  // One value per element. Values that convert implicitly to T make an
  // implicit constructor; norm/unorm from float or int are explicit, as in AMP.
  template <class... A, std::enable_if_t<sizeof...(A) == N && sv_convertible<T, A...>, int> = 0>
  AMP_FN short_vec(const A&... a) : base(sv_init{}, static_cast<T>(a)...) {}
  template <class... A, std::enable_if_t<sizeof...(A) == N && !sv_convertible<T, A...> && sv_constructible<T, A...>,
                                         int> = 0>
  AMP_FN explicit short_vec(const A&... a) : base(sv_init{}, T(a)...) {}
  template <class A, std::enable_if_t<!sv_convertible<T, A> && sv_constructible<T, A>, int> = 0>
  AMP_FN explicit short_vec(const A& a) : short_vec(T(a)) {}
  // Element-wise conversion from a vector of another element type (explicit).
  template <class U, std::enable_if_t<!std::is_same<U, T>::value, int> = 0>
  AMP_FN explicit short_vec(const short_vec<U, N>& o) : short_vec(o, seq()) {}

  AMP_FN short_vec& operator=(const short_vec& o) {
    for (int k = 0; k < N; ++k) e_[k] = o.e_[k];
    return *this;
  }

  // ---- arithmetic, element-wise with T's own operators
#define AMP_SV_COMPOUND(OP, ...)                                                                   \
  template <class U = T, std::enable_if_t<__VA_ARGS__, int> = 0>                                   \
  AMP_FN short_vec& operator OP##=(const short_vec& o) {                                          \
    for (int k = 0; k < N; ++k) e_[k] OP##= o.e_[k];                                               \
    return *this;                                                                                  \
  }                                                                                                \
  template <class U = T, std::enable_if_t<__VA_ARGS__, int> = 0>                                   \
  AMP_FN friend short_vec operator OP(const short_vec& a, const short_vec& b) {                   \
    short_vec r(a);                                                                                \
    return r OP##= b;                                                                              \
  }
  AMP_SV_COMPOUND(+, true) AMP_SV_COMPOUND(-, true) AMP_SV_COMPOUND(*, true) AMP_SV_COMPOUND(/, true)
  AMP_SV_COMPOUND(%, sv_integral<U>) AMP_SV_COMPOUND(^, sv_integral<U>) AMP_SV_COMPOUND(|, sv_integral<U>)
  AMP_SV_COMPOUND(&, sv_integral<U>) AMP_SV_COMPOUND(<<, sv_integral<U>) AMP_SV_COMPOUND(>>, sv_integral<U>)
#undef AMP_SV_COMPOUND

  AMP_FN short_vec& operator++() {
    for (int k = 0; k < N; ++k) ++e_[k];
    return *this;
  }
  AMP_FN short_vec& operator--() {
    for (int k = 0; k < N; ++k) --e_[k];
    return *this;
  }
  AMP_FN short_vec operator++(int) {
    short_vec r(*this);
    ++*this;
    return r;
  }
  AMP_FN short_vec operator--(int) {
    short_vec r(*this);
    --*this;
    return r;
  }
  template <class U = T, std::enable_if_t<sv_signed<U>, int> = 0> AMP_FN short_vec operator-() const {
    short_vec r;
    for (int k = 0; k < N; ++k) r.e_[k] = -e_[k];
    return r;
  }
  template <class U = T, std::enable_if_t<sv_integral<U>, int> = 0> AMP_FN short_vec operator~() const {
    short_vec r;
    for (int k = 0; k < N; ++k) r.e_[k] = ~e_[k];
    return r;
  }

  AMP_FN friend bool operator==(const short_vec& a, const short_vec& b) {
    for (int k = 0; k < N; ++k)
      if (!(a.e_[k] == b.e_[k])) return false;
    return true;
  }
  AMP_FN friend bool operator!=(const short_vec& a, const short_vec& b) { return !(a == b); }

private:
  template <int... K> AMP_FN short_vec(const T& v, std::integer_sequence<int, K...>)
      : base(sv_init{}, sv_same<K>::get(v)...) {}
  template <class U, int... K>
  AMP_FN short_vec(const short_vec<U, N>& o, std::integer_sequence<int, K...>) : base(sv_init{}, T(o.e_[K])...) {}
};

} // namespace detail
} // namespace Concurrency
