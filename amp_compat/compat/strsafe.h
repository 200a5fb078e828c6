// amp_compat/compat/strsafe.h -- the Windows SDK's <strsafe.h> character-count
// functions console programs use for messages and paths (--windows-compat
// only; host code only).
//
// Contract (as the SDK documents them; sizes count characters, cch):
//   StringCchPrintfA/W, StringCchVPrintfA/W: MSVC's formats (detail/format.h:
//     %I64d, wide %s in the W forms); StringCchCopyA/W, StringCchCopyNA/W,
//     StringCchCatA/W, StringCchLengthA/W; the TCHAR names (StringCchPrintf
//     ...) by UNICODE. Result S_OK; when the text does not fit it is cut to
//     cch - 1 characters, null-terminated, and the result is
//     STRSAFE_E_INSUFFICIENT_BUFFER; a zero size or a size above
//     STRSAFE_MAX_CCH gives STRSAFE_E_INVALID_PARAMETER (the buffer left
//     alone for a zero size, emptied otherwise). StringCchLength fails with
//     STRSAFE_E_INVALID_PARAMETER when no null is found within cch.
//   The Cb (byte count) and Ex forms are not provided (a compile error).
#ifndef AMP_COMPAT_COMPAT_STRSAFE_H
#define AMP_COMPAT_COMPAT_STRSAFE_H

#include <cstdarg>
#include <cstring>
#include <cwchar>
#include <string>

#include "Windows.h"
#include "detail/format.h"

#define STRSAFE_MAX_CCH 2147483647
#define STRSAFE_E_INSUFFICIENT_BUFFER ((HRESULT)0x8007007AL)
#define STRSAFE_E_INVALID_PARAMETER ((HRESULT)0x80070057L)
#define STRSAFE_E_END_OF_FILE ((HRESULT)0x80070026L)

namespace amp_compat_crt {
template <class C>
HRESULT strsafe_put(C* dst, std::size_t cch, const C* text, std::size_t n) {
  if (cch == 0 || cch > STRSAFE_MAX_CCH) {
    if (cch != 0 && dst) dst[0] = C(0);
    return STRSAFE_E_INVALID_PARAMETER;
  }
  if (n >= cch) {
    std::char_traits<C>::copy(dst, text, cch - 1);
    dst[cch - 1] = C(0);
    return STRSAFE_E_INSUFFICIENT_BUFFER;
  }
  std::char_traits<C>::copy(dst, text, n);
  dst[n] = C(0);
  return S_OK;
}
template <class C>
HRESULT strsafe_vprintf(C* dst, std::size_t cch, const C* fmt, va_list ap) {
  std::basic_string<C> text;
  if (vformat(text, fmt, ap) < 0) text.clear();
  return strsafe_put(dst, cch, text.data(), text.size());
}
template <class C>
HRESULT strsafe_length(const C* s, std::size_t cch, std::size_t* len) {
  if (!s || cch == 0 || cch > STRSAFE_MAX_CCH) return STRSAFE_E_INVALID_PARAMETER;
  for (std::size_t i = 0; i < cch; ++i)
    if (s[i] == C(0)) {
      if (len) *len = i;
      return S_OK;
    }
  if (len) *len = 0;
  return STRSAFE_E_INVALID_PARAMETER;
}
}  // namespace amp_compat_crt

#define AMP_COMPAT_STRSAFE(SUFFIX, C)                                                                  \
  inline HRESULT StringCchVPrintf##SUFFIX(C* dst, std::size_t cch, const C* fmt, va_list ap) {         \
    return amp_compat_crt::strsafe_vprintf(dst, cch, fmt, ap);                                         \
  }                                                                                                    \
  inline HRESULT StringCchPrintf##SUFFIX(C* dst, std::size_t cch, const C* fmt, ...) {                 \
    va_list ap;                                                                                        \
    va_start(ap, fmt);                                                                                 \
    const HRESULT hr = amp_compat_crt::strsafe_vprintf(dst, cch, fmt, ap);                             \
    va_end(ap);                                                                                        \
    return hr;                                                                                         \
  }                                                                                                    \
  inline HRESULT StringCchCopy##SUFFIX(C* dst, std::size_t cch, const C* src) {                        \
    return amp_compat_crt::strsafe_put(dst, cch, src, std::char_traits<C>::length(src));               \
  }                                                                                                    \
  inline HRESULT StringCchCopyN##SUFFIX(C* dst, std::size_t cch, const C* src, std::size_t n) {        \
    std::size_t len = 0;                                                                               \
    while (len < n && src[len] != C(0)) ++len;                                                         \
    return amp_compat_crt::strsafe_put(dst, cch, src, len);                                            \
  }                                                                                                    \
  inline HRESULT StringCchCat##SUFFIX(C* dst, std::size_t cch, const C* src) {                         \
    std::size_t used = 0;                                                                              \
    if (FAILED(amp_compat_crt::strsafe_length(dst, cch, &used))) return STRSAFE_E_INVALID_PARAMETER;   \
    return amp_compat_crt::strsafe_put(dst + used, cch - used, src, std::char_traits<C>::length(src)); \
  }                                                                                                    \
  inline HRESULT StringCchLength##SUFFIX(const C* s, std::size_t cch, std::size_t* len) {              \
    return amp_compat_crt::strsafe_length(s, cch, len);                                                \
  }
AMP_COMPAT_STRSAFE(A, char)
AMP_COMPAT_STRSAFE(W, wchar_t)
#undef AMP_COMPAT_STRSAFE

#ifdef UNICODE
#define StringCchPrintf StringCchPrintfW
#define StringCchVPrintf StringCchVPrintfW
#define StringCchCopy StringCchCopyW
#define StringCchCopyN StringCchCopyNW
#define StringCchCat StringCchCatW
#define StringCchLength StringCchLengthW
#else
#define StringCchPrintf StringCchPrintfA
#define StringCchVPrintf StringCchVPrintfA
#define StringCchCopy StringCchCopyA
#define StringCchCopyN StringCchCopyNA
#define StringCchCat StringCchCatA
#define StringCchLength StringCchLengthA
#endif

#endif
