// Kernel names for Kokkos Tools (kp_kernel_timer, the NVTX connector, any
// KOKKOS_TOOLS_LIBS library): "amp::parallel_for_each[<model>] <kernel type>",
// where <kernel type> is the demangled type of the user's closure or functor
// (for a lambda GCC writes e.g. "main()::{lambda(Concurrency::index<1>)#1}",
// Clang "main()::$_0": both name the enclosing function). The string is made
// once per kernel type and model and reused by every launch.
//
// Portable and native host launches pass the name to Kokkos::parallel_for;
// native GPU launches (amp_compat's own __global__ kernels) report themselves
// through tools_kernel, so a tool sees every AMP kernel, whichever path ran it.
#pragma once
#include "config.h"

#include <cxxabi.h>

#include <cstdlib>
#include <string>
#include <typeinfo>

namespace Concurrency {
namespace detail {

inline std::string demangled(const char* mangled) {
  int status = 0;
  char* d = abi::__cxa_demangle(mangled, nullptr, nullptr, &status);
  std::string s = (status == 0 && d) ? d : mangled;
  std::free(d);
  return s;
}

template <class F> struct kernel_name {
  // model: "simple" or "tiled".
  AMP_HOST_ONLY static const std::string& get(const char* model) {
    static const std::string simple = make("simple");
    static const std::string tiled = make("tiled");
    return model[0] == 't' ? tiled : simple;
  }

private:
  AMP_HOST_ONLY static std::string make(const char* model) {
    return std::string("amp::parallel_for_each[") + model + "] " + demangled(typeid(F).name());
  }
};

// Brackets a launch that does not go through Kokkos::parallel_for with the
// begin/end parallel_for events Kokkos sends for its own; free when no tool is
// loaded.
struct tools_kernel {
  std::uint64_t id = 0;
  bool on;
  template <class Exec> AMP_HOST_ONLY tools_kernel(const std::string& name, const Exec& space)
      : on(Kokkos::Tools::profileLibraryLoaded()) {
    if (on) Kokkos::Tools::beginParallelFor(name, Kokkos::Tools::Experimental::device_id(space), &id);
  }
  AMP_HOST_ONLY ~tools_kernel() {
    if (on) Kokkos::Tools::endParallelFor(id);
  }
  tools_kernel(const tools_kernel&) = delete;
  tools_kernel& operator=(const tools_kernel&) = delete;
};

} // namespace detail
} // namespace Concurrency
