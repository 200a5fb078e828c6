// Shared GPU implementation (backend.h, "The shared GPU implementation"): the
// abort channel of direct3d_abort / direct3d_errorf
// (../../runtime/kernel_abort.h has the record and the host's formatting).
// Included by a GPU backend's kernel_abort.h after its api.h.
//
// The aborting thread records the abort and ends itself
// (gpu_api::end_thread: how, and what else ends with it, is the vendor's), so
// the device stays usable (a trap would not keep it so). The record lives in
// page-locked, mapped host memory, so the host sees it without a copy: every
// synchronisation of device.h (a wait, a copy back) reads one word. This is
// the one place a kernel writes host memory, through a mapping the GPU
// supports without HMM, and only on this path.
//
// Kernels find the record through a per-translation-unit __constant__ slot:
// every TU is its own device module, so each registers its slot at static
// initialisation and the host fills the slots of a device before the first
// kernel it launches there (device.h, kernel_aborts::prepare), and again when
// a TU registers later (a dlopen'ed plugin).
#pragma once
#include "vendor_api.h"
#include "../../runtime/kernel_abort.h"

namespace Concurrency {
namespace detail {

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
  gpu_api::end_thread();
}
#endif

} // namespace detail
} // namespace Concurrency
