// amp_compat/compat/detail/scanf_s.h -- MSVC's secure scanf family
// (included by crt_compat.h: --windows-compat only; host code only).
//
// Contract: scanf_s, fscanf_s, sscanf_s and the wide wscanf_s, fwscanf_s,
// swscanf_s read as their C library counterparts, with MSVC's difference:
// each %s, %c and %[...] conversion that assigns (%S, %C, %ls, %lc, %hs ...
// too) takes two arguments, the buffer and its size in elements (an
// `unsigned`, as MSVC's). In the narrow functions %s/%c/%[ fill char buffers
// and %S/%C/%l fill wchar_t ones; in the wide functions %s/%c/%[ fill
// wchar_t buffers and %S/%C/%h fill char ones (MSVC's rules). A string field
// longer than its buffer (with the null) leaves an empty string there and
// ends the call, which returns the number of fields assigned before it, as
// MSVC does. Otherwise the results are the C library's: the number of fields
// assigned, or EOF when the input ends before the first conversion. %I64d /
// %I64u / %I32d are read as MSVC's 64/32-bit integers. %n is not supported
// (the call stops the program with a message naming it). Implemented by
// running each conversion through the library's fscanf/sscanf (fwscanf/
// swscanf) in turn, a string through a scratch buffer that fits it.
#ifndef AMP_COMPAT_COMPAT_DETAIL_SCANF_S_H
#define AMP_COMPAT_COMPAT_DETAIL_SCANF_S_H

#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cwchar>
#include <string>

namespace amp_compat_crt {

template <class C>
inline bool one_of(C c, const char* set) {
  return static_cast<unsigned long>(c) < 128 && c != C(0) && std::strchr(set, static_cast<char>(c)) != nullptr;
}

// scan(piece, dest, used) runs the library's scanf on `piece` (which ends with
// %n into *used) and returns its result.
template <class C, class Scan>
int scanf_s_impl(const char* function, const C* fmt, va_list ap, Scan scan) {
  const bool wide_fn = sizeof(C) == sizeof(wchar_t);
  int assigned = 0;
  bool started = false;
  std::basic_string<C> piece;
  const C* p = fmt;
  for (;;) {
    piece.clear();
    while (*p && !(p[0] == C('%') && p[1] != C('%'))) {  // literal text, %% kept
      if (p[0] == C('%')) piece += *p++;
      piece += *p++;
    }
    if (!*p) {  // the trailing literal text
      if (!piece.empty()) {
        int used = -1;
        piece += C('%'); piece += C('n');
        scan(piece, nullptr, &used);
      }
      return assigned;
    }
    piece += *p++;  // '%'
    const bool suppress = *p == C('*');
    if (suppress) piece += *p++;
    unsigned width = 0;
    while (*p >= C('0') && *p <= C('9')) width = width * 10 + static_cast<unsigned>(*p++ - C('0'));
    std::basic_string<C> length;
    bool narrow_mod = false, wide_mod = false;
    while (one_of(*p, "hljztLqI")) {
      if (p[0] == C('I') && p[1] == C('6') && p[2] == C('4')) { length += C('l'); length += C('l'); p += 3; continue; }
      if (p[0] == C('I') && p[1] == C('3') && p[2] == C('2')) { p += 3; continue; }
      if (*p == C('I')) { length += C('z'); ++p; continue; }
      if (*p == C('h')) narrow_mod = true;
      if (*p == C('l') || *p == C('w')) wide_mod = true;
      length += *p++;
    }
    if (!*p) return assigned;
    const C type = *p++;
    if (type == C('n')) {
      std::fprintf(stderr, "amp_compat: %s: %%n is not supported\n", function);
      std::abort();
    }
    std::basic_string<C> set;
    if (type == C('[')) {
      if (*p == C('^')) set += *p++;
      if (*p == C(']')) set += *p++;
      while (*p && *p != C(']')) set += *p++;
      if (!*p) return assigned;
      set += *p++;  // ']'
    }
    const bool is_c = type == C('c') || type == C('C');
    const bool stringy = is_c || type == C('s') || type == C('S') || type == C('[');
    void* target = suppress ? nullptr : va_arg(ap, void*);
    unsigned size = 0;
    bool wide_target = false;
    if (stringy) {
      const bool upper = type == C('S') || type == C('C');
      wide_target = wide_fn ? !(narrow_mod || upper) : (wide_mod || upper);
      if (!suppress) {
        size = va_arg(ap, unsigned);
        if (size == 0) return assigned;
      }
      if (is_c && width == 0) width = 1;
      if (!is_c && width == 0 && !suppress) width = size;  // one more than fits: an overflow shows
      if (is_c && !suppress && width > size) {
        if (wide_target) static_cast<wchar_t*>(target)[0] = L'\0'; else static_cast<char*>(target)[0] = '\0';
        return assigned;
      }
      length.clear();
      if (wide_target) length += C('l');  // the library's spelling of a wide target
    }
    if (width) for (char d : std::to_string(width)) piece += C(d);
    piece += length;
    if (stringy) piece += type == C('[') ? C('[') : (is_c ? C('c') : C('s'));
    else piece += type;
    piece += set;
    piece += C('%'); piece += C('n');
    std::string scratch_n;
    std::wstring scratch_w;
    void* dest = target;
    if (stringy && !suppress) {
      if (wide_target) { scratch_w.assign(width + 1, L'\0'); dest = &scratch_w[0]; }
      else { scratch_n.assign(width + 1, '\0'); dest = &scratch_n[0]; }
    }
    int used = -1;
    const int r = scan(piece, dest, &used);
    if (r == EOF && !started) return EOF;
    if (r == EOF || used < 0) return assigned;  // input ended or did not match
    started = true;
    if (stringy && !suppress) {
      const std::size_t n = is_c ? width : (wide_target ? std::wcslen(scratch_w.c_str()) : std::strlen(scratch_n.c_str()));
      if (!is_c && n >= size) {  // does not fit with its null
        if (wide_target) static_cast<wchar_t*>(target)[0] = L'\0'; else static_cast<char*>(target)[0] = '\0';
        return assigned;
      }
      const std::size_t count = is_c ? n : n + 1;
      if (wide_target) std::wmemcpy(static_cast<wchar_t*>(target), scratch_w.c_str(), count);
      else std::memcpy(target, scratch_n.c_str(), count);
    }
    if (!suppress) ++assigned;
  }
}

template <class C>
struct file_scan {  // from a stream: fscanf / fwscanf
  std::FILE* f;
  int operator()(const std::basic_string<C>& piece, void* dest, int* used) const {
    if (sizeof(C) == 1) {
      const char* fm = reinterpret_cast<const char*>(piece.c_str());
      return dest ? std::fscanf(f, fm, dest, used) : std::fscanf(f, fm, used);
    }
    const wchar_t* fm = reinterpret_cast<const wchar_t*>(piece.c_str());
    return dest ? std::fwscanf(f, fm, dest, used) : std::fwscanf(f, fm, used);
  }
};
template <class C>
struct string_scan {  // from a string: sscanf / swscanf, advancing by %n
  const C* s;
  int operator()(const std::basic_string<C>& piece, void* dest, int* used) {
    int r;
    if (sizeof(C) == 1) {
      const char* fm = reinterpret_cast<const char*>(piece.c_str());
      const char* in = reinterpret_cast<const char*>(s);
      r = dest ? std::sscanf(in, fm, dest, used) : std::sscanf(in, fm, used);
    } else {
      const wchar_t* fm = reinterpret_cast<const wchar_t*>(piece.c_str());
      const wchar_t* in = reinterpret_cast<const wchar_t*>(s);
      r = dest ? std::swscanf(in, fm, dest, used) : std::swscanf(in, fm, used);
    }
    if (*used > 0) s += *used;
    return r;
  }
};

}  // namespace amp_compat_crt

