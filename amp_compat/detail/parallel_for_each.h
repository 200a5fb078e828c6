// parallel_for_each: the 8 overloads of AMP reduce to two entry points here.
// This is the one place that maps an accelerator to a backend launcher.
#pragma once
#include "launch_host.h"
#include "launch_cuda.h"

#include <climits>
#include <string>

namespace Concurrency {
namespace detail {

template <int N> void check_domain(const Concurrency::extent<N>& e) {
  for (int d = 0; d < N; ++d)
    if (e[d] <= 0)
      throw invalid_compute_domain(("parallel_for_each: extent[" + std::to_string(d) + "] is " + std::to_string(e[d]) +
                                    "; every dimension of the compute domain must be positive")
                                       .c_str());
  if (e.size_64() > INT_MAX)
    throw invalid_compute_domain(("parallel_for_each: the compute domain has " + std::to_string(e.size_64()) +
                                  " points; at most 2147483647 are supported")
                                     .c_str());
}
template <int D0, int D1, int D2> void check_domain(const tiled_extent<D0, D1, D2>& te) {
  constexpr int R = tile_shape<D0, D1, D2>::rank;
  check_domain(static_cast<const Concurrency::extent<R>&>(te));
  const auto tx = tile_shape<D0, D1, D2>::tile_extent();
  for (int d = 0; d < R; ++d)
    if (te[d] % tx[d] != 0)
      throw invalid_compute_domain(("parallel_for_each: extent[" + std::to_string(d) + "] = " + std::to_string(te[d]) +
                                    " is not a multiple of the tile size " + std::to_string(tx[d]) +
                                    " (use tiled_extent::pad() or truncate())")
                                       .c_str());
}

// Calls run(launcher) with the launcher type of accelerator kind k.
template <class Run> void with_launcher(device_kind k, Run&& run) {
  switch (k) {
#if AMP_HAS_CUDA
  case device_kind::cuda: return run(cuda_launcher{});
#endif
#if AMP_HAS_OPENMP
  case device_kind::host_openmp:
#if AMP_HAS_SERIAL
    if (std::this_thread::get_id() != kokkos_thread()) return run(host_launcher<Kokkos::Serial>{});
#endif
    return run(host_launcher<Kokkos::OpenMP>{});
#endif
#if AMP_HAS_SERIAL
  case device_kind::host_serial: return run(host_launcher<Kokkos::Serial>{});
#endif
  default:
    throw runtime_exception("parallel_for_each: the selected accelerator (the cpu accelerator) cannot run kernels; "
                            "use accelerator::direct3d_warp, direct3d_ref or a GPU",
                            e_invalidarg);
  }
}

// Without an explicit accelerator_view a kernel runs where the first array it
// captures lives (as in AMP), else on the default accelerator.
template <class F> device_kind implied_target(const F& f) {
  if (alignof(F) >= alignof(std::uint64_t)) {
    std::lock_guard<std::mutex> g(array_registry::mutex());
    const auto* p = reinterpret_cast<const unsigned char*>(&f);
    for (std::size_t o = 0; o + 8 <= sizeof(F); o += 8) {
      const void* w;
      std::memcpy(&w, p + o, sizeof w);
      if (array_registry::find(w)) {
        data_header h;
        std::memcpy(&h, w, sizeof h);
        if (h.buf && h.buf->owner != device_kind::cpu) return h.buf->owner;
      }
    }
  }
  return info_of(default_accelerator_view())->kind;
}

// Kokkos (3.4) host backends may not be entered by two host threads at once;
// AMP lets any thread launch, so launches take turns.
inline std::mutex& launch_mutex() {
  static std::mutex m;
  return m;
}

template <class Domain, class F> void launch(device_kind k, const Domain& d, const F& f) {
  check_domain(d);
  std::lock_guard<std::mutex> turn(launch_mutex());
  with_launcher(k, [&](auto l) AMP_HOST_ONLY {
    using L = decltype(l);
    const auto img = capture(f, location_of(k));
    if constexpr (std::is_base_of<Concurrency::extent<Domain::rank>, Domain>::value &&
                  !std::is_same<Domain, Concurrency::extent<Domain::rank>>::value)
      L::tiled(d, img);
    else
      L::simple(d, img);
  });
}

} // namespace detail

template <int N, class F> void parallel_for_each(const extent<N>& e, const F& f) {
  detail::launch(detail::implied_target(f), e, f);
}
template <int D0, int D1, int D2, class F> void parallel_for_each(const tiled_extent<D0, D1, D2>& e, const F& f) {
  detail::launch(detail::implied_target(f), e, f);
}
template <int N, class F> void parallel_for_each(const accelerator_view& av, const extent<N>& e, const F& f) {
  detail::launch(detail::info_of(av)->kind, e, f);
}
template <int D0, int D1, int D2, class F>
void parallel_for_each(const accelerator_view& av, const tiled_extent<D0, D1, D2>& e, const F& f) {
  detail::launch(detail::info_of(av)->kind, e, f);
}

} // namespace Concurrency

#if AMP_HAS_CUDA
// Clang refuses (when the kernel is emitted for the GPU) a lambda that
// captures a host variable by reference if the function enclosing the lambda
// is a host function, which rules out AMP's `[=, &a]` and `[&]` kernels. The
// check does not apply when the enclosing function is itself a
// (host-device) lambda, so in GPU builds each call is placed inside one. The
// kernel's copy of the closure is then patched so that those references reach
// the arrays' device shadows (capture.h). Qualified calls
// (`concurrency::parallel_for_each(...)`) keep working: the expansion starts
// with a name in this namespace.
namespace Concurrency {
template <class Call> void amp_parallel_for_each_scope(const Call& call) { call(); }
} // namespace Concurrency
#define parallel_for_each(...) \
  amp_parallel_for_each_scope([&]() { ::Concurrency::parallel_for_each(__VA_ARGS__); })
#endif
