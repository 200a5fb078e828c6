// Runtime state shared by the host API: data buffers with their host/device
// coherence and the registry that lets a kernel launch recognise the arrays and
// array_views inside a closure. Kokkos' lifetime is in runtime/startup.h, the
// accelerator list in runtime/accelerator_table.h.
#pragma once
#include "config.h"
#include "backend/device_runtime.h"
#include "exceptions.h"
#include "runtime/accelerator_table.h"
#include "runtime/async_state.h"
#include "runtime/result_log.h"
#include "runtime/startup.h"

#include <algorithm>
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
class accelerator_view;
namespace detail {

// ---------------------------------------------------------------- buffers
// How kernels on the host accelerators treat the user's memory behind an
// array_view (AMP_HOST_VIEWS; migration_guide.md, "A view's source memory
// before synchronize()"): `in-place` (the default) works in it, so it shows a
// kernel's results at once; `copy` gives each such view a private host copy
// that kernels work in, copied back at synchronize(), at host access through
// the view or when the last view goes away, as on a GPU. Read once.
enum class host_views { in_place, copy };
inline std::atomic<host_views>& host_views_mode() {
  static std::atomic<host_views> m{[] {
    const char* env = std::getenv("AMP_HOST_VIEWS");
    if (!env || !*env || std::strcmp(env, "in-place") == 0) return host_views::in_place;
    if (std::strcmp(env, "copy") == 0) return host_views::copy;
    std::fprintf(stderr, "amp_compat: AMP_HOST_VIEWS=%s is not `in-place` or `copy`\n", env);
    std::exit(2);
  }()};
  return m;
}

// One allocation of user data with copies on the host and/or on devices of
// the device backend.
// `valid` says which copies hold the current contents (several after
// read-only transfers; none right after discard_data). Host views that do not
// own their memory (array_view over a std::vector) use the user's memory as
// host copy.
//
// Ordering across queues: each device copy remembers the queue that last
// queued work on it (`last`). Work about to be queued on another queue first
// makes that queue wait for `last` (an event, no host wait) and becomes
// `last` itself, so all work on a copy forms one chain in issue order;
// host-side transfers run on `last` and wait for it.
struct buffer;
// The result log's record of a host read of b (defined with read_buffer).
inline void log_host_read(buffer& b) noexcept;

struct buffer {
  struct device_copy {
    void* ptr = nullptr;
    std::shared_ptr<queue_state> last;
  };
  std::size_t bytes;
  void* host = nullptr;
  bool host_owned = false;
  // AMP_HOST_VIEWS=copy: the private host copy that kernels on the host
  // accelerators use instead of the user's memory at `host`, and whether it
  // holds the current contents (then `valid` may be 0: no other copy does).
  void* priv = nullptr;
  bool priv_valid = false;
  std::vector<device_copy> devs; // by device number; allocated on first use
  unsigned valid = 0;
  location home;
  device_kind owner = device_kind::cpu; // the accelerator of the array that owns it, if any
  // Set for the storage of an array: its accelerator_view, the view it is
  // associated with (differs for staging arrays) and its CPU access type
  // (access_type_none: host element access raises runtime_exception).
  std::shared_ptr<const accelerator_view> source_view;
  std::shared_ptr<const accelerator_view> associated_view;
  std::shared_ptr<const void> keep_alive; // what owns user memory behind `host`, if anything (a Kokkos::View)
  access_type cpu_access = access_type_read_write;
  std::shared_ptr<queue_state> home_queue; // source_view's queue: host-initiated work on the home copy runs there
  std::atomic<int> refs{1};
  // The last asynchronous operation using this buffer (guarded by async_mutex()).
  std::shared_ptr<async_state> pending;
  std::atomic<bool> has_pending{false};
  // 4 or 8 when the elements are floats or doubles (or short vectors of
  // them), else 0: the result log compares NaNs by class, not payload.
  unsigned char fp_width = 0;
  // The result log (runtime/result_log.h): a logged kernel wrote this buffer
  // and the host program has not read it since. Set only while logging; the
  // host's next read logs what it sees (log_host_read) and clears it.
  bool unread = false;

