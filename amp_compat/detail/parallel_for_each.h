// parallel_for_each: the 8 overloads of AMP reduce to two entry points here.
// This is the one place that maps an accelerator and a kernel's shape to a
// launcher: the portable Kokkos path or the accelerator's native one.
#pragma once
#include "backend/device_launch.h"
#include "backend/host/launch_host.h"
#include "launch_kokkos.h"

#include <atomic>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace Concurrency {
namespace detail {

// The messages are Microsoft's runtime's, word for word (programs and tests
// compare what() with them). Microsoft's limit is 4294967295 work-items; the
// product is taken dimension by dimension from the first, and one that passes
// the limit before the last is reported as "at least" that far (so that it
// never overflows: extent<128> of INT_MAX each). This runtime's own limit is
// lower (kernel indices are int: 2147483647), reported in the same words.
inline std::string domain_too_large(unsigned long long threads, bool at_least, unsigned long long limit) {
  return "concurrency::parallel_for_each: unsupported compute domain, The number of threads requested (" +
         std::string(at_least ? "at least " : "") + std::to_string(threads) + ") exceeds the limit (" +
         std::to_string(limit) + ").";
}
template <int N> void check_domain(const Concurrency::extent<N>& e) {
  for (int d = 0; d < N; ++d)
    if (e[d] <= 0)
      throw invalid_compute_domain(("concurrency::parallel_for_each: unsupported compute domain, the extent of dimension " +
                                    std::to_string(d) + " of the compute domain (" + std::to_string(e[d]) +
                                    ") cannot be smaller than or equal to 0.")
                                       .c_str());
  constexpr unsigned long long microsoft_limit = 4294967295ull;
  unsigned long long threads = 1;
  for (int d = 0; d < N; ++d) {
    threads *= static_cast<unsigned long long>(e[d]); // both factors below 2^32: no overflow
    if (threads > microsoft_limit)
      throw invalid_compute_domain(domain_too_large(threads, d + 1 < N, microsoft_limit).c_str());
  }
  if (threads > INT_MAX) throw invalid_compute_domain(domain_too_large(threads, false, INT_MAX).c_str());
}
template <int D0, int D1, int D2> void check_domain(const tiled_extent<D0, D1, D2>& te) {
  constexpr int R = tile_shape<D0, D1, D2>::rank;
  check_domain(static_cast<const Concurrency::extent<R>&>(te));
  const auto tx = tile_shape<D0, D1, D2>::tile_extent();
  for (int d = 0; d < R; ++d)
    if (te[d] % tx[d] != 0)
      throw invalid_compute_domain(("concurrency::parallel_for_each (tiling): unsupported compute domain, the extent of "
                                    "dimension " + std::to_string(d) + " of the compute domain (" +
                                    std::to_string(te[d]) + ") cannot be evenly divided by the extent of dimension " +
                                    std::to_string(d) + " of the tile (" + std::to_string(tx[d]) + ").")
                                       .c_str());
}

// ---- kernel paths
// Every accelerator has two ways to run a kernel: the portable path
// (launch_kokkos.h: Kokkos MDRange/Range/TeamPolicy on the accelerator's
// execution space, which runs on any Kokkos backend) and a native one
// (the device backend's launcher, backend/backend.h stage "launch";
// backend/host/launch_host.h: blocks of work-items and runs of tiles on a
// Kokkos RangePolicy). AMP_KERNEL_PATH=
// portable|native|auto forces one path for the whole program (auto, the
// default, takes the measured choice below).
// (kernel_path: backend/backend.h)

// The path requested for the whole program: AMP_KERNEL_PATH when the program
// starts; force_kernel_path changes it (tests run one kernel on both paths).
inline std::atomic<kernel_path>& requested_kernel_path() {
  static std::atomic<kernel_path> p{[] {
    const char* env = std::getenv("AMP_KERNEL_PATH");
    const std::string v = env ? env : "auto";
    if (v == "auto" || v.empty()) return kernel_path::automatic;
    if (v == "portable") return kernel_path::portable;
    if (v == "native") return kernel_path::native;
    std::fprintf(stderr, "amp_compat: AMP_KERNEL_PATH=%s is not portable, native or auto\n", env);
    std::exit(2);
  }()};
  return p;
}
inline void force_kernel_path(kernel_path p) { requested_kernel_path().store(p); }

// Launches per path so far (tests check which path ran a kernel).
struct kernel_path_counts {
  std::atomic<unsigned long long> portable{0}, native{0};
  static kernel_path_counts& get() {
    static kernel_path_counts c;
    return c;
  }
};

// The automatic choice: the path measured fastest per accelerator and kernel
// model (bench/RESULTS.md, "Portable path": the ratios behind each row); the
// device backend's devices: its measured_device_path. Where the two paths
// were within noise of each other the native one is kept: the speed targets
// were established on it.
struct path_choice {
  device_kind kind;
  bool tiled;
  kernel_path path;
};
constexpr path_choice measured_paths[] = {
    {device_kind::gpu, false, measured_device_path(false)},
    {device_kind::gpu, true, measured_device_path(true)},
    {device_kind::host_openmp, false, kernel_path::native},  // blocks of 1024 work-items
    {device_kind::host_openmp, true, kernel_path::native},   // runs of tiles per iteration
    {device_kind::host_threads, false, kernel_path::native},
    {device_kind::host_threads, true, kernel_path::native},
    {device_kind::host_serial, false, kernel_path::native},
    {device_kind::host_serial, true, kernel_path::native},
};
inline kernel_path measured_kernel_path(device_kind k, bool tiled) {
  for (const auto& c : measured_paths)
    if (c.kind == k && c.tiled == tiled) return c.path;
  return kernel_path::native;
}

// Runs fn() with no ordering to add: host views complete each kernel before
// parallel_for_each returns, whatever the launcher.
struct unordered_portable {
  template <class Fn> void operator()(Fn&& fn) const { fn(); }
};

// The one place that maps an accelerator_view to its launchers: calls
// run(type_tag<execution space>, native launcher, portable_ok, order), where
// portable_ok says whether the portable launcher (Kokkos' default instance of
// that space) can serve the view (on a GPU: device_portable_serves) and
// order(fn) runs a portable launch fn in the view's line of work. Device
// views go to the device backend's with_device_launcher (backend/backend.h).
template <class Run> void with_launcher(const accelerator_view& av, Run&& run) {
  switch (info_of(av)->kind) {
  case device_kind::gpu:
    return with_device_launcher(*queue_of(av), run);
#if AMP_HAS_OPENMP || AMP_HAS_THREADS
  case device_kind::host_openmp:
  case device_kind::host_threads:
#if AMP_HAS_SERIAL
    // Kokkos' host parallel backends are entered from the thread that started
    // Kokkos only; a kernel launched from another thread runs on Serial.
    if (std::this_thread::get_id() != kokkos_thread())
      return run(type_tag<Kokkos::Serial>{}, host_launcher<Kokkos::Serial>{}, true, unordered_portable{});
#endif
    return run(type_tag<host_parallel_space>{}, host_launcher<host_parallel_space>{}, true, unordered_portable{});
#endif
#if AMP_HAS_SERIAL
  case device_kind::host_serial:
    return run(type_tag<Kokkos::Serial>{}, host_launcher<Kokkos::Serial>{}, true, unordered_portable{});
#endif
  default: {
    // AMP's wording (programs match on it), then how to get a runnable view.
    const std::wstring& d = info_of(av)->description;
    throw runtime_exception(("concurrency::parallel_for_each is not supported on the selected accelerator \"" +
                             std::string(d.begin(), d.end()) +
                             "\". (The cpu accelerator cannot run kernels; use accelerator::direct3d_warp, "
                             "direct3d_ref or a GPU.)")
                                .c_str(),
                            e_invalidarg);
  }
  }
}

[[noreturn]] inline void throw_views_disagree() {
  throw runtime_exception("concurrency::parallel_for_each: the kernel captures arrays on different "
                          "accelerator_views; pass the accelerator_view to run it on, or copy the arrays to one",
                          e_invalidarg);
}

// Whether a portable-path request for a kernel on av can be served (else the
// kernel runs natively): every host view; on a GPU, see
// device_portable_serves.
inline bool portable_path_serves(const accelerator_view& av) {
  if (info_of(av)->kind != device_kind::gpu) return true;
  ensure_kokkos();
  return device_portable_serves(*queue_of(av));
}

// Without an explicit accelerator_view a kernel runs on the view of the
// arrays it captures (as in AMP), else on the default accelerator's; arrays
// on two different views leave no view to run on: runtime_exception, as in
// AMP (Microsoft's Extent_Acclvw/General/Negative tests). Every array picks
// the target, also one on the cpu accelerator (a staging array included:
// Microsoft's Extent_Accl_Staging/General/Negative/Test.01), whose kernel is
// then refused (with_launcher) as AMP refuses it.
template <class F> accelerator_view implied_target(const F& f) {
  std::shared_ptr<const accelerator_view> target;
  if (alignof(F) >= alignof(std::uint64_t)) {
    std::lock_guard<std::mutex> g(array_registry::mutex());
    const auto* p = reinterpret_cast<const unsigned char*>(&f);
    for (std::size_t o = 0; o + 8 <= sizeof(F); o += 8) {
      const void* w;
      std::memcpy(&w, p + o, sizeof w);
      if (array_registry::find(w)) {
        data_header h;
        std::memcpy(&h, w, sizeof h);
        if (!h.buf || !h.buf->source_view) continue;
        if (target && *target != *h.buf->source_view) throw_views_disagree();
        target = h.buf->source_view;
      }
    }
  }
  return target ? *target : default_accelerator_view();
}

// The view a kernel given av runs on: av itself; the auto-selection view
// chooses as if no view was given.
template <class F> accelerator_view target_of(const accelerator_view& av, const F& f) {
  return av.get_is_auto_selection() ? implied_target(f) : av;
}

// Kokkos (3.4) host backends may not be entered by two host threads at once;
// AMP lets any thread launch, so launches take turns.
inline std::mutex& launch_mutex() {
  static std::mutex m;
  return m;
}

template <class L, int D0, int D1, int D2, class F>
void run_on(const L& l, const tiled_extent<D0, D1, D2>& d, const kernel_image<F>& k) {
  l.tiled(d, k);
}
template <class L, int N, class F> void run_on(const L& l, const Concurrency::extent<N>& d, const kernel_image<F>& k) {
  l.simple(d, k);
}

// AMP_RESULT_LOG (runtime/result_log.h): after the kernel, one line per
// buffer it could write (result_hash), each marked unread for the host's
// next read.
inline void log_results(const std::string& shape, const std::vector<buffer*>& written) {
  const std::uint64_t k = ++result_log::kernel_count();
  if (written.empty()) result_log::line(("kernel " + std::to_string(k) + " extent " + shape + " no buffer").c_str());
  for (std::size_t i = 0; i < written.size(); ++i) {
    buffer& b = *written[i];
    char text[96];
    std::snprintf(text, sizeof text, " buffer %zu bytes %zu fnv1a %016llx", i, b.bytes,
                  static_cast<unsigned long long>(result_hash(b)));
    result_log::line(("kernel " + std::to_string(k) + " extent " + shape + text).c_str());
    b.unread = true; // the host's next read of it is logged too (log_host_read)
  }
}
// "e0,e1,...", any rank.
template <int N> std::string extent_text(const Concurrency::extent<N>& e) {
  std::string s;
  for (int i = 0; i < N; ++i) s += (i ? "," : "") + std::to_string(e[i]);
  return s;
}

template <class Domain, class F> void launch_unlogged(const accelerator_view& av, const Domain& d, const F& f) {
  check_domain(d);
  ensure_kokkos(); // the first launch starts Kokkos (runtime/startup.h)
  std::lock_guard<std::mutex> turn(launch_mutex());
  constexpr bool tiled = std::is_base_of<Concurrency::extent<Domain::rank>, Domain>::value &&
                         !std::is_same<Domain, Concurrency::extent<Domain::rank>>::value;
  with_launcher(av, [&](auto space, const auto& native, bool portable_ok, const auto& order) AMP_HOST_ONLY {
    using Portable = kokkos_launcher<typename decltype(space)::type>;
    const auto img = capture(f, info_of(av)->loc(), queue_of(av));
    kernel_path p = requested_kernel_path().load(std::memory_order_relaxed);
    if (p == kernel_path::automatic) p = measured_kernel_path(info_of(av)->kind, tiled);
    // A view the portable launcher cannot serve (another GPU than Kokkos'),
    // or a tile that cannot be one Kokkos team here (fits), runs natively.
    if (p == kernel_path::portable && portable_ok && Portable::fits(d, img)) {
      kernel_path_counts::get().portable.fetch_add(1, std::memory_order_relaxed);
      order([&] { run_on(Portable{}, d, img); });
    } else {
      kernel_path_counts::get().native.fetch_add(1, std::memory_order_relaxed);
      run_on(native, d, img);
    }
  });
}

#ifdef AMP_TILE_COMPILER_PASS
// The tile compiler's parse (tools/tile_compiler; the driver defines
// AMP_TILE_COMPILER_PASS) reads the kernels and runs nothing: a launch there
// instantiates the kernel's call for its index (a class template's
// operator() included) and no launcher. The launchers' instantiations were
// more than half of a parse's template work (bench/RESULTS.md, "Compile
// times, seventh round").
template <int N, class F> void launch(const accelerator_view&, const Concurrency::extent<N>&, const F& f) {
  if (false) invoke_kernel(f, *static_cast<const Concurrency::index<N>*>(nullptr));
}
template <int D0, int D1, int D2, class F>
void launch(const accelerator_view&, const tiled_extent<D0, D1, D2>&, const F& f) {
  if (false) invoke_kernel(f, *static_cast<const tiled_index<D0, D1, D2>*>(nullptr));
}
#else
template <class Domain, class F> void launch(const accelerator_view& av, const Domain& d, const F& f) {
  if (result_log::on()) {
    std::vector<buffer*> written;
    result_log::collecting() = &written;
    try {
      launch_unlogged(av, d, f);
    } catch (...) {
      result_log::collecting() = nullptr;
      throw;
    }
    result_log::collecting() = nullptr;
    log_results(extent_text(static_cast<const Concurrency::extent<Domain::rank>&>(d)), written);
    return;
  }
  launch_unlogged(av, d, f);
}
#endif

} // namespace detail

