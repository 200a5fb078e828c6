// printf-style formatting for the Windows companions (private).
//
// MSVC and C disagree on a few printf conversions; the companions' own
// functions (sprintf_s & co., the _tprintf family, swprintf_s ...) accept the
// MSVC meaning and translate the format before handing it to the C library:
//   - in WIDE formats MSVC reads %s / %c as wide (wchar_t) and %S / %C as
//     narrow, C reads them the other way round; %hs / %hc are narrow and
//     %ls / %lc / %ws / %wc wide in both;
//   - the size prefixes %I64 (64-bit), %I32 (32-bit) and %I (pointer-sized)
//     become ll, nothing and z.
// Plain printf / wprintf called directly keep glibc's meaning (see
// migration_guide.md, "Windows and PPL"); the narrow v*printf family of
// crt_compat.h translates (the narrow translation changes only %w and %I).
#ifndef AMP_COMPAT_COMPAT_DETAIL_FORMAT_H
#define AMP_COMPAT_COMPAT_DETAIL_FORMAT_H

#include <clocale>
#include <cstdarg>
#include <cstdio>
#include <cwchar>
#include <locale.h>
#include <string>

#include "utf8.h"

namespace amp_compat_crt {

template <class C>
inline bool is_one_of(C c, const char* set) {
  for (; *set; ++set)
    if (c == static_cast<C>(*set)) return true;
  return false;
}

// Rewrites an MSVC format string (narrow or wide, see above) into the C one.
template <class C>
std::basic_string<C> translate_format(const C* f) {
  const bool wide = sizeof(C) > 1;
  std::basic_string<C> out;
  if (!f) return out;
  while (*f) {
    if (*f != C('%')) { out += *f++; continue; }
    out += *f++;
    if (*f == C('%')) { out += *f++; continue; }
    while (*f && is_one_of(*f, "-+ #0123456789.*'$")) out += *f++;  // flags, width, precision, n$
    std::basic_string<C> len;  // length modifier as C spells it
    char kind = 0;             // 'h' narrow, 'l' wide, 0 none (for s/c)
    for (;;) {
      if (*f == C('I') && f[1] == C('6') && f[2] == C('4')) { len = {C('l'), C('l')}; f += 3; }
      else if (*f == C('I') && f[1] == C('3') && f[2] == C('2')) { f += 3; }
      else if (*f == C('I')) { len = {C('z')}; ++f; }
      else if (*f == C('w')) { kind = 'l'; ++f; }
      else if (is_one_of(*f, "hljztLq")) {
        if (*f == C('h')) kind = 'h';
        if (*f == C('l')) kind = 'l';
        len += *f++;
      } else break;
    }
    const C conv = *f;
    if (!conv) break;
    ++f;
    const bool str = is_one_of(conv, "sc"), STR = is_one_of(conv, "SC");
    if (str || STR) {
      const C lower = str ? conv : static_cast<C>(conv - 'A' + 'a');
      // Which string type did the MSVC program pass?
      bool arg_wide = kind == 'l' || (kind == 0 && (wide ? str : STR));
      if (arg_wide) out += C('l');
      out += lower;
    } else {
      out += len;
      out += conv;
    }
  }
  return out;
}

inline int vformat_raw(std::string& out, const char* fmt, va_list ap) {
  va_list ap2;
  va_copy(ap2, ap);
  char small[512];
  int n = std::vsnprintf(small, sizeof small, fmt, ap2);
  va_end(ap2);
  if (n < 0) return n;
  if (static_cast<std::size_t>(n) < sizeof small) {
    out.assign(small, static_cast<std::size_t>(n));
    return n;
  }
  out.assign(static_cast<std::size_t>(n) + 1, '\0');
  va_copy(ap2, ap);
  std::vsnprintf(&out[0], out.size(), fmt, ap2);
  va_end(ap2);
  out.resize(static_cast<std::size_t>(n));
  return n;
}

inline int vformat_raw(std::wstring& out, const wchar_t* fmt, va_list ap) {
  // vswprintf reports "too small" and "encoding error" alike (-1): grow up to
  // 64 M characters, then give up.
  for (std::size_t cap = 512; cap <= (std::size_t(1) << 26); cap *= 4) {
    out.assign(cap, L'\0');
    va_list ap2;
    va_copy(ap2, ap);
    int n = std::vswprintf(&out[0], cap, fmt, ap2);
    va_end(ap2);
    if (n >= 0) {
      out.resize(static_cast<std::size_t>(n));
      return n;
    }
  }
  out.clear();
  return -1;
}

// Narrow text is UTF-8 (as everywhere in the companions): while formatting,
// the calling thread converts between narrow and wide arguments with a
// C.UTF-8 character type (uselocale: this thread only, restored after). The
// program's own locale would make any non-ASCII conversion fail in "C".
class utf8_ctype_scope {
public:
  utf8_ctype_scope() {
    static const locale_t utf8 = newlocale(LC_CTYPE_MASK, "C.UTF-8", locale_t(0));
    if (utf8) old_ = uselocale(utf8);
  }
  ~utf8_ctype_scope() {
    if (old_) uselocale(old_);
  }
  utf8_ctype_scope(const utf8_ctype_scope&) = delete;
  utf8_ctype_scope& operator=(const utf8_ctype_scope&) = delete;

private:
  locale_t old_ = locale_t(0);
};

// Formats an MSVC-style format into out; returns its length or -1.
template <class C>
int vformat(std::basic_string<C>& out, const C* fmt, va_list ap) {
  const std::basic_string<C> f = translate_format(fmt);
  utf8_ctype_scope utf8;
  return vformat_raw(out, f.c_str(), ap);
}

// Writes formatted text to a narrow FILE (wide text as UTF-8); returns the
// number of characters formatted, or -1.
template <class C>
int vprint_to(std::FILE* stream, const C* fmt, va_list ap) {
  std::basic_string<C> text;
  const int n = vformat(text, fmt, ap);
  if (n < 0) return -1;
  std::string bytes;
  if constexpr (sizeof(C) == 1) bytes = text;
  else append_utf8(bytes, text.data(), text.size());
  if (std::fwrite(bytes.data(), 1, bytes.size(), stream) != bytes.size()) return -1;
  return n;
}

}  // namespace amp_compat_crt

#endif
