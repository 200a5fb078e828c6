// The one place where the build configuration is decided. Everything else asks
// the names defined here (the device backend: backend/select.h); no other
// header tests a compiler's device-pass macro or KOKKOS_ENABLE_*.
#pragma once

#include "foreign_begin.h"
// HIP's runtime headers, which Kokkos' HIP backend includes, declare a global
// class template `texture` (HIP's legacy texture references): under `using
// namespace concurrency::graphics` every unqualified `texture<T, N>` of AMP
// code would be ambiguous. The name is set aside while Kokkos (and so HIP's
// headers, the first time) is read; no other header it reaches names
// `texture`. A program that includes HIP's headers before <amp.h> must
// qualify AMP's texture (concurrency::graphics::texture).
#pragma push_macro("texture")
#define texture amp_foreign_texture_reference
#include <Kokkos_Core.hpp>
#pragma pop_macro("texture")
#include "foreign_end.h"

#include <cstddef>
#include <cstdint>

// AMP_CHECK_PASS: the restrict(amp) rule check (tools/amp_check), a Clang
// parse of a host build's source that generates no code.
#ifndef AMP_CHECK_PASS
#define AMP_CHECK_PASS 0
#endif

// The device backend (backend/select.h, the one place that names one):
// AMP_HAS_DEVICE_BACKEND says whether the binary contains GPU accelerators;
// the backend's config file defines AMP_DEVICE_PASS (this is the device
// compilation pass) and AMP_HD / AMP_HOST_ONLY / AMP_DEVICE_ONLY /
// AMP_TILE_STATIC_DEVICE (backend/backend.h).
#include "backend/device_config.h"
#if defined(KOKKOS_ENABLE_OPENMP)
#define AMP_HAS_OPENMP 1
#else
#define AMP_HAS_OPENMP 0
#endif
#if defined(KOKKOS_ENABLE_THREADS)
#define AMP_HAS_THREADS 1
#else
#define AMP_HAS_THREADS 0
#endif
#if defined(KOKKOS_ENABLE_SERIAL)
#define AMP_HAS_SERIAL 1
#else
#define AMP_HAS_SERIAL 0
#endif

// AMP_CHECK_CPU_AMP: what AMP declares restrict(cpu, amp) but amp_compat runs
// in kernels on the host accelerators only; the check pass must accept it.
#if AMP_CHECK_PASS && !AMP_HAS_DEVICE_BACKEND
#define AMP_CHECK_CPU_AMP __attribute__((annotate("amp_restrict:cpu,amp")))
#else
#define AMP_CHECK_CPU_AMP
#endif

// Functions usable in kernels and on the host. Always inline: the AMP layer
// must vanish in the generated code (see bench/).
#if AMP_CHECK_PASS && !AMP_HAS_DEVICE_BACKEND
#define AMP_FN KOKKOS_FORCEINLINE_FUNCTION AMP_HD
#else
#define AMP_FN KOKKOS_FORCEINLINE_FUNCTION
#endif

// AMP_MS_EXTENSIONS: the compiler has Microsoft's extensions (--msvc, Clang's
// -fms-extensions: __declspec(property), __uuidof ...). amp_compat then also
// offers what MSVC code reaches through them or through MSVC's permissive
// language rules (array's properties, array_view of a temporary array).
#if defined(__has_declspec_attribute)
#if __has_declspec_attribute(property)
#define AMP_MS_EXTENSIONS 1
#endif
#endif

namespace Concurrency {
namespace detail {
// True when this build has a device whose memory the host cannot dereference.
constexpr bool has_device_memory = AMP_HAS_DEVICE_BACKEND;
// True while compiling code that will run on the GPU.
constexpr bool device_pass = AMP_DEVICE_PASS;
// The host multicore execution space behind direct3d\warp: OpenMP or Threads
// (a Kokkos build has at most one of them).
#if AMP_HAS_OPENMP
using host_parallel_space = Kokkos::OpenMP;
#elif AMP_HAS_THREADS
using host_parallel_space = Kokkos::Threads;
#endif
// Whether Kokkos must be finalized by the very thread that initialized it
// (Kokkos' Threads backend checks; OpenMP, Serial and the GPU backends do
// not), which
// decides who starts Kokkos when the first kernel comes from a worker thread
// (runtime/startup.h).
constexpr bool kokkos_finalize_on_start_thread = AMP_HAS_THREADS && !AMP_HAS_OPENMP;
} // namespace detail
} // namespace Concurrency
