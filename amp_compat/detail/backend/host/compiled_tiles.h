// Host tiles compiled by tools/tile_compiler (the "compiled" host tile path).
//
// The tile compiler is a source rewrite run by the compiler launcher before
// GCC compiles a host translation unit. For a tiled kernel lambda it can prove
// safe (barriers only at places every work-item of a tile reaches together:
// see tools/tile_compiler/README.md), it turns
//     [=](tiled_index<D...> t) restrict(amp) { BODY }
// into
//     make_compiled_kernel(where, [=](auto&& a) restrict(amp) -> void {
//       if constexpr (is_tile_group<decltype(a)>) { BODY split at its barriers,
//           each piece a loop over the tile's work-items }
//       else { const auto& t = a; BODY } })
// Fibers (fiber.h) still run the kernel through the original body, one
// work-item per call; launch_host.h instead calls it once per tile with a
// tile_group when the kernel is a compiled_kernel and AMP_HOST_TILES is not
// `fibers`. A kernel the compiler refused is wrapped the same way with the
// reason (compiled_kernel(where, LAMBDA, "why")) and keeps fibers.
//
// AMP_HOST_TILES=compiled (default) | fibers chooses at run time;
// AMP_HOST_TILES_REPORT=1 prints, at the first launch of each wrapped kernel,
// which path it takes and why.
#pragma once
#include "../../config.h"
#include "../../exceptions.h"
#include "../../index.h"
#include "../../tiled.h"

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <type_traits>
#include <utility>

