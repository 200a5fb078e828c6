// Kernels on host accelerators (Kokkos Serial / OpenMP / Threads): the native
// host path (launch_kokkos.h has the portable one).
//  simple model: a RangePolicy over blocks of the innermost dimension; each
//    block is a plain loop, so the compiler sees the user's body inline.
//  tiled model: a RangePolicy over runs of consecutive tiles; each tile's
//    work-items run through host_tiles::tile_run (plain loop, fibers at barriers),
//    or, for a kernel the tile compiler rewrote (compiled_tiles.h), through
//    one call per tile of its compiled body, which loops over the work-items
//    between barriers itself (its fibers form, AMP_HOST_TILES=fibers, is the
//    portable path's league of teams of one: team_fiber_tiles).
// An exception from a work-item stops the remaining work and is rethrown on the
// calling thread once the parallel region has ended (it cannot cross OpenMP).
#pragma once
#include "../../capture.h"
#include "../../checked.h"
#include "compiled_tiles.h"
#include "fiber.h"
#include "int_division.h"
#include "../../kernel_name.h"
#include "../../tiled.h"

#include <atomic>
#include <exception>
#include <mutex>
#include <sstream>

namespace Concurrency {
namespace detail {

// Every host launch has one. Its work-items' integer divisions by zero give
// Direct3D's results instead of ending the program (int_division.h).
struct error_slot {
  error_slot() { int_division::arm(); }
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

// For error messages: "tile (..): work-item (..) (local index)"; c is a tile_ctx<R>.
template <int R> std::string describe_tile(const void* c, int item) {
  const auto* ctx = static_cast<const tile_ctx<R>*>(c);
  return "tile " + to_string(ctx->tile) + ": work-item " + to_string(delinearize(item, ctx->tile_ext)) +
         " (local index)";
}

// One tile of a host tiled launch, in the form host_tiles::tile_run runs it:
// (*this)(item) runs one work-item (item = row-major local index); rest(item)
// runs work-items 1.. in order, keeping `item` at the one running. Holds its
// indices by value: tile_run publishes the body's address, and a body reading
// them through it could not keep them in registers. Everything is forced
// inline: in the fibers' loop, a call that a barrier switched away from
// returns mispredicted; in the plain loop, the compiler sees the kernel.
template <int D0, int D1, int D2, class F> struct host_tile_body {
  using shape = tile_shape<D0, D1, D2>;
  static constexpr int R = shape::rank;
  const F* f;
  index<R> tile;
  index<R> org;

  AMP_HOST_ONLY __attribute__((always_inline)) void at(const index<R>& local) const {
    if constexpr (checked::on) return checked_at(local);
    invoke_kernel(*f, tiled_index<D0, D1, D2>(org + local, local, tile, org));
  }
  // Checked builds (checked.h): the work-item is published for reports, and
  // the tile_static guard zones are verified after its part of the tile.
  AMP_HOST_ONLY void checked_at(const index<R>& local) const {
    const tiled_index<D0, D1, D2> t(org + local, local, tile, org);
    checked::enter_tiled(kernel_name<F>::get("tiled"), t);
    invoke_kernel(*f, t);
    checked::verify("at the end of the work-item");
    checked::end_segment();
  }
  AMP_HOST_ONLY __attribute__((always_inline)) void operator()(int item) const {
    if constexpr (checked::on) item = checked::ordered(item, shape::threads);
    at(shape::local_of(static_cast<unsigned>(item)));
  }
  // Nested loops, like the simple model's rows: the innermost index is the
  // only one that changes from one work-item to the next.
  AMP_HOST_ONLY __attribute__((always_inline)) void rest(int& item) const {
    if constexpr (checked::on) { // in AMP_CHECKED_ORDER's order
      for (item = 1; item < shape::threads; ++item) (*this)(item);
      return;
    }
    index<R> l;
    if constexpr (R == 1) {
      for (item = 1; item < D0; ++item) {
        l[0] = item;
        at(l);
      }
    } else if constexpr (R == 2) {
      item = 1;
      for (int a = 0; a < D0; ++a) {
        l[0] = a;
        for (int c = a == 0; c < D1; ++c, ++item) {
          l[1] = c;
          at(l);
        }
      }
    } else {
      item = 1;
      for (int a = 0; a < D0; ++a) {
        l[0] = a;
        for (int b = 0; b < D1; ++b) {
          l[1] = b;
          for (int c = a == 0 && b == 0; c < D2; ++c, ++item) {
            l[2] = c;
            at(l);
          }
        }
      }
    }
  }
};

// A tiled launch as a Kokkos league of tiles, each a team of one whose OS
// thread runs the tile's work-items as fibers (a team of N threads would need
// N OS threads per tile). It serves the portable path on host execution
// spaces and the fibers form (AMP_HOST_TILES=fibers) of a kernel the tile
// compiler compiled, so that such a kernel's work-items are compiled as
// fibers once per space, not once per launcher (bench/RESULTS.md, "Compile
// times, sixth round").
template <int D0, int D1, int D2, class F> struct fiber_team_tile {
  using shape = tile_shape<D0, D1, D2>;
  static constexpr int R = shape::rank;
  const kernel_image<F>* k;
  Concurrency::extent<R> tiles;
  error_slot* err;
  template <class Member> AMP_HOST_ONLY void operator()(const Member& m) const {
    if (err->failed.load(std::memory_order_relaxed)) return;
    try {
      target::amp_context_scope in_kernel; // the tile's fibers share this thread
      tile_ctx<R> ctx{delinearize(m.league_rank(), tiles), shape::tile_extent()};
      host_tile_body<D0, D1, D2, F> body{&k->fn(), ctx.tile, {}};
      for (int d = 0; d < R; ++d) body.org[d] = ctx.tile[d] * ctx.tile_ext[d];
      host_tiles::tile_run::local().run(shape::threads, body, &describe_tile<R>, &ctx);
      if constexpr (checked::on) checked::leave();
    } catch (...) {
      err->set(std::current_exception());
    }
  }
};
template <class Exec, int D0, int D1, int D2, class F>
void team_fiber_tiles(const tiled_extent<D0, D1, D2>& te, const kernel_image<F>& k) {
  using shape = tile_shape<D0, D1, D2>;
  constexpr int R = shape::rank;
  Concurrency::extent<R> tiles;
  for (int d = 0; d < R; ++d) tiles[d] = te[d] / shape::tile_extent()[d];
  error_slot err;
  Kokkos::parallel_for(kernel_name<F>::get("tiled"),
                       Kokkos::TeamPolicy<Exec, Kokkos::IndexType<int>>(static_cast<int>(tiles.size_64()), 1),
                       fiber_team_tile<D0, D1, D2, F>{&k, tiles, &err});
  Kokkos::fence();
  err.rethrow();
}

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
        kernel_name<F>::get("simple"), Kokkos::RangePolicy<Exec, Kokkos::IndexType<long long>>(0, units),
        [&, rows, inner, blocks_per_row](long long u) AMP_HOST_ONLY {
          if (err.failed.load(std::memory_order_relaxed)) return;
          try {
            target::amp_context_scope in_kernel;
            const long long b = u % blocks_per_row;
            index<N> i = delinearize(u / blocks_per_row, rows);
            const int end = static_cast<int>(std::min(inner, (b + 1) * block));
            const F& f = k.fn();
            for (int j = static_cast<int>(b * block); j < end; ++j) {
              i[N - 1] = j;
              if constexpr (checked::on) checked::enter(kernel_name<F>::get("simple"), i);
              invoke_kernel(f, i);
            }
            if constexpr (checked::on) checked::leave();
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
    if (host_tiles::use_compiled(k.fn())) { // reports the path; false unless F is a compiled_kernel
      if constexpr (host_tiles::is_compiled_kernel_t<F>::value) {
        // A kernel the tile compiler rewrote: one call per tile, no fibers, in
        // the baseline copy or a wider one (compiled_tiles.h, "Vector width").
        using host_tiles::isa;
        const host_tiles::isa_request& r = host_tiles::requested_isa();
        if constexpr (host_tiles::wide_isas && host_tiles::is_compiled_kernel_t<F>::wide) {
          if (r.measured)
            return r.widest == isa::v4 ? measured_tiles<D0, D1, D2, int(isa::v4)>(te, k.fn())
                                       : measured_tiles<D0, D1, D2, int(isa::v3)>(te, k.fn());
          if (r.fixed == isa::v4) return compiled_tiles<D0, D1, D2, int(isa::v4)>(te, k.fn());
          if (r.fixed == isa::v3) return compiled_tiles<D0, D1, D2, int(isa::v3)>(te, k.fn());
        }
        return compiled_tiles<D0, D1, D2, int(isa::baseline)>(te, k.fn());
      }
    }
    if constexpr (host_tiles::is_compiled_kernel_t<F>::value) {
      // Its fibers form (AMP_HOST_TILES=fibers) is the portable path's.
      return team_fiber_tiles<Exec>(te, k);
    } else {
      const Concurrency::extent<R> tile_ext = shape::tile_extent();
      return each_tile<shape, F>(te, [&k, tile_ext](const index<R>& tile, const index<R>& org) {
        // Each Kokkos iteration's thread runs its tiles' work-items as fibers.
        tile_ctx<R> ctx{tile, tile_ext};
        host_tile_body<D0, D1, D2, F> body{&k.fn(), ctx.tile, org};
        tile_run::local().run(shape::threads, body, &describe_tile<R>, &ctx);
        if constexpr (checked::on) checked::leave();
      });
    }
  }

private:
  // A compiled kernel's tiles in instruction set I (host_tiles::run_in).
  template <int D0, int D1, int D2, int I, class F>
  static void compiled_tiles(const tiled_extent<D0, D1, D2>& te, const F& f) {
    using shape = tile_shape<D0, D1, D2>;
    using group = host_tiles::tile_group<D0, D1, D2, I>;
    constexpr int R = shape::rank;
    each_tile<shape, F>(te, [&f](const index<R>& tile, const index<R>& org) {
      group g{tile, org};
      host_tiles::run_in<I>::tile(f, g);
    });
  }

  // A compiled kernel's tiles, the baseline copy or the widest (W) as
  // measured on its first tiles (host_tiles::isa_choice). One call site per
  // copy, and a tile_group tag of its own for this baseline instance, so
  // that each instance has one caller and is inlined into it.
  template <int D0, int D1, int D2, int W, class F>
  static void measured_tiles(const tiled_extent<D0, D1, D2>& te, const F& f) {
    using shape = tile_shape<D0, D1, D2>;
    using base_group = host_tiles::tile_group<D0, D1, D2, host_tiles::measured_baseline>;
    using wide_group = host_tiles::tile_group<D0, D1, D2, W>;
    constexpr int R = shape::rank;
    host_tiles::isa_choice& c = host_tiles::choice_of<F>(host_tiles::where_of(f), static_cast<host_tiles::isa>(W));
    each_tile<shape, F>(te, [&f, &c](const index<R>& tile, const index<R>& org) {
      bool in_sample;
      const bool wide = c.begin(in_sample) == 1;
      const auto t0 = in_sample ? std::chrono::steady_clock::now() : std::chrono::steady_clock::time_point{};
      if (wide) {
        wide_group g{tile, org};
        host_tiles::run_in<W>::tile(f, g);
      } else {
        base_group g{tile, org};
        f(g);
      }
      if (in_sample)
        c.end(std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - t0).count());
    });
  }

