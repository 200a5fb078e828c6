// std::wcout / std::wcerr / std::wclog as a Windows console program sees them
// (private; installed by crt_compat.h).
//
// glibc gives each FILE one orientation: once std::cout or printf has written
// to stdout, every wide write to it fails silently, so the usual legacy mix of
// `std::cout << ...` and `std::wcout << L"..."` would lose the wide half. The
// companions replace the wide streams' buffers with unbuffered ones that
// encode wide text as UTF-8 and pass it to the matching narrow stream's buffer
// (wcout -> cout, wcerr -> cerr, wclog -> clog), looked up on every write: the
// output interleaves with cout and printf in program order, follows a
// redirected std::cout.rdbuf(), and flushing wcout flushes cout. Formatting
// (std::fixed, setw, the stream's locale) is unchanged. std::wcin is not
// touched.
#ifndef AMP_COMPAT_COMPAT_DETAIL_WIDE_STREAMS_H
#define AMP_COMPAT_COMPAT_DETAIL_WIDE_STREAMS_H

#include <iostream>
#include <streambuf>
#include <string>

#include "utf8.h"

namespace amp_compat_crt {

class utf8_forwarding_wbuf : public std::wstreambuf {
public:
  explicit utf8_forwarding_wbuf(std::ostream& narrow) : narrow_(&narrow) {}

protected:
  int_type overflow(int_type c) override {
    if (traits_type::eq_int_type(c, traits_type::eof())) return traits_type::not_eof(c);
    const wchar_t w = traits_type::to_char_type(c);
    return xsputn(&w, 1) == 1 ? c : traits_type::eof();
  }
  std::streamsize xsputn(const wchar_t* s, std::streamsize n) override {
    std::string bytes;
    append_utf8(bytes, s, static_cast<std::size_t>(n));
    std::streambuf* out = narrow_->rdbuf();
    if (!out) return 0;
    const std::streamsize len = static_cast<std::streamsize>(bytes.size());
    return out->sputn(bytes.data(), len) == len ? n : 0;
  }
  int sync() override {
    std::streambuf* out = narrow_->rdbuf();
    return out ? out->pubsync() : 0;
  }

private:
  std::ostream* narrow_;
};

// Installs the buffers once per program; the return value only lets an inline
// variable call it during static initialisation.
inline bool install_wide_streams() {
  static std::ios_base::Init streams_constructed;  // std::wcout exists from here on
  // Never destroyed: the streams are flushed at exit after static objects go.
  std::wcout.rdbuf(new utf8_forwarding_wbuf(std::cout));
  std::wcerr.rdbuf(new utf8_forwarding_wbuf(std::cerr));
  std::wclog.rdbuf(new utf8_forwarding_wbuf(std::clog));
  return true;
}

inline const bool wide_streams_installed = install_wide_streams();

}  // namespace amp_compat_crt

#endif
