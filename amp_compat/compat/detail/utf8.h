// UTF-8 <-> wchar_t (UTF-32 on Linux) for the Windows companions: wide text
// written by legacy programs (std::wcout, _tprintf under _UNICODE) reaches the
// narrow stdout as UTF-8, and narrow argv / file names become wide strings.
// Locale-independent on purpose: the "C" locale of a console program would
// otherwise refuse every non-ASCII character. Invalid input (a lone surrogate,
// a value above U+10FFFF, a malformed byte sequence) becomes U+FFFD.
#ifndef AMP_COMPAT_COMPAT_DETAIL_UTF8_H
#define AMP_COMPAT_COMPAT_DETAIL_UTF8_H

#include <cstddef>
#include <string>

namespace amp_compat_crt {

inline void append_utf8(std::string& out, const wchar_t* s, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) {
    unsigned long c = static_cast<unsigned long>(static_cast<unsigned int>(s[i]));
    if (c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF)) c = 0xFFFD;
    if (c < 0x80) {
      out += static_cast<char>(c);
    } else if (c < 0x800) {
      out += static_cast<char>(0xC0 | (c >> 6));
      out += static_cast<char>(0x80 | (c & 0x3F));
    } else if (c < 0x10000) {
      out += static_cast<char>(0xE0 | (c >> 12));
      out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (c & 0x3F));
    } else {
      out += static_cast<char>(0xF0 | (c >> 18));
      out += static_cast<char>(0x80 | ((c >> 12) & 0x3F));
      out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (c & 0x3F));
    }
  }
}

inline std::string to_utf8(const wchar_t* s) {
  std::string out;
  if (s) append_utf8(out, s, std::char_traits<wchar_t>::length(s));
  return out;
}

inline std::wstring from_utf8(const char* s) {
  std::wstring out;
  if (!s) return out;
  const unsigned char* p = reinterpret_cast<const unsigned char*>(s);
  while (*p) {
    unsigned long c = *p;
    int extra = c < 0x80 ? 0 : (c >> 5) == 0x6 ? 1 : (c >> 4) == 0xE ? 2 : (c >> 3) == 0x1E ? 3 : -1;
    if (extra < 0) { out += L'\uFFFD'; ++p; continue; }
    c &= extra == 0 ? 0x7F : (0x3F >> extra);
    int k = 1;
    for (; k <= extra; ++k) {
      if ((p[k] & 0xC0) != 0x80) break;
      c = (c << 6) | (p[k] & 0x3F);
    }
    static const unsigned long min_of[4] = {0, 0x80, 0x800, 0x10000};
    if (k <= extra || c < min_of[extra] || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF)) {
      out += L'\uFFFD';
      p += k;  // skip the bytes examined (at least one)
      continue;
    }
    out += static_cast<wchar_t>(c);
    p += k;
  }
  return out;
}

}  // namespace amp_compat_crt

#endif
