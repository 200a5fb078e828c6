// PPL/ConcRT exception types (private; <concrt.h> and <ppl.h> include it).
// MSVC's classes in namespace Concurrency, derived from std::exception with a
// message; the PPL layer throws them where MSVC does.
#ifndef AMP_COMPAT_COMPAT_DETAIL_PPL_EXCEPTIONS_H
#define AMP_COMPAT_COMPAT_DETAIL_PPL_EXCEPTIONS_H

#include <exception>
#include <string>

namespace Concurrency {

#define AMP_COMPAT_PPL_EXCEPTION(NAME, DEFAULT_MESSAGE)                   \
  class NAME : public std::exception {                                    \
  public:                                                                 \
    NAME() noexcept : msg_(DEFAULT_MESSAGE) {}                            \
    explicit NAME(const char* message) noexcept : msg_(message) {}        \
    const char* what() const noexcept override { return msg_.c_str(); }   \
                                                                          \
  private:                                                                \
    std::string msg_;                                                     \
  };
AMP_COMPAT_PPL_EXCEPTION(task_canceled, "the task was canceled")
AMP_COMPAT_PPL_EXCEPTION(invalid_operation, "invalid operation")
AMP_COMPAT_PPL_EXCEPTION(improper_lock, "the lock is already held by this context")
AMP_COMPAT_PPL_EXCEPTION(missing_wait, "a task_group was destroyed with tasks that were never waited for")
AMP_COMPAT_PPL_EXCEPTION(invalid_multiple_scheduling, "a task_handle was scheduled more than once")
#undef AMP_COMPAT_PPL_EXCEPTION

}  // namespace Concurrency
namespace concurrency = Concurrency;

#endif
