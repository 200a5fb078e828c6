// amp_compat/compat/crt_compat.h -- the Microsoft C runtime names legacy AMP
// console programs use, force-included (-include) by `./amp c++
// --windows-compat` and the amp_compat_windows CMake target, because MSVC
// declares them in <stdio.h>, <string.h>, <stdlib.h> and <time.h>, which a
// program includes from the system here.
//
// Contract (host code only; everything inline):
//   _countof(array)      element count of an array; a pointer does not compile.
//   __max(a,b) __min(a,b) macros, as <stdlib.h> defines them.
//   errno_t, rsize_t, _TRUNCATE.
//   Secure CRT: sprintf_s, vsprintf_s, _snprintf_s, _vsnprintf_s, swprintf_s,
//     vswprintf_s, _snwprintf_s, printf_s, fprintf_s, wprintf_s, fwprintf_s,
//     strcpy_s, strncpy_s, strcat_s, wcscpy_s, wcsncpy_s, wcscat_s,
//     memcpy_s, memmove_s, fopen_s, _wfopen_s, localtime_s, gmtime_s,
//     strtok_s, wcstok_s, _itoa_s; the buffer functions also in MSVC's
//     template form that takes an array and no size (sprintf_s(buf, "%d", x)).
//     Formats follow MSVC (detail/format.h: wide %s is a wchar_t string,
//     %I64d ...). Results and return values are MSVC's; a parameter MSVC
//     rejects (null pointer, buffer too small without _TRUNCATE, zero size)
//     goes to the invalid-parameter handler: by default, as in a release
//     build on Windows, the program stops (a message naming the function on
//     stderr, then abort()); after _set_invalid_parameter_handler(h), h is
//     called and the function returns its documented error (errno set, the
//     output buffer emptied where MSVC empties it).
//   Plain MSVC names glibc lacks: _stricmp, _strnicmp, _wcsicmp, _strdup,
//     _wcsdup, _itoa, _wtoi, _wtol, _wtof, _wfopen.
//   rand(), srand(), RAND_MAX as MSVC's C runtime has them: 15-bit results
//     (RAND_MAX 0x7FFF) from MSVC's generator, per thread, seed 1 until
//     srand; a program seeding srand(n) gets the numbers it got on Windows
//     (test data, sizes, expected sums stay in the ranges it was written for).
//     std::rand/std::srand are the same functions.
//   clock(), CLOCKS_PER_SEC as MSVC's: wall-clock milliseconds since the
//     program started (glibc: CPU time of all threads, in microseconds).
//   stdext::checked_array_iterator / unchecked_array_iterator and their
//     make_ functions, which MSVC declares in <iterator> (detail/stdext.h).
//   MSVC's std::exception(const char*) as amp_compat_crt::msvc_exception
//     (detail/msvc_exception.h; the launcher names it where a program
//     constructs std::exception with a message).
//   Microsoft keywords (__int64 ...), _aligned_malloc, _isnan/_finite,
//     _atoi64, _i64toa_s, _itow_s, wcstombs_s/mbstowcs_s, _fseeki64,
//     __debugbreak: detail/crt_extras.h states each.
//   std::wcout / wcerr / wclog print wide text as UTF-8 in program order with
//     std::cout and printf (detail/wide_streams.h).
//   The float and long double math functions in std as well as globally
//     (std::sqrtf, std::powl: MSVC's <cmath>; libstdc++ before release 14
//     lacks them).
#ifndef AMP_COMPAT_COMPAT_CRT_COMPAT_H
#define AMP_COMPAT_COMPAT_CRT_COMPAT_H

// The switch of the Windows build environment: this header is force-included
// by --windows-compat and the amp_compat_windows target, and <amp.h> includes
// compat/amp_windows_env.h when it sees this macro.
#ifndef AMP_COMPAT_WINDOWS
#define AMP_COMPAT_WINDOWS 1
#endif

