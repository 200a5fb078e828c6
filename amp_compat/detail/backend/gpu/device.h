// Shared GPU implementation (backend.h, "The shared GPU implementation"),
// stage "runtime": devices, queues, memory and error handling of a GPU
// backend whose runtime is CUDA's or HIP's. Included by that backend's
// device.h after its api.h, whose namespace gpu_api is the only runtime this
// file calls; what differs between the vendors is said there.
//
// Every device of the process is an accelerator ("cuda0", "cuda1", ... or
// "hip0", ...: gpu_api::path_prefix). Every accelerator_view is a
// queue_state: an in-order stream on one device. The default view of the
// device Kokkos runs on uses gpu_api::default_stream, the runtime's default
// stream, which is ordered with Kokkos' default instance (api.h says how on
// each vendor), so amp_compat's work stays ordered with Kokkos kernels there,
// and it needs no Kokkos (which may start later). Every other queue gets its
// own non-blocking stream, created when first used, so views of one device run
// their copies and kernels concurrently. Work on shared data is ordered across
// queues with events (queue_state::wait_for), never with device-wide
// synchronisation.
//
// The runtime's "current device" is per host thread, and Kokkos 3.4 (CUDA)
// expects its device to stay current on its thread; every call here that
// concerns one device makes it current only for that call (device_scope).
#pragma once
#include "vendor_api.h"
#include "../../config.h"
#include "../../exceptions.h"
#include "../backend.h"
#include "kernel_abort.h"
#include "../../runtime/startup.h"