  static constexpr unsigned bit(location l) { return 1u << static_cast<unsigned>(l); }

  buffer(std::size_t n, location h) : bytes(n), home(h) { registry_add(); }
  ~buffer() {
    registry_remove();
    if (host_owned) std::free(host);
    std::free(priv);
    for (std::size_t d = 0; d < devs.size(); ++d) {
      if (!devs[d].ptr) continue;
      // A copy to another device may still be reading this one (it runs on
      // that device's queue, which device_memory::free does not wait for).
      if (devs[d].last) devs[d].last->synchronize_quietly();
      device_memory::free(static_cast<int>(d), devs[d].ptr);
    }
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

  void* base(location l) const {
    if (l == location::host) return host;
    const auto d = static_cast<std::size_t>(device_of(l));
    return d < devs.size() ? devs[d].ptr : nullptr;
  }

  void allocate(location l) {
    if (base(l)) return;
    if (l == location::host) {
      host = std::calloc(bytes ? bytes : 1, 1);
      if (!host) throw out_of_memory("host allocation for array data failed");
      host_owned = true;
    } else {
      const int d = device_of(l);
      if (devs.size() <= static_cast<std::size_t>(d)) devs.resize(static_cast<std::size_t>(d) + 1);
      devs[static_cast<std::size_t>(d)].ptr = device_memory::alloc(d, bytes);
    }
  }
  device_copy& dev(int d) { return devs[static_cast<std::size_t>(d)]; }
  // A device holding a current copy, or -1.
  int current_device() const {
    for (std::size_t d = 0; d < devs.size(); ++d)
      if (valid & bit(device_location(static_cast<int>(d)))) return static_cast<int>(d);
    return -1;
  }
  // The queue host-initiated work on device d's copy runs on: the last one
  // that used it, else the owning array's view there, else d's default queue.
  const std::shared_ptr<queue_state>& queue_of(int d) {
    device_copy& c = dev(d);
    if (!c.last) c.last = (home_queue && home == device_location(d)) ? home_queue : device_memory::default_queue(d);
    return c.last;
  }
  // Work about to be queued on q uses device d's copy (see above).
  void use_on(int d, const std::shared_ptr<queue_state>& q) {
    device_copy& c = dev(d);
    if (c.last && c.last != q) q->wait_for(*c.last);
    c.last = q;
  }

  enum class access { read, write, discard };
  // Makes the copy at `l` current for work queued on q (a queue of that
  // device; null: queue_of). write: other copies become stale; discard: the
  // contents are not needed, so nothing is transferred.
  void prepare(location l, access a, const std::shared_ptr<queue_state>& q = nullptr) {
    wait_pending();
    const unsigned b = bit(l);
    if (l != location::host) {
      allocate(l);
      const int d = device_of(l);
      use_on(d, q && q->device() == d ? q : queue_of(d));
    }
    if (priv_valid) {
      from_private(l, a);
      return;
    }
    if ((valid & b) && a == access::read) return;
    if (valid == b) return;
    allocate(l);
    if (!(valid & b) && a != access::discard && valid != 0) transfer_to(l);
    valid = (a == access::read) ? (valid | b) : b;
  }
  bool host_current() const { return (valid & bit(location::host)) != 0; }
  // prepare(location::host, read or write) would change nothing: no pending
  // asynchronous work, no private copy, and the host copy current (the only
  // one, to write). Element accesses of host code test this inline and call
  // prepare() only when it fails (a host kernel's accesses of an array it
  // captures by reference, in a build with GPU accelerators).
  bool host_ready(bool read) const {
    return !has_pending.load(std::memory_order_acquire) && !priv_valid && !unread &&
           (read ? host_current() : valid == bit(location::host));
  }

  // --- AMP_HOST_VIEWS=copy (host_views_mode): user memory that kernels on the
  // host accelerators do not touch; they use `priv`.
  bool kernels_use_private() const {
    return !host_owned && host && host_views_mode().load(std::memory_order_relaxed) == host_views::copy;
  }
  // Host access through a view must first make `host` current (a kernel wrote
  // the private copy) or, to write, make the private copy stale.
  bool host_access_needs_sync(bool write) const { return priv_valid && (write || !host_current()); }
  // Makes the private copy current for a kernel on a host accelerator.
  void prepare_private(access a) {
    wait_pending();
    if (!priv) {
      // Zeros, as new device storage (device_memory::alloc): a discarded
      // view's elements that no kernel writes come back as zeros on both.
      priv = std::calloc(bytes ? bytes : 1, 1);
      if (!priv) throw out_of_memory("host allocation for a view's private copy failed");
    }
    if (!priv_valid && a != access::discard && valid != 0) {
      if (host_current()) std::memcpy(priv, host, bytes);
      else device_memory::to_host(*queue_of(current_device()), priv, dev(current_device()).ptr, bytes);
    }
    priv_valid = true;
    if (a != access::read) valid = 0;
  }
  // prepare(l, a) while the private copy is current: l is filled from it
  // (unless discarded); a write or discard at l leaves it stale.
  void from_private(location l, access a) {
    const unsigned b = bit(l);
    allocate(l);
    if (!(valid & b) && a != access::discard) {
      if (l == location::host) std::memcpy(host, priv, bytes);
      else device_memory::to_device(*dev(device_of(l)).last, dev(device_of(l)).ptr, priv, bytes);
    }
    valid = (a == access::read) ? (valid | b) : b;
    if (a != access::read) priv_valid = false;
  }
  // discard_data() of a section of a view over user memory: the results that
  // kernels left in [off, off + n) and that were not copied back yet are
  // dropped, by giving the current copy the user memory's contents there, so
  // that synchronize() leaves that range as it was (Microsoft's accelerators
  // do so). Host kernels that work in place (AMP_HOST_VIEWS's default) left
  // nothing to drop.
  void discard_range(std::size_t off, std::size_t n) {
    wait_pending();
    if (host_owned || !host || host_current()) return;
    const char* user = static_cast<const char*>(host) + off;
    if (priv_valid) {
      std::memcpy(static_cast<char*>(priv) + off, user, n);
      return;
    }
    const int d = current_device();
    if (d < 0) return; // the whole buffer was discarded
    device_memory::to_device(*queue_of(d), static_cast<char*>(dev(d).ptr) + off, user, n);
    valid = bit(device_location(d)); // other device copies do not have the range back
  }
  void transfer_to(location l) {
    const int src = current_device();
    if (l == location::host) {
      device_memory::to_host(*queue_of(src), host, dev(src).ptr, bytes);
      return;
    }
    // To device d, on the queue prepare() just made its `last`.
    const int d = device_of(l);
    const std::shared_ptr<queue_state> q = dev(d).last;
    if (src >= 0) {
      use_on(src, q);
      device_memory::device_to_device(*q, dev(d).ptr, d, dev(src).ptr, src, bytes);
    } else {
      device_memory::to_device(*q, dev(d).ptr, host, bytes);
    }
  }
  // Copies back to user memory before the last view of it goes away.
  void sync_back_for_destruction() noexcept {
    if (host_owned || !host || host_current() || (valid == 0 && !priv_valid)) return;
    try {
      prepare(location::host, access::read);
    } catch (const std::exception& e) {
      std::fprintf(stderr, "amp_compat: array_view data could not be copied back: %s\n", e.what());
    }
  }

  // Asynchronous operations on this buffer finish before anything else uses it.
  static std::mutex& async_mutex() {
    static std::mutex m;
    return m;
  }
  void wait_pending() {
    if (!has_pending.load(std::memory_order_acquire) || in_async_worker()) return;
    std::shared_ptr<async_state> p;
    {
      std::lock_guard<std::mutex> g(async_mutex());
      p = pending;
    }
    if (!p) return;
    p->wait_done();
    std::lock_guard<std::mutex> g(async_mutex());
    if (pending == p) {
      pending.reset();
      has_pending.store(false, std::memory_order_release);
    }
  }

  void retain() { refs.fetch_add(1, std::memory_order_relaxed); }
  void release() {
    if (refs.fetch_sub(1, std::memory_order_acq_rel) == 1) {
      sync_back_for_destruction();
      // The user's memory now holds what the program will read there.
      if (unread && host && !host_owned) log_host_read(*this);
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