#include <cerrno>
#include <cstdarg>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <cwchar>
#include <cwctype>
#include <string>
#include <strings.h>
// MSVC's math headers declare the float and long double overloads of the
// math functions in the global namespace too (`modf(x, &whole)` with floats
// finds modf(float, float*), as Microsoft's conformance suite calls it);
// libstdc++'s <math.h> does the same (using-declarations of std's).
#include <math.h>
// MSVC's <cmath> also names the C library's float and long double functions
// in std (`std::sqrtf(x)`, `std::powl`), as C++ says it does; libstdc++ has
// them from release 14 only. Older ones get them here, as the same functions.
#if defined(__GLIBCXX__) && defined(_GLIBCXX_RELEASE) && _GLIBCXX_RELEASE < 14
#define AMP_COMPAT_STD_FL(name) using ::name##f; using ::name##l;
namespace std {
AMP_COMPAT_STD_FL(acos) AMP_COMPAT_STD_FL(asin) AMP_COMPAT_STD_FL(atan) AMP_COMPAT_STD_FL(atan2)
AMP_COMPAT_STD_FL(ceil) AMP_COMPAT_STD_FL(cos) AMP_COMPAT_STD_FL(cosh) AMP_COMPAT_STD_FL(exp)
AMP_COMPAT_STD_FL(fabs) AMP_COMPAT_STD_FL(floor) AMP_COMPAT_STD_FL(fmod) AMP_COMPAT_STD_FL(frexp)
AMP_COMPAT_STD_FL(ldexp) AMP_COMPAT_STD_FL(log) AMP_COMPAT_STD_FL(log10) AMP_COMPAT_STD_FL(modf)
AMP_COMPAT_STD_FL(pow) AMP_COMPAT_STD_FL(sin) AMP_COMPAT_STD_FL(sinh) AMP_COMPAT_STD_FL(sqrt)
AMP_COMPAT_STD_FL(tan) AMP_COMPAT_STD_FL(tanh)
} // namespace std
#undef AMP_COMPAT_STD_FL
#endif

#include "detail/format.h"
#include "detail/utf8.h"
#include "detail/wide_streams.h"
#include "detail/msvc_exception.h"

// ---- restrict(...) without <amp.h> -------------------------------------------
// restrict is a keyword of Microsoft's compiler: `int f() restrict(amp);`
// compiles in a file that includes no AMP header (60 tests of Microsoft's
// conformance suite do, through amptest/restrict.h's __GPU macros). Until
// <amp.h> brings the full definition (detail/restrict.h, which replaces this
// one), a restriction means what it means there: nothing on the host, host
// and device in a GPU build, the checker's annotation in its parse.
#ifndef restrict
#define AMP_EARLY_RESTRICT_PICK(_1, _2, _3, _4, _5, _6, _7, _8, NAME, ...) NAME
#define restrict(...)                                                                               \
  AMP_EARLY_RESTRICT_PICK(__VA_ARGS__, AMP_EARLY_RESTRICT_MANY, AMP_EARLY_RESTRICT_MANY,              \
                          AMP_EARLY_RESTRICT_MANY, AMP_EARLY_RESTRICT_MANY, AMP_EARLY_RESTRICT_MANY,  \
                          AMP_EARLY_RESTRICT_MANY, AMP_EARLY_RESTRICT_MANY, AMP_EARLY_RESTRICT_ONE, )(__VA_ARGS__)
#if defined(AMP_CHECK_PASS) && AMP_CHECK_PASS
#define AMP_EARLY_RESTRICT_ONE(a) __attribute__((annotate("amp_restrict:" #a)))
#define AMP_EARLY_RESTRICT_MANY(...) __attribute__((annotate("amp_restrict:" #__VA_ARGS__)))
#elif defined(__CUDA__) || defined(__HIP__)
#define AMP_EARLY_RESTRICT_ONE(a) AMP_EARLY_RESTRICT_KW_##a
#define AMP_EARLY_RESTRICT_MANY(...) __host__ __device__
#define AMP_EARLY_RESTRICT_KW_amp __host__ __device__
#define AMP_EARLY_RESTRICT_KW_direct3d __host__ __device__
#define AMP_EARLY_RESTRICT_KW_auto __host__ __device__
#define AMP_EARLY_RESTRICT_KW_cpu
#else
#define AMP_EARLY_RESTRICT_ONE(a)
#define AMP_EARLY_RESTRICT_MANY(...)
#endif
#endif
// The dispatch of the restrict(cpu)/restrict(amp) pairs the compiler launcher
// merges, for files without an AMP header too.
#include "../detail/restrict_pair.h"

