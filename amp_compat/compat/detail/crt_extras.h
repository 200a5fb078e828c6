// amp_compat/compat/detail/crt_extras.h -- more of the Microsoft C runtime
// that Visual Studio AMP programs use around their kernels (included by
// crt_compat.h, so force-included by --windows-compat; host code only).
//
// Contract (each as MSVC documents it; the differences are stated):
//   __declspec on GCC: align(n) (alignas), noinline, noreturn, thread,
//              selectany, dllexport, dllimport, novtable, nothrow, deprecated,
//              restrict, noalias (see below); others do not compile.
//   Keywords   __int8 __int16 __int32 __int64 (char, short, int, long long:
//              the types MSVC gives them, so `unsigned __int64` works),
//              __forceinline (inline, always inlined; GCC has __inline), and the
//              calling conventions __cdecl __stdcall __fastcall __thiscall
//              __vectorcall and _cdecl _stdcall _fastcall (nothing: x64 has
//              one convention). Macros, only
//              where not already defined; Clang's Microsoft mode (--msvc)
//              has the same meanings built in.
//   Memory     _aligned_malloc(size, alignment) / _aligned_free(p): alignment
//              must be a power of two (else the invalid-parameter handler,
//              EINVAL, null); the result is freed with _aligned_free only.
//              _aligned_realloc is not provided.
//   Numbers    _isnan, _finite (int results), _hypot, _hypotf, _copysign,
//              _chgsign, _logb, _nextafter, _scalb (double, as <float.h>);
//              _atoi64, _wtoi64, _strtoi64, _strtoui64, _wcstoi64,
//              _wcstoui64; _i64toa_s, _ui64toa_s, _itow_s (radix 2..36,
//              buffer too small -> ERANGE through the handler, as _itoa_s).
//   Bits       _rotl, _rotr (unsigned int), _lrotl, _lrotr (unsigned long:
//              32 bits on Windows, so here on uint32_t values too), _rotl64,
//              _rotr64, _byteswap_ushort, _byteswap_ulong, _byteswap_uint64
//              (<stdlib.h> in MSVC); shift counts taken modulo the width.
//   Text       wcstombs_s / mbstowcs_s: narrow text is UTF-8 here (as
//              everywhere in the companions), not the Windows code page;
//              *retval counts the terminating null; count may be _TRUNCATE;
//              a null destination with size 0 asks for the size; a
//              destination too small without _TRUNCATE goes to the handler
//              (ERANGE, buffer emptied). The array forms without a size too.
//   Files      _fseeki64, _ftelli64 (fseeko / ftello), _fileno, _isatty.
//   Limits     _MAX_PATH (260), _MAX_DRIVE, _MAX_DIR, _MAX_FNAME, _MAX_EXT
//              (<stdlib.h>'s buffer sizes).
//   Modes      _O_TEXT, _O_BINARY, _O_WTEXT, _O_U16TEXT, _O_U8TEXT (MSVC's
//              <fcntl.h> values) for _setmode (<io.h>).
//   Macros     __FUNCSIG__ (GCC/Clang's __PRETTY_FUNCTION__: a variable, not
//              a literal, so `"in " __FUNCSIG__` does not compile), _CRT_WIDE,
//              __FILEW__.
//   Debugging  __debugbreak(): raises SIGTRAP, which stops the program under
//              a debugger and ends it (core dump) without one, as the
//              breakpoint exception does on Windows.
#ifndef AMP_COMPAT_COMPAT_DETAIL_CRT_EXTRAS_H
#define AMP_COMPAT_COMPAT_DETAIL_CRT_EXTRAS_H

#include <cerrno>
#include <climits>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cstdint>
#include <cwchar>
#include <string>
#include <unistd.h>

// Clang's Microsoft mode (--msvc) has many of these names as builtins with
// MSVC's meaning: those are left to the compiler.
#ifdef __has_builtin
#define AMP_COMPAT_MS_BUILTIN(x) __has_builtin(x)
#else
#define AMP_COMPAT_MS_BUILTIN(x) 0
#endif

// ---- Microsoft keywords ------------------------------------------------------
#ifndef __int8
#define __int8 char
#endif
#ifndef __int16
#define __int16 short
#endif
#ifndef __int32
#define __int32 int
#endif
#ifndef __int64
#define __int64 long long
#endif
#ifndef __forceinline
#define __forceinline inline __attribute__((always_inline))
#endif
#ifndef __cdecl
#define __cdecl
#endif
#ifndef __stdcall
#define __stdcall
#endif
#ifndef __fastcall
#define __fastcall
#endif
#ifndef __thiscall
#define __thiscall
#endif
#ifndef __vectorcall
#define __vectorcall
#endif
// MSVC's older single-underscore spellings, still accepted (and found in
// DLL exports: `extern "C" __declspec(dllexport) int _stdcall F(...)`).
#ifndef _cdecl
#define _cdecl
#endif
#ifndef _stdcall
#define _stdcall
#endif
#ifndef _fastcall
#define _fastcall
#endif

