// Test driver: initialises GoogleTest only; the AMP runtime starts Kokkos
// itself on first use (and finalises it at exit).
#include <amp.h>

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <string>

namespace {
// AMP_RESULT_LOG (runtime/result_log.h): each test's kernels' result hashes
// appear between a `test` line and an `end` line with the outcome, so that
// scripts/differential.sh can compare the suite's results test by test
// between accelerators.
class result_log_marks : public ::testing::EmptyTestEventListener {
  void OnTestStart(const ::testing::TestInfo& t) override {
    Concurrency::detail::result_log::line(("test " + std::string(t.test_suite_name()) + "." + t.name()).c_str());
  }
  void OnTestEnd(const ::testing::TestInfo& t) override {
    const ::testing::TestResult* r = t.result();
    const char* outcome = r->Skipped() ? "skipped" : r->Failed() ? "failed" : "passed";
    Concurrency::detail::result_log::line(
        ("end " + std::string(t.test_suite_name()) + "." + t.name() + " " + outcome).c_str());
  }
};
} // namespace

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  if (Concurrency::detail::result_log::on())
    ::testing::UnitTest::GetInstance()->listeners().Append(new result_log_marks);
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
