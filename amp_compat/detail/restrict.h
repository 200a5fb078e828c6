// restrict(...) and tile_static.
//
// restrict(amp) / restrict(cpu, amp) -> AMP_HD, the device backend's host and
// device attribute (__host__ __device__; the host accelerator runs the same
// kernels), nothing in host builds. restrict(cpu) -> AMP_HOST_ONLY (__host__).
// Clang refuses a __host__ __device__ function that overloads a __host__ one
// with the same signature, so restrict(cpu)/restrict(amp) overload pairs are
// merged by scripts/amp_driver/passes/restrict_pairs.py (migration_guide.md).
#pragma once
#include "config.h"

// A specifier may repeat (`restrict(amp, amp)` means restrict(amp)); up to
// eight entries are told apart from a single one.
#ifdef AMP_EARLY_RESTRICT_PICK // the Windows environment's stand-in (compat/crt_compat.h)
#undef restrict
#endif
#define AMP_RESTRICT_PICK(_1, _2, _3, _4, _5, _6, _7, _8, NAME, ...) NAME
#define restrict(...)                                                                   \
  AMP_RESTRICT_PICK(__VA_ARGS__, AMP_RESTRICT_MANY, AMP_RESTRICT_MANY, AMP_RESTRICT_MANY,   \
                    AMP_RESTRICT_MANY, AMP_RESTRICT_MANY, AMP_RESTRICT_MANY, AMP_RESTRICT_MANY, \
                    AMP_RESTRICT_ONE, )(__VA_ARGS__)
#if AMP_CHECK_PASS && !AMP_HAS_DEVICE_BACKEND
// The check pass (tools/amp_check) reads the restriction from an annotation.
#define AMP_RESTRICT_ONE(a) __attribute__((annotate("amp_restrict:" #a)))
#define AMP_RESTRICT_MANY(...) __attribute__((annotate("amp_restrict:" #__VA_ARGS__)))
#else
#define AMP_RESTRICT_ONE(a) AMP_RESTRICT_KW_##a
#define AMP_RESTRICT_MANY(...) AMP_HD
#endif
#define AMP_RESTRICT_KW_amp AMP_HD
#define AMP_RESTRICT_KW_direct3d AMP_HD
#define AMP_RESTRICT_KW_cpu AMP_HOST_ONLY
#define AMP_RESTRICT_KW_auto AMP_HD

// Visual C++'s <amp.h> spells restrict(amp, cpu) and restrict(amp) __GPU and
// __GPU_ONLY, and the implied restrict(cpu) __CPU_ONLY; code written against
// it uses them (Microsoft's own tests define the same when they come first).
// The launcher's passes read them as the restrictions they stand for. Spelled
// as Visual C++ does, so that a program's own identical #define is no redefinition.
#ifndef __GPU
#define __GPU restrict(amp,cpu)
#endif
#ifndef __GPU_ONLY
#define __GPU_ONLY restrict(amp)
#endif
#ifndef __CPU_ONLY
#define __CPU_ONLY
#endif

// tile_static: on-chip shared memory on the GPU; on the host, per-OS-thread
// static storage. A host tile runs all its work-items on one OS thread (as
// fibers), and tiles on one thread run one after another, so every work-item of
// a tile sees the same object, as AMP requires.
#if AMP_DEVICE_PASS
#define tile_static AMP_TILE_STATIC_DEVICE
#elif AMP_CHECK_PASS
#define tile_static static thread_local __attribute__((annotate("amp_tile_static")))
#else
#define tile_static static thread_local
#endif

namespace Concurrency {
namespace detail {
// Storage of a tile_static variable of class type in GPU compiles: AMP runs no
// constructor or destructor for tile_static variables, and CUDA refuses a
// __shared__ variable whose type has a non-empty constructor, so the compiler
// launcher (scripts/amp_driver/passes/gpu.py) declares such a variable as this union and
// names its member through a reference.
template <class T> union tile_static_storage {
  T value;
  AMP_HD tile_static_storage() {}
  AMP_HD ~tile_static_storage() {}
};
} // namespace detail
} // namespace Concurrency
