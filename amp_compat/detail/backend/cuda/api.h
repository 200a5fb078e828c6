// CUDA backend: the vendor layer under the shared GPU implementation (../gpu/,
// backend.h "The shared GPU implementation"). Namespace gpu_api gives the CUDA
// runtime's types and calls the vendor-neutral names ../gpu/ uses
// (../gpu/vendor_api.h lists them; hip/api.h is the same list over the HIP
// runtime), each a thin inline function that makes exactly the call the CUDA
// backend made before the implementation was shared, and states the few facts
// in which CUDA differs from HIP. Every CUDA runtime name the backend uses is
// in this folder; ../gpu/ calls only these.
#pragma once
#include "../../config.h"

#include <cstddef>

#include <cuda_runtime.h>

// This build's GPU vendor layer is included (../gpu/ checks it).
#define AMP_GPU_API 1

// The launch-bounds attribute of a kernel, from a bounds type B:
// B::threads, the most threads of a block, and B::min_blocks, the blocks that
// should be resident per SM at least (register budget; tiled.h says how it
// was chosen). A macro because the attribute is one: HIP's takes other
// arguments (hip/api.h).
#define AMP_GPU_LAUNCH_BOUNDS(...) __launch_bounds__(__VA_ARGS__::threads, __VA_ARGS__::min_blocks)

