// Shared GPU implementation (backend.h, "The shared GPU implementation"),
// stage "launch": kernels on a CUDA or HIP accelerator. Included by that
// backend's launch.h after its api.h. The native GPU path is amp_compat's own
// kernels below (../../launch_kokkos.h has the portable one;
// ../../parallel_for_each.h chooses between them).
//
// Both models launch amp_compat's own __global__ kernels on the stream of the
// accelerator_view's queue (the default stream for the default view of
// Kokkos' device, so they stay ordered with every copy and Kokkos kernel
// there), on that queue's device (device.h), taking the patched closure by
// value as the kernel parameter (or, when it is larger than a kernel parameter
// may be, a pointer to a stream-ordered device copy). They do not go through a
// Kokkos TeamPolicy because of the code Clang generates there: Kokkos 3.4
// wraps the body in a league-stride loop plus a scratch-lock prologue, and in
// that context the simple matmul of bench/ compiled to 48-108 registers with a
// 64-bit multiply per inner iteration (no strength reduction), against 32
// registers and pointer increments in a plain kernel. Measured on an H100
// (bench/RESULTS.md): simple matmul 30.3 -> 24.0 ms, tiled 17.8 -> 16.9 ms
// (= hand-written CUDA), stream 2207 -> 2300 GB/s. Kokkos' RangePolicy is no
// alternative: it streams at about a third of that bandwidth. On AMD GPUs the
// same shapes run, not tuned (no AMD GPU was available to measure; bench/ has
// the benchmarks to do so).
//
//  simple model: the innermost dimension runs along threadIdx.x in 32-wide
//    rows, 4 rows per 128-thread block (32x4 was the fastest shape measured
//    for the simple matmul; 1-D 256-thread blocks were 40 % slower). A 1-D
//    domain, one whose innermost extent is under 32, or one too large for the
//    grid's y/z limits runs as 256-thread blocks over the linearised domain.
//  tiled model: one block (workgroup) per tile, threadIdx = the local index
//    (innermost dimension in x), tile_static is __shared__, barrier.wait() is
//    __syncthreads().
//
// Kernels carry launch bounds (AMP_GPU_LAUNCH_BOUNDS, api.h): a block size and,
// where the vendor's attribute takes it, a minimum of resident blocks.
//
// Launches are asynchronous; errors of a running kernel surface at the next
// synchronisation (copy back, accelerator_view::wait) as runtime_exception.
#pragma once
#include "vendor_api.h"
#include "../../capture.h"
#include "../../kernel_name.h"
#include "../../tiled.h"
#include "../backend.h"

