// tiled_extent, tiled_index, tile_barrier and the fence functions (AMP spec 4.3-4.5).
#pragma once
#include "index.h"
#include "target.h"

namespace Concurrency {

class tile_barrier {
public:
  AMP_FN tile_barrier(const tile_barrier&) = default;
  AMP_FN void wait() const { detail::target::tile_barrier(); }
  AMP_FN void wait_with_all_memory_fence() const { detail::target::tile_barrier(); }
  AMP_FN void wait_with_global_memory_fence() const { detail::target::tile_barrier(); }
  AMP_FN void wait_with_tile_static_memory_fence() const { detail::target::tile_barrier(); }
#if AMP_MS_EXTENSIONS || defined(AMP_COMPAT_WINDOWS)
  // Visual C++ runs no constructor for a tile_static object, so a class
  // with a tile_barrier member may be declared tile_static and its member
  // assigned later (`tile_static Queen q; ... q.barrier = t.barrier;`, a
  // public ant colony app). Here tile_static objects are constructed, which
  // needs the default constructor: public with --msvc and --windows-compat
  // (a tile_barrier holds nothing; any copy waits on the work-item's tile).
  AMP_FN tile_barrier() = default;
#else

private:
  AMP_FN tile_barrier() = default;
#endif
  template <int, int, int> friend class tiled_index;
};

AMP_FN void all_memory_fence(const tile_barrier&) { detail::target::fence_global(); }
AMP_FN void global_memory_fence(const tile_barrier&) { detail::target::fence_global(); }
AMP_FN void tile_static_memory_fence(const tile_barrier&) { detail::target::fence_tile_static(); }

namespace detail {
// The shape of a tile as a type: tiled_extent and tiled_index only require
// positive dimensions (AMP lets a program name tiled_extent<2048> and use it
// as an extent: pad(), truncate(), comparisons). The limits on what may be
// launched (1024 work-items, D0 <= 64 in 3-D) are tile_launch_limits below,
// checked by the tiled parallel_for_each overloads.
template <int D0, int D1, int D2> struct tile_shape {
  static constexpr int rank = D2 > 0 ? 3 : (D1 > 0 ? 2 : 1);
  static_assert(D0 > 0 && D1 >= 0 && D2 >= 0 && !(D1 == 0 && D2 > 0),
                "C++ AMP: tile dimensions must be positive (tiled_extent<D0>, <D0,D1> or <D0,D1,D2>)");
  // Work-items per tile; 64-bit, as a shape that may never be launched can
  // exceed INT_MAX (tiled_extent<INT_MAX - 1, 2>).
  static constexpr long long threads_64 =
      static_cast<long long>(D0) * (D1 > 0 ? D1 : 1) * (D2 > 0 ? D2 : 1);
  // For launchers only (after tile_launch_limits held): fits in an int.
  static constexpr int threads = threads_64 <= 1024 ? static_cast<int>(threads_64) : 1024;
  AMP_FN static extent<rank> tile_extent() {
    extent<rank> e;
    const int dims[3] = {D0, D1, D2};
    for (int d = 0; d < rank; ++d) e[d] = dims[d];
    return e;
  }
  // The local index of work-item `item` (row-major within the tile). The
  // shape is a compile-time constant: no division remains.
  AMP_FN static index<rank> local_of(unsigned item) {
    index<rank> l;
    if constexpr (rank == 1) {
      l[0] = static_cast<int>(item);
    } else if constexpr (rank == 2) {
      l[0] = static_cast<int>(item / D1);
      l[1] = static_cast<int>(item % D1);
    } else {
      l[0] = static_cast<int>(item / (D1 * D2));
      l[1] = static_cast<int>(item / D2 % D1);
      l[2] = static_cast<int>(item % D2);
    }
    return l;
  }
};

// What AMP allows a tiled parallel_for_each to launch (compile-time errors,
// as in AMP: the tile's shape is part of the kernel's type).
template <int D0, int D1, int D2> struct tile_launch_limits {
  using shape = tile_shape<D0, D1, D2>;
  static_assert(shape::threads_64 <= 1024, "C++ AMP: a tile may hold at most 1024 threads (D0*D1*D2 <= 1024)");
  static_assert(shape::rank != 3 || D0 <= 64, "C++ AMP: in a 3-D tile, D0 must be at most 64");
  static constexpr bool ok = shape::threads_64 <= 1024 && (shape::rank != 3 || D0 <= 64);
};

// Launch bounds of a GPU tile (native kernels and the portable TeamPolicy
// alike): full occupancy, 2048 threads per SM and at most 32 blocks. That caps
// registers at 32 per thread for tiles of 64 or more. On the H100 this was the
// fastest setting for every bench/ kernel: the tiled matmul ran 17.4 ms with a
// minimum of 6 blocks (40 registers), 16.9 ms (as fast as the hand-written kernel)
// with 8. Without any
// minimum, Kokkos' launch of the same kernel took 123 registers and ran 2.3x
// slower. The bound limits registers only: a tile with 32 KB of tile_static
// still launches, at the occupancy its shared memory allows.
template <int D0, int D1, int D2> struct gpu_tile_bounds {
  static constexpr int threads = tile_shape<D0, D1, D2>::threads;
  static constexpr int warps_threads = (threads + 31) / 32 * 32; // what a block occupies
  static constexpr int min_blocks = 2048 / warps_threads > 32 ? 32 : 2048 / warps_threads;
};
} // namespace detail

template <int D0, int D1, int D2>
class tiled_extent : public extent<detail::tile_shape<D0, D1, D2>::rank> {
  using shape = detail::tile_shape<D0, D1, D2>;
  using base = extent<shape::rank>;

public:
  static constexpr int rank = shape::rank;
  static constexpr int tile_dim0 = D0;
  static constexpr int tile_dim1 = D1;
  static constexpr int tile_dim2 = D2;

