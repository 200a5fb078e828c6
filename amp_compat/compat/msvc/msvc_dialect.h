// amp_compat/compat/msvc/msvc_dialect.h -- force-included by the MSVC-dialect
// mode (./amp c++ --msvc, CMake target amp_compat_msvc) after Clang's
// -fms-compatibility (see flags.txt).
//
// Why: in Microsoft-compatibility mode Clang accepts MSVC's permissive
// template code (a missing `typename`, `typename` outside templates, names
// found only at instantiation with -fdelayed-template-parsing) but, on a
// Linux target, stops describing itself as a GNU compiler: __GNUC__,
// __GXX_ABI_VERSION, __GXX_RTTI, __EXCEPTIONS and the __GCC_ATOMIC_* macros
// disappear, and libstdc++, glibc and Kokkos need them (exceptions would
// even be compiled out of libstdc++). This header restores exactly those
// macros to the values Clang defines without the flag; it defines nothing
// else (in particular not _MSC_VER or _WIN32, which would send every
// library to its Windows code).
#ifndef AMP_COMPAT_MSVC_DIALECT_H
#define AMP_COMPAT_MSVC_DIALECT_H

#ifndef __GNUC__
#define __GNUC__ 4
#define __GNUC_MINOR__ 2
#define __GNUC_PATCHLEVEL__ 1
#endif
#if defined(__cplusplus) && !defined(__GNUG__)
#define __GNUG__ 4
#endif
#if !defined(__GNUC_GNU_INLINE__) && !defined(__GNUC_STDC_INLINE__)
#define __GNUC_GNU_INLINE__ 1  // glibc's __extern_always_inline needs it
#endif
#ifndef __GXX_ABI_VERSION
#define __GXX_ABI_VERSION 1002
#endif
#ifndef __GXX_WEAK__
#define __GXX_WEAK__ 1
#endif
#if defined(__cplusplus) && !defined(__GXX_EXPERIMENTAL_CXX0X__)
#define __GXX_EXPERIMENTAL_CXX0X__ 1
#endif
#if __has_feature(cxx_rtti) && !defined(__GXX_RTTI)
#define __GXX_RTTI 1
#endif
#if __has_feature(cxx_exceptions) && !defined(__EXCEPTIONS)
#define __EXCEPTIONS 1
#endif

// Lock-free properties: Clang keeps its own __CLANG_ATOMIC_* spelling.
#ifndef __GCC_ATOMIC_BOOL_LOCK_FREE
#define __GCC_ATOMIC_BOOL_LOCK_FREE __CLANG_ATOMIC_BOOL_LOCK_FREE
#define __GCC_ATOMIC_CHAR_LOCK_FREE __CLANG_ATOMIC_CHAR_LOCK_FREE
#define __GCC_ATOMIC_CHAR16_T_LOCK_FREE __CLANG_ATOMIC_CHAR16_T_LOCK_FREE
#define __GCC_ATOMIC_CHAR32_T_LOCK_FREE __CLANG_ATOMIC_CHAR32_T_LOCK_FREE
#define __GCC_ATOMIC_WCHAR_T_LOCK_FREE __CLANG_ATOMIC_WCHAR_T_LOCK_FREE
#define __GCC_ATOMIC_SHORT_LOCK_FREE __CLANG_ATOMIC_SHORT_LOCK_FREE
#define __GCC_ATOMIC_INT_LOCK_FREE __CLANG_ATOMIC_INT_LOCK_FREE
#define __GCC_ATOMIC_LONG_LOCK_FREE __CLANG_ATOMIC_LONG_LOCK_FREE
#define __GCC_ATOMIC_LLONG_LOCK_FREE __CLANG_ATOMIC_LLONG_LOCK_FREE
#define __GCC_ATOMIC_POINTER_LOCK_FREE __CLANG_ATOMIC_POINTER_LOCK_FREE
#endif
#ifndef __GCC_ATOMIC_TEST_AND_SET_TRUEVAL
#define __GCC_ATOMIC_TEST_AND_SET_TRUEVAL 1
#endif
// C++20's char8_t: libstdc++'s atomic<char8_t> asks for its property too.
#if defined(__cpp_char8_t) && !defined(__GCC_ATOMIC_CHAR8_T_LOCK_FREE)
#define __GCC_ATOMIC_CHAR8_T_LOCK_FREE __CLANG_ATOMIC_CHAR8_T_LOCK_FREE
#endif