typedef int errno_t;
typedef std::size_t rsize_t;
#ifndef _TRUNCATE
#define _TRUNCATE (static_cast<std::size_t>(-1))
#endif

// ---- _countof, __max, __min ------------------------------------------------
namespace amp_compat_crt {
template <class T, std::size_t N>
char (&countof_helper(T (&)[N]))[N];
}
#define _countof(array) (sizeof(::amp_compat_crt::countof_helper(array)))
#ifndef __max
#define __max(a, b) (((a) > (b)) ? (a) : (b))
#endif
#ifndef __min
#define __min(a, b) (((a) < (b)) ? (a) : (b))
#endif

// ---- invalid-parameter handling --------------------------------------------
typedef void (*_invalid_parameter_handler)(const wchar_t* expression, const wchar_t* function,
                                           const wchar_t* file, unsigned int line,
                                           std::uintptr_t reserved);

namespace amp_compat_crt {

inline _invalid_parameter_handler& handler_slot() {
  static _invalid_parameter_handler h = nullptr;
  return h;
}

// Reports a rejected parameter of `function`: stops the program, or calls the
// installed handler and returns so the caller can return `err` (errno set).
inline errno_t invalid_parameter(const char* function, const char* what, errno_t err) {
  _invalid_parameter_handler h = handler_slot();
  if (!h) {
    std::fflush(stdout);
    std::fprintf(stderr, "amp_compat: invalid parameter passed to %s: %s (MSVC's invalid parameter handler stops the program)\n",
                 function, what);
    std::abort();
  }
  const std::wstring f = from_utf8(function), w = from_utf8(what);
  h(w.c_str(), f.c_str(), nullptr, 0, 0);
  errno = err;
  return err;
}

// STRUNCATE (80) is MSVC's value; glibc has no such errno.
constexpr errno_t struncate = 80;

// "No count argument" (strcpy_s, sprintf_s): distinct from every count a
// program can pass, _TRUNCATE included.
struct whole_t {};
struct count_t {
  std::size_t value;
  count_t(whole_t) : value(0), whole(true) {}
  count_t(std::size_t v) : value(v), whole(false) {}
  bool whole;
  bool truncate() const { return !whole && value == _TRUNCATE; }
  bool limits(std::size_t n) const { return !whole && !truncate() && value < n; }
};

// ---- string copies: strcpy_s / strncpy_s / strcat_s and their wide forms ----
// At most `count` characters of src (all of it for the whole_t forms); with
// _TRUNCATE as many as fit, returning STRUNCATE when that cut the text.
template <class C>
errno_t copy_s(const char* function, C* dst, rsize_t size, const C* src, count_t count, bool append) {
  if (!dst || size == 0) return invalid_parameter(function, "destination is null or has size 0", EINVAL);
  if (!src) { dst[0] = C(0); return invalid_parameter(function, "source is null", EINVAL); }
  std::size_t start = 0;
  if (append) {
    while (start < size && dst[start] != C(0)) ++start;
    if (start == size) { dst[0] = C(0); return invalid_parameter(function, "destination is not terminated", EINVAL); }
  }
  std::size_t n = std::char_traits<C>::length(src);
  if (count.limits(n)) n = count.value;
  bool truncated = false;
  if (start + n >= size) {
    if (!count.truncate()) { dst[0] = C(0); return invalid_parameter(function, "buffer too small", ERANGE); }
    n = size - 1 - start;
    truncated = true;
  }
  std::char_traits<C>::move(dst + start, src, n);
  dst[start + n] = C(0);
  return truncated ? struncate : 0;
}

// ---- bounded formatting: sprintf_s (count == npos) / _snprintf_s ----------
template <class C>
int vsnprintf_s_impl(const char* function, C* buf, std::size_t size, count_t count, const C* fmt,
                     va_list ap) {
  if (!buf || size == 0) { invalid_parameter(function, "buffer is null or has size 0", EINVAL); return -1; }
  if (!fmt) { buf[0] = C(0); invalid_parameter(function, "format is null", EINVAL); return -1; }
  std::basic_string<C> text;
  const int n = vformat(text, fmt, ap);
  if (n < 0) { buf[0] = C(0); errno = EINVAL; return -1; }
  std::size_t keep = text.size();
  if (count.limits(keep)) keep = count.value;
  int result = keep == text.size() ? n : -1;
  if (keep >= size) {
    if (!count.truncate()) { buf[0] = C(0); invalid_parameter(function, "buffer too small", ERANGE); return -1; }
    keep = size - 1;
    result = -1;
  }
  std::char_traits<C>::copy(buf, text.data(), keep);
  buf[keep] = C(0);
  return result;
}

}  // namespace amp_compat_crt