namespace Concurrency {
namespace detail {

namespace gpu_shape {
constexpr int row = 32;           // simple model, 2-D blocks: threads along the innermost dimension
constexpr int rows = 4;           //   rows per block
constexpr int linear = 256;       // simple model, linear blocks
constexpr int max_param = 4000;   // bytes of closure passed by value (kernel parameters: 4 KB)
// Launch bounds of the simple kernels (AMP_GPU_LAUNCH_BOUNDS): full
// occupancy, 2048 threads per SM; the tiled kernel's are tiled.h's
// gpu_tile_bounds.
struct rows_bounds {
  static constexpr int threads = row * rows;
  static constexpr int min_blocks = 2048 / (row * rows);
};
struct linear_bounds {
  static constexpr int threads = linear;
  static constexpr int min_blocks = 2048 / linear;
};
} // namespace gpu_shape

// Simple model, 2-D blocks: x along the innermost dimension (32 per block),
// y along the next (4 per block), z over the remaining outer dimensions.
// Indices come straight from blockIdx/threadIdx: when they came from a
// division (a 1-D grid folded into rows and columns), Clang no longer
// strength-reduced the address arithmetic in the user's loops and the simple
// matmul lost 20 %.
template <int N, class Img>
__global__ void AMP_GPU_LAUNCH_BOUNDS(gpu_shape::rows_bounds)
    amp_simple_rows(Img k, Concurrency::extent<N> e) {
  const int c = static_cast<int>(blockIdx.x * gpu_shape::row + threadIdx.x);
  const int r = static_cast<int>(blockIdx.y * gpu_shape::rows + threadIdx.y);
  if (c >= e[N - 1] || r >= e[N - 2]) return;
  index<N> i;
  if constexpr (N > 2) {
    Concurrency::extent<N - 2> outer;
    for (int d = 0; d < N - 2; ++d) outer[d] = e[d];
    const index<N - 2> o = delinearize_u32(blockIdx.z, outer);
    for (int d = 0; d < N - 2; ++d) i[d] = o[d];
  }
  i[N - 2] = r;
  i[N - 1] = c;
  invoke_kernel(k.fn(), i);
}

template <int N, class Img>
__global__ void AMP_GPU_LAUNCH_BOUNDS(gpu_shape::linear_bounds)
    amp_simple_linear(Img k, Concurrency::extent<N> e, unsigned size) {
  const unsigned l = blockIdx.x * gpu_shape::linear + threadIdx.x;
  if (l < size) invoke_kernel(k.fn(), delinearize_u32(l, e));
}

// One block per tile. Direct: tile coordinates are blockIdx (x innermost), as
// long as they fit the grid's y and z limits (65535); otherwise a 1-D grid
// whose index is delinearised (slower code in user loops, see above).
template <int D0, int D1, int D2, bool Direct, class Img>
__global__ void AMP_GPU_LAUNCH_BOUNDS(gpu_tile_bounds<D0, D1, D2>)
    amp_tiled(Img k, Concurrency::extent<tile_shape<D0, D1, D2>::rank> tiles) {
  using shape = tile_shape<D0, D1, D2>;
  constexpr int R = shape::rank;
  const Concurrency::extent<R> te = shape::tile_extent();
  index<R> tile, local;
  if constexpr (Direct) {
    tile[R - 1] = static_cast<int>(blockIdx.x);
    if constexpr (R > 1) tile[R - 2] = static_cast<int>(blockIdx.y);
    if constexpr (R > 2) tile[R - 3] = static_cast<int>(blockIdx.z);
  } else {
    tile = delinearize_u32(blockIdx.x, tiles);
  }
  local[R - 1] = static_cast<int>(threadIdx.x);
  if constexpr (R > 1) local[R - 2] = static_cast<int>(threadIdx.y);
  if constexpr (R > 2) local[R - 3] = static_cast<int>(threadIdx.z);
  index<R> origin;
  for (int d = 0; d < R; ++d) origin[d] = tile[d] * te[d];
  invoke_kernel(k.fn(), tiled_index<D0, D1, D2>(origin + local, local, tile, origin));
}

// A closure too large to be a kernel parameter, read from device memory.
template <class F> struct image_in_memory {
  const kernel_image<F>* p;
  AMP_FN const F& fn() const { return p->fn(); }
};

// Launches on one queue. Its device is current during the launch.
struct gpu_launcher {
  queue_state& q;

  template <int N, class F> void simple(const Concurrency::extent<N>& e, const kernel_image<F>& k) const {
    const tools_kernel seen(kernel_name<F>::get("simple"), gpu_api::kokkos_space());
    with_image(k, [&](const auto& img) AMP_HOST_ONLY {
      using Img = std::decay_t<decltype(img)>;
      const unsigned size = static_cast<unsigned>(e.size_64());
      if constexpr (N > 1) {
        const unsigned inner = static_cast<unsigned>(e[N - 1]);
        const unsigned row_groups = (static_cast<unsigned>(e[N - 2]) + gpu_shape::rows - 1) / gpu_shape::rows;
        const unsigned long long outer = e.size_64() / e[N - 1] / e[N - 2];
        if (inner >= gpu_shape::row && row_groups <= grid_yz && outer <= grid_yz) {
          const dim3 grid((inner + gpu_shape::row - 1) / gpu_shape::row, row_groups, static_cast<unsigned>(outer));
          amp_simple_rows<N, Img><<<grid, dim3(gpu_shape::row, gpu_shape::rows), 0, stream()>>>(img, e);
          return;
        }
      }
      const unsigned blocks = (size + gpu_shape::linear - 1) / gpu_shape::linear;
      amp_simple_linear<N, Img><<<blocks, gpu_shape::linear, 0, stream()>>>(img, e, size);
    });
  }