#include <atomic>
#include <cstring>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace Concurrency {
namespace detail {

// Raises a runtime error: "CUDA error in <what><detail>: <error name>:
// <error text>" (what: often the call, gpu_api::call_name; detail: what it was
// for). The message is built only on failure.
inline void gpu_check(gpu_api::error_t e, const char* what, const char* detail = "") {
  if (e == gpu_api::success) return;
  (void)gpu_api::get_last_error(); // clear non-sticky errors
  std::string m = std::string(gpu_api::runtime_name) + " error in " + what + detail + ": " + gpu_api::error_name(e) +
                  ": " + gpu_api::error_string(e);
  if (e == gpu_api::error_out_of_memory) throw out_of_memory(m.c_str());
  throw runtime_exception(m.c_str(), e_fail);
}

// Device d is the current device while this object lives; the previous one
// is current again afterwards. Free when d already is current.
class device_scope {
public:
  explicit device_scope(int d) {
    if (gpu_api::get_device(&prev_) != gpu_api::success) {
      (void)gpu_api::get_last_error();
      prev_ = -1;
    }
    if (prev_ != d) {
      gpu_check(gpu_api::set_device(d), gpu_api::call_name::set_device);
      changed_ = true;
    }
  }
  ~device_scope() {
    if (changed_ && prev_ >= 0) (void)gpu_api::set_device(prev_);
  }
  device_scope(const device_scope&) = delete;
  device_scope& operator=(const device_scope&) = delete;

private:
  int prev_ = -1;
  bool changed_ = false;
};

// direct3d_abort / direct3d_errorf in kernels (runtime/kernel_abort.h): per
// device, a channel in device memory and a record in mapped page-locked host
// memory, made before the device's first kernel; every synchronisation below
// calls check(), which turns a recorded abort into runtime_exception.
class kernel_aborts {
public:
  static constexpr int max_devices = 64;
  // Fills device d's slots of every translation unit registered so far.
  // Called before each launch on d: two atomic loads once all are filled.
  static void prepare(int d) {
    auto& slots = kernel_abort_slots::get();
    auto& st = get();
    if (d < 0 || d >= max_devices) return;
    if (st.filled[d].load(std::memory_order_acquire) == slots.count.load(std::memory_order_acquire)) return;
    std::lock_guard<std::mutex> g(slots.m);
    device_scope on(d);
    if (!st.record[d].load(std::memory_order_acquire)) {
      void* h = nullptr;
      gpu_check(gpu_api::host_alloc_mapped(&h, sizeof(kernel_abort_record)), gpu_api::call_name::host_alloc_mapped,
                " (direct3d_abort record)");
      std::memset(h, 0, sizeof(kernel_abort_record));
      void* mapped = nullptr;
      gpu_check(gpu_api::host_get_device_pointer(&mapped, h), gpu_api::call_name::host_get_device_pointer,
                " (direct3d_abort record)");
      const kernel_abort_channel ch{0, static_cast<kernel_abort_record*>(mapped)};
      void* dc = nullptr;
      gpu_check(gpu_api::malloc(&dc, sizeof ch), gpu_api::call_name::malloc, " (direct3d_abort channel)");
      gpu_check(gpu_api::memcpy(dc, &ch, sizeof ch, gpu_api::host_to_device), "direct3d_abort channel");
      st.channel[d] = static_cast<kernel_abort_channel*>(dc);
      st.record[d].store(static_cast<kernel_abort_record*>(h), std::memory_order_release);
      int n = st.devices.load(std::memory_order_relaxed);
      while (n < d + 1 && !st.devices.compare_exchange_weak(n, d + 1)) {
      }
    }
    std::size_t i = st.filled[d].load(std::memory_order_relaxed);
    for (; i < slots.symbols.size(); ++i) {
      // A module whose slot Clang dropped (no kernel there) cannot abort.
      if (gpu_api::memcpy_to_symbol(slots.symbols[i], &st.channel[d], sizeof st.channel[d]) != gpu_api::success)
        (void)gpu_api::get_last_error();
    }
    st.filled[d].store(i, std::memory_order_release);
  }
  // Raises the abort a kernel recorded since the last check (any device).
  static void check() {
    auto& st = get();
    const int n = st.devices.load(std::memory_order_acquire);
    for (int d = 0; d < n; ++d) {
      kernel_abort_record* r = st.record[d].load(std::memory_order_acquire);
      if (r && r->state == 2) report(d, r);
    }
  }

private:
  std::atomic<std::size_t> filled[max_devices] = {};
  std::atomic<kernel_abort_record*> record[max_devices] = {};
  kernel_abort_channel* channel[max_devices] = {};
  std::atomic<int> devices{0};
  static kernel_aborts& get() {
    static auto* s = new kernel_aborts; // never destroyed: used at exit
    return *s;
  }
  [[noreturn]] static void report(int d, kernel_abort_record* r) {
    std::string message;
    {
      std::lock_guard<std::mutex> g(kernel_abort_slots::get().m);
      message = format_abort(*r);
      std::memset(static_cast<void*>(r), 0, sizeof *r);
      device_scope on(d);
      (void)gpu_api::memset(get().channel[d], 0, sizeof(int)); // the claim: the next abort is recorded again
    }
    throw runtime_exception(message.c_str(), e_fail);
  }
};

// A point in a queue (accelerator_view::create_marker): wait() returns once
// everything queued before it is done.
class queue_marker {
public:
  queue_marker(int device, gpu_api::event_t e) : dev_(device), e_(e) {}
  ~queue_marker() { (void)gpu_api::event_destroy(e_); }
  queue_marker(const queue_marker&) = delete;
  queue_marker& operator=(const queue_marker&) = delete;
  void wait() const {
    device_scope on(dev_);
    gpu_check(gpu_api::event_synchronize(e_), "kernel execution");
    kernel_aborts::check();
  }

private:
  int dev_;
  gpu_api::event_t e_;
};

// One in-order queue of work on one device (an accelerator_view).
class queue_state {
public:
  // default_stream: use gpu_api::default_stream (only for the default view of
  // Kokkos' own device, see above).
  explicit queue_state(int device, bool default_stream = false) : dev_(device), default_(default_stream) {}
  ~queue_state() {
    // At program exit the runtime may already be gone; errors are moot then.
    if (ev_) (void)gpu_api::event_destroy(ev_);
    if (foreign_ev_) (void)gpu_api::event_destroy(foreign_ev_);
    if (made_ && !default_) (void)gpu_api::stream_destroy(s_);
    (void)gpu_api::get_last_error();
  }
  queue_state(const queue_state&) = delete;
  queue_state& operator=(const queue_state&) = delete;

