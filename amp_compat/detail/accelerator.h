// accelerator and accelerator_view (AMP spec 3). Property syntax
// (acc.default_view, acc.description, av.accelerator, av.queuing_mode, ...) is
// provided by data members filled when the object is made, since GCC has no
// __declspec(property). An accelerator contains its default_view, so
// accelerator_view::accelerator cannot be a whole accelerator: it is the
// accelerator's properties and member functions (detail::accelerator_props,
// the base class of accelerator), everything but the default_view member;
// it converts to accelerator.
#pragma once
#include "runtime.h"
#include "runtime/completion_future.h"

#include <string>
#include <vector>

namespace Concurrency {

class accelerator;
class accelerator_view;

enum queuing_mode { queuing_mode_immediate, queuing_mode_automatic };

namespace detail {
std::shared_ptr<accelerator_info> info_of(const accelerator_view&);
const std::shared_ptr<queue_state>& queue_of(const accelerator_view&);

class accelerator_props {
public:
  std::wstring get_device_path() const { return info_->path; }
  std::wstring get_description() const { return info_->description; }
  unsigned int get_version() const { return info_->version; }
  std::size_t get_dedicated_memory() const { return info_->dedicated_memory_kb; }
  bool get_supports_double_precision() const { return info_->doubles; }
  bool get_supports_limited_double_precision() const { return info_->doubles; }
  bool get_has_display() const { return false; }
  bool get_is_debug() const { return false; }
  bool get_is_emulated() const { return info_->emulated; }
  bool get_supports_cpu_shared_memory() const { return info_->supports_cpu_shared_memory(); }
  access_type get_default_cpu_access_type() const { return info_->get_default_cpu_access(); }
  // Succeeds once per accelerator, and only before an array used the
  // runtime's choice (AMP semantics); the setting is shared by every
  // accelerator object of that device.
  bool set_default_cpu_access_type(access_type t) {
    const bool ok = info_->set_default_cpu_access(t);
    default_cpu_access_type = info_->get_default_cpu_access();
    return ok;
  }
  inline accelerator_view get_default_view() const;
  inline accelerator_view create_view(queuing_mode m = queuing_mode_automatic) const;

  bool operator==(const accelerator_props& o) const { return info_ == o.info_; }
  bool operator!=(const accelerator_props& o) const { return !(*this == o); }

  // Properties.
  std::wstring device_path;
  std::wstring description;
  unsigned int version;
  std::size_t dedicated_memory;
  bool supports_double_precision;
  bool supports_limited_double_precision;
  bool has_display = false;
  bool is_debug = false;
  bool is_emulated;
  bool supports_cpu_shared_memory;
  access_type default_cpu_access_type;

protected:
  friend class Concurrency::accelerator;
  friend class Concurrency::accelerator_view;
  explicit accelerator_props(std::shared_ptr<accelerator_info> i)
      : device_path(i->path), description(i->description), version(i->version),
        dedicated_memory(i->dedicated_memory_kb), supports_double_precision(i->doubles),
        supports_limited_double_precision(i->doubles), is_emulated(i->emulated),
        supports_cpu_shared_memory(i->supports_cpu_shared_memory()),
        default_cpu_access_type(i->get_default_cpu_access()), info_(std::move(i)) {}
  std::shared_ptr<accelerator_info> info_;
};

// Identity of the auto-selection view (every copy of it compares equal). It
// queues nothing itself: its kernels run on the view of the first array they
// capture, else on the default accelerator's default view.
inline const std::shared_ptr<queue_state>& auto_selection_id() {
  static const std::shared_ptr<queue_state> id = std::make_shared<queue_state>(-1);
  return id;
}
} // namespace detail

class accelerator_view {
public:
  accelerator_view(const accelerator_view&) = default;
  // Only to lvalues: `arr.get_accelerator_view() = v` is an error, as in AMP.
  accelerator_view& operator=(const accelerator_view&) & = default;

  inline Concurrency::accelerator get_accelerator() const;
  bool get_is_debug() const { return false; }
  unsigned int get_version() const { return info_->version; }
  Concurrency::queuing_mode get_queuing_mode() const { return mode_; }
  bool get_is_auto_selection() const { return auto_; }
  // Every view is a queue (on a GPU: its own stream, backend/backend.h).
  // Returns when every asynchronous operation issued so far and every kernel
  // and copy queued on this view has finished (other views of the same GPU
  // are not waited for; the auto-selection view waits for every GPU); kernel
  // faults (GPU) are raised here as runtime_exception.
  void wait() const {
    detail::async_registry::get().wait_all();
    // Host kernels are finished when parallel_for_each returns.
    if (info_->kind != detail::device_kind::gpu) return;
    if (auto_) detail::device_memory::wait_all();
    else q_->synchronize();
  }
  // Commands are submitted as they are issued, in both queuing modes;
  // nothing is held back.
  void flush() const {}
  // A future that is ready once everything issued so far (on a GPU: queued
  // on this view) has finished.
  completion_future create_marker() const {
    auto ops = detail::async_registry::get().unfinished();
    const bool device = info_->kind == detail::device_kind::gpu;
    if (ops.empty() && !device) return detail::async_access::ready();
    // The point in this view's queue is taken now; the worker waits for it.
    std::shared_ptr<detail::queue_marker> mark = device && !auto_ ? q_->mark() : nullptr;
    return detail::launch_async({}, [ops, device, mark]() AMP_HOST_ONLY {
      for (auto& p : ops) p->wait_done();
      if (mark) mark->wait();
      else if (device) detail::device_memory::wait_all();
    });
  }
  // Each view made by create_view() is distinct; copies compare equal.
  bool operator==(const accelerator_view& o) const { return q_ == o.q_; }
  bool operator!=(const accelerator_view& o) const { return !(*this == o); }

