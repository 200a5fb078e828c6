// The one place where the build configuration is decided. Everything else asks
// the names defined here; no other header tests __CUDA_ARCH__ or KOKKOS_ENABLE_*.
#pragma once

#include "foreign_begin.h"
#include <Kokkos_Core.hpp>
#include "foreign_end.h"

#include <cstddef>
#include <cstdint>

// AMP_CHECK_PASS: the restrict(amp) rule check (tools/amp_check), a Clang
// parse of a host build's source that generates no code.
#ifndef AMP_CHECK_PASS
#define AMP_CHECK_PASS 0
#endif

// AMP_HAS_CUDA: the binary contains a CUDA accelerator (GPU build, Clang as the
// CUDA compiler). AMP_DEVICE_PASS: this is Clang's device compilation pass.
#if defined(KOKKOS_ENABLE_CUDA)
#define AMP_HAS_CUDA 1
#else
#define AMP_HAS_CUDA 0
#endif
#if defined(__CUDA_ARCH__)
#define AMP_DEVICE_PASS 1
#else
#define AMP_DEVICE_PASS 0
#endif
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

#if AMP_HAS_CUDA
#define AMP_HD __host__ __device__
#define AMP_HOST_ONLY __host__
#define AMP_TILE_STATIC_DEVICE __shared__
#elif AMP_CHECK_PASS
// The restrict(amp) check pass (tools/amp_check, a Clang plugin run over a
// host build's source): what the library offers to both sides is marked so.
#define AMP_HD __attribute__((annotate("amp_restrict:cpu,amp")))
#define AMP_HOST_ONLY
#else
#define AMP_HD
#define AMP_HOST_ONLY
#endif

// AMP_CHECK_CPU_AMP: what AMP declares restrict(cpu, amp) but amp_compat runs
// in kernels on the host accelerators only; the check pass must accept it.
#if AMP_CHECK_PASS && !AMP_HAS_CUDA
#define AMP_CHECK_CPU_AMP __attribute__((annotate("amp_restrict:cpu,amp")))
#else
#define AMP_CHECK_CPU_AMP
#endif

// Functions usable in kernels and on the host. Always inline: the AMP layer
// must vanish in the generated code (see bench/).
#if AMP_CHECK_PASS && !AMP_HAS_CUDA
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
constexpr bool has_device_memory = AMP_HAS_CUDA;
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
// (Kokkos' Threads backend checks; OpenMP, Serial and CUDA do not), which
// decides who starts Kokkos when the first kernel comes from a worker thread
// (runtime/startup.h).
constexpr bool kokkos_finalize_on_start_thread = AMP_HAS_THREADS && !AMP_HAS_OPENMP;
} // namespace detail
} // namespace Concurrency