  // The one schedule of tiled kernels on the host: runs of consecutive tiles
  // of about `block` work-items per Kokkos iteration (small tiles then cost no
  // more scheduling than the simple model's blocks), row-major, in AMP
  // context; per_tile(tile, origin) runs one tile. The first exception stops
  // the remaining iterations and is rethrown after the fence.
  template <class shape, class F, int R, class Tile>
  static void each_tile(const Concurrency::extent<R>& te, const Tile& per_tile) {
    const Concurrency::extent<R> tile_ext = shape::tile_extent();
    Concurrency::extent<R> tiles;
    for (int d = 0; d < R; ++d) tiles[d] = te[d] / tile_ext[d];
    constexpr long long per_unit = shape::threads >= block ? 1 : block / shape::threads;
    const long long n_tiles = tiles.size_64();
    const long long units = (n_tiles + per_unit - 1) / per_unit;
    error_slot err;
    Kokkos::parallel_for(
        kernel_name<F>::get("tiled"), Kokkos::RangePolicy<Exec, Kokkos::IndexType<long long>>(0, units),
        [&, tiles, tile_ext, n_tiles](long long u) AMP_HOST_ONLY {
          if (err.failed.load(std::memory_order_relaxed)) return;
          try {
            target::amp_context_scope in_kernel;
            const long long first = u * per_unit;
            const long long end = std::min(n_tiles, first + per_unit);
            index<R> tile = delinearize(first, tiles), org;
            for (long long t = first; t < end; ++t) {
              for (int d = 0; d < R; ++d) org[d] = tile[d] * tile_ext[d];
              per_tile(tile, org);
              for (int d = R - 1; d >= 0; --d) { // the next tile, row-major
                if (++tile[d] < tiles[d]) break;
                tile[d] = 0;
              }
            }
          } catch (...) {
            err.set(std::current_exception());
          }
        });
    Kokkos::fence();
    err.rethrow();
  }

  using tile_run = host_tiles::tile_run;
};

} // namespace detail
} // namespace Concurrency