// __declspec for a compiler that does not know it (GCC; Clang without
// -fms-extensions / -fdeclspec): each MSVC attribute becomes the standard or
// GNU one with its meaning. Unknown ones (property, uuid, ...) name an
// undeclared AMP_COMPAT_DECLSPEC_... and fail to compile (--msvc accepts
// them). `__declspec(align(16)) struct S {...};` -- the attribute before the
// class key, which GCC would ignore with a warning -- is moved after the class
// key by the compiler launcher (scripts/amp_driver/passes/windows.py, declspec_edits).
#if !defined(__has_declspec_attribute)
#define AMP_COMPAT_NO_DECLSPEC 1
#elif !__has_declspec_attribute(align)
#define AMP_COMPAT_NO_DECLSPEC 1
#endif
#if defined(AMP_COMPAT_NO_DECLSPEC) && !defined(__declspec)
#define __declspec(x) AMP_COMPAT_DECLSPEC_##x
#define AMP_COMPAT_DECLSPEC_align(n) alignas(n)
#define AMP_COMPAT_DECLSPEC_noinline __attribute__((noinline))
#define AMP_COMPAT_DECLSPEC_noreturn [[noreturn]]
#define AMP_COMPAT_DECLSPEC_thread thread_local
#define AMP_COMPAT_DECLSPEC_selectany __attribute__((weak))
#define AMP_COMPAT_DECLSPEC_dllexport __attribute__((visibility("default")))
#define AMP_COMPAT_DECLSPEC_dllimport
#define AMP_COMPAT_DECLSPEC_novtable
#define AMP_COMPAT_DECLSPEC_nothrow __attribute__((nothrow))
#define AMP_COMPAT_DECLSPEC_deprecated [[deprecated]]
#define AMP_COMPAT_DECLSPEC_restrict
#define AMP_COMPAT_DECLSPEC_noalias
#endif
#undef AMP_COMPAT_NO_DECLSPEC

// ---- limits, file modes, macros ---------------------------------------------------
#ifndef _MAX_PATH
#define _MAX_PATH 260
#define _MAX_DRIVE 3
#define _MAX_DIR 256
#define _MAX_FNAME 256
#define _MAX_EXT 256
#endif
#ifndef _O_TEXT
#define _O_TEXT 0x4000
#define _O_BINARY 0x8000
#define _O_WTEXT 0x10000
#define _O_U16TEXT 0x20000
#define _O_U8TEXT 0x40000
#endif
#if !defined(__FUNCSIG__)
#define __FUNCSIG__ __PRETTY_FUNCTION__
#endif
#ifndef _CRT_WIDE
#define AMP_COMPAT_CRT_WIDE(s) L##s
#define _CRT_WIDE(s) AMP_COMPAT_CRT_WIDE(s)
#endif
#ifndef __FILEW__
#define __FILEW__ _CRT_WIDE(__FILE__)
#endif

// ---- aligned allocation --------------------------------------------------------
inline void* _aligned_malloc(std::size_t size, std::size_t alignment) {
  if (alignment == 0 || (alignment & (alignment - 1)) != 0) {
    amp_compat_crt::invalid_parameter("_aligned_malloc", "alignment is not a power of two", EINVAL);
    return nullptr;
  }
  if (alignment < sizeof(void*)) alignment = sizeof(void*);  // posix_memalign's minimum
  void* p = nullptr;
  if (posix_memalign(&p, alignment, size ? size : 1) != 0) {
    errno = ENOMEM;
    return nullptr;
  }
  return p;
}
inline void _aligned_free(void* p) { std::free(p); }

// ---- numbers -------------------------------------------------------------------
inline int _isnan(double x) { return std::isnan(x) ? 1 : 0; }
inline int _finite(double x) { return std::isfinite(x) ? 1 : 0; }
inline double _hypot(double x, double y) { return std::hypot(x, y); }
inline float _hypotf(float x, float y) { return std::hypot(x, y); }
inline double _copysign(double x, double y) { return std::copysign(x, y); }
inline double _chgsign(double x) { return -x; }
inline double _logb(double x) { return std::logb(x); }
inline double _nextafter(double x, double y) { return std::nextafter(x, y); }
inline double _scalb(double x, long e) { return std::scalbln(x, e); }

