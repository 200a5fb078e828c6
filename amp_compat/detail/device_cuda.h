// The CUDA accelerator's memory and error handling. Only this file and
// launch_cuda.h talk to the CUDA runtime; a host build gets the stub below,
// whose device list is empty, so no caller needs its own #if.
#pragma once
#include "config.h"
#include "exceptions.h"

#include <string>

#if AMP_HAS_CUDA
#include <cuda_runtime.h>
#endif

namespace Concurrency {
namespace detail {

#if AMP_HAS_CUDA
struct device_memory {
  static void check(cudaError_t e, const char* what) {
    if (e == cudaSuccess) return;
    (void)cudaGetLastError(); // clear non-sticky errors
    std::string m = std::string("CUDA error in ") + what + ": " + cudaGetErrorName(e) + ": " + cudaGetErrorString(e);
    if (e == cudaErrorMemoryAllocation) throw out_of_memory(m.c_str());
    throw runtime_exception(m.c_str(), e_fail);
  }
  static int device_count() {
    int n = 0;
    if (cudaGetDeviceCount(&n) != cudaSuccess) {
      (void)cudaGetLastError();
      return 0;
    }
    return n;
  }
  static std::string device_name() {
    cudaDeviceProp p;
    return cudaGetDeviceProperties(&p, 0) == cudaSuccess ? std::string(p.name) : std::string("CUDA device");
  }
  static std::size_t device_memory_bytes() {
    cudaDeviceProp p;
    return cudaGetDeviceProperties(&p, 0) == cudaSuccess ? p.totalGlobalMem : 0;
  }
  static void* alloc(std::size_t bytes) {
    void* p = nullptr;
    check(cudaMalloc(&p, bytes ? bytes : 1), "cudaMalloc (array or array_view storage)");
    return p;
  }
  static void free(void* p) noexcept { (void)cudaFree(p); }
  // Stream-ordered: usable by work queued after it, released once the work
  // queued before free_queued is done. No device-wide synchronisation.
  static void* alloc_queued(std::size_t bytes) {
    void* p = nullptr;
    check(cudaMallocAsync(&p, bytes ? bytes : 1, stream()), "cudaMallocAsync (kernel closure)");
    return p;
  }
  static void free_queued(void* p) noexcept { (void)cudaFreeAsync(p, stream()); }
  // Copies are queued on the stream Kokkos launches kernels on, so they are
  // ordered after earlier kernels and before later ones; each waits for its
  // completion, so a copy back also reports a fault of a kernel before it.
  static cudaStream_t stream() { return Kokkos::Cuda().cuda_stream(); }
  static void copy(void* d, const void* s, std::size_t n, cudaMemcpyKind k, const char* what) {
    check(cudaMemcpyAsync(d, s, n, k, stream()), what);
    check(cudaStreamSynchronize(stream()), what);
  }
  static void to_device(void* d, const void* h, std::size_t n) { copy(d, h, n, cudaMemcpyHostToDevice, "copy to the GPU"); }
  // Queues a small upload from pageable memory without waiting: CUDA stages
  // pageable sources before returning, so h may change right after.
  static void to_device_queued(void* d, const void* h, std::size_t n) {
    check(cudaMemcpyAsync(d, h, n, cudaMemcpyHostToDevice, stream()), "copy to the GPU");
  }
  static void to_host(void* h, const void* d, std::size_t n) { copy(h, d, n, cudaMemcpyDeviceToHost, "copy from the GPU"); }
  static void on_device(void* d, const void* s, std::size_t n) { copy(d, s, n, cudaMemcpyDeviceToDevice, "copy on the GPU"); }
  // Waits for every kernel; a kernel fault becomes runtime_exception here.
  static void wait() {
    check(cudaDeviceSynchronize(), "kernel execution");
    check(cudaGetLastError(), "kernel execution");
  }
  static void check_launch() { check(cudaGetLastError(), "kernel launch"); }
  static void clear_error() { (void)cudaGetLastError(); }
};
#else
struct device_memory {
  [[noreturn]] static void none() { throw runtime_exception("this build has no GPU accelerator", e_fail); }
  static int device_count() { return 0; }
  static std::string device_name() { return {}; }
  static std::size_t device_memory_bytes() { return 0; }
  static void* alloc(std::size_t) { none(); }
  static void free(void*) noexcept {}
  static void to_device(void*, const void*, std::size_t) { none(); }
  static void to_device_queued(void*, const void*, std::size_t) { none(); }
  static void to_host(void*, const void*, std::size_t) { none(); }
  static void on_device(void*, const void*, std::size_t) { none(); }
  static void wait() {}
  static void check_launch() {}
  static void clear_error() {}
};
#endif

} // namespace detail
} // namespace Concurrency