  int device() const { return dev_; }
  bool uses_default_stream() const { return default_; }
  // The stream, created on first use. Non-blocking: the default stream would
  // otherwise serialise with it.
  gpu_api::stream_t stream() {
    std::lock_guard<std::mutex> g(m_);
    if (!made_) {
      if (default_) {
        s_ = gpu_api::default_stream;
      } else {
        device_scope on(dev_);
        gpu_check(gpu_api::stream_create_non_blocking(&s_), gpu_api::call_name::stream_create, " (accelerator_view)");
      }
      made_ = true;
    }
    return s_;
  }
  // Work queued on this queue from now on starts only after everything queued
  // on `before` until now (which may be on another device).
  void wait_for(queue_state& before) {
    if (&before == this) return;
    gpu_api::event_t e = before.record();
    device_scope on(dev_);
    gpu_check(gpu_api::stream_wait_event(stream(), e), gpu_api::call_name::stream_wait_event,
              " (ordering two accelerator_views)");
  }
  // Blocks until everything queued so far is done; a kernel fault becomes
  // runtime_exception here.
  // aborts: whether a kernel's direct3d_abort is raised here too (not in the
  // quiet form used by destructors, which would swallow it).
  void synchronize(bool aborts = true) {
    gpu_api::stream_t s = stream();
    device_scope on(dev_);
    gpu_check(gpu_api::stream_synchronize(s), "kernel execution");
    gpu_check(gpu_api::get_last_error(), "kernel execution");
    if (aborts) kernel_aborts::check();
  }
  // Orders work that another party (Kokkos' default execution space instance)
  // queues on its own stream `other` of this device as if it were queued here:
  // lend(other) before that work makes `other` wait for everything queued
  // here so far; take_back(other) after it makes work queued here from now on
  // wait for everything queued on `other` so far. No-ops when `other` is this
  // queue's stream. Two event records and two stream waits, no host blocking.
  void lend(gpu_api::stream_t other) {
    if (other == stream()) return;
    gpu_api::event_t e = record();
    device_scope on(dev_);
    gpu_check(gpu_api::stream_wait_event(other, e), gpu_api::call_name::stream_wait_event,
              " (Kokkos instance after accelerator_view)");
  }
  void take_back(gpu_api::stream_t other) {
    gpu_api::stream_t own = stream();
    if (other == own) return;
    device_scope on(dev_);
    std::lock_guard<std::mutex> g(m_);
    if (!foreign_ev_)
      gpu_check(gpu_api::event_create_no_timing(&foreign_ev_), gpu_api::call_name::event_create);
    gpu_check(gpu_api::event_record(foreign_ev_, other), gpu_api::call_name::event_record);
    gpu_check(gpu_api::stream_wait_event(own, foreign_ev_), gpu_api::call_name::stream_wait_event,
              " (accelerator_view after Kokkos instance)");
  }
  std::shared_ptr<queue_marker> mark() {
    gpu_api::stream_t s = stream();
    device_scope on(dev_);
    gpu_api::event_t e;
    gpu_check(gpu_api::event_create_no_timing(&e), gpu_api::call_name::event_create);
    auto m = std::make_shared<queue_marker>(dev_, e);
    gpu_check(gpu_api::event_record(e, s), gpu_api::call_name::event_record);
    return m;
  }
  void synchronize_quietly() noexcept {
    if (!made_) return;
    try {
      synchronize(false);
    } catch (...) {
    }
  }

private:
  // An event marking the end of the work queued so far (one per queue,
  // re-recorded: a wait captures the event's state when it is queued).
  // (Asynchronous operations run on worker threads, hence the lock.)
  gpu_api::event_t record() {
    gpu_api::stream_t s = stream();
    device_scope on(dev_);
    std::lock_guard<std::mutex> g(m_);
    if (!ev_) gpu_check(gpu_api::event_create_no_timing(&ev_), gpu_api::call_name::event_create);
    gpu_check(gpu_api::event_record(ev_, s), gpu_api::call_name::event_record);
    return ev_;
  }

