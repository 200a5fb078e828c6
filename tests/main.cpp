// Test driver: initialises GoogleTest only; the AMP runtime starts Kokkos
// itself on first use (and finalises it at exit).
#include <amp.h>

#include <gtest/gtest.h>

#include "result_log_marks.h"

#include <cstdio>
#include <cstdlib>
#include <string>

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  // AMP_RESULT_LOG: each test's kernel results between its marks.
  amp_test::append_result_log_marks();
  // The GPU run (AMP_DEFAULT_ACCELERATOR=cuda) on a machine where the GPU
  // cannot be used: exit with status 2, which CTest reports as skipped
  // (SKIP_RETURN_CODE of amp_tests.cuda). The runtime itself exits with 2 when
  // the variable names no accelerator of the build.
  if (const char* env = std::getenv("AMP_DEFAULT_ACCELERATOR")) {
    const std::string e = env;
    if (e == "gpu" || e.rfind("cuda", 0) == 0 || e.rfind("hip", 0) == 0) {
      try {
        (void)Concurrency::accelerator::get_all();
      } catch (const std::exception& ex) {
        std::fprintf(stderr, "amp_tests: no usable GPU (%s); not running the GPU tests\n", ex.what());
        return 2;
      }
    }
  }
  return RUN_ALL_TESTS();
}
