// The portable kernel path: every parallel_for_each as an ordinary Kokkos
// dispatch on the accelerator's execution space, so that it runs on whatever
// backend the Kokkos build has (Serial, OpenMP, Threads, CUDA, and by
// construction HIP) and is seen by Kokkos Tools like any Kokkos kernel.
//
//  simple model: MDRangePolicy<Exec, Rank<N, Iterate::Right, Iterate::Right>>
//    for ranks 2..6 (row-major, AMP's order: on a GPU the innermost
//    dimension's tile is 32 wide, so a warp reads consecutive elements);
//    RangePolicy for rank 1 and over the linearised domain for ranks above 6
//    (Kokkos' MDRange stops at 6).
//  tiled model: TeamPolicy<Exec>, a league of tiles.
//    * Where a team is a real thread group (GPU execution spaces): team = tile,
//      team_rank = the tile's row-major local index; tile_static variables are
//      the team's on-chip shared memory (the block's __shared__ memory, the
//      same memory as Kokkos' level-0 scratch); barrier.wait() is the team
//      barrier (the device backend's tile_barrier, backend/backend.h, which
//      is what Kokkos' own team_barrier() is for teams of vector length 1,
//      the only ones made here). The policy carries LaunchBounds (full
//      occupancy, as the native launcher's kernels): without them Clang gave Kokkos' team kernel 123
//      registers and the tiled matmul ran 2.3x slower (bench/RESULTS.md).
//    * On host execution spaces a Kokkos team cannot hold a tile whose
//      work-items wait for each other (a team of N threads would need N OS
//      threads per tile), so a team of one runs the tile's work-items as
//      fibers (host_tiles::tile_run, fiber.h) and tile_static is that OS
//      thread's storage, as in the native host launcher.
//  fits(): a GPU tile larger than Kokkos' team_size_max for this kernel
//    cannot be a team; the dispatch (parallel_for_each.h) then uses the
//    native launcher.
//
// Labels: each dispatch is named "amp::parallel_for_each[<model>] <kernel's
// type>" (kernel_name.h), so Kokkos Tools attribute time to the user's kernel.
#pragma once
#include "kernel_name.h"
#include "backend/host/launch_host.h"