inline _invalid_parameter_handler _set_invalid_parameter_handler(_invalid_parameter_handler h) {
  _invalid_parameter_handler old = amp_compat_crt::handler_slot();
  amp_compat_crt::handler_slot() = h;
  return old;
}
inline _invalid_parameter_handler _get_invalid_parameter_handler() { return amp_compat_crt::handler_slot(); }

#ifndef STRUNCATE
#define STRUNCATE 80
#endif

// The family, written once: NAME(buffer, size, [count,] format, ...) and the
// array form NAME(char (&)[N], [count,] format, ...).
#define AMP_COMPAT_SPRINTF_FAMILY(NAME, VNAME, C, COUNT_PARAM, COUNT_ARG)                          \
  inline int VNAME(C* buf, std::size_t size, COUNT_PARAM const C* fmt, va_list ap) {               \
    return amp_compat_crt::vsnprintf_s_impl(#NAME, buf, size, COUNT_ARG, fmt, ap);                 \
  }                                                                                                \
  inline int NAME(C* buf, std::size_t size, COUNT_PARAM const C* fmt, ...) {                       \
    va_list ap;                                                                                    \
    va_start(ap, fmt);                                                                             \
    const int n = amp_compat_crt::vsnprintf_s_impl(#NAME, buf, size, COUNT_ARG, fmt, ap);          \
    va_end(ap);                                                                                    \
    return n;                                                                                      \
  }                                                                                                \
  template <std::size_t N>                                                                         \
  int NAME(C (&buf)[N], COUNT_PARAM const C* fmt, ...) {                                           \
    va_list ap;                                                                                    \
    va_start(ap, fmt);                                                                             \
    const int n = amp_compat_crt::vsnprintf_s_impl(#NAME, buf, N, COUNT_ARG, fmt, ap);             \
    va_end(ap);                                                                                    \
    return n;                                                                                      \
  }
#define AMP_COMPAT_NO_COUNT
#define AMP_COMPAT_COUNT std::size_t count,
AMP_COMPAT_SPRINTF_FAMILY(sprintf_s, vsprintf_s, char, AMP_COMPAT_NO_COUNT, amp_compat_crt::whole_t())
AMP_COMPAT_SPRINTF_FAMILY(_snprintf_s, _vsnprintf_s, char, AMP_COMPAT_COUNT, count)
AMP_COMPAT_SPRINTF_FAMILY(swprintf_s, vswprintf_s, wchar_t, AMP_COMPAT_NO_COUNT, amp_compat_crt::whole_t())
AMP_COMPAT_SPRINTF_FAMILY(_snwprintf_s, _vsnwprintf_s, wchar_t, AMP_COMPAT_COUNT, count)
#undef AMP_COMPAT_SPRINTF_FAMILY
#undef AMP_COMPAT_NO_COUNT
#undef AMP_COMPAT_COUNT

// printf_s & co.: MSVC's checked printf; output as printf (wide text as UTF-8).
#define AMP_COMPAT_PRINT_FAMILY(NAME, C, STREAM_PARAM, STREAM)        \
  inline int NAME(STREAM_PARAM const C* fmt, ...) {                   \
    if (!fmt) {                                                       \
      amp_compat_crt::invalid_parameter(#NAME, "format is null", EINVAL); \
      return -1;                                                      \
    }                                                                 \
    va_list ap;                                                       \
    va_start(ap, fmt);                                                \
    const int n = amp_compat_crt::vprint_to(STREAM, fmt, ap);         \
    va_end(ap);                                                       \
    return n;                                                         \
  }
#define AMP_COMPAT_NO_STREAM
#define AMP_COMPAT_STREAM std::FILE* stream,
AMP_COMPAT_PRINT_FAMILY(printf_s, char, AMP_COMPAT_NO_STREAM, stdout)
AMP_COMPAT_PRINT_FAMILY(fprintf_s, char, AMP_COMPAT_STREAM, stream)
AMP_COMPAT_PRINT_FAMILY(wprintf_s, wchar_t, AMP_COMPAT_NO_STREAM, stdout)
AMP_COMPAT_PRINT_FAMILY(fwprintf_s, wchar_t, AMP_COMPAT_STREAM, stream)
#undef AMP_COMPAT_PRINT_FAMILY
#undef AMP_COMPAT_NO_STREAM
#undef AMP_COMPAT_STREAM

// strcpy_s & co. (pointer + size, and the array form).
#define AMP_COMPAT_COPY_FAMILY(NAME, C, COUNT_PARAM, COUNT_ARG, APPEND)                            \
  inline errno_t NAME(C* dst, rsize_t size, const C* src COUNT_PARAM) {                            \
    return amp_compat_crt::copy_s(#NAME, dst, size, src, COUNT_ARG, APPEND);                       \
  }                                                                                                \
  template <std::size_t N>                                                                         \
  errno_t NAME(C (&dst)[N], const C* src COUNT_PARAM) {                                            \
    return amp_compat_crt::copy_s(#NAME, dst, N, src, COUNT_ARG, APPEND);                          \
  }
#define AMP_COMPAT_NO_COUNT
#define AMP_COMPAT_COUNT , rsize_t count
AMP_COMPAT_COPY_FAMILY(strcpy_s, char, AMP_COMPAT_NO_COUNT, amp_compat_crt::whole_t(), false)
AMP_COMPAT_COPY_FAMILY(strncpy_s, char, AMP_COMPAT_COUNT, count, false)
AMP_COMPAT_COPY_FAMILY(strcat_s, char, AMP_COMPAT_NO_COUNT, amp_compat_crt::whole_t(), true)
AMP_COMPAT_COPY_FAMILY(wcscpy_s, wchar_t, AMP_COMPAT_NO_COUNT, amp_compat_crt::whole_t(), false)
AMP_COMPAT_COPY_FAMILY(wcsncpy_s, wchar_t, AMP_COMPAT_COUNT, count, false)
AMP_COMPAT_COPY_FAMILY(wcscat_s, wchar_t, AMP_COMPAT_NO_COUNT, amp_compat_crt::whole_t(), true)
#undef AMP_COMPAT_COPY_FAMILY
#undef AMP_COMPAT_NO_COUNT
#undef AMP_COMPAT_COUNT

inline errno_t memcpy_s(void* dst, rsize_t size, const void* src, rsize_t count) {
  if (count == 0) return 0;
  if (!dst) return amp_compat_crt::invalid_parameter("memcpy_s", "destination is null", EINVAL);
  if (!src) { std::memset(dst, 0, size); return amp_compat_crt::invalid_parameter("memcpy_s", "source is null", EINVAL); }
  if (size < count) { std::memset(dst, 0, size); return amp_compat_crt::invalid_parameter("memcpy_s", "buffer too small", ERANGE); }
  std::memcpy(dst, src, count);
  return 0;
}

inline errno_t memmove_s(void* dst, rsize_t size, const void* src, rsize_t count) {
  if (count == 0) return 0;
  if (!dst || !src) return amp_compat_crt::invalid_parameter("memmove_s", "null pointer", EINVAL);
  if (size < count) return amp_compat_crt::invalid_parameter("memmove_s", "buffer too small", ERANGE);
  std::memmove(dst, src, count);
  return 0;
}

// ---- files, time, tokens, numbers ------------------------------------------
inline errno_t fopen_s(std::FILE** file, const char* name, const char* mode) {
  if (!file) return amp_compat_crt::invalid_parameter("fopen_s", "file pointer is null", EINVAL);
  *file = nullptr;
  if (!name || !mode) return amp_compat_crt::invalid_parameter("fopen_s", "file name or mode is null", EINVAL);
  *file = std::fopen(name, mode);
  return *file ? 0 : errno;
}

inline std::FILE* _wfopen(const wchar_t* name, const wchar_t* mode) {
  if (!name || !mode) { errno = EINVAL; return nullptr; }
  return std::fopen(amp_compat_crt::to_utf8(name).c_str(), amp_compat_crt::to_utf8(mode).c_str());
}

inline errno_t _wfopen_s(std::FILE** file, const wchar_t* name, const wchar_t* mode) {
  if (!file) return amp_compat_crt::invalid_parameter("_wfopen_s", "file pointer is null", EINVAL);
  *file = nullptr;
  if (!name || !mode) return amp_compat_crt::invalid_parameter("_wfopen_s", "file name or mode is null", EINVAL);
  *file = _wfopen(name, mode);
  return *file ? 0 : errno;
}

// MSVC's argument order: (result, time) -- C11's localtime_s has the reverse.
inline errno_t localtime_s(struct tm* result, const time_t* t) {
  if (!result || !t) return amp_compat_crt::invalid_parameter("localtime_s", "null pointer", EINVAL);
  return localtime_r(t, result) ? 0 : EINVAL;
}
inline errno_t gmtime_s(struct tm* result, const time_t* t) {
  if (!result || !t) return amp_compat_crt::invalid_parameter("gmtime_s", "null pointer", EINVAL);
  return gmtime_r(t, result) ? 0 : EINVAL;
}

inline char* strtok_s(char* str, const char* delim, char** context) {
  if (!delim || !context || (!str && !*context)) {
    amp_compat_crt::invalid_parameter("strtok_s", "null pointer", EINVAL);
    return nullptr;
  }
  return strtok_r(str, delim, context);
}
inline wchar_t* wcstok_s(wchar_t* str, const wchar_t* delim, wchar_t** context) {
  if (!delim || !context || (!str && !*context)) {
    amp_compat_crt::invalid_parameter("wcstok_s", "null pointer", EINVAL);
    return nullptr;
  }
  return std::wcstok(str, delim, context);
}

inline char* _itoa(int value, char* buf, int radix) {
  // As MSVC: negative numbers get a sign only in radix 10; other radixes show
  // the two's-complement bits.
  char tmp[40];
  int i = 0;
  const bool neg = radix == 10 && value < 0;
  unsigned long long v = neg ? 0ull - static_cast<unsigned long long>(static_cast<long long>(value))
                             : static_cast<unsigned int>(value);
  do {
    const int d = static_cast<int>(v % static_cast<unsigned>(radix));
    tmp[i++] = static_cast<char>(d < 10 ? '0' + d : 'a' + d - 10);
    v /= static_cast<unsigned>(radix);
  } while (v);
  int j = 0;
  if (neg) buf[j++] = '-';
  while (i) buf[j++] = tmp[--i];
  buf[j] = '\0';
  return buf;
}
inline errno_t _itoa_s(int value, char* buf, std::size_t size, int radix) {
  if (!buf || size == 0) return amp_compat_crt::invalid_parameter("_itoa_s", "buffer is null or has size 0", EINVAL);
  if (radix < 2 || radix > 36) { buf[0] = '\0'; return amp_compat_crt::invalid_parameter("_itoa_s", "radix out of range", EINVAL); }
  char tmp[40];
  _itoa(value, tmp, radix);
  if (std::strlen(tmp) >= size) { buf[0] = '\0'; return amp_compat_crt::invalid_parameter("_itoa_s", "buffer too small", ERANGE); }
  std::strcpy(buf, tmp);
  return 0;
}
template <std::size_t N>
errno_t _itoa_s(int value, char (&buf)[N], int radix) { return _itoa_s(value, buf, N, radix); }

inline int _stricmp(const char* a, const char* b) { return strcasecmp(a, b); }
inline int _strnicmp(const char* a, const char* b, std::size_t n) { return strncasecmp(a, b, n); }
inline int _wcsicmp(const wchar_t* a, const wchar_t* b) { return wcscasecmp(a, b); }
inline char* _strdup(const char* s) { return strdup(s); }
inline wchar_t* _wcsdup(const wchar_t* s) { return wcsdup(s); }
inline int _wtoi(const wchar_t* s) { return static_cast<int>(std::wcstol(s, nullptr, 10)); }
inline long _wtol(const wchar_t* s) { return std::wcstol(s, nullptr, 10); }
inline double _wtof(const wchar_t* s) { return std::wcstod(s, nullptr); }

// ---- rand / srand / RAND_MAX: MSVC's ------------------------------------------
// glibc's rand() gives 31-bit numbers from another generator: code written
// against MSVC's (values <= 0x7FFF, sums that stay exact in float, products
// that stay in int) would get other data and overflow. Macros, because the C
// library's declarations come first; std:: names the same functions.
namespace amp_compat_crt {
inline unsigned int& rand_state() {
  static thread_local unsigned int s = 1;
  return s;
}
}  // namespace amp_compat_crt
inline int amp_compat_msvc_rand() noexcept {
  unsigned int& s = amp_compat_crt::rand_state();
  s = s * 214013u + 2531011u;
  return static_cast<int>((s >> 16) & 0x7fffu);
}
inline void amp_compat_msvc_srand(unsigned int seed) noexcept { amp_compat_crt::rand_state() = seed; }
namespace std {
using ::amp_compat_msvc_rand;
using ::amp_compat_msvc_srand;
}  // namespace std
#undef RAND_MAX
#define RAND_MAX 0x7FFF
#define rand amp_compat_msvc_rand
#define srand amp_compat_msvc_srand

// ---- clock / CLOCKS_PER_SEC: MSVC's ------------------------------------------
// MSVC's clock() is the wall-clock time since the program started, in
// milliseconds (CLOCKS_PER_SEC 1000); glibc's is the CPU time of all the
// process's threads in microseconds. A program that times a kernel with
// clock() (`(clock() - start) * 1000 / CLOCKS_PER_SEC` ms, or `clock() - start`
// read as ms) would report the CPU time of every OpenMP worker, or nothing
// while it waits for the GPU. A function-like macro, so that only calls are
// renamed (`time_point::clock` and other names stay).
#include <chrono>
namespace amp_compat_crt {
inline const std::chrono::steady_clock::time_point& program_start() {
  static const std::chrono::steady_clock::time_point t = std::chrono::steady_clock::now();
  return t;
}
// taken while the program starts (static initialisation), as MSVC's CRT does
static const bool program_start_taken = (program_start(), true);
}  // namespace amp_compat_crt
inline std::clock_t amp_compat_msvc_clock() noexcept {
  return static_cast<std::clock_t>(std::chrono::duration_cast<std::chrono::milliseconds>(
                                       std::chrono::steady_clock::now() - amp_compat_crt::program_start())
                                       .count());
}
namespace std {
using ::amp_compat_msvc_clock;
}  // namespace std
#undef CLOCKS_PER_SEC
#define CLOCKS_PER_SEC ((clock_t)1000)
#define clock() amp_compat_msvc_clock()

// ---- the v*printf family: the va_list passed by value, as MSVC's ----------
// On MSVC x64 a va_list is a pointer into the argument area passed by value:
// vsnprintf(nullptr, 0, fmt, ap) to measure, then vsnprintf(buf, n, fmt, ap)
// with the same ap, prints the arguments twice. On x86-64 Linux a va_list is
// an array, passed by reference, and the first call consumes it: the second
// prints garbage. These copies take a va_copy of the caller's list, so the
// caller's is left as it was (for conforming code, which never reuses ap,
// nothing changes). Function-like macros, as rand and clock above: only
// calls are renamed, and std::vsnprintf names the same functions.
namespace amp_compat_crt {
template <class F, class... A>
inline int with_va_copy(F f, va_list ap, A... a) {
  va_list copy;
  va_copy(copy, ap);
  const int r = f(a..., copy);
  va_end(copy);
  return r;
}
}  // namespace amp_compat_crt
// The narrow ones also take MSVC's conversions that C lacks, %ws / %wc (a
// wide string or character) and %I64d / %I32d / %Id (detail/format.h);
// every narrow C conversion keeps its meaning (Microsoft's test library
// logs device paths with "%ws").
inline int amp_compat_msvc_vsnprintf(char* s, std::size_t n, const char* fmt, va_list ap) {
  return amp_compat_crt::with_va_copy(::vsnprintf, ap, s, n, amp_compat_crt::translate_format(fmt).c_str());
}
inline int amp_compat_msvc_vsprintf(char* s, const char* fmt, va_list ap) {
  return amp_compat_crt::with_va_copy(::vsprintf, ap, s, amp_compat_crt::translate_format(fmt).c_str());
}
inline int amp_compat_msvc_vprintf(const char* fmt, va_list ap) {
  return amp_compat_crt::with_va_copy(::vprintf, ap, amp_compat_crt::translate_format(fmt).c_str());
}
inline int amp_compat_msvc_vfprintf(std::FILE* f, const char* fmt, va_list ap) {
  return amp_compat_crt::with_va_copy(::vfprintf, ap, f, amp_compat_crt::translate_format(fmt).c_str());
}
inline int amp_compat_msvc_vswprintf(wchar_t* s, std::size_t n, const wchar_t* fmt, va_list ap) {
  return amp_compat_crt::with_va_copy(::vswprintf, ap, s, n, fmt);
}
inline int amp_compat_msvc_vwprintf(const wchar_t* fmt, va_list ap) { return amp_compat_crt::with_va_copy(::vwprintf, ap, fmt); }
inline int amp_compat_msvc_vfwprintf(std::FILE* f, const wchar_t* fmt, va_list ap) {
  return amp_compat_crt::with_va_copy(::vfwprintf, ap, f, fmt);
}
namespace std {
using ::amp_compat_msvc_vfprintf;
using ::amp_compat_msvc_vfwprintf;
using ::amp_compat_msvc_vprintf;
using ::amp_compat_msvc_vsnprintf;
using ::amp_compat_msvc_vsprintf;
using ::amp_compat_msvc_vswprintf;
using ::amp_compat_msvc_vwprintf;
}  // namespace std
#define vsnprintf(...) amp_compat_msvc_vsnprintf(__VA_ARGS__)
#define vsprintf(...) amp_compat_msvc_vsprintf(__VA_ARGS__)
#define vprintf(...) amp_compat_msvc_vprintf(__VA_ARGS__)
#define vfprintf(...) amp_compat_msvc_vfprintf(__VA_ARGS__)
#define vswprintf(...) amp_compat_msvc_vswprintf(__VA_ARGS__)
#define vwprintf(...) amp_compat_msvc_vwprintf(__VA_ARGS__)
#define vfwprintf(...) amp_compat_msvc_vfwprintf(__VA_ARGS__)

// ---- what cl.exe defines for a console program -----------------------------
// cl.exe always defines _MT (every runtime it links is multithreaded) and, with
// /MD (a Visual Studio project's default runtime), _DLL; code and libraries
// test them to pick their import library (`#error requires /MT, /MD ...`
// otherwise). Both are defined here, where no system header reads them as a
// Windows switch (Boost reads _MT as "threads", which -pthread gives).
// _WIN32/_WIN64/_M_X64 and _MSC_VER are not: oneTBB, Kokkos and libstdc++
// would take their Windows code (--msvc gives the project's own files an
// _MSC_VER, flags.txt).
#ifndef _MT
#define _MT 1
#endif
#ifndef _DLL
#define _DLL 1
#endif

// ---- wide file names for the standard file streams ---------------------------
// MSVC's std::ifstream/ofstream/fstream open(...) and constructors also take
// a wide name (const wchar_t*, std::wstring); libstdc++'s take narrow ones.
// Where such a call fails, the compiler launcher (--msvc,
// scripts/amp_driver/passes/msvc.py) passes the name through this: the same file
// name in the file system's encoding (UTF-8).
namespace amp_compat_crt {
inline std::string narrow_path(const std::wstring& wide) { return to_utf8(wide.c_str()); }
inline std::string narrow_path(const wchar_t* wide) { return to_utf8(wide); }
}  // namespace amp_compat_crt

// ---- the global type_info ----------------------------------------------------
// MSVC declares type_info in the global namespace (std::type_info names the
// same class); code writes `const type_info& ti`. In the MSVC dialect
// (--msvc) Clang itself declares an unrelated, incomplete ::type_info, which
// no using-declaration may replace: there the compiler launcher names
// std::type_info in the project's files instead (scripts/amp_driver/passes/msvc.py).
#include <typeinfo>
#ifndef AMP_MSVC_VER
using std::type_info;
#endif

// MSVC's std::_Smanip (its <iomanip>): manipulators with an argument.
#include "detail/smanip.h"

// After invalid_parameter, which the checked iterator reports to.
#include "detail/stdext.h"
// More of the CRT (keywords, _aligned_malloc, _isnan, wcstombs_s, __debugbreak
// ...): after invalid_parameter and STRUNCATE, which it uses.
#include "detail/crt_extras.h"
// MSVC's scanf_s family (after invalid_parameter).
#include "detail/scanf_s.h"

#endif  // AMP_COMPAT_COMPAT_CRT_COMPAT_H
