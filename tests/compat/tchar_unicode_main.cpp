// A _UNICODE console program in two translation units (this one has
// _tmain): checks the wide mappings and the supplied main(), which converts
// argv from UTF-8. Run by CTest with the arguments "h\u00e9llo" and "42"; it
// prints two lines that the test matches (the second counts failed checks).
#include "tchar_unicode_other.h"

#include <stdio.h>
#include <tchar.h>
#include <type_traits>

static_assert(std::is_same<_TCHAR, wchar_t>::value, "_TCHAR is wchar_t under _UNICODE");

int _tmain(int argc, _TCHAR* argv[]) {
  int failures = 0;
  auto check = [&](bool ok, const char* what) {
    if (!ok) { std::fprintf(stderr, "FAILED: %s\n", what); ++failures; }
  };
  check(argc == 3, "argc");
  check(argc == 3 && _tcscmp(argv[1], _T("h\u00e9llo")) == 0, "argv[1] decoded from UTF-8");
  check(argc == 3 && _ttoi(argv[2]) == 42, "_ttoi(argv[2])");
  check(_tcslen(_T("\u00e9t\u00e9")) == 3, "_tcslen of a wide literal");
  _TCHAR buf[32];
  check(_stprintf_s(buf, _T("%s/%d"), _T("w"), 5) == 3 && _tcscmp(buf, L"w/5") == 0, "_stprintf_s");
  check(other_unit_length(_T("abcd")) == 4, "second translation unit");
  _tprintf(_T("%s|%S|%d|%s\n"), _T("wide"), "narrow", 5, argc == 3 ? argv[1] : _T("?"));
  _tprintf(_T("%d failed checks\n"), failures);
  return failures;
}
