// The test marks of the result log (AMP_RESULT_LOG, runtime/result_log.h): a
// GoogleTest listener that writes "test SUITE.NAME" before each test and
// "end SUITE.NAME passed|failed|skipped" after it, so that each test's kernel
// result lines lie between its two marks and scripts/differential.sh can
// compare a suite's results test by test between accelerators. Used by the
// project's test driver (tests/main.cpp) and linked into programs that bring
// their own main() (tests/corpora/bolt_result_marks.cpp).
#pragma once
#include <detail/runtime/result_log.h>

#include <gtest/gtest.h>

#include <string>

namespace amp_test {

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

// Appends the marks to GoogleTest's listeners when AMP_RESULT_LOG names a log
// (nothing otherwise). Valid before or after InitGoogleTest: the listener list
// belongs to the UnitTest singleton, which InitGoogleTest does not reset.
inline void append_result_log_marks() {
  if (Concurrency::detail::result_log::on())
    ::testing::UnitTest::GetInstance()->listeners().Append(new result_log_marks);
}

} // namespace amp_test
