// A minimal Kokkos Tools library (loaded by Kokkos through KOKKOS_TOOLS_LIBS /
// KOKKOS_PROFILE_LIBRARY): records the name and device id of every
// parallel_for that Kokkos reports, and the labels of reported allocations.
// The program under test reads them back through amp_tool_events(), which
// it finds with dlsym (Kokkos loads tools with RTLD_GLOBAL).
#include <cstdint>
#include <mutex>
#include <string>

namespace {
std::mutex m;
std::string events; // one line per event: "for <devid> <name>"
} // namespace

extern "C" {
void kokkosp_init_library(int, std::uint64_t, std::uint32_t, void*) {}
void kokkosp_finalize_library() {}
void kokkosp_begin_parallel_for(const char* name, std::uint32_t devid, std::uint64_t* kid) {
  std::lock_guard<std::mutex> g(m);
  events += "for " + std::to_string(devid >> 24) + " " + name + "\n";
  *kid = 0;
}
void kokkosp_end_parallel_for(std::uint64_t) {}
const char* amp_tool_events() {
  static std::string copy;
  std::lock_guard<std::mutex> g(m);
  copy = events;
  return copy.c_str();
}
}