  // Properties.
  detail::accelerator_props accelerator;
  bool is_debug = false;
  unsigned int version;
  Concurrency::queuing_mode queuing_mode;
  bool is_auto_selection;

private:
  friend class Concurrency::accelerator;
  friend class detail::accelerator_props;
  friend std::shared_ptr<detail::accelerator_info> detail::info_of(const accelerator_view&);
  friend const std::shared_ptr<detail::queue_state>& detail::queue_of(const accelerator_view&);
  accelerator_view(std::shared_ptr<detail::accelerator_info> i, Concurrency::queuing_mode m,
                   std::shared_ptr<detail::queue_state> q, bool auto_selection = false)
      : accelerator(i), version(i->version), queuing_mode(m), is_auto_selection(auto_selection),
        info_(std::move(i)), mode_(m), q_(std::move(q)), auto_(auto_selection) {}
  std::shared_ptr<detail::accelerator_info> info_;
  Concurrency::queuing_mode mode_;
  std::shared_ptr<detail::queue_state> q_; // the queue, and the view's identity
  bool auto_;
};

class accelerator : public detail::accelerator_props {
public:
  static const wchar_t default_accelerator[];
  static const wchar_t cpu_accelerator[];
  static const wchar_t direct3d_warp[];
  static const wchar_t direct3d_ref[];

  // The default accelerator; from then on set_default is refused.
  accelerator() : accelerator(default_info(true)) {}
  explicit accelerator(const std::wstring& path) : accelerator(lookup(path)) {}
  accelerator(const accelerator&) = default;
  accelerator& operator=(const accelerator&) = default;
  // From av.accelerator.
  accelerator(const detail::accelerator_props& p) : accelerator(p.info_) {}

  static std::vector<accelerator> get_all() {
    std::vector<accelerator> r;
    for (auto& i : detail::accelerator_table::get().all) r.push_back(accelerator(i));
    return r;
  }
  // Changes the default accelerator; refused (false) once the default was used.
  static bool set_default(const std::wstring& path) {
    auto& t = detail::accelerator_table::get();
    auto i = lookup(path);
    std::lock_guard<std::mutex> g(t.m);
    if (t.default_fixed) return false;
    t.default_acc = i;
    return true;
  }
  // A view on which parallel_for_each picks the accelerator itself: where the
  // first array the kernel captures lives, else the default accelerator.
  static accelerator_view get_auto_selection_view() {
    return accelerator_view(default_info(false), queuing_mode_automatic, detail::auto_selection_id(), true);
  }

  accelerator_view get_default_view() const { return default_view; }

  // Properties (the others are in accelerator_props).
  accelerator_view default_view;

private:
  friend class accelerator_view;
  friend class detail::accelerator_props;
  explicit accelerator(std::shared_ptr<detail::accelerator_info> i)
      : detail::accelerator_props(i), default_view(i, queuing_mode_automatic, i->default_queue) {}
  static std::shared_ptr<detail::accelerator_info> default_info(bool fix) {
    auto& t = detail::accelerator_table::get();
    std::lock_guard<std::mutex> g(t.m);
    if (fix) t.default_fixed = true;
    return t.default_acc;
  }
  static std::shared_ptr<detail::accelerator_info> lookup(const std::wstring& path) {
    auto i = detail::accelerator_table::get().find(path);
    if (!i) {
      std::string p(path.begin(), path.end());
      throw runtime_exception(("No accelerator with device path \"" + p + "\"").c_str(), detail::e_invalidarg);
    }
    return i;
  }
};

inline const wchar_t accelerator::default_accelerator[] = L"default";
inline const wchar_t accelerator::cpu_accelerator[] = L"cpu";
inline const wchar_t accelerator::direct3d_warp[] = L"direct3d\\warp";
inline const wchar_t accelerator::direct3d_ref[] = L"direct3d\\ref";

inline accelerator accelerator_view::get_accelerator() const { return Concurrency::accelerator(info_); }

namespace detail {
inline accelerator_view accelerator_props::get_default_view() const {
  return accelerator_view(info_, queuing_mode_automatic, info_->default_queue);
}
// A new, independent queue on this accelerator (on a GPU: its own stream,
// created when first used).
inline accelerator_view accelerator_props::create_view(queuing_mode m) const {
  return accelerator_view(info_, m, std::make_shared<queue_state>(info_->ordinal));
}
inline std::shared_ptr<accelerator_info> info_of(const accelerator_view& v) { return v.info_; }
// The queue work on a view goes to. The auto-selection view's own queue is
// only its identity: AMP picks the target of a parallel_for_each on it
// (parallel_for_each.h), and "for all other purposes" (arrays made on it,
// copies, textures) it is the default accelerator's default view, so that is
// the queue (on a GPU, the device's default stream; its identity queue is a
// host queue that no device call may use).
inline const std::shared_ptr<queue_state>& queue_of(const accelerator_view& v) {
  return v.auto_ ? v.info_->default_queue : v.q_;
}
inline accelerator_view default_accelerator_view() { return accelerator().default_view; }
} // namespace detail

// Waits for every asynchronous operation and kernel, and lets the default
// accelerator be chosen again (set_default). The runtime restarts by itself on
// the next use; Kokkos itself stays up until the program exits (it cannot be
// started twice).
inline void amp_uninitialize() {
  detail::async_registry::get().wait_all();
  detail::device_memory::wait_all();
  auto& t = detail::accelerator_table::get();
  std::lock_guard<std::mutex> g(t.m);
  t.default_fixed = false;
}

} // namespace Concurrency
