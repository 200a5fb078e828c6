// amp_compat/compat/detail/wmain_entry.h -- the entry point of a program
// whose main function is wmain (Visual Studio starts such a program through
// wmainCRTStartup, in narrow and Unicode projects alike).
//
// Included by <tchar.h> under _UNICODE (where _tmain is wmain), and
// force-included by the compiler launcher (scripts/amp_driver/passes/windows.py) into a
// --windows-compat source that defines wmain itself. Contract: main() is
// supplied as a weak definition (one per program whatever the number of
// translation units; a program's own main wins) that converts argv from UTF-8
// and calls wmain(argc, argv), or wmain() when only that form exists; wmain
// is declared weak so that a program without one still links (and says so at
// run time). Not force-included elsewhere: a weak main in every program would
// keep the linker from taking main from a library (GoogleTest's gtest_main).
#ifndef AMP_COMPAT_COMPAT_DETAIL_WMAIN_ENTRY_H
#define AMP_COMPAT_COMPAT_DETAIL_WMAIN_ENTRY_H

#include <cstdio>
#include <string>
#include <vector>

#include "utf8.h"

int wmain(int argc, wchar_t* argv[]) __attribute__((weak));
int wmain() __attribute__((weak));  // int _tmain(void)
extern "C++" __attribute__((weak)) int main(int argc, char* argv[]) {
  int (*with_args)(int, wchar_t**) = &wmain;
  int (*without_args)() = &wmain;
  if (!with_args && !without_args) {
    std::fputs("amp_compat: _UNICODE program without _tmain/wmain/main\n", stderr);
    return 1;
  }
  if (!with_args) return without_args();
  std::vector<std::wstring> args;
  for (int i = 0; i < argc; ++i) args.push_back(::amp_compat_crt::from_utf8(argv[i]));
  std::vector<wchar_t*> ptrs;
  for (auto& a : args) ptrs.push_back(&a[0]);
  ptrs.push_back(nullptr);
  return with_args(argc, ptrs.data());
}

#endif