inline long long _atoi64(const char* s) { return std::strtoll(s, nullptr, 10); }
inline long long _wtoi64(const wchar_t* s) { return std::wcstoll(s, nullptr, 10); }
inline long long _strtoi64(const char* s, char** end, int base) { return std::strtoll(s, end, base); }
inline unsigned long long _strtoui64(const char* s, char** end, int base) { return std::strtoull(s, end, base); }
inline long long _wcstoi64(const wchar_t* s, wchar_t** end, int base) { return std::wcstoll(s, end, base); }
inline unsigned long long _wcstoui64(const wchar_t* s, wchar_t** end, int base) { return std::wcstoull(s, end, base); }

// ---- rotations and byte swaps (MSVC's <stdlib.h>) ----------------------------------
namespace amp_compat_crt {
template <class U>
constexpr U rotl(U v, int shift) {
  const unsigned w = sizeof(U) * 8, s = static_cast<unsigned>(shift) % w;
  return s == 0 ? v : static_cast<U>((v << s) | (v >> (w - s)));
}
}  // namespace amp_compat_crt
#if !AMP_COMPAT_MS_BUILTIN(_rotl)
inline unsigned int _rotl(unsigned int v, int s) { return amp_compat_crt::rotl<std::uint32_t>(v, s); }
inline unsigned int _rotr(unsigned int v, int s) { return amp_compat_crt::rotl<std::uint32_t>(v, 32 - s % 32); }
inline unsigned long _lrotl(unsigned long v, int s) {
  return amp_compat_crt::rotl<std::uint32_t>(static_cast<std::uint32_t>(v), s);
}
inline unsigned long _lrotr(unsigned long v, int s) {
  return amp_compat_crt::rotl<std::uint32_t>(static_cast<std::uint32_t>(v), 32 - s % 32);
}
inline unsigned long long _rotl64(unsigned long long v, int s) { return amp_compat_crt::rotl<std::uint64_t>(v, s); }
inline unsigned long long _rotr64(unsigned long long v, int s) {
  return amp_compat_crt::rotl<std::uint64_t>(v, 64 - s % 64);
}
inline unsigned short _byteswap_ushort(unsigned short v) { return __builtin_bswap16(v); }
inline unsigned long _byteswap_ulong(unsigned long v) { return __builtin_bswap32(static_cast<std::uint32_t>(v)); }
inline unsigned long long _byteswap_uint64(unsigned long long v) { return __builtin_bswap64(v); }
#else
// Clang's Microsoft mode: its builtins, declared with the types Clang 22
// gives them on Linux (so _lrotl and _rotl64 take Linux's 64-bit long and
// _lrotl rotates 64 bits there, unlike MSVC).
extern "C" {
unsigned int _rotl(unsigned int, int) noexcept;
unsigned int _rotr(unsigned int, int) noexcept;
unsigned long _lrotl(unsigned long, int) noexcept;
unsigned long _lrotr(unsigned long, int) noexcept;
unsigned long _rotl64(unsigned long, int) noexcept;
unsigned long _rotr64(unsigned long, int) noexcept;
unsigned short _byteswap_ushort(unsigned short) noexcept;
unsigned int _byteswap_ulong(unsigned int) noexcept;
unsigned long long _byteswap_uint64(unsigned long long) noexcept;
}
#endif

namespace amp_compat_crt {
// The digits of v (negative only in radix 10, as MSVC) into buf of size
// chars; the checks and errors of MSVC's _xtoa_s family.
template <class C>
errno_t to_digits_s(const char* function, unsigned long long v, bool negative, C* buf, std::size_t size, int radix) {
  if (!buf || size == 0) return invalid_parameter(function, "buffer is null or has size 0", EINVAL);
  if (radix < 2 || radix > 36) { buf[0] = C(0); return invalid_parameter(function, "radix out of range", EINVAL); }
  C tmp[72];
  std::size_t n = 0;
  do {
    const int d = static_cast<int>(v % static_cast<unsigned>(radix));
    tmp[n++] = static_cast<C>(d < 10 ? '0' + d : 'a' + d - 10);
    v /= static_cast<unsigned>(radix);
  } while (v);
  if (n + (negative ? 1 : 0) >= size) { buf[0] = C(0); return invalid_parameter(function, "buffer too small", ERANGE); }
  std::size_t j = 0;
  if (negative) buf[j++] = C('-');
  while (n) buf[j++] = tmp[--n];
  buf[j] = C(0);
  return 0;
}
inline unsigned long long magnitude(long long v, int radix, bool& negative) {
  negative = radix == 10 && v < 0;
  return negative ? 0ull - static_cast<unsigned long long>(v) : static_cast<unsigned long long>(v);
}
}  // namespace amp_compat_crt

