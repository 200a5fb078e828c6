// HIP backend (AMD GPUs, ROCm): the vendor layer under the shared GPU
// implementation (../gpu/, backend.h "The shared GPU implementation").
// Namespace gpu_api gives the HIP runtime's types and calls the vendor-neutral
// names ../gpu/ uses (../gpu/vendor_api.h lists them; cuda/api.h is the same
// list), each a thin inline function over the HIP call that mirrors the CUDA
// one (HIP's runtime API is CUDA's under other names), and states the few
// facts in which HIP differs from CUDA. Every HIP runtime name the backend
// uses is in this folder; ../gpu/ calls only these.
//
// Compiled (hipcc, ROCm 5.2.3, gfx90a), never run: no AMD GPU was available
// where this was written (README.md, "AMD GPUs (HIP)").
#pragma once
#include "../../config.h"

#include <cstddef>

#include <hip/hip_runtime.h>

// This build's GPU vendor layer is included (../gpu/ checks it).
#define AMP_GPU_API 1

// The launch-bounds attribute of a kernel, from a bounds type B: only
// B::threads, the most threads of a block. HIP's second argument is a number
// of wavefronts per execution unit, not CUDA's blocks per SM (B::min_blocks),
// so CUDA's occupancy hints do not carry over. (HIP's __launch_bounds__ counts
// its macro arguments: the argument goes in parentheses.)
#define AMP_GPU_LAUNCH_BOUNDS(...) __launch_bounds__((__VA_ARGS__::threads))

