// <amp_kokkos.h>: AMP data and Kokkos::View without copies, for code that is
// being ported from AMP to Kokkos one kernel at a time (migration_guide.md,
// "From AMP to Kokkos, one kernel at a time"). Not included by <amp.h>.
//
//   Concurrency::kokkos_view<Space>(array or array_view)
//       An unmanaged Kokkos::View<T*..*, LayoutRight, Space> of the data, in
//       the memory of Space (default: the default execution space's). The
//       data are made current there first (copied only if the current copy is
//       elsewhere) and the copies elsewhere are marked stale, so whatever
//       Kokkos writes through the View is what AMP sees next, on the host or
//       in a kernel. The View stays valid while the array (or the data of the
//       array_view) lives; after AMP touches the data elsewhere (host access,
//       a kernel on another accelerator) call kokkos_view again.
//       An array_view must cover contiguous storage (no section with gaps):
//       otherwise runtime_exception.
//   Concurrency::make_array_view(view)
//       An array_view<T, rank> over a LayoutRight (or rank-1 contiguous)
//       Kokkos::View's data in host-accessible memory, without a copy, exactly
//       as an array_view over a pointer: kernels on a GPU get a device copy,
//       and synchronize() (or the last array_view going away) writes the
//       results back into the View's memory. The array_view keeps the View's
//       allocation alive, but not past Kokkos' end (see keep_view_alive).
//       Views in GPU memory are refused at compile time:
//       AMP keeps one device copy per buffer and has no way yet to adopt
//       memory it did not allocate; use an array and kokkos_view(array).
//   Concurrency::start_kokkos()
//       AMP starts Kokkos at the first kernel launch or call above. A program
//       that makes Kokkos objects before either calls this first (or starts
//       Kokkos itself: AMP then uses that instance and leaves its end to the
//       program).
#pragma once
#include "amp.h"
#include "detail/kokkos_version.h"

#include <memory>
#include <utility>

namespace Concurrency {
namespace detail {

template <class T, int N> struct add_pointers {
  using type = typename add_pointers<T, N - 1>::type*;
};
template <class T> struct add_pointers<T, 0> {
  using type = T;
};

// A copy of a user's View that keeps its allocation alive for an AMP buffer
// over its data. A buffer may outlive Kokkos: an array_view held by an object
// made before Kokkos started (at namespace scope, a static) is destroyed after
// amp_compat's exit handler has finalized Kokkos, and one that the program
// keeps past its own Kokkos::finalize too. Releasing a View's allocation after
// finalize aborts the program with Kokkos 4.6 (3.4 printed a warning), so the
// copy is then left unreleased: its memory goes with the process, which is
// ending in the first case; in the second the program broke Kokkos' rule (no
// View outlives finalize) through the array_view, and a leak is the lesser harm.
template <class View> std::shared_ptr<const void> keep_view_alive(const View& v) {
  return std::shared_ptr<const View>(new View(v), [](const View* p) {
    if (!kokkos_has_ended()) delete p;
  });
}

template <class Space> constexpr bool space_is_host =
    Kokkos::SpaceAccessibility<Kokkos::HostSpace, Space>::accessible;

struct kokkos_interop {
  template <class Space, class T, int N>
  using view_t = Kokkos::View<typename add_pointers<T, N>::type, Kokkos::LayoutRight, Space,
                              Kokkos::MemoryTraits<Kokkos::Unmanaged>>;

  // T: the View's element type (const for const arrays and views of const T).
  template <class Space, class T, class Obj> static auto view(const Obj& o) {
    constexpr int N = Obj::rank;
    if (!o.is_dense())
      throw runtime_exception("kokkos_view: the array_view is not contiguous (a section with gaps); "
                              "copy it into an array first",
                              e_invalidarg);
    ensure_kokkos();
    // Host memory, or the memory of the GPU Kokkos runs on (work there is
    // ordered on that device's default queue, which is Kokkos' stream).
    const int dev = space_is_host<Space> ? -1 : device_memory::kokkos_device();
    const location loc = dev < 0 ? location::host : device_location(dev);
    buffer& b = *o.h_.buf;
    b.prepare(loc, std::is_const<T>::value ? buffer::access::read : buffer::access::write,
              dev < 0 ? nullptr : device_memory::default_queue(dev));
    T* p = reinterpret_cast<T*>(static_cast<char*>(b.base(loc)) + o.h_.off);
    // A host copy may just have been made: o's host pointer must refer to it.
    if (loc == location::host) o.point_at_host();
    return make<Space, T, N>(p, o.extent, std::make_integer_sequence<int, N>());
  }

  template <class Space, class T, int N, int... D>
  static view_t<Space, T, N> make(T* p, const Concurrency::extent<N>& e, std::integer_sequence<int, D...>) {
    return view_t<Space, T, N>(p, static_cast<std::size_t>(e[D])...);
  }

  template <class View> static auto array_view_of(const View& v) {
    using T = typename View::value_type;
    constexpr int N = static_cast<int>(View::rank);
    static_assert(N >= 1, "make_array_view: a rank-0 View has no array_view");
    static_assert(std::is_same<typename View::array_layout, Kokkos::LayoutRight>::value || N == 1,
                  "make_array_view: the View must be LayoutRight (row-major, as AMP's data) or of rank 1");
    using space = typename View::memory_space;
    static_assert(space_is_host<space>,
                  "make_array_view: the View must be in host-accessible memory (a HostSpace View, or a host "
                  "mirror); for GPU data use an array and kokkos_view(array) instead");
    if (!v.span_is_contiguous())
      throw runtime_exception("make_array_view: the View is not contiguous", e_invalidarg);
    Concurrency::extent<N> e;
    for (int d = 0; d < N; ++d) e[d] = static_cast<int>(v.extent(d));
    detail::check_extent_positive(e, sizeof(T), "make_array_view");
    ensure_kokkos();
    const std::size_t bytes = static_cast<std::size_t>(e.size_64()) * sizeof(T);
    buffer* b = buffer::make_view_of(const_cast<std::remove_const_t<T>*>(v.data()), bytes);
    b->keep_alive = keep_view_alive(v);
    Concurrency::array_view<T, N> av(nullptr);
    av.extent = e;
    av.set_dense_strides(e);
    av.init_header(b, 0);
    return av;
  }
};

} // namespace detail

inline void start_kokkos() { detail::ensure_kokkos(); }

template <class Space = Kokkos::DefaultExecutionSpace::memory_space, class T, int N>
auto kokkos_view(array<T, N>& a) {
  return detail::kokkos_interop::view<Space, T>(a);
}
template <class Space = Kokkos::DefaultExecutionSpace::memory_space, class T, int N>
auto kokkos_view(const array<T, N>& a) {
  return detail::kokkos_interop::view<Space, const T>(a);
}
template <class Space = Kokkos::DefaultExecutionSpace::memory_space, class T, int N>
auto kokkos_view(const array_view<T, N>& v) {
  return detail::kokkos_interop::view<Space, T>(v);
}

template <class DataType, class... P> auto make_array_view(const Kokkos::View<DataType, P...>& v) {
  return detail::kokkos_interop::array_view_of(v);
}

} // namespace Concurrency
