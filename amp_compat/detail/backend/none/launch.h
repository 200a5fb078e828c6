// No device backend, stage "launch" (backend.h): no accelerator has a device,
// so parallel_for_each never dispatches here; the definitions keep the
// dispatch free of build tests.
#pragma once
#include "../../exceptions.h"
#include "../backend.h"
#include "device.h"

namespace Concurrency {
namespace detail {

constexpr kernel_path measured_device_path(bool) { return kernel_path::native; }
inline bool device_portable_serves(const queue_state&) { return false; }
template <class Run> void with_device_launcher(queue_state&, Run&&) { device_memory::none(); }

} // namespace detail
} // namespace Concurrency
