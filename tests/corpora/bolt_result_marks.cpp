// Linked into each of Bolt's test programs by bolt.sh (the corpus is not
// edited): Bolt's programs have their own main(), which calls InitGoogleTest
// and RUN_ALL_TESTS and nothing of the result log. This object's static
// initializer appends the result log's test marks (tests/result_log_marks.h)
// to GoogleTest's listeners when AMP_RESULT_LOG is set, before main() runs,
// so a program's log has each test's kernel results between "test NAME" and
// "end NAME passed|failed|skipped", as the project's own test driver writes
// them (scripts/differential.sh compares such logs test by test). GoogleTest's
// filters and shards apply as usual: only the tests run are marked. Without
// AMP_RESULT_LOG nothing is appended.
#include "../result_log_marks.h"

namespace {
const bool marks_appended = (amp_test::append_result_log_marks(), true);
} // namespace
