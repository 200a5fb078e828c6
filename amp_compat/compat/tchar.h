// amp_compat/compat/tchar.h -- the generic-text mappings of a Visual Studio
// console program (opt-in: ./amp c++ --windows-compat).
//
// Contract: as MSVC's <tchar.h>, every _t name maps to the narrow function, or
// with _UNICODE defined (-D_UNICODE, as Visual Studio's "Use Unicode
// Character Set" does) to the wide one:
//   _TCHAR _TSCHAR _TUCHAR _TXCHAR _TINT, _T("x") _TEXT("x") __T("x"),
//   _tmain: main, or with _UNICODE wmain, entered through a main() supplied
//     here that converts argv from UTF-8 (a weak definition, so a program with
//     its own main is unaffected);
//   output: _tprintf _ftprintf _stprintf _stprintf_s _sntprintf_s _tprintf_s
//   input:  _tscanf_s _ftscanf_s _stscanf_s (detail/scanf_s.h)
//     _vstprintf_s (wide forms take MSVC's format meanings, see
//     detail/format.h, and print wide text to stdout as UTF-8);
//   strings: _tcslen _tcscpy _tcscpy_s _tcsncpy _tcsncpy_s _tcscat _tcscat_s
//     _tcscmp _tcsncmp _tcsicmp _tcschr _tcsrchr _tcsstr _tcstok_s _tcsdup;
//   numbers: _ttoi _tstoi _ttol _tstol _ttof _tstof _tcstol _tcstoul _tcstod;
//   files: _tfopen _tfopen_s _fgetts _fputts;
//   characters: _istdigit _istalpha _istalnum _istspace _istupper _istlower
//     _totupper _totlower.
// The secure and MSVC-only functions it maps to come from crt_compat.h, which
// --windows-compat force-includes (included here too, for CMake users that
// add only the include directory).
#ifndef AMP_COMPAT_COMPAT_TCHAR_H
#define AMP_COMPAT_COMPAT_TCHAR_H

#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cwchar>
#include <cwctype>
#include <string>
#include <vector>

#include "crt_compat.h"

namespace amp_compat_crt {

// Output of the _t printf family, narrow and wide: MSVC format meanings
// (%I64d, wide %s), wide text written to the FILE as UTF-8.
template <class C>
int tprintf(const C* fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  const int n = vprint_to(stdout, fmt, ap);
  va_end(ap);
  return n;
}
template <class C>
int ftprintf(std::FILE* f, const C* fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  const int n = vprint_to(f, fmt, ap);
  va_end(ap);
  return n;
}
// _stprintf: MSVC's unbounded sprintf / _swprintf(buffer, format, ...).
template <class C>
int stprintf(C* buf, const C* fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  std::basic_string<C> text;
  const int n = vformat(text, fmt, ap);
  va_end(ap);
  if (n >= 0) std::char_traits<C>::copy(buf, text.c_str(), text.size() + 1);
  return n;
}
inline int fputts_wide(const wchar_t* s, std::FILE* f) {
  const std::string bytes = to_utf8(s);
  return std::fputs(bytes.c_str(), f);
}

}  // namespace amp_compat_crt

#ifdef _UNICODE
#define AMP_COMPAT_TCHAR(narrow, wide) wide
typedef wchar_t _TCHAR;
typedef wchar_t _TSCHAR;
typedef wchar_t _TUCHAR;
typedef wchar_t _TXCHAR;
typedef std::wint_t _TINT;
#define __T(x) L##x
#else
#define AMP_COMPAT_TCHAR(narrow, wide) narrow
typedef char _TCHAR;
typedef signed char _TSCHAR;
typedef unsigned char _TUCHAR;
typedef char _TXCHAR;
typedef int _TINT;
#define __T(x) x
#endif
#define _T(x) __T(x)
#define _TEXT(x) __T(x)

