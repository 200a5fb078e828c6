// The differences between the Kokkos versions amp_compat builds against (3.4
// to 4.x; and what Kokkos 5 keeps of them: migration_guide.md, "Kokkos 5"),
// decided here rather than inside the code that needs them. The HIP backend's
// execution space name (Kokkos::Experimental::HIP before 4.0) is the other
// version test, in backend/hip/device.h, the only code that names it.
#pragma once
#include "runtime/startup.h"

namespace Concurrency {
namespace detail {

// Whether Kokkos has been finalized, by amp_compat's exit handler or by the
// program. Kokkos 4.0 and later answer with Kokkos::is_finalized(); Kokkos 3.4
// has no such query, so there only amp_compat's own finalize is seen (a View
// released after the program's finalize only draws a warning from 3.4).
inline bool kokkos_has_ended() noexcept {
#if KOKKOS_VERSION >= 40000
  if (Kokkos::is_finalized()) return true;
#endif
  return kokkos_state() == kokkos_phase::finished;
}

} // namespace detail
} // namespace Concurrency
