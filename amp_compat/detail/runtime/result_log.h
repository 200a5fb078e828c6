// The result log (AMP_RESULT_LOG=FILE): a diagnostic mode in which every
// kernel launch appends, once the kernel has finished, the size and an FNV-1a
// hash of each buffer it could write (array_views captured without const,
// arrays captured by reference), one line per buffer. Run the same program on
// two accelerators and compare the files to see whether they computed the same
// bytes (scripts/differential.sh does so for the test suite, whose main()
// writes a line naming each test). Off, it costs one relaxed load per launch.
// Each buffer a logged kernel wrote is also marked unread (buffer::unread);
// the host program's next read of it (synchronize(), host element access or
// data(), a copy into host memory, conversion to std::vector, the last view of
// user memory going away) appends `read bytes N fnv1a H`, the whole buffer as
// the host then sees it (capture_registry.h, log_host_read): what the program
// read back, the same on every accelerator, where the kernel lines also hash
// scratch the program never reads and device copies that the host path does
// not keep (differential.sh DIFF_COMPARE=reads compares these lines).
//
// Contract: the log adds no work to a launch that is not logged, moves no data
// between host and device copies (the bytes are read where they are current,
// as read_buffer does) and makes a logged launch wait for its kernel, so a
// fault of a GPU kernel is raised by parallel_for_each itself, as on the host,
// rather than at the next synchronisation. Device
// storage is zeroed when allocated (always: device_memory::alloc), so bytes
// that no kernel wrote hash the same as the host's zeroed storage.
#pragma once
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <type_traits>
#include <mutex>
#include <vector>

namespace Concurrency {
namespace detail {

struct buffer;

// The result log's NaN width of an element type: 4 for float, 8 for double,
// and the same for a type made of them alone (short vectors: value_type).
template <class T, class = void> struct fp_width_trait {
  static constexpr unsigned char value = std::is_same<std::remove_cv_t<T>, float>::value    ? 4
                                         : std::is_same<std::remove_cv_t<T>, double>::value ? 8
                                                                                            : 0;
};
template <class T> struct fp_width_trait<T, std::void_t<typename T::value_type>> {
  using V = std::remove_cv_t<typename T::value_type>;
  static constexpr unsigned char value =
      (std::is_same<V, float>::value && sizeof(T) % 4 == 0) ? 4 : (std::is_same<V, double>::value && sizeof(T) % 8 == 0) ? 8 : 0;
};
template <class T> constexpr unsigned char fp_width_of() { return fp_width_trait<std::remove_cv_t<T>>::value; }

struct result_log {
  // The log file, or null when AMP_RESULT_LOG is unset (opened on first use,
  // appended to, each line flushed).
  static std::FILE* file() {
    static std::FILE* f = [] {
      const char* p = std::getenv("AMP_RESULT_LOG");
      if (!p || !*p) return static_cast<std::FILE*>(nullptr);
      std::FILE* h = std::fopen(p, "a");
      if (!h) std::fprintf(stderr, "amp_compat: AMP_RESULT_LOG=%s cannot be opened; no result log\n", p);
      return h;
    }();
    return f;
  }
  static bool on() { return file() != nullptr; }
  static std::mutex& mutex() {
    static std::mutex m;
    return m;
  }
  // Appends one line (a caller's marker, e.g. the name of a test).
  static void line(const char* text) {
    if (std::FILE* f = file()) {
      std::lock_guard<std::mutex> g(mutex());
      std::fprintf(f, "%s\n", text);
      std::fflush(f);
    }
  }
  // The buffers the launch in progress on this thread may write, filled by
  // closure_patcher while `collecting` points at a list.
  static std::vector<buffer*>*& collecting() {
    static thread_local std::vector<buffer*>* c = nullptr;
    return c;
  }
  static void note_written(buffer* b) {
    if (std::vector<buffer*>* c = collecting()) {
      for (buffer* x : *c)
        if (x == b) return;
      c->push_back(b);
    }
  }
  // NaNs made by invalid operations differ in sign and payload between
  // processors (x86: 0xffc00000, NVIDIA GPUs: 0x7fffffff), which IEEE 754
  // leaves open: in buffers of floats or doubles (width 4 or 8) every NaN is
  // hashed as one quiet NaN, so the log compares NaN as NaN and every other
  // value bit for bit.
  static void canonical_nans(unsigned char* p, std::size_t n, unsigned width) {
    if (width == 4) {
      for (std::size_t o = 0; o + 4 <= n; o += 4) {
        std::uint32_t w;
        std::memcpy(&w, p + o, 4);
        if ((w & 0x7f800000u) == 0x7f800000u && (w & 0x007fffffu) != 0) {
          w = 0x7fc00000u;
          std::memcpy(p + o, &w, 4);
        }
      }
    } else if (width == 8) {
      for (std::size_t o = 0; o + 8 <= n; o += 8) {
        std::uint64_t w;
        std::memcpy(&w, p + o, 8);
        if ((w & 0x7ff0000000000000ull) == 0x7ff0000000000000ull && (w & 0x000fffffffffffffull) != 0) {
          w = 0x7ff8000000000000ull;
          std::memcpy(p + o, &w, 8);
        }
      }
    }
  }
  static std::uint64_t fnv1a(const unsigned char* p, std::size_t n) {
    std::uint64_t h = 1469598103934665603ull;
    for (std::size_t i = 0; i < n; ++i) h = (h ^ p[i]) * 1099511628211ull;
    return h;
  }
  static std::uint64_t& kernel_count() {
    static std::uint64_t n = 0;
    return n;
  }
};

} // namespace detail
} // namespace Concurrency
