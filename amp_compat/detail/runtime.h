// Runtime state shared by the host API: Kokkos start-up, the accelerator list,
// data buffers with their host/device coherence, and the registry that lets a
// kernel launch recognise the arrays and array_views inside a closure.
#pragma once
#include "config.h"
#include "device_cuda.h"
#include "exceptions.h"

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace Concurrency {
namespace detail {

// ---------------------------------------------------------------- start-up
// The thread that started Kokkos. Kokkos 3.4's OpenMP backend can only be
// entered from it; kernels launched from other threads run serially instead.
inline std::thread::id& kokkos_thread() {
  static std::thread::id id;
  return id;
}

inline void ensure_kokkos() {
  // A mutex, not std::call_once: libstdc++'s call_once cannot carry the
  // start-up exception out (it runs under pthread_once) and aborts instead.
  static std::mutex m;
  static bool started = false;
  std::lock_guard<std::mutex> g(m);
  if (started) return;
  if (Kokkos::is_initialized()) { // the program manages Kokkos itself
    started = true;
    return;
  }
  // AMP programs never start Kokkos themselves; its OpenMP thread-binding
  // advice is noise to them, so warnings are off unless AMP_KOKKOS_WARNINGS is set.
  int argc = std::getenv("AMP_KOKKOS_WARNINGS") ? 1 : 2;
  char name[] = "amp_compat";
  char quiet[] = "--kokkos-disable-warnings";
  char* argv[] = {name, quiet, nullptr};
  kokkos_thread() = std::this_thread::get_id();
  try {
    Kokkos::initialize(argc, argv);
  } catch (const std::exception& e) {
    throw runtime_exception((std::string("amp_compat: Kokkos could not start (a GPU build needs an NVIDIA GPU "
                                         "and driver): ") + e.what()).c_str(), e_fail);
  }
  started = true;
  std::atexit([]() AMP_HOST_ONLY {
    // After a kernel fault the CUDA context is unusable and Kokkos' own
    // shutdown may throw; the fault was already reported as an exception.
    try {
      if (Kokkos::is_initialized()) Kokkos::finalize();
    } catch (...) {
    }
  });
}

// ---------------------------------------------------------------- accelerators
enum class device_kind { cpu, host_serial, host_openmp, cuda };
// Where a copy of a buffer lives.
enum class location { host = 0, device = 1 };

inline location location_of(device_kind k) { return k == device_kind::cuda ? location::device : location::host; }

struct accelerator_info {
  device_kind kind;
  std::wstring path;
  std::wstring description;
  std::size_t dedicated_memory_kb;
  bool emulated;
  bool runs_kernels;
  std::shared_ptr<const int> default_view_id = std::make_shared<const int>(0); // identity of default_view
};

inline std::wstring widen(const std::string& s) { return std::wstring(s.begin(), s.end()); }

struct accelerator_table {
  std::vector<std::shared_ptr<accelerator_info>> all;
  std::shared_ptr<accelerator_info> default_acc;
  bool default_fixed = false; // once used, set_default is refused (as in AMP)
  std::mutex m;

  static accelerator_table& get() {
    static accelerator_table t;
    return t;
  }
  accelerator_table() {
    ensure_kokkos();
    auto add = [&](device_kind k, const wchar_t* path, std::wstring desc, std::size_t mem, bool emu, bool kern) AMP_HOST_ONLY {
      all.push_back(std::make_shared<accelerator_info>(accelerator_info{k, path, std::move(desc), mem, emu, kern}));
    };
    if (device_memory::device_count() > 0)
      add(device_kind::cuda, L"cuda0", widen(device_memory::device_name() + " (CUDA, Kokkos)"),
          device_memory::device_memory_bytes() / 1024, false, true);
#if AMP_HAS_OPENMP
    add(device_kind::host_openmp, L"direct3d\\warp",
        widen("Host multicore (Kokkos OpenMP, " + std::to_string(Kokkos::OpenMP::concurrency()) + " threads)"), 0,
        true, true);
#endif
#if AMP_HAS_SERIAL
    add(device_kind::host_serial, L"direct3d\\ref", L"Host serial (Kokkos Serial)", 0, true, true);
#endif
    add(device_kind::cpu, L"cpu", L"CPU accelerator", 0, false, false);
    default_acc = all.front();
    if (const char* env = std::getenv("AMP_DEFAULT_ACCELERATOR")) {
      auto found = find(alias(env));
      if (!found) {
        std::fprintf(stderr, "amp_compat: AMP_DEFAULT_ACCELERATOR=%s names no accelerator of this build\n", env);
        std::exit(2);
      }
      default_acc = found;
    }
  }
  // Short names accepted wherever a device path is (env var, set_default).
  static std::wstring alias(const std::string& s) {
    if (s == "gpu" || s == "cuda") return L"cuda0";
    if (s == "openmp" || s == "warp" || s == "host") return L"direct3d\\warp";
    if (s == "serial" || s == "ref") return L"direct3d\\ref";
    return widen(s);
  }
  std::shared_ptr<accelerator_info> find(const std::wstring& path) {
    if (path == L"default") return default_acc;
    for (auto& a : all)
      if (a->path == path) return a;
    return nullptr;
  }
};

// ---------------------------------------------------------------- buffers
// One allocation of user data with a copy on the host and/or the device.
// `valid` says which copies hold the current contents (both after a read-only
// transfer; none right after discard_data). Host views that do not own their
// memory (array_view over a std::vector) use the user's memory as host copy.
struct buffer {
  std::size_t bytes;
  void* host = nullptr;
  void* dev = nullptr;
  bool host_owned = false;
  unsigned valid = 0;
  location home;
  device_kind owner = device_kind::cpu; // the accelerator of the array that owns it, if any
  std::shared_ptr<const void> source_view; // that array's accelerator_view (type-erased: defined later)
  std::atomic<int> refs{1};

  static constexpr unsigned bit(location l) { return 1u << static_cast<unsigned>(l); }

  buffer(std::size_t n, location h) : bytes(n), home(h) { registry_add(); }
  ~buffer() {
    registry_remove();
    if (host_owned) std::free(host);
    if (dev) device_memory::free(dev);
  }
  buffer(const buffer&) = delete;
  buffer& operator=(const buffer&) = delete;

  // Storage that the buffer allocates itself, in its home location.
  static buffer* make_owned(std::size_t n, location home) {
    auto* b = new buffer(n, home);
    b->allocate(home);
    b->valid = bit(home);
    return b;
  }
  // Host memory that belongs to the user (array_view over a container/pointer).
  static buffer* make_view_of(void* user, std::size_t n) {
    auto* b = new buffer(n, location::host);
    b->host = user;
    b->valid = bit(location::host);
    return b;
  }

  void* base(location l) const { return l == location::host ? host : dev; }

  void allocate(location l) {
    if (base(l)) return;
    if (l == location::host) {
      host = std::calloc(bytes ? bytes : 1, 1);
      if (!host) throw out_of_memory("host allocation for array data failed");
      host_owned = true;
    } else {
      dev = device_memory::alloc(bytes);
    }
  }

  enum class access { read, write, discard };
  // Makes the copy at `l` current. write: other copies become stale;
  // discard: the contents are not needed, so nothing is transferred.
  void prepare(location l, access a) {
    const unsigned b = bit(l);
    if ((valid & b) && a == access::read) return;
    if (valid == b) return;
    allocate(l);
    if (!(valid & b) && a != access::discard && valid != 0) transfer_to(l);
    valid = (a == access::read) ? (valid | b) : b;
  }
  bool host_current() const { return (valid & bit(location::host)) != 0; }
  void transfer_to(location l) {
    if (l == location::host) device_memory::to_host(host, dev, bytes);
    else device_memory::to_device(dev, host, bytes);
  }
  // Copies back to user memory before the last view of it goes away.
  void sync_back_for_destruction() noexcept {
    if (host_owned || !host || host_current() || valid == 0) return;
    try {
      prepare(location::host, access::read);
    } catch (const std::exception& e) {
      std::fprintf(stderr, "amp_compat: array_view data could not be copied back: %s\n", e.what());
    }
  }

  void retain() { refs.fetch_add(1, std::memory_order_relaxed); }
  void release() {
    if (refs.fetch_sub(1, std::memory_order_acq_rel) == 1) {
      sync_back_for_destruction();
      delete this;
    }
  }

  // --- registry of live buffers: a launch checks that what looks like a view
  // inside a closure really refers to one of these before touching it.
  static std::mutex& reg_mutex() {
    static std::mutex m;
    return m;
  }
  static std::unordered_set<const buffer*>& live() {
    static std::unordered_set<const buffer*> s;
    return s;
  }
  static bool is_live(const void* p) {
    std::lock_guard<std::mutex> g(reg_mutex());
    return live().count(static_cast<const buffer*>(p)) != 0;
  }
  void registry_add() {
    std::lock_guard<std::mutex> g(reg_mutex());
    live().insert(this);
  }
  void registry_remove() {
    std::lock_guard<std::mutex> g(reg_mutex());
    live().erase(this);
  }
};

// Every array and array_view starts with this header. `buf` is null in the
// copies that kernels see: a kernel never touches coherence state, and `ptr`
// there points at the data in the memory of the accelerator that runs it.
struct data_header {
  std::uint64_t tag;
  buffer* buf;
  void* ptr;         // first element of this object's data in the current space
  std::size_t off;   // byte offset of that element from the buffer's base
};
// Marker of an array_view inside a closure; the low bit is set for views of const T.
constexpr std::uint64_t view_tag = 0x5745495650'4D40ull;
static_assert((view_tag & 1) == 0, "the low bit of view_tag flags read-only views");
constexpr std::uint64_t array_tag = 0x5941525241'4D41ull; // arrays are found by address instead

} // namespace detail
} // namespace Concurrency