// Each generic name once: (narrow, wide); the printf family takes either.
#define _tmain AMP_COMPAT_TCHAR(main, wmain)
#define _tprintf ::amp_compat_crt::tprintf
#define _ftprintf ::amp_compat_crt::ftprintf
#define _stprintf ::amp_compat_crt::stprintf
#define _stprintf_s AMP_COMPAT_TCHAR(sprintf_s, swprintf_s)
#define _tscanf_s AMP_COMPAT_TCHAR(scanf_s, wscanf_s)
#define _ftscanf_s AMP_COMPAT_TCHAR(fscanf_s, fwscanf_s)
#define _stscanf_s AMP_COMPAT_TCHAR(sscanf_s, swscanf_s)
#define _vstprintf_s AMP_COMPAT_TCHAR(vsprintf_s, vswprintf_s)
#define _sntprintf_s AMP_COMPAT_TCHAR(_snprintf_s, _snwprintf_s)
#define _tprintf_s AMP_COMPAT_TCHAR(printf_s, wprintf_s)
#define _tcslen AMP_COMPAT_TCHAR(std::strlen, std::wcslen)
#define _tcscpy AMP_COMPAT_TCHAR(std::strcpy, std::wcscpy)
#define _tcscpy_s AMP_COMPAT_TCHAR(strcpy_s, wcscpy_s)
#define _tcsncpy AMP_COMPAT_TCHAR(std::strncpy, std::wcsncpy)
#define _tcsncpy_s AMP_COMPAT_TCHAR(strncpy_s, wcsncpy_s)
#define _tcscat AMP_COMPAT_TCHAR(std::strcat, std::wcscat)
#define _tcscat_s AMP_COMPAT_TCHAR(strcat_s, wcscat_s)
#define _tcscmp AMP_COMPAT_TCHAR(std::strcmp, std::wcscmp)
#define _tcsncmp AMP_COMPAT_TCHAR(std::strncmp, std::wcsncmp)
#define _tcsicmp AMP_COMPAT_TCHAR(_stricmp, _wcsicmp)
#define _tcschr AMP_COMPAT_TCHAR(std::strchr, std::wcschr)
#define _tcsrchr AMP_COMPAT_TCHAR(std::strrchr, std::wcsrchr)
#define _tcsstr AMP_COMPAT_TCHAR(std::strstr, std::wcsstr)
#define _tcstok_s AMP_COMPAT_TCHAR(strtok_s, wcstok_s)
#define _tcsdup AMP_COMPAT_TCHAR(_strdup, _wcsdup)
#define _ttoi AMP_COMPAT_TCHAR(std::atoi, _wtoi)
#define _tstoi AMP_COMPAT_TCHAR(std::atoi, _wtoi)
#define _ttol AMP_COMPAT_TCHAR(std::atol, _wtol)
#define _tstol AMP_COMPAT_TCHAR(std::atol, _wtol)
#define _ttof AMP_COMPAT_TCHAR(std::atof, _wtof)
#define _tstof AMP_COMPAT_TCHAR(std::atof, _wtof)
#define _tcstol AMP_COMPAT_TCHAR(std::strtol, std::wcstol)
#define _tcstoul AMP_COMPAT_TCHAR(std::strtoul, std::wcstoul)
#define _tcstod AMP_COMPAT_TCHAR(std::strtod, std::wcstod)
#define _tfopen AMP_COMPAT_TCHAR(std::fopen, _wfopen)
#define _tfopen_s AMP_COMPAT_TCHAR(fopen_s, _wfopen_s)
#define _fgetts AMP_COMPAT_TCHAR(std::fgets, std::fgetws)
#define _fputts AMP_COMPAT_TCHAR(std::fputs, ::amp_compat_crt::fputts_wide)
#define _istdigit AMP_COMPAT_TCHAR(std::isdigit, std::iswdigit)
#define _istalpha AMP_COMPAT_TCHAR(std::isalpha, std::iswalpha)
#define _istalnum AMP_COMPAT_TCHAR(std::isalnum, std::iswalnum)
#define _istspace AMP_COMPAT_TCHAR(std::isspace, std::iswspace)
#define _istupper AMP_COMPAT_TCHAR(std::isupper, std::iswupper)
#define _istlower AMP_COMPAT_TCHAR(std::islower, std::iswlower)
#define _totupper AMP_COMPAT_TCHAR(std::toupper, std::towupper)
#define _totlower AMP_COMPAT_TCHAR(std::tolower, std::towlower)

#ifdef _UNICODE
// The entry point of a _UNICODE console program: wmain(argc, wchar_t** argv),
// entered through a weak main() (detail/wmain_entry.h).
#include "detail/wmain_entry.h"
#endif

#endif  // AMP_COMPAT_COMPAT_TCHAR_H
