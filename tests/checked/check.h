// check(name, f): runs f and prints `name: no report` or the checked
// build's report (the runtime_exception's text), one line per case, for
// run.sh to compare with the expected reports.
#pragma once
#include <amp.h>

#include <cstdio>

template <class F> void check(const char* name, F f) {
  try {
    f();
    std::printf("%s: no report\n", name);
  } catch (const concurrency::runtime_exception& e) {
    std::printf("%s: %s\n", name, e.what());
  }
}
