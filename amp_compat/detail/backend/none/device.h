// No device backend (a host-only build), stage "runtime" (backend.h): there
// are no devices, and a queue is an identity (kernels on the host backend
// complete before parallel_for_each returns). What needs a device refuses with
// runtime_exception; nothing reaches it, since no accelerator has a device.
#pragma once
#include "../../config.h"
#include "../../exceptions.h"
#include "../backend.h"

#include <memory>
#include <string>

namespace Concurrency {
namespace detail {

class queue_marker {
public:
  void wait() const {}
};

class queue_state {
public:
  explicit queue_state(int device) : dev_(device) {}
  int device() const { return dev_; }
  void wait_for(queue_state&) {}
  void synchronize(bool = true) {}
  std::shared_ptr<queue_marker> mark() { return std::make_shared<queue_marker>(); }
  void synchronize_quietly() noexcept {}

private:
  int dev_;
};

struct device_memory {
  [[noreturn]] static void none() { throw runtime_exception("this build has no GPU accelerator", e_fail); }
  static int device_count() { return 0; }
  static int kokkos_device() { return -1; }
  static device_properties properties(int) { return {}; }
  static std::string describe(int, const device_properties& p, bool) { return p.name; }
  static std::wstring path(int d) { return L"gpu" + std::to_wstring(d); }
  static bool names_backend(const std::string&) { return false; }
  [[noreturn]] static const std::shared_ptr<queue_state>& default_queue(int) { none(); }
  static void* alloc(int, std::size_t) { none(); }
  static void free(int, void*) noexcept {}
  static void to_device(queue_state&, void*, const void*, std::size_t) { none(); }
  static void to_device_queued(queue_state&, void*, const void*, std::size_t) { none(); }
  static void to_host(queue_state&, void*, const void*, std::size_t) { none(); }
  static void device_to_device(queue_state&, void*, int, const void*, int, std::size_t) { none(); }
  static void wait_all() {}
};

} // namespace detail
} // namespace Concurrency