namespace Concurrency {
namespace detail {

// Whether Exec runs a team as a group of threads that can wait for each other
// (GPU backends), rather than on host threads.
template <class Exec>
constexpr bool team_is_thread_group =
    !Kokkos::SpaceAccessibility<Kokkos::HostSpace, typename Exec::memory_space>::accessible;

// ---- kernels (functors: one per model and kind of execution space)

// Simple model, MDRange: Kokkos passes the N coordinates as arguments.
template <int N, class F> struct kk_simple_md {
  kernel_image<F> k;
  template <class... I> AMP_FN void operator()(const I... i) const {
    const index<N> idx = from_components<index<N>>(i...);
    if constexpr (checked::on) checked::enter(kernel_name<F>::get("simple"), idx); // checked builds (host)
    invoke_kernel(k.fn(), idx);
  }
};
// Simple model, linear: rank 1, or ranks above 6 (delinearised).
template <int N, class F> struct kk_simple_linear {
  kernel_image<F> k;
  Concurrency::extent<N> e;
  AMP_FN void operator()(const int l) const {
    if constexpr (checked::on) checked::enter(kernel_name<F>::get("simple"), delinearize_u32(static_cast<unsigned>(l), e));
    if constexpr (N == 1) invoke_kernel(k.fn(), index<1>(l));
    else invoke_kernel(k.fn(), delinearize_u32(static_cast<unsigned>(l), e));
  }
};
// Host variants: a work-item's exception stops the launch and is rethrown on
// the calling thread (it cannot cross Kokkos' parallel region).
template <class Inner> struct kk_host_guard {
  Inner in;
  error_slot* err;
  template <class... A> AMP_HOST_ONLY void operator()(const A... a) const {
    if (err->failed.load(std::memory_order_relaxed)) return;
    try {
      target::amp_context_scope in_kernel; // restrict(cpu)/restrict(amp) pairs pick the amp version
      in(a...);
      if constexpr (checked::on) checked::leave();
    } catch (...) {
      err->set(std::current_exception());
    }
  }
};

// Tiled model on a GPU: team = tile.
template <int D0, int D1, int D2, class F> struct kk_team_tile {
  using shape = tile_shape<D0, D1, D2>;
  static constexpr int R = shape::rank;
  kernel_image<F> k;
  Concurrency::extent<R> tiles;
  template <class Member> AMP_FN void operator()(const Member& m) const {
    const index<R> tile = delinearize_u32(static_cast<unsigned>(m.league_rank()), tiles);
    const index<R> local = shape::local_of(static_cast<unsigned>(m.team_rank()));
    index<R> origin;
    for (int d = 0; d < R; ++d) origin[d] = tile[d] * shape::tile_extent()[d];
    invoke_kernel(k.fn(), tiled_index<D0, D1, D2>(origin + local, local, tile, origin));
  }
};

// ---- the launcher
template <class Exec> struct kokkos_launcher {
  static constexpr bool gpu = team_is_thread_group<Exec>;

  template <int N, class F> static void simple(const Concurrency::extent<N>& e, const kernel_image<F>& k) {
    const std::string& name = kernel_name<F>::get("simple");
    if constexpr (N >= 2 && N <= 6) {
      using policy = Kokkos::MDRangePolicy<Exec, Kokkos::Rank<N, Kokkos::Iterate::Right, Kokkos::Iterate::Right>,
                                           Kokkos::IndexType<int>>;
      typename policy::point_type lo{}, hi{};
      typename policy::tile_type tile{};
      for (int d = 0; d < N; ++d) {
        lo[d] = 0;
        hi[d] = e[d];
        tile[d] = 1;
      }
      if constexpr (gpu) { // 32 x 4 blocks over the two innermost dimensions (the native shape)
        tile[N - 1] = 32;
        tile[N - 2] = 4;
        Kokkos::parallel_for(name, policy(lo, hi, tile), kk_simple_md<N, F>{k});
      } else {
        tile[N - 1] = e[N - 1]; // whole rows: the innermost loop is the user's contiguous one
        run_host(name, policy(lo, hi, tile), kk_simple_md<N, F>{k});
      }
    } else {
      using policy = Kokkos::RangePolicy<Exec, Kokkos::IndexType<int>>;
      const policy p(0, static_cast<int>(e.size_64()));
      if constexpr (gpu) Kokkos::parallel_for(name, p, kk_simple_linear<N, F>{k, e});
      else run_host(name, p, kk_simple_linear<N, F>{k, e});
    }
  }

  // Whether this launcher can run tiles of this shape and kernel.
  template <int D0, int D1, int D2, class F> static bool fits(const tiled_extent<D0, D1, D2>&, const kernel_image<F>& k) {
    if constexpr (gpu) {
      using shape = tile_shape<D0, D1, D2>;
      const auto p = team_policy<D0, D1, D2>(1);
      return p.team_size_max(kk_team_tile<D0, D1, D2, F>{k, {}}, Kokkos::ParallelForTag()) >= shape::threads;
    } else {
      return true;
    }
  }
  template <int N, class F> static bool fits(const Concurrency::extent<N>&, const kernel_image<F>&) { return true; }

  template <int D0, int D1, int D2, class F>
  static void tiled(const tiled_extent<D0, D1, D2>& te, const kernel_image<F>& k) {
    using shape = tile_shape<D0, D1, D2>;
    constexpr int R = shape::rank;
    Concurrency::extent<R> tiles;
    for (int d = 0; d < R; ++d) tiles[d] = te[d] / shape::tile_extent()[d];
    const int league = static_cast<int>(tiles.size_64());
    const std::string& name = kernel_name<F>::get("tiled");
    if constexpr (gpu) {
      Kokkos::parallel_for(name, team_policy<D0, D1, D2>(league), kk_team_tile<D0, D1, D2, F>{k, tiles});
    } else {
      team_fiber_tiles<Exec>(te, k);
    }
  }

private:
  template <int D0, int D1, int D2>
  using gpu_team_policy =
      Kokkos::TeamPolicy<Exec, Kokkos::IndexType<int>,
                         Kokkos::LaunchBounds<gpu_tile_bounds<D0, D1, D2>::threads, gpu_tile_bounds<D0, D1, D2>::min_blocks>>;
  template <int D0, int D1, int D2> static gpu_team_policy<D0, D1, D2> team_policy(int league) {
    return gpu_team_policy<D0, D1, D2>(league, tile_shape<D0, D1, D2>::threads, 1);
  }

  template <class Policy, class Inner> static void run_host(const std::string& name, const Policy& p, const Inner& in) {
    error_slot err;
    Kokkos::parallel_for(name, p, kk_host_guard<Inner>{in, &err});
    Kokkos::fence();
    err.rethrow();
  }
};

} // namespace detail
} // namespace Concurrency