  AMP_FN tiled_extent() : tile_extent(shape::tile_extent()) {}
  AMP_FN tiled_extent(const base& e) : base(e), tile_extent(shape::tile_extent()) {}
  AMP_FN tiled_extent(const tiled_extent& o) : base(o), tile_extent(shape::tile_extent()) {}
  AMP_FN tiled_extent& operator=(const tiled_extent& o) {
    base::operator=(o);
    return *this;
  }

  AMP_FN base get_tile_extent() const { return shape::tile_extent(); }
  // Rounds each dimension up (pad) or down (truncate) to a multiple of the tile.
  // pad() rounds in 64 bits: e + tile - 1 overflows an int for tiles and
  // extents near INT_MAX, whose padded size may still fit.
  AMP_FN tiled_extent pad() const {
    base e = *this;
    for (int d = 0; d < rank; ++d) {
      const long long t = tile_extent[d];
      e[d] = static_cast<int>((e[d] + t - 1) / t * t);
    }
    return e;
  }
  AMP_FN tiled_extent truncate() const {
    base e = *this;
    for (int d = 0; d < rank; ++d) e[d] = e[d] / tile_extent[d] * tile_extent[d];
    return e;
  }
  AMP_FN friend bool operator==(const tiled_extent& a, const tiled_extent& b) {
    return static_cast<const base&>(a) == static_cast<const base&>(b);
  }
  AMP_FN friend bool operator!=(const tiled_extent& a, const tiled_extent& b) { return !(a == b); }

  // Property, as MSVC's __declspec(property) exposes it.
  base tile_extent;
};

template <int D0, int D1 = 0, int D2 = 0> class tiled_index {
  using shape = detail::tile_shape<D0, D1, D2>;

public:
  static constexpr int rank = shape::rank;
  static constexpr int tile_dim0 = D0;
  static constexpr int tile_dim1 = D1;
  static constexpr int tile_dim2 = D2;

  // Built by the runtime for each work-item.
  AMP_FN tiled_index(const index<rank>& g, const index<rank>& l, const index<rank>& t, const index<rank>& o)
      : global(g), local(l), tile(t), tile_origin(o), barrier() {}
  AMP_FN tiled_index(const index<rank>& g, const index<rank>& l, const index<rank>& t, const index<rank>& o,
                     const tile_barrier&)
      : tiled_index(g, l, t, o) {}
  AMP_FN tiled_index(const tiled_index&) = default;

  AMP_FN operator const index<rank>() const { return global; }
  AMP_FN extent<rank> get_tile_extent() const { return shape::tile_extent(); }

  const index<rank> global;
  const index<rank> local;
  const index<rank> tile;
  const index<rank> tile_origin;
  const tile_barrier barrier;
  const extent<rank> tile_extent = shape::tile_extent();
};
} // namespace Concurrency
