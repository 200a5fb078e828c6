// The result log (AMP_RESULT_LOG=FILE): a diagnostic mode in which every
// kernel launch appends, once the kernel has finished, the size and an FNV-1a
// hash of each buffer it could write (array_views captured without const,
// arrays captured by reference), one line per buffer. Run the same program on
// two accelerators and compare the files to see whether they computed the same
// bytes (scripts/differential.sh does so for the test suite, whose main()
// writes a line naming each test). Off, it costs one relaxed load per launch.
//
// Contract: the log adds no work to a launch that is not logged, moves no data
// between host and device copies (the bytes are read where they are current,
// as read_buffer does) and makes a logged launch wait for its kernel, so a
// fault of a GPU kernel is raised by parallel_for_each itself, as on the host,
// rather than at the next synchronisation. Device
// storage is zeroed when allocated while the log is on, so bytes that no
// kernel wrote hash the same as the host's zeroed storage.
#pragma once
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <vector>

namespace Concurrency {
namespace detail {

struct buffer;

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
