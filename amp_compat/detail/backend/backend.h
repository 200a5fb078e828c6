// The backend interface: what amp_compat needs from the machine it runs
// kernels on, and the types every backend shares.
//
// Backends. The host backend (host/) is in every build: the host accelerators
// (direct3d\warp on Kokkos OpenMP or Threads, direct3d\ref on Kokkos Serial).
// Next to it a build has at most one device backend, the folder for the GPU
// backend its Kokkos was built with: cuda/ (Kokkos_ENABLE_CUDA, Clang as the
// CUDA compiler), hip/ (Kokkos_ENABLE_HIP; the slot is there, select.h names
// its files), or none/ (a host-only build). select.h is the one dispatch
// point; the stage headers beside it (device_config.h, device_kernel.h,
// device_runtime.h, device_launch.h, device_math.h) include the chosen
// folder's file for each stage. No other header names a backend. The CUDA and
// HIP folders share their implementation through gpu/, which no dispatch
// names (below, "The shared GPU implementation").
//
// A device backend folder provides five files, one per stage; everything in
// namespace Concurrency::detail unless said otherwise. "Device d" is the
// backend's own device number (0, 1, ...); buffers keep the copy on device d
// at location 1 + d (runtime/accelerator_table.h), so at most
// max_devices (31) devices are used.
//
// 1. config.h (included by ../config.h, before anything else of amp_compat)
//    AMP_DEVICE_PASS          1 while compiling the device side of a source
//    AMP_HD                   attribute of functions usable on host and device
//    AMP_HOST_ONLY            attribute of host-only functions (restrict(cpu))
//    AMP_DEVICE_ONLY          attribute of device-only functions
//    AMP_TILE_STATIC_DEVICE   storage class of tile_static in the device pass
//                             (the tile's on-chip shared memory)
//
// 2. kernel.h (device pass only, through ../target.h): what kernel code calls.
//    target::tile_barrier()        every work-item of the tile arrives (and
//                                  tile_static writes before it are visible)
//    target::fence_tile_static()   orders tile_static accesses of the calling
//                                  work-item as seen by its tile
//    atomics::fetch_{add,sub,and,or,xor,max,min}(T*, T), exchange(T*, T),
//    compare_exchange(T*, expected, desired) -> value found; int and unsigned
//    (exchange also float), on device memory and tile_static alike.
//    kokkos_atomics.h (beside this file, no backend named) implements them
//    over Kokkos' atomic functions, for a backend whose Kokkos gives exactly
//    its intrinsics' code (tests/fidelity/atomics_isa.sh): hip/ includes it;
//    cuda/ keeps CUDA's intrinsics (Kokkos' PTX differs: bench/RESULTS.md,
//    "Backend facilities: Kokkos or native")
//    abort_kernel(bool formatted, const char* text, args...)  records
//    direct3d_abort / direct3d_errorf (../runtime/kernel_abort.h's record)
//    and ends the calling thread; the host raises it at the next
//    synchronisation (queue_state::synchronize, copies to the host, waits).
//    The device-wide fence is Kokkos::memory_fence() for every backend
//    (../target.h).
//    target::discarded_element<E>() -> E&   a zeroed E private to the calling
//    thread while it runs (Direct3D's out-of-range rule under
//    --windows-compat, ../data.h): writes past an array's data go there and
//    reads past it read it.
//
// 3. device.h (every pass, through ../runtime.h): devices, memory, queues.
//    class queue_marker { void wait() const; }  a point in a queue; wait()
//        returns once the work queued before it is done (raises kernel
//        faults and aborts)
//    class queue_state  one in-order queue of work on one device (an
//        accelerator_view; its identity too):
//        explicit queue_state(int device)   (device -1: a host view's queue)
//        int device() const
//        void wait_for(queue_state& before)  later work here starts after
//            everything queued on `before` so far (any device; no host wait)
//        void synchronize(bool aborts = true)  blocks until done; a kernel
//            fault (and, with aborts, a kernel's abort) becomes
//            runtime_exception
//        void synchronize_quietly() noexcept   the same, errors dropped
//        std::shared_ptr<queue_marker> mark()
//    struct device_memory (static members):
//        int device_count()         the devices the backend sees
//        int kokkos_device()        the device Kokkos runs on (the default
//                                   accelerator); -1 with no devices
//        device_properties properties(int d)
//        std::wstring path(int d)   the accelerator's device path ("cuda0")
//        bool names_backend(const std::string&)  the short name accepted for
//                                   the Kokkos device ("cuda"), besides "gpu"
//        std::string describe(int d, const device_properties&, bool kokkos)
//                                   accelerator::description
//        const std::shared_ptr<queue_state>& default_queue(int d)  device d's
//                                   default view's queue (lives forever)
//        void* alloc(int d, std::size_t) / void free(int d, void*) noexcept
//        to_device(q, dst, host_src, n), to_host(q, host_dst, src, n):
//            queued on q, then waited for (a copy back reports a fault of
//            an earlier kernel on q)
//        to_device_queued(q, dst, host_src, n): queued, not waited for;
//            host_src may change as soon as it returns
//        device_to_device(q, dst, dst_device, src, src_device, n): queued on
//            q (a queue of dst_device)
//        wait_all()                 everything queued on every device is done
//    Errors: out_of_memory for a failed allocation, runtime_exception (e_fail)
//    for anything else, with the backend's own error text.
//
// 4. launch.h (through ../parallel_for_each.h): kernels on a device queue.
//    kernel_path measured_device_path(bool tiled)  the path AMP_KERNEL_PATH=
//        auto takes on this backend's devices (measured; bench/RESULTS.md)
//    bool device_portable_serves(const queue_state& q)  whether the portable
//        launcher (Kokkos' default instance of the backend's execution
//        space) can run a kernel in q's line of work
//    template <class Run> void with_device_launcher(queue_state& q, Run&& run)
//        calls run(type_tag<Kokkos execution space>{}, native launcher,
//        device_portable_serves(q), order), where the native launcher has
//          template <int N, class F> void simple(const extent<N>&, const kernel_image<F>&) const
//          template <int D0, int D1, int D2, class F>
//          void tiled(const tiled_extent<D0, D1, D2>&, const kernel_image<F>&) const
//        (both queue the kernel on q asynchronously; the kernel's closure is
//        kernel_image's, already patched for device d, ../capture.h), and
//        order(fn) runs a portable launch fn so that it is ordered in q's
//        line of work (after what was queued on q, before what comes next).
//        The tiled kernel runs one tile per thread group: tile_static in
//        AMP_TILE_STATIC_DEVICE memory, the barrier kernel.h's tile_barrier.
//
// 5. math.h (device pass only, through ../math/target_math.h): namespace
//    math::target with the <amp_math.h> functions the C library lacks (sinpi,
//    cospi, erfinv, erfcinv, phi, probit, rcbrt, rsqrt, tanpi) and the
//    fast_math intrinsics (fast_sin ... fast_sincos), float and double as the
//    host's math/host_special.h; bit-identical results where precise_math
//    promises them (math/common.h's IEEE versions).
//
// none/ implements the same names for a build without devices: no devices,
// identity queues, and refusals (runtime_exception) where a device is needed.
//
// The shared GPU implementation (gpu/). CUDA and HIP are one language (Clang's
// single-source CUDA and HIP modes: __global__, <<<>>>, blockIdx, __shared__,
// __syncthreads, the device math library's names) over two runtime APIs that
// differ in names only (cudaMalloc / hipMalloc ...). So cuda/ and hip/ hold
// what is the vendor's, and gpu/ holds what they share, written once:
//   gpu/config.h        stage 1's attributes (the vendor's config.h defines
//                       AMP_DEVICE_PASS from its compiler's macro, then
//                       includes it)
//   gpu/kernel_abort.h  the direct3d_abort channel (stage 2's abort_kernel)
//   gpu/device.h        stage 3 whole
//   gpu/launch.h        stage 4 whole: the native kernels and launcher
//   gpu/math.h          stage 5 whole
// gpu/ is not a backend: select.h never names it, and only the files of a GPU
// backend folder include it, after their api.h. A GPU backend's api.h is its
// vendor layer, the one place its runtime API is named: namespace gpu_api (in
// Concurrency::detail; gpu/vendor_api.h lists the names) with the runtime's
// types, one thin inline function per runtime call gpu/ makes (malloc,
// memcpy_async, event_record ...), the names messages and paths use ("CUDA",
// "cuda0", the calls' own names), the Kokkos execution space, and the facts in
// which the vendors differ, each with its reason: the default view's stream
// (CUDA's legacy default stream, HIP's null stream), how an aborting thread
// ends (PTX exit; the whole wavefront on AMD), the launch-bounds attribute
// (CUDA's takes a minimum of resident blocks, HIP's does not), the grid limit.
// cuda/api.h and hip/api.h define the same names; gpu/ calls nothing of a
// runtime but these, and its code names no vendor (its comments say where the
// vendors behave differently). The vendor folder's device.h, launch.h and
// kernel_abort.h include its api.h and then the gpu/ file, its config.h and
// math.h the gpu/ file; its kernel.h (barrier, fences, atomics, the
// resident-thread ids of the discard cells, which are the vendor's) is its
// own.
//
// Files a new device backend touches: its folder with the five files above,
// and its branch in select.h. A GPU backend of the same language (Clang's
// CUDA/HIP mode) writes its api.h and includes gpu/'s files, as hip/ does.
// Nothing else: the accelerator table, buffers, captures and the launch
// dispatch ask only these names. The host backend (host/: kernel.h,
// launch_host.h, fiber.h, compiled_tiles.h) provides stage 2 for host passes
// and the native host launcher; its devices are the accelerator table's host
// entries.
#pragma once
#include <cstddef>
#include <string>

namespace Concurrency {
namespace detail {

// What accelerator::get_all() reports about one device.
struct device_properties {
  std::string name;
  std::size_t memory_bytes = 0;
  int pci_bus = 0;
};

// The two ways to run a kernel (parallel_for_each.h): the portable path
// (launch_kokkos.h, any Kokkos execution space) or the backend's native one.
enum class kernel_path { automatic, portable, native };

// A Kokkos execution space passed as a value (with_device_launcher's run).
template <class T> struct type_tag {
  using type = T;
};

} // namespace detail
} // namespace Concurrency
