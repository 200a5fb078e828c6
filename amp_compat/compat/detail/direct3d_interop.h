// amp_compat/compat/detail/direct3d_interop.h -- C++ AMP's Direct3D interop
// functions (concurrency::direct3d, amp.h's own in MSVC), declared by <amp.h>
// under --windows-compat only: they take and return IUnknown*, a Windows name
// (Unknwn.h), which the pure <amp.h> never declares.
//
// Contract: every one of them concerns a Direct3D device, buffer or lock, and
// amp_compat has none (kernels run on Kokkos), so each compiles wherever
// Microsoft's does and, when called, throws concurrency::runtime_exception
// with E_NOTIMPL and a message naming the function and the reason:
//   get_device(av), create_accelerator_view(IUnknown*, queuing_mode),
//   create_accelerator_view(accelerator&, bool disable_timeout, queuing_mode),
//   get_buffer(array), make_array<T, N>(extent, av, IUnknown*),
//   is_timeout_disabled(av), d3d_access_lock / d3d_access_try_lock /
//   d3d_access_unlock(av), scoped_d3d_access_lock(av) (and its
//   adopt_d3d_access_lock form).
// Nothing is thrown at compile time or before the call: a program whose
// Direct3D path is optional (tests, interop fallbacks) builds and runs its
// other paths. make_array validates nothing before throwing (there is no
// buffer to validate against).
#pragma once

#include <string>

#include "../Unknwn.h"

namespace Concurrency {
namespace direct3d {
namespace detail_interop {
[[noreturn]] inline void unavailable(const char* function) {
  throw runtime_exception((std::string("concurrency::direct3d::") + function +
                           ": Direct3D interop is not available: amp_compat runs C++ AMP on Kokkos, "
                           "with no Direct3D device, buffer or lock to share")
                              .c_str(),
                          static_cast<HRESULT>(0x80004001L)); // E_NOTIMPL
}
} // namespace detail_interop

inline IUnknown* get_device(const accelerator_view&) { detail_interop::unavailable("get_device"); }
inline accelerator_view create_accelerator_view(IUnknown*, queuing_mode = queuing_mode_automatic) {
  detail_interop::unavailable("create_accelerator_view(IUnknown*)");
}
inline accelerator_view create_accelerator_view(accelerator&, bool, queuing_mode = queuing_mode_automatic) {
  detail_interop::unavailable("create_accelerator_view(accelerator&, bool disable_timeout)");
}
inline bool is_timeout_disabled(const accelerator_view&) { detail_interop::unavailable("is_timeout_disabled"); }
template <class T, int N> IUnknown* get_buffer(const array<T, N>&) { detail_interop::unavailable("get_buffer"); }
template <class T, int N> array<T, N> make_array(const Concurrency::extent<N>&, const accelerator_view&, IUnknown*) {
  detail_interop::unavailable("make_array");
}
inline void d3d_access_lock(accelerator_view&) { detail_interop::unavailable("d3d_access_lock"); }
inline bool d3d_access_try_lock(accelerator_view&) { detail_interop::unavailable("d3d_access_try_lock"); }
inline void d3d_access_unlock(accelerator_view&) { detail_interop::unavailable("d3d_access_unlock"); }

struct adopt_d3d_access_lock_t {};
class scoped_d3d_access_lock {
public:
  explicit scoped_d3d_access_lock(accelerator_view&) { detail_interop::unavailable("scoped_d3d_access_lock"); }
  scoped_d3d_access_lock(accelerator_view&, adopt_d3d_access_lock_t) {
    detail_interop::unavailable("scoped_d3d_access_lock");
  }
  scoped_d3d_access_lock(scoped_d3d_access_lock&&) = default;
  scoped_d3d_access_lock& operator=(scoped_d3d_access_lock&&) = default;
  scoped_d3d_access_lock(const scoped_d3d_access_lock&) = delete;
  scoped_d3d_access_lock& operator=(const scoped_d3d_access_lock&) = delete;
};
} // namespace direct3d
} // namespace Concurrency
