// The accelerators of this build and their shared state. Building the list
// starts nothing (no Kokkos, see startup.h), so `accelerator` objects at
// namespace scope are safe. Properties follow what Microsoft's runtime
// reports: `cpu`, `direct3d\warp` and `direct3d\ref` are emulated (software)
// accelerators, `cpu` cannot run kernels and reports no double support.
#pragma once
#include "../config.h"
#include "../backend/device_runtime.h"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <string>
#include <vector>
#include <unistd.h>

namespace Concurrency {

enum access_type { access_type_none = 0, access_type_read = 1, access_type_write = 2,
                   access_type_read_write = 3, access_type_auto = 4 };

namespace detail {

// gpu: a device of the device backend (backend/select.h); the others are the
// host backend's.
enum class device_kind { cpu, host_serial, host_openmp, host_threads, gpu };
// Where a copy of a buffer lives: the host, or the device backend's device d
// (location 1 + d; device_location(d)). A buffer's valid copies are a bit mask
// over locations, so at most 31 devices are used.
enum class location : int { host = 0 };
constexpr int max_devices = 31;
inline location device_location(int d) { return static_cast<location>(1 + d); }
inline int device_of(location l) { return static_cast<int>(l) - 1; }

struct accelerator_info {
  device_kind kind;
  std::wstring path;
  std::wstring description;
  std::size_t dedicated_memory_kb;
  bool emulated;
  bool runs_kernels;
  bool doubles;        // supports_double_precision (and limited double precision)
  unsigned version;    // major << 16 | minor, as AMP reports it
  int ordinal = -1;                           // the device backend's device number; -1 for the host accelerators
  std::shared_ptr<queue_state> default_queue; // the default view's queue (also its identity)

  // default_cpu_access_type: chosen by the runtime, changeable once by
  // set_default_cpu_access_type, and fixed once an array used it.
  std::atomic<int> default_cpu_access{access_type_read_write};
  std::atomic<bool> cpu_access_overridden{false};
  std::atomic<bool> cpu_access_used{false};

  accelerator_info(device_kind k, std::wstring p, std::wstring d, std::size_t mem, bool emu, bool kern, bool dbl,
                   unsigned ver)
      : kind(k), path(std::move(p)), description(std::move(d)), dedicated_memory_kb(mem), emulated(emu),
        runs_kernels(kern), doubles(dbl), version(ver) {}

  location loc() const { return ordinal < 0 ? location::host : device_location(ordinal); }

