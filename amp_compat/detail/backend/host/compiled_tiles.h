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
// reason (fiber_kernel(where, LAMBDA, "why")) and keeps fibers. A function
// object's class instead gains an operator() template taking the tile_group
// beside its own, and static members naming the kernel (functor_compiled,
// functor_fibers below).
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
#include <chrono>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>
#include <string>
#include <type_traits>
#include <utility>

namespace Concurrency {
namespace detail {
namespace host_tiles {

// One tile, as the compiled body sees it: item(i) is work-item i's tiled_index
// (i = row-major local index, 0 <= i < size). ISA: the instruction set the
// tile runs in (host_tiles::isa, below); a type of its own per instruction
// set, so that each has its own instance of the kernel's per-tile body.
template <int D0, int D1, int D2, int ISA = 0> struct tile_group {
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
// Out of line and one instance per tile shape: the wider copies inline every
// call they make (`flatten`), and an error's text need not be built three times.
template <int D0, int D1, int D2>
[[noreturn, gnu::noinline, gnu::cold]] AMP_HOST_ONLY void diverged_in(const index<tile_shape<D0, D1, D2>::rank>& tile,
                                                                       const bool* ret, bool first) {
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
  const std::string m = "tile_barrier::wait: divergent barrier in tile " + str(tile) + ": work-item " +
                         str(G::shape::local_of(static_cast<unsigned>(k))) + " (local index) " + what +
                         ". Every work-item of a tile must reach each barrier.";
  throw runtime_exception(m.c_str(), e_fail);
}
template <int D0, int D1, int D2, int ISA>
[[noreturn]] AMP_HOST_ONLY inline void diverged(const tile_group<D0, D1, D2, ISA>& g, const bool* ret, bool first) {
  diverged_in<D0, D1, D2>(g.tile, ret, first);
}

// A tiled kernel's tile_static array as the tile compiler declares it, in
// the compiled branch and in the body fibers run (`tile_static T a[N];`
// becomes `tile_static tile_static_slack<T[N]> s; auto& a = s.value;`): the array,
// then as many bytes again (at most 64 KiB) that nothing else uses. On the
// host tile_static storage is thread-local, and every thread-local of the
// program (the runtime's own state, the C library's thread control block
// after the executable's block) lies next to some array; a kernel that
// writes past its array (AMD's Bolt scan writes half a tile past `lds`,
// which a GPU keeps inside the group's shared memory) would overwrite them
// and crash later, elsewhere. The slack keeps such writes inside storage of
// the kernel's own, as shared memory does; `--checked` reports them. The
// array is a member as declared: its elements are built (or not) as the
// original declaration builds them.
template <class A> struct tile_static_slack {
  A value;
  unsigned char slack[sizeof(A) < 65536 ? sizeof(A) : 65536];
};

// Per-work-item storage of a class-type value that lives across a barrier
// and is not trivially copyable (the compiled body keeps such a value in an
// array of these instead of a plain array): work-item i's value is built in
// slot(i) by its declaration's own initialiser each time the declaration
// runs (the previous one destroyed first, as leaving its scope would have),
// and the last ones are destroyed with the tile.
template <class T, int N> struct item_slots {
  alignas(T) unsigned char raw[N][sizeof(T)];
  bool live[N] = {};
  AMP_HOST_ONLY __attribute__((always_inline)) T& operator[](int i) {
    return *std::launder(reinterpret_cast<T*>(raw[i]));
  }
  AMP_HOST_ONLY __attribute__((always_inline)) void* slot(int i) {
    if (live[i]) (*this)[i].~T();
    live[i] = false;
    return raw[i];
  }
  AMP_HOST_ONLY __attribute__((always_inline)) void made(int i) { live[i] = true; }
  item_slots() = default;
  item_slots(const item_slots&) = delete;
  item_slots& operator=(const item_slots&) = delete;
  AMP_HOST_ONLY ~item_slots() {
    for (int i = 0; i < N; ++i)
      if (live[i]) (*this)[i].~T();
  }
};

template <class T> struct is_tile_group_t : std::false_type {};
template <int D0, int D1, int D2, int ISA> struct is_tile_group_t<tile_group<D0, D1, D2, ISA>> : std::true_type {};
template <class T> constexpr bool is_tile_group = is_tile_group_t<std::remove_cv_t<std::remove_reference_t<T>>>::value;

// A kernel lambda the tile compiler rewrote (callable with a tile_group), and
// one it refused, with the reason (it keeps fibers). `where` is "file:line".
// Wide: the kernel is also built in the wider instruction-set copies ("Vector
// width", below); the tile compiler writes make_compiled_kernel<false> for a
// kernel whose body has no arithmetic they speed up (no product, quotient or
// math function of its data: tools/tile_compiler/vector_width.cpp), which
// is built in the baseline copy only.
template <class L, bool Wide = true> struct compiled_kernel : L {
  const char* where;
};
template <class L> struct fiber_kernel : L {
  const char* where;
  const char* why;
};
// A kernel that only hands its tiled_index to a function object it captured
// (a library's launcher: `[=](tiled_index<N> t) restrict(amp) { f(t); }`,
// f the user's kernel), rewritten so that a tile_group is handed on too:
// compiled exactly where F is (its copies F's), else it keeps fibers.
template <class L, class F> struct forward_kernel : L {
  const char* where;
  const char* why;
};
template <class F, class L> forward_kernel<L, F> make_forward_kernel(const char* where, L&& l) {
  return forward_kernel<L, F>{{std::move(l)}, where, "it hands its tiled_index to a function object that keeps fibers"};
}
template <bool Wide = true, class L> compiled_kernel<L, Wide> make_compiled_kernel(const char* where, L&& l) {
  return compiled_kernel<L, Wide>{{std::move(l)}, where};
}
template <class L> fiber_kernel<L> make_fiber_kernel(const char* where, L&& l, const char* why) {
  return fiber_kernel<L>{{std::move(l)}, where, why};
}

// A function object the tile compiler rewrote (its class gained an
// operator() taking a tile_group, `amp_ht_where()` and `using
// amp_ht_compiled_self = CLASS;`), or refused (`amp_ht_where()`,
// `amp_ht_why()`, `using amp_ht_fibers_self = CLASS;`). The alias must name
// F itself: a class derived from a rewritten one has an operator() of its own.
template <class F, class = void> struct functor_compiled : std::false_type {};
template <class F>
struct functor_compiled<F, std::enable_if_t<std::is_same<typename F::amp_ht_compiled_self, F>::value>>
    : std::true_type {};
template <class F, class = void> struct functor_fibers : std::false_type {};
template <class F>
struct functor_fibers<F, std::enable_if_t<std::is_same<typename F::amp_ht_fibers_self, F>::value>>
    : std::true_type {};

// ::wide: a compiled kernel with the wider copies (a lambda's
// compiled_kernel<L, W>, a rewritten function object's amp_ht_wide).
template <class F, bool = functor_compiled<F>::value> struct is_compiled_kernel_t : std::false_type {
  static constexpr bool wide = false;
};
template <class F> struct is_compiled_kernel_t<F, true> : std::true_type {
  static constexpr bool wide = F::amp_ht_wide;
};
template <class L, bool W> struct is_compiled_kernel_t<compiled_kernel<L, W>, false> : std::true_type {
  static constexpr bool wide = W;
};
template <class L, class F> struct is_compiled_kernel_t<forward_kernel<L, F>, false> : is_compiled_kernel_t<F> {};
template <class F> struct is_fiber_kernel_t : functor_fibers<F> {};
template <class L> struct is_fiber_kernel_t<fiber_kernel<L>> : std::true_type {};
template <class L, class F>
struct is_fiber_kernel_t<forward_kernel<L, F>> : std::integral_constant<bool, !is_compiled_kernel_t<F>::value> {};

// The kernel's "file:line" and, on fibers, the reason: a wrapped lambda's
// members, or a rewritten function object's static functions.
template <class F> struct is_wrapped_t : std::false_type {};
template <class L, bool W> struct is_wrapped_t<compiled_kernel<L, W>> : std::true_type {};
template <class L> struct is_wrapped_t<fiber_kernel<L>> : std::true_type {};
template <class L, class F> struct is_wrapped_t<forward_kernel<L, F>> : std::true_type {};
template <class F> const char* where_of(const F& f) {
  if constexpr (is_wrapped_t<F>::value) return f.where;
  else return F::amp_ht_where();
}
template <class F> const char* why_of(const F& f) {
  if constexpr (is_wrapped_t<F>::value) return f.why;
  else return F::amp_ht_why();
}

inline bool report_wanted() {
  static const bool on = [] {
    const char* env = std::getenv("AMP_HOST_TILES_REPORT");
    return env && *env && std::strcmp(env, "0") != 0;
  }();
  return on;
}

// ---- Vector width of the compiled tiles
// The compiled body's region loops run the tile's work-items side by side,
// which the compiler vectorises; how wide depends on the instruction set it
// may use. On x86-64 each compiled kernel is built twice more, for
// x86-64-v3 (AVX2) and x86-64-v4 (AVX-512), and which copy runs is measured,
// per kernel: its first tiles run alternately in the baseline copy and in
// the widest copy the CPU has, timed (isa_choice, below), and the widest
// runs every later tile if it was more than 10 % faster. Measured because
// neither wins everywhere (bench/RESULTS.md, "Host tiles: AVX2/AVX-512
// copies chosen by timing"): AVX-512 makes the binomial pricer about 3x and
// tiled matmul 2-5x faster (x86's assists for denormal operands are taken
// per instruction, not per lane), while GCC 12 builds the transposes'
// strided regions three times slower in the wider copies.
// Bits do not change with the copy: the compile's contraction setting holds
// in every copy (-ffp-contract=off by default: no fused multiply-add appears
// in the wider ones either), the vectoriser reorders no floating-point
// operation (no -ffast-math), and the math functions stay scalar calls;
// fidelity.differential.host_tiles compares the copies byte for byte.
// AMP_HOST_TILES_ISA=baseline|x86-64-v3|x86-64-v4 runs that copy (or the
// widest the CPU has below it) without timing: tests, and users who want one
// behaviour everywhere. A kernel without arithmetic the wider copies speed
// up (compiled_kernel<L, false>: tools/tile_compiler/vector_width.cpp) has
// the baseline copy only: the copies cost the build a compile of the whole
// body each, and such kernels kept the baseline copy where they were timed.
enum class isa { baseline, v3, v4 };

// The wider copies exist where they can be built and chosen: x86-64 host
// code (not a CUDA or HIP device pass, which also defines __x86_64__; not
// the tile compiler's own parse) compiled by a GCC or Clang whose
// __builtin_cpu_supports knows the level names "x86-64-v3"/"x86-64-v4":
// GCC 12 and later, Clang 18 and later (Clang 16 and hipcc's Clang 15 reject
// them as an invalid feature string). Elsewhere only the baseline's runs.
#if defined(__x86_64__) && !defined(__CUDA_ARCH__) && !defined(__HIP_DEVICE_COMPILE__) && \
    !defined(AMP_TILE_COMPILER_PASS) &&                                                \
    ((defined(__clang__) && __clang_major__ >= 18) ||                                  \
     (!defined(__clang__) && defined(__GNUC__) && __GNUC__ >= 12))
inline constexpr bool wide_isas = true;
// `flatten`: the kernel's per-tile body and what it calls are inlined into
// the copy and built for its instruction set (a plain call would not be:
// GCC inlines no function of the default target into one with another
// `arch`).
#define AMP_HT_WIDE_COPY(arch) __attribute__((target(arch), flatten, noinline))
inline isa cpu_best_isa() {
  __builtin_cpu_init();
  if (__builtin_cpu_supports("x86-64-v4")) return isa::v4;
  if (__builtin_cpu_supports("x86-64-v3")) return isa::v3;
  return isa::baseline;
}
#else
inline constexpr bool wide_isas = false;
#define AMP_HT_WIDE_COPY(arch)
inline isa cpu_best_isa() { return isa::baseline; }
#endif

inline const char* isa_name(isa i) {
  return i == isa::v4 ? "x86-64-v4" : i == isa::v3 ? "x86-64-v3" : "baseline";
}

// What AMP_HOST_TILES_ISA asks for (capped at the CPU's widest), or
// `measured` (unset): the per-kernel timing above. Read once per process.
struct isa_request {
  bool measured;
  isa fixed; // when !measured
  isa widest;
};
inline const isa_request& requested_isa() {
  static const isa_request r = [] {
    const isa best = cpu_best_isa();
    const char* env = std::getenv("AMP_HOST_TILES_ISA");
    if (!env || !*env) return isa_request{best != isa::baseline, isa::baseline, best};
    for (isa cap : {isa::baseline, isa::v3, isa::v4})
      if (std::strcmp(env, isa_name(cap)) == 0) return isa_request{false, cap < best ? cap : best, best};
    std::fprintf(stderr, "amp_compat: AMP_HOST_TILES_ISA=%s is not `baseline`, `x86-64-v3` or `x86-64-v4`\n", env);
    std::exit(2);
  }();
  return r;
}

// The tile_group tag of the baseline copy in a launch that times the copies
// (launch_host.h, measured_tiles): an instance apart from the fixed
// baseline's, so that each has one caller.
inline constexpr int measured_baseline = 3;

// The copies of one tile's call. Each instruction set calls the kernel with
// a tile_group type of its own, so each has its own instance of the
// kernel's per-tile body: the baseline's has one caller (the launch's tile
// loop) and is inlined into it as in a build without wider copies.
template <int I> struct run_in {
  template <class F, class G> AMP_HOST_ONLY static void tile(const F& f, const G& g) { f(g); }
};
template <> struct run_in<int(isa::v3)> {
  template <class F, class G>
  AMP_HOST_ONLY AMP_HT_WIDE_COPY("arch=x86-64-v3") static void tile(const F& f, const G& g) { f(g); }
};
template <> struct run_in<int(isa::v4)> {
  template <class F, class G>
  AMP_HOST_ONLY AMP_HT_WIDE_COPY("arch=x86-64-v4") static void tile(const F& f, const G& g) { f(g); }
};

// The measured choice of one kernel type (its first launches; kept for the
// process). A sample is a run of consecutive tiles of one thread in one copy,
// timed until it lasts at least sample_ns (tiles of a few microseconds are
// too short to time one by one); the first 2 * trials samples started
// alternate between the baseline and the widest copy. Tiles outside a sample
// run the baseline until both copies have `trials` samples; then the widest
// copy runs if its least time per tile is more than 10 % below the
// baseline's (a near tie keeps the baseline: a short sample does not show
// what 512-bit code costs the rest of the machine, and the 16-core
// benchmarks ran tied kernels slower in the wide copy).
struct isa_choice {
  static constexpr int trials = 3;
  static constexpr long long sample_ns = 50000;
  std::atomic<int> started{0};
  std::atomic<int> samples[2] = {0, 0}; // samples recorded per copy
  std::atomic<long long> best_ns[2] = {LLONG_MAX, LLONG_MAX};
  std::atomic<int> decided{-1}; // 0: baseline, 1: widest
  const char* const where;       // the kernel's file:line, for the report
  const isa widest;

  isa_choice(const char* w, isa wi) : where(w), widest(wi) {}

  // The sample a thread is timing (of any kernel).
  struct sample {
    isa_choice* of = nullptr;
    int copy = -1;
    long long ns = 0;
    int tiles = 0;
  };
  static sample& mine() {
    static thread_local sample s;
    return s;
  }

  // The copy for this tile (0: baseline, 1: widest); `in_sample`: the tile
  // belongs to a sample (call end() with its time).
  int begin(bool& in_sample) {
    sample& s = mine();
    if (s.of == this && s.copy >= 0) return in_sample = true, s.copy;
    in_sample = false;
    const int d = decided.load(std::memory_order_acquire);
    if (d >= 0) return d;
    const int k = started.fetch_add(1, std::memory_order_relaxed);
    if (k >= 2 * trials) return 0;
    if (s.of && s.copy >= 0 && s.tiles > 0) s.of->record(s.copy, s.ns / s.tiles); // another kernel's, cut short
    s = sample{this, k % 2, 0, 0};
    return in_sample = true, s.copy;
  }
  void end(long long ns) {
    sample& s = mine();
    s.ns += ns;
    ++s.tiles;
    if (s.ns >= sample_ns) {
      const int copy = s.copy;
      s.copy = -1;
      record(copy, s.ns / s.tiles);
    }
  }
  void record(int which, long long ns) {
    long long cur = best_ns[which].load(std::memory_order_relaxed);
    while (ns < cur && !best_ns[which].compare_exchange_weak(cur, ns, std::memory_order_relaxed)) {
    }
    // Sequentially consistent: when the two copies' last samples are recorded
    // at once, at least one of the two threads sees the other's count and
    // decides (acquire/release alone would let both miss it).
    const int n = samples[which].fetch_add(1) + 1;
    if (n == trials && samples[1 - which].load() >= trials) decide();
  }
  void decide() {
    const long long b = best_ns[0].load(std::memory_order_relaxed), w = best_ns[1].load(std::memory_order_relaxed);
    const bool wide = w < b - b / 10;
    int expect = -1;
    if (decided.compare_exchange_strong(expect, wide ? 1 : 0, std::memory_order_acq_rel) && report_wanted())
      std::fprintf(stderr,
                   "amp_compat: host tiles: kernel at %s: runs in %s (timed on its first tiles: %s %.1f us, "
                   "baseline %.1f us per tile)\n",
                   where, isa_name(wide ? widest : isa::baseline), isa_name(widest), w / 1e3, b / 1e3);
  }
};
template <class F> isa_choice& choice_of(const char* where, isa widest) {
  static isa_choice c(where, widest); // the same arguments at every launch of F
  return c;
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
        if (compiled) {
          const isa_request& r = requested_isa();
          if constexpr (can && !is_compiled_kernel_t<F>::wide)
            std::fprintf(stderr, "amp_compat: host tiles: kernel at %s: compiled (baseline, its only copy)\n", where_of(f));
          else if (r.measured)
            std::fprintf(stderr, "amp_compat: host tiles: kernel at %s: compiled (baseline or %s, timed)\n",
                         where_of(f), isa_name(r.widest));
          else
            std::fprintf(stderr, "amp_compat: host tiles: kernel at %s: compiled (%s)\n", where_of(f), isa_name(r.fixed));
        }
        else if constexpr (!can)
          std::fprintf(stderr, "amp_compat: host tiles: kernel at %s: fibers (%s)\n", where_of(f), why_of(f));
        else
          std::fprintf(stderr, "amp_compat: host tiles: kernel at %s: fibers (AMP_HOST_TILES=fibers)\n", where_of(f));
      }
    }
    return compiled;
  }
}

} // namespace host_tiles
} // namespace detail
} // namespace Concurrency
