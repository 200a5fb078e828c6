// accelerator and accelerator_view (AMP spec section 3). Property syntax
// (acc.default_view, acc.description, ...) is provided by data members that are
// filled when the object is made, since GCC has no __declspec(property).
#pragma once
#include "runtime.h"

#include <future>
#include <string>
#include <vector>

namespace Concurrency {

class accelerator;
class accelerator_view;

enum queuing_mode { queuing_mode_immediate, queuing_mode_automatic };
enum access_type { access_type_none = 0, access_type_read = 1, access_type_write = 2,
                   access_type_read_write = 3, access_type_auto = 4 };

namespace detail {
std::shared_ptr<accelerator_info> info_of(const accelerator_view&);
}

// A completed-or-pending operation; this layer performs copies synchronously,
// so futures it returns are already satisfied.
class completion_future {
public:
  completion_future() = default;
  explicit completion_future(std::shared_future<void> f) : f_(std::move(f)) {}
  void get() const { if (f_.valid()) f_.get(); }
  bool valid() const { return f_.valid(); }
  void wait() const { if (f_.valid()) f_.wait(); }
  template <class R, class P> std::future_status wait_for(const std::chrono::duration<R, P>& d) const {
    return f_.valid() ? f_.wait_for(d) : std::future_status::ready;
  }
  template <class C, class D> std::future_status wait_until(const std::chrono::time_point<C, D>& t) const {
    return f_.valid() ? f_.wait_until(t) : std::future_status::ready;
  }
  operator std::shared_future<void>() const { return f_; }
  template <class F> void then(const F& f) const { get(); f(); }
  static completion_future ready() {
    std::promise<void> p;
    p.set_value();
    return completion_future(p.get_future().share());
  }

private:
  std::shared_future<void> f_;
};

class accelerator_view {
public:
  accelerator_view(const accelerator_view&) = default;
  accelerator_view& operator=(const accelerator_view&) = default;

  accelerator get_accelerator() const;
  bool get_is_debug() const { return false; }
  unsigned int get_version() const { return 0x000B0000; }
  queuing_mode get_queuing_mode() const { return mode_; }
  bool get_is_auto_selection() const { return false; }
  // Kernels may run asynchronously on the GPU; wait() returns when all are
  // done and raises their errors as runtime_exception.
  void wait() const {
    if (info_->kind == detail::device_kind::cuda) detail::device_memory::wait();
    else Kokkos::fence();
  }
  void flush() const {}
  completion_future create_marker() const {
    wait();
    return completion_future::ready();
  }
  // Each view made by create_view() is distinct; copies compare equal.
  bool operator==(const accelerator_view& o) const { return id_ == o.id_; }
  bool operator!=(const accelerator_view& o) const { return !(*this == o); }

  // Properties.
  bool is_debug = false;
  unsigned int version = 0x000B0000;
  queuing_mode queuing_mode_property = queuing_mode_automatic;
  bool is_auto_selection = false;

private:
  friend class accelerator;
  friend std::shared_ptr<detail::accelerator_info> detail::info_of(const accelerator_view&);
  accelerator_view(std::shared_ptr<detail::accelerator_info> i, queuing_mode m, std::shared_ptr<const int> id)
      : queuing_mode_property(m), info_(std::move(i)), mode_(m), id_(std::move(id)) {}
  std::shared_ptr<detail::accelerator_info> info_;
  queuing_mode mode_;
  std::shared_ptr<const int> id_;
};

class accelerator {
public:
  static const wchar_t default_accelerator[];
  static const wchar_t cpu_accelerator[];
  static const wchar_t direct3d_warp[];
  static const wchar_t direct3d_ref[];

  accelerator() : accelerator(default_info(true)) {}
  explicit accelerator(const std::wstring& path) : accelerator(lookup(path)) {}
  accelerator(const accelerator&) = default;
  accelerator& operator=(const accelerator&) = default;

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
  static accelerator_view get_auto_selection_view() { return accelerator().default_view; }

  accelerator_view create_view(queuing_mode m = queuing_mode_automatic) const {
    return accelerator_view(info_, m, std::make_shared<const int>(0));
  }
  accelerator_view get_default_view() const { return default_view; }
  std::wstring get_device_path() const { return info_->path; }
  std::wstring get_description() const { return info_->description; }
  unsigned int get_version() const { return version; }
  std::size_t get_dedicated_memory() const { return info_->dedicated_memory_kb; }
  bool get_supports_double_precision() const { return true; }
  bool get_supports_limited_double_precision() const { return true; }
  bool get_has_display() const { return false; }
  bool get_is_debug() const { return false; }
  bool get_is_emulated() const { return info_->emulated; }
  bool get_supports_cpu_shared_memory() const { return info_->kind != detail::device_kind::cuda; }
  access_type get_default_cpu_access_type() const { return default_cpu_access_type; }
  bool set_default_cpu_access_type(access_type t) {
    default_cpu_access_type = t;
    return true;
  }
  bool operator==(const accelerator& o) const { return info_ == o.info_; }
  bool operator!=(const accelerator& o) const { return !(*this == o); }

  // Properties.
  std::wstring device_path;
  std::wstring description;
  unsigned int version = 0x000B0000;
  std::size_t dedicated_memory;
  bool supports_double_precision = true;
  bool supports_limited_double_precision = true;
  bool has_display = false;
  bool is_debug = false;
  bool is_emulated;
  bool supports_cpu_shared_memory;
  access_type default_cpu_access_type;
  accelerator_view default_view;

private:
  friend class accelerator_view;
  explicit accelerator(std::shared_ptr<detail::accelerator_info> i)
      : device_path(i->path), description(i->description), dedicated_memory(i->dedicated_memory_kb),
        is_emulated(i->emulated), supports_cpu_shared_memory(i->kind != detail::device_kind::cuda),
        default_cpu_access_type(i->kind == detail::device_kind::cuda ? access_type_none : access_type_read_write),
        default_view(i, queuing_mode_automatic, i->default_view_id), info_(std::move(i)) {}
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
  std::shared_ptr<detail::accelerator_info> info_;
};

inline const wchar_t accelerator::default_accelerator[] = L"default";
inline const wchar_t accelerator::cpu_accelerator[] = L"cpu";
inline const wchar_t accelerator::direct3d_warp[] = L"direct3d\\warp";
inline const wchar_t accelerator::direct3d_ref[] = L"direct3d\\ref";

inline accelerator accelerator_view::get_accelerator() const { return accelerator(info_); }

namespace detail {
inline std::shared_ptr<accelerator_info> info_of(const accelerator_view& v) { return v.info_; }
inline accelerator_view default_accelerator_view() { return accelerator().default_view; }
} // namespace detail
} // namespace Concurrency