template <int N, class F> void parallel_for_each(const extent<N>& e, const F& f) {
  detail::launch(detail::implied_target(f), e, f);
}
template <int N, class F> void parallel_for_each(const accelerator_view& av, const extent<N>& e, const F& f) {
  detail::launch(detail::target_of(av, f), e, f);
}

// The tiled forms, one per tile rank as in AMP: a call that names the tile
// (parallel_for_each<16, 16>(ext, kernel)) then converts an extent to the
// tiled_extent, as tiled_extent's converting constructor allows.
namespace detail {
template <int D0, int D1, int D2, class F>
void launch_tiled(const accelerator_view& av, const tiled_extent<D0, D1, D2>& e, const F& f) {
  static_assert(tile_launch_limits<D0, D1, D2>::ok, "C++ AMP: this tile cannot be launched");
  launch(av, e, f);
}
} // namespace detail
template <int D0, class F> void parallel_for_each(const tiled_extent<D0>& e, const F& f) {
  detail::launch_tiled(detail::implied_target(f), e, f);
}
template <int D0, int D1, class F> void parallel_for_each(const tiled_extent<D0, D1>& e, const F& f) {
  detail::launch_tiled(detail::implied_target(f), e, f);
}
template <int D0, int D1, int D2, class F> void parallel_for_each(const tiled_extent<D0, D1, D2>& e, const F& f) {
  detail::launch_tiled(detail::implied_target(f), e, f);
}
template <int D0, class F> void parallel_for_each(const accelerator_view& av, const tiled_extent<D0>& e, const F& f) {
  detail::launch_tiled(detail::target_of(av, f), e, f);
}
template <int D0, int D1, class F>
void parallel_for_each(const accelerator_view& av, const tiled_extent<D0, D1>& e, const F& f) {
  detail::launch_tiled(detail::target_of(av, f), e, f);
}
template <int D0, int D1, int D2, class F>
void parallel_for_each(const accelerator_view& av, const tiled_extent<D0, D1, D2>& e, const F& f) {
  detail::launch_tiled(detail::target_of(av, f), e, f);
}

} // namespace Concurrency

// Clang refuses (when the kernel is emitted for the GPU) a lambda that
// captures a host variable by reference if the function enclosing the lambda
// is a host function, which rules out AMP's `[=, &a]` and `[&]` kernels. The
// check does not apply when the enclosing function is itself a lambda, so in
// GPU builds each call is placed inside one,
//   amp_parallel_for_each_scope([&]() { CALL; }),
// and the kernel's copy of the closure is patched so that those references
// reach the arrays' device shadows (capture.h). The compiler launcher does the
// wrapping in the source (scripts/amp_driver/passes/gpu.py) and defines
// AMP_PARALLEL_FOR_EACH_SCOPED; only GPU builds without the launcher get the
// function-like macro below, which rewrites every `parallel_for_each(` token
// sequence (a user's own function of that name included).
namespace Concurrency {
template <class Call> void amp_parallel_for_each_scope(const Call& call) { call(); }
} // namespace Concurrency
#if AMP_HAS_DEVICE_BACKEND && !defined(AMP_PARALLEL_FOR_EACH_SCOPED)
#define parallel_for_each(...) \
  amp_parallel_for_each_scope([&]() { ::Concurrency::parallel_for_each(__VA_ARGS__); })
#endif
