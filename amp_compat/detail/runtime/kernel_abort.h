// direct3d_abort / direct3d_errorf on a GPU: what a kernel's abort leaves for
// the host (the record) and how the host formats it into the message of the
// runtime_exception it raises (Microsoft's reference: "When the AMP runtime
// detects the call, it raises a runtime_exception with the [formatted] error
// message").
//
// A GPU thread cannot throw. So the first aborting thread of a device writes a
// kernel_abort_record (the message, or errorf's format and its arguments)
// where the host can read it, and ends itself; the kernel's other threads run
// on (AMP leaves an aborted kernel's outputs undefined). Every
// synchronisation of the device backend (a wait, a copy back) checks for a
// complete record and, when there is one, formats the message on the host
// (snprintf, conversion by conversion) and throws. Where the record lives and
// how kernels reach it is the device backend's (its kernel_abort.h, e.g.
// backend/gpu/kernel_abort.h for CUDA and HIP); the record's layout and the
// formatting are shared here.
#pragma once
#include "../config.h"

#include <atomic>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <string>
#include <type_traits>
#include <vector>

namespace Concurrency {
namespace detail {

enum abort_arg_kind : int { abort_arg_signed, abort_arg_unsigned, abort_arg_double, abort_arg_string, abort_arg_pointer };

struct kernel_abort_record {
  static constexpr int max_args = 16, text_bytes = 256, string_bytes = 64;
  volatile int state;   // 0: none; 2: complete (written last, after a system fence)
  int nargs;            // -1: `text` is the whole message (direct3d_abort)
  char text[text_bytes]; // errorf's format, truncated to text_bytes - 1
  int kind[max_args];
  long long ints[max_args];
  double reals[max_args];
  char strings[max_args][string_bytes];
};

// What a slot points to: in device memory of its device, so that the first
// aborting thread is chosen by an ordinary device atomic (atomics on mapped
// host memory need PCIe atomics), and that device's record.
struct kernel_abort_channel {
  int claim;
  kernel_abort_record* record;
};

// The formatted message of a complete record (host).
inline std::string format_abort(const kernel_abort_record& r) {
  std::string text(r.text, strnlen(r.text, kernel_abort_record::text_bytes));
  if (r.nargs < 0) return text;
  std::string out;
  int next = 0;
  char buf[512];
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '%') {
      out += text[i];
      continue;
    }
    if (i + 1 < text.size() && text[i + 1] == '%') {
      out += '%';
      ++i;
      continue;
    }
    // %[flags][width][.precision][length]conversion; '*' takes an int argument.
    std::string spec = "%";
    std::size_t j = i + 1;
    bool star_ok = true;
    auto take_int = [&]() -> int { return next < r.nargs ? static_cast<int>(r.ints[next++]) : 0; };
    for (; j < text.size() && std::strchr("-+ #0123456789.*", text[j]); ++j) {
      if (text[j] == '*') {
        if (!star_ok) break;
        spec += std::to_string(take_int());
      } else {
        spec += text[j];
      }
    }
    while (j < text.size() && std::strchr("hlLqjzt", text[j])) ++j; // the value's width is known here
    if (j >= text.size()) {
      out += text.substr(i);
      break;
    }
    const char conv = text[j];
    if (next >= r.nargs) { // fewer arguments than conversions: keep the text
      out += text.substr(i, j + 1 - i);
      i = j;
      continue;
    }
    const int a = next++;
    const int k = r.kind[a];
    if (std::strchr("di", conv)) {
      std::snprintf(buf, sizeof buf, (spec + "lld").c_str(),
                    k == abort_arg_double ? static_cast<long long>(r.reals[a]) : r.ints[a]);
    } else if (std::strchr("ouxXc", conv)) {
      if (conv == 'c') std::snprintf(buf, sizeof buf, (spec + "c").c_str(), static_cast<int>(r.ints[a]));
      else std::snprintf(buf, sizeof buf, (spec + "ll" + conv).c_str(), static_cast<unsigned long long>(r.ints[a]));
    } else if (std::strchr("eEfFgGaA", conv)) {
      std::snprintf(buf, sizeof buf, (spec + conv).c_str(),
                    k == abort_arg_double ? r.reals[a] : static_cast<double>(r.ints[a]));
    } else if (conv == 's') {
      std::snprintf(buf, sizeof buf, (spec + "s").c_str(), k == abort_arg_string ? r.strings[a] : "(not a string)");
    } else if (conv == 'p') {
      std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(r.ints[a]));
    } else { // unknown conversion: as written
      out += text.substr(i, j + 1 - i);
      i = j;
      continue;
    }
    out += buf;
    i = j;
  }
  return out;
}


} // namespace detail
} // namespace Concurrency
