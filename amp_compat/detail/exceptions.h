// AMP exception classes with HRESULT-style error codes (C++ AMP spec, section 8).
#pragma once
#include <exception>
#include <string>

#ifndef _HRESULT_DEFINED
#define _HRESULT_DEFINED
typedef long HRESULT;
#endif

namespace Concurrency {
namespace detail {
constexpr HRESULT e_fail = static_cast<HRESULT>(0x80004005L);
constexpr HRESULT e_invalidarg = static_cast<HRESULT>(0x80070057L);
constexpr HRESULT e_outofmemory = static_cast<HRESULT>(0x8007000EL);
constexpr HRESULT e_notimpl = static_cast<HRESULT>(0x80004001L);
constexpr HRESULT e_unexpected = static_cast<HRESULT>(0x8000FFFFL);
constexpr HRESULT dxgi_device_removed = static_cast<HRESULT>(0x887A0005L);
} // namespace detail

class runtime_exception : public std::exception {
public:
  runtime_exception(const char* message, HRESULT hresult) throw() : msg_(message), hr_(hresult) {}
  explicit runtime_exception(HRESULT hresult) throw() : msg_("runtime_exception"), hr_(hresult) {}
  runtime_exception(const runtime_exception&) = default;
  runtime_exception& operator=(const runtime_exception&) = default;
  ~runtime_exception() throw() override = default;
  const char* what() const throw() override { return msg_.c_str(); }
  HRESULT get_error_code() const throw() { return hr_; }

private:
  std::string msg_;
  HRESULT hr_;
};

class out_of_memory : public runtime_exception {
public:
  explicit out_of_memory(const char* message) throw() : runtime_exception(message, detail::e_outofmemory) {}
  out_of_memory() throw() : runtime_exception("out_of_memory", detail::e_outofmemory) {}
};

class invalid_compute_domain : public runtime_exception {
public:
  explicit invalid_compute_domain(const char* message) throw() : runtime_exception(message, detail::e_invalidarg) {}
  invalid_compute_domain() throw() : runtime_exception("invalid_compute_domain", detail::e_invalidarg) {}
};

class unsupported_feature : public runtime_exception {
public:
  explicit unsupported_feature(const char* message) throw() : runtime_exception(message, detail::e_notimpl) {}
  unsupported_feature() throw() : runtime_exception("unsupported_feature", detail::e_notimpl) {}
};

class accelerator_view_removed : public runtime_exception {
public:
  accelerator_view_removed(const char* message, HRESULT reason) throw()
      : runtime_exception(message, detail::dxgi_device_removed), reason_(reason) {}
  explicit accelerator_view_removed(HRESULT reason) throw()
      : runtime_exception("accelerator_view_removed", detail::dxgi_device_removed), reason_(reason) {}
  HRESULT get_view_removed_reason() const throw() { return reason_; }

private:
  HRESULT reason_;
};

namespace detail {
[[noreturn]] inline void throw_runtime(const std::string& m, HRESULT hr = e_fail) { throw runtime_exception(m.c_str(), hr); }
} // namespace detail
} // namespace Concurrency