namespace Concurrency {
namespace detail {
namespace gpu_api {

// ---- names the user sees
inline constexpr const char* runtime_name = "HIP";   // "HIP error in ...", "HIP device 0"
inline constexpr const char* short_name = "hip";     // AMP_DEFAULT_ACCELERATOR=hip: the Kokkos device
inline constexpr const wchar_t* path_prefix = L"hip"; // accelerator paths hip0, hip1, ...

// ---- Kokkos on this backend
// Kokkos' HIP execution space: Kokkos::HIP from Kokkos 4, Experimental in 3.x.
#if KOKKOS_VERSION >= 40000
using kokkos_space = Kokkos::HIP;
#else
using kokkos_space = Kokkos::Experimental::HIP;
#endif
// The device of Kokkos' default HIP instance (its stream: below).
inline int kokkos_instance_device() { return kokkos_space().hip_device(); }

// ---- errors
using error_t = hipError_t;
inline constexpr error_t success = hipSuccess;
inline constexpr error_t error_out_of_memory = hipErrorOutOfMemory;
inline constexpr error_t error_peer_access_already_enabled = hipErrorPeerAccessAlreadyEnabled;
inline error_t get_last_error() { return hipGetLastError(); } // and clears a non-sticky one
inline const char* error_name(error_t e) { return hipGetErrorName(e); }
inline const char* error_string(error_t e) { return hipGetErrorString(e); }

// ---- streams and events
using stream_t = hipStream_t;
using event_t = hipEvent_t;
// The stream of the default view of the device Kokkos runs on: the null
// stream, which HIP orders with every blocking stream, among them the stream
// of Kokkos 4's default HIP instance, so amp_compat's work there stays ordered
// with Kokkos kernels without asking Kokkos (which may start later). Every
// other view's stream is non-blocking, or the null stream would serialise
// with it.
inline constexpr stream_t default_stream = nullptr;
inline stream_t kokkos_instance_stream() { return kokkos_space().hip_stream(); }
inline error_t stream_create_non_blocking(stream_t* s) { return hipStreamCreateWithFlags(s, hipStreamNonBlocking); }
inline error_t stream_destroy(stream_t s) { return hipStreamDestroy(s); }
inline error_t stream_synchronize(stream_t s) { return hipStreamSynchronize(s); }
inline error_t stream_wait_event(stream_t s, event_t e) { return hipStreamWaitEvent(s, e, 0); }
inline error_t event_create_no_timing(event_t* e) { return hipEventCreateWithFlags(e, hipEventDisableTiming); }
inline error_t event_destroy(event_t e) { return hipEventDestroy(e); }
inline error_t event_record(event_t e, stream_t s) { return hipEventRecord(e, s); }
inline error_t event_synchronize(event_t e) { return hipEventSynchronize(e); }

// ---- devices
using device_prop_t = hipDeviceProp_t; // .name, .totalGlobalMem, .pciBusID
inline error_t get_device(int* d) { return hipGetDevice(d); }
inline error_t set_device(int d) { return hipSetDevice(d); }
inline error_t get_device_count(int* n) { return hipGetDeviceCount(n); }
inline error_t get_device_properties(device_prop_t* p, int d) { return hipGetDeviceProperties(p, d); }
inline error_t device_synchronize() { return hipDeviceSynchronize(); }
inline error_t device_can_access_peer(int* can, int from, int to) { return hipDeviceCanAccessPeer(can, from, to); }
inline error_t device_enable_peer_access(int to) { return hipDeviceEnablePeerAccess(to, 0); }
// The limit on gridDim.y and gridDim.z: CUDA's, kept (AMD's is higher), so
// the launcher chooses the same grid shapes as on CUDA.
inline constexpr unsigned max_grid_yz = 65535;

// ---- memory
inline error_t malloc(void** p, std::size_t n) { return hipMalloc(p, n); }
inline error_t free(void* p) { return hipFree(p); }
inline error_t memset(void* p, int v, std::size_t n) { return hipMemset(p, v, n); }
inline error_t memset_async(void* p, int v, std::size_t n, stream_t s) { return hipMemsetAsync(p, v, n, s); }
inline error_t malloc_async(void** p, std::size_t n, stream_t s) { return hipMallocAsync(p, n, s); }
inline error_t free_async(void* p, stream_t s) { return hipFreeAsync(p, s); }
// Page-locked host memory mapped into every device's address space.
inline error_t host_alloc_mapped(void** p, std::size_t n) {
  return hipHostMalloc(p, n, hipHostMallocMapped | hipHostMallocPortable);
}
inline error_t host_get_device_pointer(void** d, void* h) { return hipHostGetDevicePointer(d, h, 0); }
using memcpy_kind = hipMemcpyKind;
inline constexpr memcpy_kind host_to_device = hipMemcpyHostToDevice;
inline constexpr memcpy_kind device_to_host = hipMemcpyDeviceToHost;
inline constexpr memcpy_kind device_to_device = hipMemcpyDeviceToDevice;
inline error_t memcpy(void* d, const void* s, std::size_t n, memcpy_kind k) { return hipMemcpy(d, s, n, k); }
// From pageable memory HIP, as CUDA, stages (or completes) the copy before
// returning, so the source may change right after
// (device_memory::to_device_queued relies on it).
inline error_t memcpy_async(void* d, const void* s, std::size_t n, memcpy_kind k, stream_t st) {
  return hipMemcpyAsync(d, s, n, k, st);
}
inline error_t memcpy_peer_async(void* d, int dd, const void* s, int sd, std::size_t n, stream_t st) {
  return hipMemcpyPeerAsync(d, dd, s, sd, n, st);
}
// symbol: the host shadow of a __constant__ or __device__ variable.
inline error_t memcpy_to_symbol(const void* symbol, const void* src, std::size_t n) {
  return hipMemcpyToSymbol(symbol, src, n);
}

// The runtime calls as error messages name them ("HIP error in hipMalloc
// (array or array_view storage): ...").
namespace call_name {
inline constexpr const char* set_device = "hipSetDevice";
inline constexpr const char* host_alloc_mapped = "hipHostMalloc";
inline constexpr const char* host_get_device_pointer = "hipHostGetDevicePointer";
inline constexpr const char* malloc = "hipMalloc";
inline constexpr const char* memset = "hipMemset";
inline constexpr const char* memset_async = "hipMemsetAsync";
inline constexpr const char* malloc_async = "hipMallocAsync";
inline constexpr const char* stream_create = "hipStreamCreate";
inline constexpr const char* stream_wait_event = "hipStreamWaitEvent";
inline constexpr const char* event_create = "hipEventCreate";
inline constexpr const char* event_record = "hipEventRecord";
inline constexpr const char* device_enable_peer_access = "hipDeviceEnablePeerAccess";
} // namespace call_name

#if AMP_DEVICE_PASS
// Ends the calling GPU thread (direct3d_abort, ../gpu/kernel_abort.h). An AMD
// GPU cannot end one thread of a wavefront: the aborting thread ends its
// wavefront (s_endpgm); the workgroup's other wavefronts run on, and a
// barrier no longer waits for an ended wavefront (the hardware's barrier
// counts live wavefronts; not observed here, as no AMD GPU was available).
// AMP leaves an aborted kernel's outputs undefined, so no result is lost that
// AMP promises; the device stays usable (a trap would not keep it so).
[[noreturn]] __device__ inline void end_thread() {
  __builtin_amdgcn_endpgm();
  __builtin_unreachable();
}
#endif

} // namespace gpu_api
} // namespace detail
} // namespace Concurrency