  // Every accelerator of this build keeps CPU-accessible copies coherent
  // (GPU data are copied at host access), so all of them support CPU access.
  bool supports_cpu_shared_memory() const { return true; }
  access_type get_default_cpu_access() const { return static_cast<access_type>(default_cpu_access.load()); }
  bool set_default_cpu_access(access_type t) {
    if (t == access_type_auto) t = access_type_read_write;
    if (cpu_access_used.load() || cpu_access_overridden.exchange(true)) return false;
    default_cpu_access.store(t);
    return true;
  }
  // The access type an array made with access_type_auto gets; fixes the default.
  access_type resolve_cpu_access(access_type requested) {
    if (requested != access_type_auto) return requested;
    cpu_access_used.store(true);
    return get_default_cpu_access();
  }
};

inline std::wstring widen(const std::string& s) { return std::wstring(s.begin(), s.end()); }

inline std::size_t system_memory_kb() {
  const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
  return pages > 0 && page > 0 ? static_cast<std::size_t>(pages) / 1024 * static_cast<std::size_t>(page) : 0;
}

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
    constexpr unsigned d3d11 = 0x000B0000; // feature level 11.0, what AMP's DirectX accelerators report
    auto add = [&](device_kind k, std::wstring path, std::wstring desc, std::size_t mem, bool emu, bool kern,
                   bool dbl, unsigned ver, int ordinal) AMP_HOST_ONLY {
      auto i = std::make_shared<accelerator_info>(k, std::move(path), std::move(desc), mem, emu, kern, dbl, ver);
      i->ordinal = ordinal;
      i->default_queue = ordinal < 0 ? std::make_shared<queue_state>(-1) : device_memory::default_queue(ordinal);
      all.push_back(std::move(i));
    };
    // Every device of the device backend, in its order; Kokkos' own device
    // is the default.
    const int gpus = std::min(device_memory::device_count(), max_devices);
    const int kokkos_gpu = gpus > 0 ? device_memory::kokkos_device() : -1;
    for (int d = 0; d < gpus; ++d) {
      const device_properties p = device_memory::properties(d);
      add(device_kind::gpu, device_memory::path(d), widen(device_memory::describe(d, p, d == kokkos_gpu)),
          p.memory_bytes / 1024, false, true, true, d3d11, d);
    }
    // The multicore host accelerator stands in for WARP, Microsoft's CPU
    // accelerator: accelerator::direct3d_warp names it (find), but its device
    // path is its own, because code that tests for WARP's path works around
    // WARP's defects (Microsoft's AMP Algorithms Library runs two extra scan
    // kernels there that give wrong sums anywhere else). It is not emulated:
    // AMP calls emulated the software emulations of a Direct3D device (REF,
    // WARP) and the cpu accelerator, and code written for AMP knows no other
    // emulated path (Microsoft's test library stops at an emulated device that
    // is not cpu, WARP or REF); this one runs kernels compiled for the cores
    // it runs on, as a GPU runs its own.
#if AMP_HAS_OPENMP
    add(device_kind::host_openmp, multicore_path, L"Host multicore (Kokkos OpenMP)", 0, false, true, true, d3d11, -1);
#elif AMP_HAS_THREADS
    add(device_kind::host_threads, multicore_path, L"Host multicore (Kokkos Threads)", 0, false, true, true, d3d11, -1);
#endif
#if AMP_HAS_SERIAL
    add(device_kind::host_serial, L"direct3d\\ref", L"Host serial (Kokkos Serial)", 0, true, true, true, d3d11, -1);
#endif
    // As in Microsoft's runtime: version 0.1, the system memory, no doubles.
    add(device_kind::cpu, L"cpu", L"CPU accelerator", system_memory_kb(), true, false, false, 0x00000001, -1);
    default_acc = kokkos_gpu >= 0 ? all[static_cast<std::size_t>(kokkos_gpu)] : all.front();
    if (const char* env = std::getenv("AMP_DEFAULT_ACCELERATOR")) {
      auto found = find(alias(env));
      if (!found) {
        std::fprintf(stderr, "amp_compat: AMP_DEFAULT_ACCELERATOR=%s names no accelerator of this build\n", env);
        std::exit(2);
      }
      default_acc = found;
    }
  }
#if AMP_HAS_OPENMP
  static constexpr const wchar_t* multicore_path = L"kokkos\\openmp";
#else
  static constexpr const wchar_t* multicore_path = L"kokkos\\threads";
#endif
  // Short names accepted wherever a device path is (env var, set_default).
  // "gpu" and the device backend's own name (device_memory::names_backend)
  // name the GPU Kokkos runs on.
  static std::wstring alias(const std::string& s) {
    if (s == "gpu" || device_memory::names_backend(s))
      return device_memory::path(device_memory::device_count() > 0 ? device_memory::kokkos_device() : 0);
    if (s == "openmp" || s == "threads" || s == "warp" || s == "host") return multicore_path;
    if (s == "serial" || s == "ref") return L"direct3d\\ref";
    return widen(s);
  }
  std::shared_ptr<accelerator_info> find(const std::wstring& path) {
    if (path == L"default") return default_acc;
    const std::wstring& p = path == L"direct3d\\warp" ? std::wstring(multicore_path) : path;
    for (auto& a : all)
      if (a->path == p) return a;
    return nullptr;
  }
};

} // namespace detail
} // namespace Concurrency
