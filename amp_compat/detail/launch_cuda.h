// Kernels on the CUDA accelerator.
//  tiled model: one Kokkos TeamPolicy team per tile, team size = tile size,
//    launch bounds = tile size with full occupancy (1024-thread tiles fit);
//    tile_static is __shared__, barrier.wait() is the team barrier.
//  simple model: also a TeamPolicy, with 256-thread teams over the linearised
//    domain. Kokkos 3.4's RangePolicy streams at about a third of the bandwidth
//    a TeamPolicy reaches on an H100 (see bench/RESULTS.md), so it is not used.
// Launches are asynchronous; errors of a running kernel surface at the next
// synchronisation (copy back, accelerator_view::wait) as runtime_exception.
#pragma once
#include "capture.h"
#include "tiled.h"

#if AMP_HAS_CUDA
namespace Concurrency {
namespace detail {

// Row-major index of l in e, in 32-bit arithmetic when the domain allows it
// (64-bit division is an order of magnitude slower on the GPU).
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

template <int N, class F> struct cuda_simple_kernel {
  kernel_image<F> k;
  Concurrency::extent<N> e;
  unsigned size;
  static constexpr int team = 256;
  template <class M> KOKKOS_INLINE_FUNCTION void operator()(const M& m) const {
    const unsigned l = static_cast<unsigned>(m.league_rank()) * team + static_cast<unsigned>(m.team_rank());
    if (l < size) k.fn()(delinearize_u32(l, e));
  }
};

template <int D0, int D1, int D2, class F> struct cuda_tiled_kernel {
  using shape = tile_shape<D0, D1, D2>;
  static constexpr int R = shape::rank;
  kernel_image<F> k;
  Concurrency::extent<R> tiles;
  template <class M> KOKKOS_INLINE_FUNCTION void operator()(const M& m) const {
    const Concurrency::extent<R> te = shape::tile_extent();
    const index<R> tile = delinearize_u32(static_cast<unsigned>(m.league_rank()), tiles);
    const index<R> local = delinearize_u32(static_cast<unsigned>(m.team_rank()), te);
    index<R> origin;
    for (int d = 0; d < R; ++d) origin[d] = tile[d] * te[d];
    k.fn()(tiled_index<D0, D1, D2>(origin + local, local, tile, origin));
  }
};

struct cuda_launcher {
  template <class Policy, class K> static void launch(const char* name, const Policy& p, const K& kernel) {
    try {
      Kokkos::parallel_for(name, p, kernel);
    } catch (const runtime_exception&) {
      throw;
    } catch (const std::exception& e) {
      device_memory::clear_error(); // the next launch must not report this one's error
      throw runtime_exception((std::string("kernel launch failed: ") + e.what()).c_str(), e_fail);
    }
    device_memory::check_launch();
  }

  template <int N, class F> static void simple(const Concurrency::extent<N>& e, const kernel_image<F>& k) {
    using K = cuda_simple_kernel<N, F>;
    const unsigned size = static_cast<unsigned>(e.size_64());
    const int teams = static_cast<int>((size + K::team - 1) / K::team);
    launch("amp::parallel_for_each", Kokkos::TeamPolicy<Kokkos::Cuda, Kokkos::LaunchBounds<K::team, 1>>(teams, K::team),
           K{k, e, size});
  }

  template <int D0, int D1, int D2, class F>
  static void tiled(const tiled_extent<D0, D1, D2>& te, const kernel_image<F>& k) {
    using K = cuda_tiled_kernel<D0, D1, D2, F>;
    constexpr int threads = tile_shape<D0, D1, D2>::threads;
    Concurrency::extent<K::R> tiles;
    const auto tx = tile_shape<D0, D1, D2>::tile_extent();
    for (int d = 0; d < K::R; ++d) tiles[d] = te[d] / tx[d];
    // Minimum blocks per SM = 2048 / tile size, i.e. full occupancy: without it
    // the tiled matmul of bench/ took 123 registers and ran 2.3x slower than
    // CUDA; with it, 32 registers, no spills, the same time as CUDA (H100).
    // At most 6 blocks: each may hold AMP's maximum of 32 KB of tile_static,
    // and an SM has 228 KB of shared memory (H100).
    constexpr int min_blocks = threads >= 2048 ? 1 : (2048 / threads > 6 ? 6 : 2048 / threads);
    launch("amp::parallel_for_each(tiled)",
           Kokkos::TeamPolicy<Kokkos::Cuda, Kokkos::LaunchBounds<threads, min_blocks>>(
               static_cast<int>(tiles.size_64()), threads),
           K{k, tiles});
  }
};

} // namespace detail
} // namespace Concurrency
#endif