  int dev_;
  bool default_;
  bool made_ = false;
  gpu_api::stream_t s_ = nullptr;
  gpu_api::event_t ev_ = nullptr;
  gpu_api::event_t foreign_ev_ = nullptr; // take_back's
  std::mutex m_;
};

struct device_memory {
  static void check(gpu_api::error_t e, const char* what, const char* detail = "") { gpu_check(e, what, detail); }
  static int device_count() {
    int n = 0;
    if (gpu_api::get_device_count(&n) != gpu_api::success) {
      (void)gpu_api::get_last_error();
      return 0;
    }
    return n;
  }
  // The device Kokkos runs on: 0 unless the program started Kokkos itself on
  // another one (amp_compat starts it with Kokkos' defaults).
  static int kokkos_device() { return Kokkos::is_initialized() ? gpu_api::kokkos_instance_device() : 0; }
  static device_properties properties(int d) {
    device_properties r;
    gpu_api::device_prop_t p;
    if (gpu_api::get_device_properties(&p, d) == gpu_api::success) {
      r.name = p.name;
      r.memory_bytes = p.totalGlobalMem;
      r.pci_bus = p.pciBusID;
    } else {
      (void)gpu_api::get_last_error();
      r.name = std::string(gpu_api::runtime_name) + " device";
    }
    return r;
  }
  // Accelerator paths: "cuda0", "cuda1", ... in the runtime's device order;
  // "cuda" (like "gpu") names the device Kokkos runs on (accelerator_table.h).
  // (HIP: "hip0", "hip".)
  static std::wstring path(int d) { return gpu_api::path_prefix + std::to_wstring(d); }
  static bool names_backend(const std::string& s) { return s == gpu_api::short_name; }
  static std::string describe(int d, const device_properties& p, bool kokkos) {
    return p.name + " (" + gpu_api::runtime_name + " device " + std::to_string(d) + (kokkos ? ", Kokkos)" : ")");
  }
  // Device d's default queue: shared by its default accelerator_view and by
  // work that names no view. Never destroyed (outlives static arrays).
  static const std::shared_ptr<queue_state>& default_queue(int d) {
    static std::mutex m;
    static auto* qs = new std::vector<std::shared_ptr<queue_state>>();
    std::lock_guard<std::mutex> g(m);
    if (qs->empty()) {
      const int n = device_count(), k = kokkos_device();
      for (int i = 0; i < n; ++i) qs->push_back(std::make_shared<queue_state>(i, i == k));
    }
    if (d < 0 || d >= static_cast<int>(qs->size()))
      throw runtime_exception(("no such " + std::string(gpu_api::runtime_name) + " device").c_str(), e_invalidarg);
    return (*qs)[static_cast<std::size_t>(d)];
  }

