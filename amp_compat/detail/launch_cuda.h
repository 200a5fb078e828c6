// Kernels on the CUDA accelerator.
//
// Both models launch amp_compat's own __global__ kernels on the stream Kokkos
// uses (so they stay ordered with every copy and Kokkos kernel), taking the
// patched closure by value as the kernel parameter (or, when it is larger
// than a kernel parameter may be, a pointer to a stream-ordered device copy). They do not go through a
// Kokkos TeamPolicy because of the code Clang generates there: Kokkos 3.4
// wraps the body in a league-stride loop plus a scratch-lock prologue, and in
// that context the simple matmul of bench/ compiled to 48-108 registers with a
// 64-bit multiply per inner iteration (no strength reduction), against 32
// registers and pointer increments in a plain kernel. Measured on an H100
// (bench/RESULTS.md): simple matmul 30.3 -> 24.0 ms, tiled 17.8 -> 16.9 ms
// (= hand-written CUDA), stream 2207 -> 2300 GB/s. Kokkos' RangePolicy is no
// alternative: it streams at about a third of that bandwidth.
//
//  simple model: the innermost dimension runs along threadIdx.x in 32-wide
//    rows, 4 rows per 128-thread block (32x4 was the fastest shape measured
//    for the simple matmul; 1-D 256-thread blocks were 40 % slower). A 1-D
//    domain, one whose innermost extent is under 32, or one too large for the
//    grid's y/z limits runs as 256-thread blocks over the linearised domain.
//  tiled model: one block per tile, threadIdx = the local index (innermost
//    dimension in x), tile_static is __shared__, barrier.wait() is
//    __syncthreads().
//
// Launches are asynchronous; errors of a running kernel surface at the next
// synchronisation (copy back, accelerator_view::wait) as runtime_exception.
#pragma once
#include "capture.h"
#include "tiled.h"

#if AMP_HAS_CUDA
namespace Concurrency {
namespace detail {

// Row-major index of l in e, in 32-bit arithmetic (the domain has at most
// INT_MAX points; 64-bit division is an order of magnitude slower on the GPU).
template <int N> AMP_FN index<N> delinearize_u32(unsigned l, const Concurrency::extent<N>& e) {
  index<N> i;
  for (int d = N - 1; d > 0; --d) {
    const unsigned ed = static_cast<unsigned>(e[d]);
    i[d] = static_cast<int>(l % ed);
    l /= ed;
  }
  i[0] = static_cast<int>(l);
  return i;
}

namespace cuda_shape {
constexpr int row = 32;           // simple model, 2-D blocks: threads along the innermost dimension
constexpr int rows = 4;           //   rows per block
constexpr int linear = 256;       // simple model, linear blocks
constexpr int max_param = 4000;   // bytes of closure passed by value (kernel parameters: 4 KB)
} // namespace cuda_shape

// Simple model, 2-D blocks: x along the innermost dimension (32 per block),
// y along the next (4 per block), z over the remaining outer dimensions.
// Indices come straight from blockIdx/threadIdx: when they came from a
// division (a 1-D grid folded into rows and columns), Clang no longer
// strength-reduced the address arithmetic in the user's loops and the simple
// matmul lost 20 %.
template <int N, class Img>
__global__ void __launch_bounds__(cuda_shape::row * cuda_shape::rows, 2048 / (cuda_shape::row * cuda_shape::rows))
    amp_simple_rows(Img k, Concurrency::extent<N> e) {
  const int c = static_cast<int>(blockIdx.x * cuda_shape::row + threadIdx.x);
  const int r = static_cast<int>(blockIdx.y * cuda_shape::rows + threadIdx.y);
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
  k.fn()(i);
}

template <int N, class Img>
__global__ void __launch_bounds__(cuda_shape::linear, 2048 / cuda_shape::linear)
    amp_simple_linear(Img k, Concurrency::extent<N> e, unsigned size) {
  const unsigned l = blockIdx.x * cuda_shape::linear + threadIdx.x;
  if (l < size) k.fn()(delinearize_u32(l, e));
}

// Launch bounds ask for full occupancy (2048 threads per SM, at most 32
// blocks): that caps registers at 32 per thread for tiles of 64 or more. On the
// H100 this was the fastest setting for every bench/ kernel: the tiled matmul
// ran 17.4 ms with a minimum of 6 blocks (40 registers), 16.9 ms (= CUDA) with
// 8. Without any minimum, Kokkos' launch of the same kernel took 123 registers
// and ran 2.3x slower. The bound limits registers only: a tile with 32 KB of
// tile_static still launches, at the occupancy its shared memory allows.
template <int D0, int D1, int D2> struct cuda_tile_bounds {
  static constexpr int threads = tile_shape<D0, D1, D2>::threads;
  static constexpr int warps_threads = (threads + 31) / 32 * 32; // what a block occupies
  static constexpr int min_blocks = 2048 / warps_threads > 32 ? 32 : 2048 / warps_threads;
};

// One block per tile. Direct: tile coordinates are blockIdx (x innermost), as
// long as they fit the grid's y and z limits (65535); otherwise a 1-D grid
// whose index is delinearised (slower code in user loops, see above).
template <int D0, int D1, int D2, bool Direct, class Img>
__global__ void __launch_bounds__(cuda_tile_bounds<D0, D1, D2>::threads, cuda_tile_bounds<D0, D1, D2>::min_blocks)
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
  k.fn()(tiled_index<D0, D1, D2>(origin + local, local, tile, origin));
}

// A closure too large to be a kernel parameter, read from device memory.
template <class F> struct image_in_memory {
  const kernel_image<F>* p;
  AMP_FN const F& fn() const { return p->fn(); }
};

struct cuda_launcher {
  template <int N, class F> static void simple(const Concurrency::extent<N>& e, const kernel_image<F>& k) {
    with_image(k, [&](const auto& img) AMP_HOST_ONLY {
      using Img = std::decay_t<decltype(img)>;
      const unsigned size = static_cast<unsigned>(e.size_64());
      if constexpr (N > 1) {
        const unsigned inner = static_cast<unsigned>(e[N - 1]);
        const unsigned row_groups = (static_cast<unsigned>(e[N - 2]) + cuda_shape::rows - 1) / cuda_shape::rows;
        const unsigned long long outer = e.size_64() / e[N - 1] / e[N - 2];
        if (inner >= cuda_shape::row && row_groups <= grid_yz && outer <= grid_yz) {
          const dim3 grid((inner + cuda_shape::row - 1) / cuda_shape::row, row_groups, static_cast<unsigned>(outer));
          amp_simple_rows<N, Img><<<grid, dim3(cuda_shape::row, cuda_shape::rows), 0, stream()>>>(img, e);
          return;
        }
      }
      const unsigned blocks = (size + cuda_shape::linear - 1) / cuda_shape::linear;
      amp_simple_linear<N, Img><<<blocks, cuda_shape::linear, 0, stream()>>>(img, e, size);
    });
  }