inline errno_t _i64toa_s(long long value, char* buf, std::size_t size, int radix) {
  bool neg;
  const unsigned long long m = amp_compat_crt::magnitude(value, radix, neg);
  return amp_compat_crt::to_digits_s("_i64toa_s", m, neg, buf, size, radix);
}
inline errno_t _ui64toa_s(unsigned long long value, char* buf, std::size_t size, int radix) {
  return amp_compat_crt::to_digits_s("_ui64toa_s", value, false, buf, size, radix);
}
inline errno_t _itow_s(int value, wchar_t* buf, std::size_t size, int radix) {
  bool neg;
  // as _itoa_s: outside radix 10 a negative int is its 32-bit pattern
  const unsigned long long m = radix == 10 ? amp_compat_crt::magnitude(value, radix, neg)
                                           : (neg = false, static_cast<unsigned int>(value));
  return amp_compat_crt::to_digits_s("_itow_s", m, neg, buf, size, radix);
}
template <std::size_t N>
errno_t _i64toa_s(long long value, char (&buf)[N], int radix) { return _i64toa_s(value, buf, N, radix); }
template <std::size_t N>
errno_t _ui64toa_s(unsigned long long value, char (&buf)[N], int radix) { return _ui64toa_s(value, buf, N, radix); }
template <std::size_t N>
errno_t _itow_s(int value, wchar_t (&buf)[N], int radix) { return _itow_s(value, buf, N, radix); }

// ---- wcstombs_s / mbstowcs_s (UTF-8) -----------------------------------------------
namespace amp_compat_crt {
// Shared by both directions: `text` is the converted source (already cut at
// `count` source characters); copies it with MSVC's rules.
template <class C>
errno_t convert_s(const char* function, std::size_t* retval, C* dst, std::size_t size,
                  const std::basic_string<C>& text, bool truncate) {
  if (retval) *retval = 0;
  if (!dst) {
    if (size != 0) return invalid_parameter(function, "null destination with a non-zero size", EINVAL);
    if (retval) *retval = text.size() + 1;  // the size it would need
    return 0;
  }
  if (size == 0) return invalid_parameter(function, "destination size is 0", EINVAL);
  std::size_t n = text.size();
  if (n >= size) {
    if (!truncate) { dst[0] = C(0); return invalid_parameter(function, "destination too small", ERANGE); }
    n = size - 1;
    if (sizeof(C) == 1)  // never cut a UTF-8 sequence in the middle
      while (n > 0 && (static_cast<unsigned char>(text[n]) & 0xC0) == 0x80) --n;
  }
  std::char_traits<C>::copy(dst, text.data(), n);
  dst[n] = C(0);
  if (retval) *retval = n + 1;
  return n < text.size() ? STRUNCATE : 0;
}
}  // namespace amp_compat_crt

inline errno_t wcstombs_s(std::size_t* retval, char* dst, std::size_t size, const wchar_t* src, std::size_t count) {
  if (!src) {
    if (dst && size) dst[0] = '\0';
    return amp_compat_crt::invalid_parameter("wcstombs_s", "source is null", EINVAL);
  }
  std::size_t len = std::wcslen(src);
  const bool truncate = count == _TRUNCATE;
  if (!truncate && count < len) len = count;
  std::string text;
  amp_compat_crt::append_utf8(text, src, len);
  return amp_compat_crt::convert_s("wcstombs_s", retval, dst, size, text, truncate);
}
inline errno_t mbstowcs_s(std::size_t* retval, wchar_t* dst, std::size_t size, const char* src, std::size_t count) {
  if (!src) {
    if (dst && size) dst[0] = L'\0';
    return amp_compat_crt::invalid_parameter("mbstowcs_s", "source is null", EINVAL);
  }
  std::size_t len = std::strlen(src);
  const bool truncate = count == _TRUNCATE;
  if (!truncate && count < len) len = count;
  const std::wstring text = amp_compat_crt::from_utf8(std::string(src, len).c_str());
  return amp_compat_crt::convert_s("mbstowcs_s", retval, dst, size, text, truncate);
}
template <std::size_t N>
errno_t wcstombs_s(std::size_t* retval, char (&dst)[N], const wchar_t* src, std::size_t count) {
  return wcstombs_s(retval, dst, N, src, count);
}
template <std::size_t N>
errno_t mbstowcs_s(std::size_t* retval, wchar_t (&dst)[N], const char* src, std::size_t count) {
  return mbstowcs_s(retval, dst, N, src, count);
}

// ---- files ---------------------------------------------------------------------------
inline int _fseeki64(std::FILE* f, long long offset, int origin) { return fseeko(f, static_cast<off_t>(offset), origin); }
inline long long _ftelli64(std::FILE* f) { return static_cast<long long>(ftello(f)); }
inline int _fileno(std::FILE* f) { return fileno(f); }
inline int _isatty(int fd) { return isatty(fd); }

// ---- debugging -------------------------------------------------------------------------
// Clang's Microsoft mode (--msvc) has it built in (an int3: SIGTRAP too).
#if !AMP_COMPAT_MS_BUILTIN(__debugbreak)
inline void __debugbreak() { std::raise(SIGTRAP); }
#endif

#endif