  static void* alloc(int d, std::size_t bytes) {
    device_scope on(d);
    void* p = nullptr;
    check(gpu_api::malloc(&p, bytes ? bytes : 1), gpu_api::call_name::malloc, " (array or array_view storage)");
    zero_new(d, p, bytes ? bytes : 1);
    return p;
  }
  // New storage reads as zeros, as the host accelerators' does (calloc'ed):
  // what no one wrote (an array before its first write; the elements of a
  // discarded view that a kernel leaves alone, which synchronize() copies
  // back) then has the same bits on every accelerator and in every run, not
  // what the device memory held before (another allocation's data). On a
  // stream of the device's own, waited for here: no queue knows the storage
  // yet, so no queue's work is waited for.
  static void zero_new(int d, void* p, std::size_t bytes) {
    gpu_api::stream_t s = zero_stream(d);
    check(gpu_api::memset_async(p, 0, bytes, s), gpu_api::call_name::memset_async, " (new array storage)");
    check(gpu_api::stream_synchronize(s), gpu_api::call_name::memset_async, " (new array storage)");
  }
  static gpu_api::stream_t zero_stream(int d) {
    static std::mutex m;
    static auto* streams = new std::vector<gpu_api::stream_t>(); // never destroyed, as the queues
    std::lock_guard<std::mutex> g(m);
    if (streams->size() <= static_cast<std::size_t>(d)) streams->resize(static_cast<std::size_t>(d) + 1, nullptr);
    gpu_api::stream_t& s = (*streams)[static_cast<std::size_t>(d)];
    if (!s) check(gpu_api::stream_create_non_blocking(&s), gpu_api::call_name::stream_create, " (zeroing stream)");
    return s;
  }
  static void free(int d, void* p) noexcept {
    try {
      device_scope on(d);
      (void)gpu_api::free(p);
    } catch (...) {
    }
  }
  // Stream-ordered: usable by work queued after it on q, released once the
  // work queued before free_queued is done. No device-wide synchronisation.
  static void* alloc_queued(queue_state& q, std::size_t bytes) {
    gpu_api::stream_t s = q.stream();
    device_scope on(q.device());
    void* p = nullptr;
    check(gpu_api::malloc_async(&p, bytes ? bytes : 1, s), gpu_api::call_name::malloc_async, " (kernel closure)");
    return p;
  }
  static void free_queued(queue_state& q, void* p) noexcept {
    gpu_api::stream_t s = q.stream();
    device_scope on(q.device());
    (void)gpu_api::free_async(p, s);
  }
  // Copies are queued on q, so they are ordered after earlier work on it;
  // the synchronous ones wait for it, so a copy back also reports a fault of
  // a kernel before it.
  static void copy(queue_state& q, void* d, const void* s, std::size_t n, gpu_api::memcpy_kind k, const char* what) {
    gpu_api::stream_t st = q.stream();
    device_scope on(q.device());
    check(gpu_api::memcpy_async(d, s, n, k, st), what);
    check(gpu_api::stream_synchronize(st), what);
    kernel_aborts::check();
  }
  static void to_device(queue_state& q, void* d, const void* h, std::size_t n) {
    copy(q, d, h, n, gpu_api::host_to_device, "copy to the GPU");
  }
  // Queues a small upload from pageable memory without waiting: the runtime
  // stages (or completes) a copy from pageable memory before returning, so h
  // may change right after (gpu_api::memcpy_async).
  static void to_device_queued(queue_state& q, void* d, const void* h, std::size_t n) {
    gpu_api::stream_t st = q.stream();
    device_scope on(q.device());
    check(gpu_api::memcpy_async(d, h, n, gpu_api::host_to_device, st), "copy to the GPU");
  }
  static void to_host(queue_state& q, void* h, const void* d, std::size_t n) {
    copy(q, h, d, n, gpu_api::device_to_host, "copy from the GPU");
  }
  // Device to device, queued on q (a queue of the destination device dd).
  // Between devices: directly (NVLink, Infinity Fabric or PCIe) where peer
  // access is possible (enabled on first use), else staged by the driver
  // through its own pinned buffers; never through pageable host memory.
  static void device_to_device(queue_state& q, void* dst, int dd, const void* src, int sd, std::size_t n) {
    gpu_api::stream_t st = q.stream();
    if (dd == sd) {
      device_scope on(dd);
      check(gpu_api::memcpy_async(dst, src, n, gpu_api::device_to_device, st), "copy on the GPU");
      return;
    }
    enable_peer_access(dd, sd);
    device_scope on(dd);
    check(gpu_api::memcpy_peer_async(dst, dd, src, sd, n, st), "copy between GPUs");
  }
  // Whether device `from` reads and writes device `to`'s memory directly.
  static bool peer_access(int from, int to) {
    int can = 0;
    if (gpu_api::device_can_access_peer(&can, from, to) != gpu_api::success) {
      (void)gpu_api::get_last_error();
      return false;
    }
    return can != 0;
  }
  static void check_launch() { check(gpu_api::get_last_error(), "kernel launch"); }
  static void prepare_launch(int d) { kernel_aborts::prepare(d); }
  static void clear_error() { (void)gpu_api::get_last_error(); }
  // Waits for everything queued on every device; a kernel fault becomes
  // runtime_exception here.
  static void wait_all() {
    const int n = device_count();
    for (int d = 0; d < n; ++d) {
      device_scope on(d);
      check(gpu_api::device_synchronize(), "kernel execution");
      check(gpu_api::get_last_error(), "kernel execution");
    }
    kernel_aborts::check();
  }

private:
  static void enable_peer_access(int from, int to) {
    static std::mutex m;
    static std::vector<char> done; // from * 64 + to
    std::lock_guard<std::mutex> g(m);
    const std::size_t key = static_cast<std::size_t>(from) * 64 + static_cast<std::size_t>(to);
    if (done.size() <= key) done.resize(key + 1, 0);
    if (done[key]) return;
    done[key] = 1;
    if (!peer_access(from, to)) return;
    device_scope on(from);
    const gpu_api::error_t e = gpu_api::device_enable_peer_access(to);
    if (e == gpu_api::error_peer_access_already_enabled) (void)gpu_api::get_last_error();
    else check(e, gpu_api::call_name::device_enable_peer_access);
  }
};

} // namespace detail
} // namespace Concurrency