namespace Concurrency {
namespace detail {
namespace gpu_api {

// ---- names the user sees
inline constexpr const char* runtime_name = "CUDA";   // "CUDA error in ...", "CUDA device 0"
inline constexpr const char* short_name = "cuda";     // AMP_DEFAULT_ACCELERATOR=cuda: the Kokkos device
inline constexpr const wchar_t* path_prefix = L"cuda"; // accelerator paths cuda0, cuda1, ...

// ---- Kokkos on this backend
using kokkos_space = Kokkos::Cuda;
// The device of Kokkos' default Cuda instance (its stream: below).
inline int kokkos_instance_device() { return Kokkos::Cuda().cuda_device(); }

// ---- errors
using error_t = cudaError_t;
inline constexpr error_t success = cudaSuccess;
inline constexpr error_t error_out_of_memory = cudaErrorMemoryAllocation;
inline constexpr error_t error_peer_access_already_enabled = cudaErrorPeerAccessAlreadyEnabled;
inline error_t get_last_error() { return cudaGetLastError(); } // and clears a non-sticky one
inline const char* error_name(error_t e) { return cudaGetErrorName(e); }
inline const char* error_string(error_t e) { return cudaGetErrorString(e); }

// ---- streams and events
using stream_t = cudaStream_t;
using event_t = cudaEvent_t;
// The stream of the default view of the device Kokkos runs on: the null
// handle, which CUDA takes as its legacy default stream. That is the stream of
// Kokkos 3.4's default execution space instance, and it is implicitly ordered
// with Kokkos 4's default instance (a blocking stream), so amp_compat's work
// there stays ordered with Kokkos kernels without asking Kokkos (which may
// start later). Every other view's stream is non-blocking, or the legacy
// stream would serialise with it.
inline constexpr stream_t default_stream = nullptr;
inline stream_t kokkos_instance_stream() { return Kokkos::Cuda().cuda_stream(); }
inline error_t stream_create_non_blocking(stream_t* s) { return cudaStreamCreateWithFlags(s, cudaStreamNonBlocking); }
inline error_t stream_destroy(stream_t s) { return cudaStreamDestroy(s); }
inline error_t stream_synchronize(stream_t s) { return cudaStreamSynchronize(s); }
inline error_t stream_wait_event(stream_t s, event_t e) { return cudaStreamWaitEvent(s, e, 0); }
inline error_t event_create_no_timing(event_t* e) { return cudaEventCreateWithFlags(e, cudaEventDisableTiming); }
inline error_t event_destroy(event_t e) { return cudaEventDestroy(e); }
inline error_t event_record(event_t e, stream_t s) { return cudaEventRecord(e, s); }
inline error_t event_synchronize(event_t e) { return cudaEventSynchronize(e); }

// ---- devices
using device_prop_t = cudaDeviceProp; // .name, .totalGlobalMem, .pciBusID
inline error_t get_device(int* d) { return cudaGetDevice(d); }
inline error_t set_device(int d) { return cudaSetDevice(d); }
inline error_t get_device_count(int* n) { return cudaGetDeviceCount(n); }
inline error_t get_device_properties(device_prop_t* p, int d) { return cudaGetDeviceProperties(p, d); }
inline error_t device_synchronize() { return cudaDeviceSynchronize(); }
inline error_t device_can_access_peer(int* can, int from, int to) { return cudaDeviceCanAccessPeer(can, from, to); }
inline error_t device_enable_peer_access(int to) { return cudaDeviceEnablePeerAccess(to, 0); }
// The limit on gridDim.y and gridDim.z.
inline constexpr unsigned max_grid_yz = 65535;

// ---- memory
inline error_t malloc(void** p, std::size_t n) { return cudaMalloc(p, n); }
inline error_t free(void* p) { return cudaFree(p); }
inline error_t memset(void* p, int v, std::size_t n) { return cudaMemset(p, v, n); }
inline error_t memset_async(void* p, int v, std::size_t n, stream_t s) { return cudaMemsetAsync(p, v, n, s); }
inline error_t malloc_async(void** p, std::size_t n, stream_t s) { return cudaMallocAsync(p, n, s); }
inline error_t free_async(void* p, stream_t s) { return cudaFreeAsync(p, s); }
// Page-locked host memory mapped into every device's address space.
inline error_t host_alloc_mapped(void** p, std::size_t n) {
  return cudaHostAlloc(p, n, cudaHostAllocMapped | cudaHostAllocPortable);
}
inline error_t host_get_device_pointer(void** d, void* h) { return cudaHostGetDevicePointer(d, h, 0); }
using memcpy_kind = cudaMemcpyKind;
inline constexpr memcpy_kind host_to_device = cudaMemcpyHostToDevice;
inline constexpr memcpy_kind device_to_host = cudaMemcpyDeviceToHost;
inline constexpr memcpy_kind device_to_device = cudaMemcpyDeviceToDevice;
inline error_t memcpy(void* d, const void* s, std::size_t n, memcpy_kind k) { return cudaMemcpy(d, s, n, k); }
// From pageable memory CUDA stages the source before returning, so it may
// change right after (device_memory::to_device_queued relies on it).
inline error_t memcpy_async(void* d, const void* s, std::size_t n, memcpy_kind k, stream_t st) {
  return cudaMemcpyAsync(d, s, n, k, st);
}
inline error_t memcpy_peer_async(void* d, int dd, const void* s, int sd, std::size_t n, stream_t st) {
  return cudaMemcpyPeerAsync(d, dd, s, sd, n, st);
}
// symbol: the host shadow of a __constant__ or __device__ variable.
inline error_t memcpy_to_symbol(const void* symbol, const void* src, std::size_t n) {
  return cudaMemcpyToSymbol(symbol, src, n);
}

// The runtime calls as error messages name them ("CUDA error in cudaMalloc
// (array or array_view storage): ...").
namespace call_name {
inline constexpr const char* set_device = "cudaSetDevice";
inline constexpr const char* host_alloc_mapped = "cudaHostAlloc";
inline constexpr const char* host_get_device_pointer = "cudaHostGetDevicePointer";
inline constexpr const char* malloc = "cudaMalloc";
inline constexpr const char* memset = "cudaMemset";
inline constexpr const char* memset_async = "cudaMemsetAsync";
inline constexpr const char* malloc_async = "cudaMallocAsync";
inline constexpr const char* stream_create = "cudaStreamCreate";
inline constexpr const char* stream_wait_event = "cudaStreamWaitEvent";
inline constexpr const char* event_create = "cudaEventCreate";
inline constexpr const char* event_record = "cudaEventRecord";
inline constexpr const char* device_enable_peer_access = "cudaDeviceEnablePeerAccess";
} // namespace call_name

#if AMP_DEVICE_PASS
// Ends the calling GPU thread (direct3d_abort, ../gpu/kernel_abort.h). A trap
// would end the process's CUDA context, so the thread ends itself with PTX
// "exit" and the context stays usable.
[[noreturn]] __device__ inline void end_thread() {
  asm volatile("exit;");
  __builtin_unreachable();
}
#endif

} // namespace gpu_api
} // namespace detail
} // namespace Concurrency