namespace Concurrency {
namespace detail {
namespace host_tiles {

// One tile, as the compiled body sees it: item(i) is work-item i's tiled_index
// (i = row-major local index, 0 <= i < size).
template <int D0, int D1, int D2> struct tile_group {
  using shape = tile_shape<D0, D1, D2>;
  static constexpr int rank = shape::rank;
  static constexpr int size = shape::threads;
  index<rank> tile;
  index<rank> org;
  AMP_HOST_ONLY __attribute__((always_inline)) tiled_index<D0, D1, D2> item(int i) const {
    const index<rank> l = shape::local_of(static_cast<unsigned>(i));
    return tiled_index<D0, D1, D2>(org + l, l, tile, org);
  }
  // Work-item (r, c) of a two-dimensional tile: the compiled body runs a
  // region over such a tile as a nest, rows outside, columns inside (the same
  // row-major order as item(i)), so that the column is the inner loop's own
  // index, which addresses are affine in and GCC can vectorise over (with
  // item(i) they go through i / D1 and i % D1).
  static constexpr int dim0 = D0, dim1 = D1;
  template <int R = rank, class = std::enable_if_t<R == 2>>
  AMP_HOST_ONLY __attribute__((always_inline)) tiled_index<D0, D1, D2> item(int r, int c) const {
    const index<2> l(r, c);
    return tiled_index<D0, D1, D2>(org + l, l, tile, org);
  }
};

// A compiled kernel with `return`: at a barrier that some of the tile's
// work-items returned without reaching (ret[i]: work-item i returned; not all
// of them did), the error fibers raise there (fiber.h, tile_run::diverge),
// naming the same work-item. first: no barrier of this tile has been passed yet.
template <int D0, int D1, int D2>
[[noreturn]] AMP_HOST_ONLY void diverged(const tile_group<D0, D1, D2>& g, const bool* ret, bool first) {
  using G = tile_group<D0, D1, D2>;
  int k = 1;
  const char* what;
  if (ret[0]) {
    while (k < G::size - 1 && ret[k]) ++k;
    what = first ? "waits at a barrier, but the work-items before it returned without reaching it"
                 : "waits at a barrier that work-item 0 of the tile returned without reaching";
  } else {
    while (k < G::size - 1 && !ret[k]) ++k;
    what = "returned while work-item 0 of the tile waits at a barrier";
  }
  auto str = [](const index<G::rank>& i) {
    std::string s = "(";
    for (int d = 0; d < G::rank; ++d) s += (d ? "," : "") + std::to_string(i[d]);
    return s + ")";
  };
  const std::string m = "tile_barrier::wait: divergent barrier in tile " + str(g.tile) + ": work-item " +
                         str(G::shape::local_of(static_cast<unsigned>(k))) + " (local index) " + what +
                         ". Every work-item of a tile must reach each barrier.";
  throw runtime_exception(m.c_str(), e_fail);
}

template <class T> struct is_tile_group_t : std::false_type {};
template <int D0, int D1, int D2> struct is_tile_group_t<tile_group<D0, D1, D2>> : std::true_type {};
template <class T> constexpr bool is_tile_group = is_tile_group_t<std::remove_cv_t<std::remove_reference_t<T>>>::value;

// A kernel lambda the tile compiler rewrote (callable with a tile_group), and
// one it refused, with the reason (it keeps fibers). `where` is "file:line".
template <class L> struct compiled_kernel : L {
  const char* where;
};
template <class L> struct fiber_kernel : L {
  const char* where;
  const char* why;
};
template <class L> compiled_kernel<L> make_compiled_kernel(const char* where, L&& l) {
  return compiled_kernel<L>{{std::move(l)}, where};
}
template <class L> fiber_kernel<L> make_fiber_kernel(const char* where, L&& l, const char* why) {
  return fiber_kernel<L>{{std::move(l)}, where, why};
}

template <class F> struct is_compiled_kernel_t : std::false_type {};
template <class L> struct is_compiled_kernel_t<compiled_kernel<L>> : std::true_type {};
template <class F> struct is_fiber_kernel_t : std::false_type {};
template <class L> struct is_fiber_kernel_t<fiber_kernel<L>> : std::true_type {};

// ---- Vector width of the compiled tiles
// The compiled body's region loops run the tile's work-items side by side,
// which the compiler vectorises; how wide depends on the instruction set it
// may use. Unless the whole program is built for a wider one (-march=...),
// each compiled kernel is also compiled for x86-64-v3 (AVX2) and x86-64-v4
// (AVX-512), and the widest the CPU has runs. Bits do not change: the
// compile's contraction setting holds in every copy (-ffp-contract=off by
// default: a fused multiply-add only where the user asked for one), the
// vectoriser reorders no floating-point operation (no -ffast-math), and the
// math functions stay scalar calls. What it buys: a region loop's iterations
// run 8 or 16 to an instruction, and so do x86's slow assists for denormal
// operands (bench/RESULTS.md, the binomial program).
// AMP_HOST_TILES_ISA=baseline|x86-64-v3|x86-64-v4 caps the choice (tests,
// and a user who wants one build's behaviour everywhere).
enum class isa { baseline, v3, v4 };

#if defined(__x86_64__) && !defined(__CUDA_ARCH__) && !defined(AMP_TILE_COMPILER_PASS) && \
    (defined(__GNUC__) || defined(__clang__))
#define AMP_HOST_TILES_WIDE 1
#else
#define AMP_HOST_TILES_WIDE 0
#endif

inline const char* isa_name(isa i) {
  return i == isa::v4 ? "x86-64-v4" : i == isa::v3 ? "x86-64-v3" : "baseline";
}

inline isa selected_isa() {
  static const isa chosen = [] {
    isa best = isa::baseline;
#if AMP_HOST_TILES_WIDE
    __builtin_cpu_init();
    if (__builtin_cpu_supports("x86-64-v4"))
      best = isa::v4;
    else if (__builtin_cpu_supports("x86-64-v3"))
      best = isa::v3;
#endif
    const char* env = std::getenv("AMP_HOST_TILES_ISA");
    if (!env || !*env) return best;
    for (isa cap : {isa::baseline, isa::v3, isa::v4})
      if (std::strcmp(env, isa_name(cap)) == 0) return cap < best ? cap : best;
    std::fprintf(stderr, "amp_compat: AMP_HOST_TILES_ISA=%s is not `baseline`, `x86-64-v3` or `x86-64-v4`\n", env);
    std::exit(2);
  }();
  return chosen;
}

// One tile through kernel f, in the instruction set chosen above. The wide
// copies are `flatten`: everything f(g) calls is inlined into them, so the
// kernel's own code is compiled for that instruction set (a callee compiled
// for the baseline can be inlined into a wider caller, not the reverse).
#if AMP_HOST_TILES_WIDE
template <class F, class G>
AMP_HOST_ONLY __attribute__((target("arch=x86-64-v4"), flatten)) void run_tile_v4(const F& f, const G& g) {
  f(g);
}
template <class F, class G>
AMP_HOST_ONLY __attribute__((target("arch=x86-64-v3"), flatten)) void run_tile_v3(const F& f, const G& g) {
  f(g);
}
#endif
template <class F, class G> AMP_HOST_ONLY inline void run_tile(isa i, const F& f, const G& g) {
#if AMP_HOST_TILES_WIDE
  if (i == isa::v4) return run_tile_v4(f, g);
  if (i == isa::v3) return run_tile_v3(f, g);
#endif
  (void)i;
  f(g);
}

enum class mode { compiled, fibers };

inline std::atomic<mode>& requested_mode() {
  static std::atomic<mode> m{[] {
    const char* env = std::getenv("AMP_HOST_TILES");
    if (!env || !*env || std::strcmp(env, "compiled") == 0) return mode::compiled;
    if (std::strcmp(env, "fibers") == 0) return mode::fibers;
    std::fprintf(stderr, "amp_compat: AMP_HOST_TILES=%s is not `compiled` or `fibers`\n", env);
    std::exit(2);
  }()};
  return m;
}
// For tests and benchmarks: both paths in one program.
inline void force_mode(mode m) { requested_mode().store(m); }

inline bool report_wanted() {
  static const bool on = [] {
    const char* env = std::getenv("AMP_HOST_TILES_REPORT");
    return env && *env && std::strcmp(env, "0") != 0;
  }();
  return on;
}

// The path kernel F takes now; prints it once per kernel type and path when
// AMP_HOST_TILES_REPORT is set.
template <class F> bool use_compiled(const F& f) {
  if constexpr (!is_compiled_kernel_t<F>::value && !is_fiber_kernel_t<F>::value) {
    return false;
  } else {
    constexpr bool can = is_compiled_kernel_t<F>::value;
    const bool compiled = can && requested_mode().load(std::memory_order_relaxed) == mode::compiled;
    if (report_wanted()) {
      static std::atomic<bool> said[2];
      if (!said[compiled].exchange(true)) {
        if (compiled)
          std::fprintf(stderr, "amp_compat: host tiles: kernel at %s: compiled (%s)\n", f.where,
                       isa_name(selected_isa()));
        else if constexpr (!can)
          std::fprintf(stderr, "amp_compat: host tiles: kernel at %s: fibers (%s)\n", f.where, f.why);
        else
          std::fprintf(stderr, "amp_compat: host tiles: kernel at %s: fibers (AMP_HOST_TILES=fibers)\n", f.where);
      }
    }
    return compiled;
  }
}

} // namespace host_tiles
} // namespace detail
} // namespace Concurrency