#define AMP_COMPAT_SCANF_S(NAME, C, SOURCE_PARAM, SCANNER, CHECK)                   \
  inline int NAME(SOURCE_PARAM, const C* fmt, ...) {                                \
    if (!(CHECK) || !fmt) {                                                         \
      amp_compat_crt::invalid_parameter(#NAME, "null input or format", EINVAL);   \
      return EOF;                                                                   \
    }                                                                               \
    va_list ap;                                                                     \
    va_start(ap, fmt);                                                              \
    auto scanner = SCANNER;                                                         \
    const int r = amp_compat_crt::scanf_s_impl(#NAME, fmt, ap, scanner);            \
    va_end(ap);                                                                     \
    return r;                                                                       \
  }
AMP_COMPAT_SCANF_S(fscanf_s, char, std::FILE* f, amp_compat_crt::file_scan<char>{f}, f)
AMP_COMPAT_SCANF_S(sscanf_s, char, const char* s, amp_compat_crt::string_scan<char>{s}, s)
AMP_COMPAT_SCANF_S(fwscanf_s, wchar_t, std::FILE* f, amp_compat_crt::file_scan<wchar_t>{f}, f)
AMP_COMPAT_SCANF_S(swscanf_s, wchar_t, const wchar_t* s, amp_compat_crt::string_scan<wchar_t>{s}, s)
#undef AMP_COMPAT_SCANF_S
inline int scanf_s(const char* fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  const int r = amp_compat_crt::scanf_s_impl("scanf_s", fmt, ap, amp_compat_crt::file_scan<char>{stdin});
  va_end(ap);
  return r;
}
inline int wscanf_s(const wchar_t* fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  const int r = amp_compat_crt::scanf_s_impl("wscanf_s", fmt, ap, amp_compat_crt::file_scan<wchar_t>{stdin});
  va_end(ap);
  return r;
}

#endif