  template <int D0, int D1, int D2, class F>
  void tiled(const tiled_extent<D0, D1, D2>& te, const kernel_image<F>& k) const {
    using shape = tile_shape<D0, D1, D2>;
    constexpr int R = shape::rank;
    Concurrency::extent<R> tiles;
    const auto tx = shape::tile_extent();
    for (int d = 0; d < R; ++d) tiles[d] = te[d] / tx[d];
    const dim3 block(R == 1 ? D0 : R == 2 ? D1 : D2, R == 1 ? 1 : R == 2 ? D0 : D1, R == 3 ? D0 : 1);
    const dim3 grid(tiles[R - 1], R > 1 ? tiles[R > 1 ? R - 2 : 0] : 1, R > 2 ? tiles[0] : 1);
    const tools_kernel seen(kernel_name<F>::get("tiled"), gpu_api::kokkos_space());
    with_image(k, [&](const auto& img) AMP_HOST_ONLY {
      using Img = std::decay_t<decltype(img)>;
      if (grid.y <= grid_yz && grid.z <= grid_yz)
        amp_tiled<D0, D1, D2, true, Img><<<grid, block, 0, stream()>>>(img, tiles);
      else
        amp_tiled<D0, D1, D2, false, Img><<<static_cast<unsigned>(tiles.size_64()), block, 0, stream()>>>(img, tiles);
    });
  }

private:
  static constexpr unsigned grid_yz = gpu_api::max_grid_yz; // the limit on gridDim.y and gridDim.z
  gpu_api::stream_t stream() const { return q.stream(); }

  // launch(image): the closure by value when it fits a kernel parameter, else
  // a device copy made and released in stream order around the launch.
  template <class F, class Launch> void with_image(const kernel_image<F>& k, Launch launch) const {
    if constexpr (sizeof(k) <= gpu_shape::max_param) {
      device_scope on(q.device());
      launch(k);
    } else {
      void* d = device_memory::alloc_queued(q, sizeof(k));
      device_memory::to_device_queued(q, d, &k, sizeof(k));
      {
        device_scope on(q.device());
        launch(image_in_memory<F>{static_cast<const kernel_image<F>*>(d)});
      }
      device_memory::free_queued(q, d);
    }
    device_memory::check_launch();
  }
};

// ---- the dispatch's view of this backend

// AMP_KERNEL_PATH=auto on GPU devices: native for both models, as measured on
// CUDA devices (bench/RESULTS.md, "Portable path"; not measured on an AMD
// GPU). Simple: Kokkos' MDRange was slower (simple matmul, stream). Tiled: the
// TeamPolicy was as fast or slower; within noise the native path is kept, the
// speed targets were established on it.
constexpr kernel_path measured_device_path(bool /*tiled*/) { return kernel_path::native; }

// Whether the portable launcher (Kokkos' default instance of
// gpu_api::kokkos_space) can serve a kernel on queue q: when q is on the device
// Kokkos runs on. Kokkos 3.4 and 4 support one device per process, so views of
// other GPUs run natively.
inline bool device_portable_serves(const queue_state& q) { return q.device() == device_memory::kokkos_device(); }

// A portable launch on queue q: Kokkos' default instance queues the kernel on
// its own stream, which is q's stream only for the default view with Kokkos
// 3.4 on CUDA (the legacy stream). Otherwise (any other view, or Kokkos 4,
// whose default instance has a stream of its own) the kernel is put in q's
// line with events: it starts after everything queued on q, and what is
// queued on q afterwards starts after it (queue_state::lend/take_back), so
// copies, markers, wait() and array_view synchronisation see it as q's work.
struct kokkos_stream_hop {
  queue_state* q;
  template <class Fn> void operator()(Fn&& fn) const {
    const gpu_api::stream_t ks = gpu_api::kokkos_instance_stream();
    q->lend(ks);
    fn();
    q->take_back(ks);
  }
};

template <class Run> void with_device_launcher(queue_state& q, Run&& run) {
  device_memory::prepare_launch(q.device()); // direct3d_abort's record (device.h)
  run(type_tag<gpu_api::kokkos_space>{}, gpu_launcher{q}, device_portable_serves(q), kokkos_stream_hop{&q});
}

} // namespace detail
} // namespace Concurrency
