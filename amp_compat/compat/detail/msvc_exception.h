// amp_compat/compat/detail/msvc_exception.h -- MSVC's std::exception with a
// message, for --windows-compat (included by crt_compat.h).
//
// Why: MSVC's <exception> gives std::exception the constructors
// exception(const char*) and exception(const char*, int), and what() returns
// that message ("Unknown exception" when there is none). Visual Studio
// programs throw it directly (`throw std::exception("bad size");`) or pass a
// message to it from a derived class. libstdc++'s std::exception has neither,
// and its layout cannot change (it is shared with the compiled library). So
// the compiler launcher (scripts/amp_driver/passes/windows.py, exception_edits) makes
// those constructions, and base specifiers naming std::exception, in copies
// of the project's own files name amp_compat_crt::msvc_exception instead.
//
// Contract: msvc_exception IS-A std::exception (catch (std::exception&) and
// catch (const std::exception&) catch it; a class derived from it is one
// too). what() returns a copy of the message given to the constructor, or
// "Unknown exception" (MSVC's text) when it was default-constructed or given
// a null pointer. Copies share the message (copying never throws, as an
// exception's copy must not). The (const char*, int) form is MSVC's
// "do not copy" form; here it copies as well, which is observably the same.
#ifndef AMP_COMPAT_COMPAT_DETAIL_MSVC_EXCEPTION_H
#define AMP_COMPAT_COMPAT_DETAIL_MSVC_EXCEPTION_H

#include <exception>
#include <memory>
#include <string>

namespace amp_compat_crt {

class msvc_exception : public std::exception {
 public:
  msvc_exception() noexcept = default;
  explicit msvc_exception(const char* const& message) : msg_(make(message)) {}
  msvc_exception(const char* const& message, int) : msg_(make(message)) {}
  const char* what() const noexcept override { return msg_ ? msg_->c_str() : "Unknown exception"; }

 private:
  static std::shared_ptr<const std::string> make(const char* message) {
    return message ? std::make_shared<const std::string>(message) : nullptr;
  }
  std::shared_ptr<const std::string> msg_;
};

}  // namespace amp_compat_crt

#endif