#ifdef __cplusplus
// MSVC binds a temporary to a non-const lvalue reference (`void f(V& v);
// f(make_view());`), which Clang cannot be told to accept: where a call
// fails for that reason, the compiler launcher (scripts/amp_driver/passes/msvc.py)
// wraps the argument in this, an lvalue naming the temporary, which lives
// to the end of the full expression as MSVC's did. Usable in kernels.
template <class T>
#if defined(__CUDA__) || defined(__HIP__)
__host__ __device__
#endif
inline T& amp_compat_msvc_lvalue(T&& t) noexcept {
  return t;
}
// ... and the temporary an implicit conversion makes for a non-const lvalue
// reference parameter (`Iter(std::vector<T>::const_iterator& it)` given an
// `iterator`, as Microsoft's conformance suite does): the launcher wraps
// such an argument in amp_compat_msvc_convert(...), which converts to U& for
// any non-const U the argument converts to, the converted value living to
// the end of the full expression (host code).
template <class A>
class amp_compat_msvc_converted {
  A&& a_;
  void* held_ = nullptr;
  void (*drop_)(void*) = nullptr;

public:
  explicit amp_compat_msvc_converted(A&& a) : a_(static_cast<A&&>(a)) {}
  amp_compat_msvc_converted(const amp_compat_msvc_converted&) = delete;
  amp_compat_msvc_converted& operator=(const amp_compat_msvc_converted&) = delete;
  ~amp_compat_msvc_converted() {
    if (drop_) drop_(held_);
  }
  template <class U, bool ok = !__is_const(U) && __is_convertible_to(A&&, U), class = char[ok ? 1 : -1]>
  operator U&() {
    if (drop_) drop_(held_);
    U* u = new U(static_cast<A&&>(a_));
    held_ = u;
    drop_ = [](void* p) { delete static_cast<U*>(p); };
    return *u;
  }
};
template <class A>
inline amp_compat_msvc_converted<A> amp_compat_msvc_convert(A&& a) {
  return amp_compat_msvc_converted<A>(static_cast<A&&>(a));
}

// A class object passed through a C variadic parameter (`printf("%d\n",
// view[0])`, a string class given to "%s"): MSVC passes its bits, an object
// of 1, 2, 4 or 8 bytes in the argument's slot and any other as the address
// of a copy (the x64 calling convention); Clang on Linux refuses a
// non-trivial class there. Where a compile fails for that reason the
// launcher wraps the argument in this, which passes what MSVC passes (the
// address is the argument's own, alive to the end of the call).
template <unsigned N>
struct amp_compat_msvc_vararg_bits {
  unsigned char bytes[N];
};
template <class T>
#if defined(__CUDA__) || defined(__HIP__)
__host__ __device__
#endif
inline auto amp_compat_msvc_vararg(const T& x) noexcept {
  if constexpr (sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4 || sizeof(T) == 8) {
    amp_compat_msvc_vararg_bits<sizeof(T)> b;
    __builtin_memcpy(b.bytes, __builtin_addressof(x), sizeof(T));
    return b;
  } else {
    return __builtin_addressof(x);
  }
}

// A function returning an lvalue reference that ends without a return
// statement (`A& operator=(const A&) restrict(amp) {}`, as Microsoft's
// conformance suite writes): MSVC returned whatever its return register held
// (C4716, a warning in the Visual Studio versions AMP code was written for),
// and a caller that discards the result runs; Clang makes that end a trap.
// The launcher ends such a body with `return amp_compat_msvc_no_value();`, a
// reference to nothing meaningful, as MSVC's (reading through it is as
// undefined as there). constexpr: callable from amp and cpu code alike.
struct amp_compat_msvc_no_value {
  template <class T>
#if defined(__CUDA__) || defined(__HIP__)
  __host__ __device__
#endif
  constexpr operator T&() const noexcept {
    return *static_cast<T*>(const_cast<void*>(static_cast<const void*>(this)));
  }
};

// std::vector<const T>: Visual C++'s library (up to Visual Studio 2015)
// accepted a vector of const elements, and its element access gave non-const
// references (`vector<const int> v(n); v[i] = i;`, `vector<const S> g(n);
// g[i].x = 2;`, as Microsoft's conformance suite writes); libstdc++ rejects
// the type. Here it is a vector<T> that keeps its own type, so that a
// template parameter deduced from it is `const T`, as with MSVC
// (`template <class T> bool compare(const vector<T>&, const array_view<T, 2>&)`
// given a vector<const int> and an array_view<const int, 2>). Declared ahead
// of <vector> (this header comes first in every translation unit); the base
// is complete wherever such a vector is used, as <vector> is then included.
namespace std {
template <class T> class allocator;
template <class T, class A> class vector;
template <class T> class vector<const T, allocator<const T>> : public vector<T, allocator<T>> {
  using base = vector<T, allocator<T>>;

public:
  using base::base;
  vector() = default;
  vector(const base& v) : base(v) {}
  vector(base&& v) : base(static_cast<base&&>(v)) {}
};
} // namespace std
#endif

#endif