  template <int D0, int D1, int D2, class F>
  static void tiled(const tiled_extent<D0, D1, D2>& te, const kernel_image<F>& k) {
    using shape = tile_shape<D0, D1, D2>;
    constexpr int R = shape::rank;
    Concurrency::extent<R> tiles;
    const auto tx = shape::tile_extent();
    for (int d = 0; d < R; ++d) tiles[d] = te[d] / tx[d];
    const dim3 block(R == 1 ? D0 : R == 2 ? D1 : D2, R == 1 ? 1 : R == 2 ? D0 : D1, R == 3 ? D0 : 1);
    const dim3 grid(tiles[R - 1], R > 1 ? tiles[R > 1 ? R - 2 : 0] : 1, R > 2 ? tiles[0] : 1);
    with_image(k, [&](const auto& img) AMP_HOST_ONLY {
      using Img = std::decay_t<decltype(img)>;
      if (grid.y <= grid_yz && grid.z <= grid_yz)
        amp_tiled<D0, D1, D2, true, Img><<<grid, block, 0, stream()>>>(img, tiles);
      else
        amp_tiled<D0, D1, D2, false, Img><<<static_cast<unsigned>(tiles.size_64()), block, 0, stream()>>>(img, tiles);
    });
  }

private:
  static constexpr unsigned grid_yz = 65535; // CUDA's limit on gridDim.y and gridDim.z
  static cudaStream_t stream() { return device_memory::stream(); }

  // launch(image): the closure by value when it fits a kernel parameter, else
  // a device copy made and released in stream order around the launch.
  template <class F, class Launch> static void with_image(const kernel_image<F>& k, Launch launch) {
    if constexpr (sizeof(k) <= cuda_shape::max_param) {
      launch(k);
    } else {
      void* d = device_memory::alloc_queued(sizeof(k));
      device_memory::to_device_queued(d, &k, sizeof(k));
      launch(image_in_memory<F>{static_cast<const kernel_image<F>*>(d)});
      device_memory::free_queued(d);
    }
    device_memory::check_launch();
  }
};

} // namespace detail
} // namespace Concurrency
#endif
