// direct3d_abort / direct3d_errorf on the GPU: how a kernel's abort reaches the
// host as runtime_exception with its message (Microsoft's reference: "When the AMP runtime
// detects the call, it raises a runtime_exception with the [formatted] error
// message").
//
// A GPU thread cannot throw, and a trap would end the process's CUDA context.
// So the first aborting thread of a device writes a kernel_abort_record (the
// message, or errorf's format and its arguments) and ends itself ("exit");
// the kernel's other threads run on (AMP leaves an aborted kernel's outputs
// undefined) and the context stays usable. The record lives in page-locked,
// mapped host memory, so the host sees it without a copy: every
// synchronisation of device_cuda.h (a wait, a copy back) reads one word and,
// when it is set, formats the message on the host (snprintf, conversion by
// conversion) and throws. This is the one place a kernel writes host memory,
// through a mapping the GPU supports without HMM, and only on this path.
//
// Kernels find the record through a per-translation-unit __constant__ slot:
// every TU is its own device module, so each registers its slot at static
// initialisation and the host fills the slots of a device before the first
// kernel it launches there (device_cuda.h, prepare_kernel_abort), and again
// when a TU registers later (a dlopen'ed plugin).
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

#if AMP_HAS_CUDA
// The slots of every translation unit, and how many each device has filled.
struct kernel_abort_slots {
  std::mutex m;
  std::vector<const void*> symbols; // host shadows of the per-TU __constant__ slots
  std::atomic<std::size_t> count{0};
  static kernel_abort_slots& get() {
    static auto* s = new kernel_abort_slots; // never destroyed: used at exit
    return *s;
  }
};
inline bool register_abort_slot(const void* symbol) {
  auto& s = kernel_abort_slots::get();
  std::lock_guard<std::mutex> g(s.m);
  s.symbols.push_back(symbol);
  s.count.store(s.symbols.size(), std::memory_order_release);
  return true;
}

namespace {
// This translation unit's slot: its device's channel. The registration is
// seen by both compilation passes: the device pass must see the host use of
// the slot, or Clang keeps the slot's name internal and the host's copy to it
// finds no symbol.
__constant__ kernel_abort_channel* amp_kernel_abort_slot;
[[maybe_unused]] const bool amp_kernel_abort_slot_registered = register_abort_slot(&amp_kernel_abort_slot);
} // namespace

#if AMP_DEVICE_PASS
template <class T> __device__ void abort_arg(kernel_abort_record* r, int a, const T& v) {
  if constexpr (std::is_floating_point<T>::value) {
    r->kind[a] = abort_arg_double;
    r->reals[a] = static_cast<double>(v);
  } else if constexpr (std::is_integral<T>::value || std::is_enum<T>::value) {
    r->kind[a] = std::is_signed<T>::value ? abort_arg_signed : abort_arg_unsigned;
    r->ints[a] = static_cast<long long>(v);
  } else if constexpr (std::is_convertible<T, const char*>::value) {
    const char* s = v;
    r->kind[a] = abort_arg_string;
    int n = 0;
    for (; s && n < kernel_abort_record::string_bytes - 1 && s[n]; ++n) r->strings[a][n] = s[n];
    r->strings[a][n] = '\0';
  } else if constexpr (std::is_pointer<T>::value) {
    r->kind[a] = abort_arg_pointer;
    r->ints[a] = static_cast<long long>(reinterpret_cast<unsigned long long>(v));
  } else {
    r->kind[a] = abort_arg_pointer;
    r->ints[a] = 0;
  }
}
// Writes the record (first aborting thread of the device only) and ends the
// calling thread.
template <class... A> __device__ void abort_kernel(bool formatted, const char* text, const A&... args) {
  kernel_abort_channel* c = amp_kernel_abort_slot;
  if (c && atomicCAS(&c->claim, 0, 1) == 0) {
    kernel_abort_record* r = c->record;
    int n = 0;
    for (; text && n < kernel_abort_record::text_bytes - 1 && text[n]; ++n) r->text[n] = text[n];
    r->text[n] = '\0';
    int a = 0;
    ((a < kernel_abort_record::max_args ? (abort_arg(r, a, args), ++a) : a), ...);
    r->nargs = formatted ? a : -1;
    __threadfence_system();
    r->state = 2;
    __threadfence_system();
  }
  asm volatile("exit;");
  __builtin_unreachable();
}
#endif
#endif

} // namespace detail
} // namespace Concurrency
