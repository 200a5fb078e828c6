// The dispatch of the restrict(cpu, amp) function that scripts/amp_driver/passes/restrict_pairs.py
// makes of a restrict(cpu)/restrict(amp) overload pair: GPU code calls the amp
// version; host code calls it inside kernels (host accelerators) and the cpu
// version elsewhere. The cpu call is not even named in the device pass, so a
// __host__-only cpu version is never referenced from device code.
// AMP_RESTRICT_IN_AMP: the same choice as an expression, for the constructor
// the rewrite merges from a restrict(cpu)/restrict(amp) constructor pair (its
// device pass compiles the amp constructor alone).
// In the restrict(amp) check pass (tools/amp_check) both name
// amp_check_pair(), which tells the checker that the function is such a
// generated dispatcher: its body calls a cpu and an amp function on purpose.
// Free of Kokkos and of the backend's configuration (it reads the compiler's
// own device-pass macros), so that the Windows environment's restrict keyword
// (compat/crt_compat.h) serves files that include no AMP header too.
#pragma once

#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)
#define AMP_RESTRICT_IN_AMP true
#define AMP_RESTRICT_PAIR(cpu_call, amp_call) return amp_call;
#else
namespace Concurrency {
namespace detail {
namespace target {
// True on a host thread while it runs a kernel's work-items (set by the host
// launchers through target.h's amp_context_scope).
inline thread_local bool host_in_kernel = false;
#if defined(AMP_CHECK_PASS) && AMP_CHECK_PASS
inline bool amp_check_pair() __attribute__((annotate("amp_restrict:cpu,amp"))) { return true; }
#endif
} // namespace target
} // namespace detail
} // namespace Concurrency
#if defined(AMP_CHECK_PASS) && AMP_CHECK_PASS
#define AMP_RESTRICT_IN_AMP                                                                          \
  (::Concurrency::detail::target::amp_check_pair(), ::Concurrency::detail::target::host_in_kernel)
#define AMP_RESTRICT_PAIR(cpu_call, amp_call)                                                        \
  ::Concurrency::detail::target::amp_check_pair();                                                  \
  if (::Concurrency::detail::target::host_in_kernel) return amp_call;                               \
  return cpu_call;
#else
#define AMP_RESTRICT_IN_AMP (::Concurrency::detail::target::host_in_kernel)
#define AMP_RESTRICT_PAIR(cpu_call, amp_call)                                                        \
  if (::Concurrency::detail::target::host_in_kernel) return amp_call;                               \
  return cpu_call;
#endif
#endif
