// Kernels on host accelerators (Kokkos Serial / OpenMP).
//  simple model: a RangePolicy over blocks of the innermost dimension; each
//    block is a plain loop, so the compiler sees the user's body inline.
//  tiled model: a TeamPolicy with one single-thread team per tile; the tile's
//    work-items run through host_tiles::tile_run (plain loop, fibers at barriers).
// An exception from a work-item stops the remaining work and is rethrown on the
// calling thread once the parallel region has ended (it cannot cross OpenMP).
#pragma once
#include "capture.h"
#include "fiber.h"
#include "tiled.h"

#include <atomic>
#include <exception>
#include <mutex>
#include <sstream>

namespace Concurrency {
namespace detail {

struct error_slot {
  std::atomic<bool> failed{false};
  std::exception_ptr error;
  std::mutex m;
  void set(std::exception_ptr e) {
    std::lock_guard<std::mutex> g(m);
    if (!error) error = e;
    failed.store(true, std::memory_order_relaxed);
  }
  void rethrow() {
    if (error) std::rethrow_exception(error);
  }
};

template <int N> std::string to_string(const index<N>& i) {
  std::ostringstream s;
  s << '(';
  for (int d = 0; d < N; ++d) s << (d ? "," : "") << i[d];
  s << ')';
  return s.str();
}

template <int R> struct tile_ctx {
  index<R> tile;
  Concurrency::extent<R> tile_ext;
};

template <class Exec> struct host_launcher {
  static constexpr long long block = 1024;

  template <int N, class F> static void simple(const Concurrency::extent<N>& e, const kernel_image<F>& k) {
    const long long inner = e[N - 1];
    const long long blocks_per_row = (inner + block - 1) / block;
    const long long units = e.size_64() / inner * blocks_per_row;
    Concurrency::extent<N> rows = e;
    rows[N - 1] = 1;
    error_slot err;
    Kokkos::parallel_for(
        "amp::parallel_for_each", Kokkos::RangePolicy<Exec, Kokkos::IndexType<long long>>(0, units),
        [&, rows, inner, blocks_per_row](long long u) AMP_HOST_ONLY {
          if (err.failed.load(std::memory_order_relaxed)) return;
          try {
            const long long b = u % blocks_per_row;
            index<N> i = delinearize(u / blocks_per_row, rows);
            const int end = static_cast<int>(std::min(inner, (b + 1) * block));
            const F& f = k.fn();
            for (int j = static_cast<int>(b * block); j < end; ++j) {
              i[N - 1] = j;
              f(i);
            }
          } catch (...) {
            err.set(std::current_exception());
          }
        });
    Kokkos::fence();
    err.rethrow();
  }

  template <int D0, int D1, int D2, class F>
  static void tiled(const tiled_extent<D0, D1, D2>& te, const kernel_image<F>& k) {
    using shape = tile_shape<D0, D1, D2>;
    constexpr int R = shape::rank;
    const Concurrency::extent<R> tile_ext = shape::tile_extent();
    Concurrency::extent<R> tiles;
    for (int d = 0; d < R; ++d) tiles[d] = te[d] / tile_ext[d];
    error_slot err;
    using ctx_t = tile_ctx<R>;
    Kokkos::parallel_for(
        "amp::parallel_for_each(tiled)", Kokkos::TeamPolicy<Exec>(static_cast<int>(tiles.size_64()), 1),
        [&, tiles, tile_ext](const typename Kokkos::TeamPolicy<Exec>::member_type& m) AMP_HOST_ONLY {
          if (err.failed.load(std::memory_order_relaxed)) return;
          try {
            ctx_t ctx{delinearize(m.league_rank(), tiles), tile_ext};
            index<R> org;
            for (int d = 0; d < R; ++d) org[d] = ctx.tile[d] * tile_ext[d];
            const F& f = k.fn();
            auto body = [&](int item) AMP_HOST_ONLY {
              const index<R> local = delinearize(item, tile_ext);
              f(tiled_index<D0, D1, D2>(org + local, local, ctx.tile, org));
            };
            tile_run::local().run(shape::threads, body, &describe<R>, &ctx);
          } catch (...) {
            err.set(std::current_exception());
          }
        });
    Kokkos::fence();
    err.rethrow();
  }

private:
  using tile_run = host_tiles::tile_run;
  template <int R> static std::string describe(const void* c, int item) {
    const auto* ctx = static_cast<const tile_ctx<R>*>(c);
    return "tile " + to_string(ctx->tile) + ": work-item " + to_string(delinearize(item, ctx->tile_ext)) +
           " (local index)";
  }
};

} // namespace detail
} // namespace Concurrency
