// Device errors become AMP exceptions (run on a GPU by the GPU bundle; a
// faulting kernel poisons the CUDA context, so this is its own process and the
// fault comes last). Prints one line per check; exit status 0 when all hold.
#include <amp.h>
#include <cstdio>
#include <string>
#include <vector>

using namespace concurrency;

static int failures = 0;
static void check(bool ok, const char* what, const std::string& detail) {
  std::printf("%s %s: %s\n", ok ? "ok  " : "FAIL", what, detail.c_str());
  if (!ok) ++failures;
}

int main() {
  accelerator gpu;
  // The GPU runtime's names in messages: CUDA's or HIP's.
  const bool hip = gpu.device_path == L"hip0";
  if (gpu.device_path != L"cuda0" && !hip) {
    std::printf("skipped: the default accelerator is not a GPU\n");
    return 0;
  }
  // 1. Allocation failure: 4 GiB arrays until twice the GPU's memory
  // (dedicated_memory is in KB; one array's extent is limited to 2^31 - 1).
  try {
    std::vector<array<double, 2>> hoard;
    const long long chunks = static_cast<long long>(gpu.dedicated_memory) / (1 << 22) * 2 + 2;
    hoard.reserve(static_cast<std::size_t>(chunks));
    for (long long c = 0; c < chunks; ++c) hoard.emplace_back(1 << 16, 1 << 13);
    check(false, "out_of_memory", "allocating twice the GPU's memory did not throw");
  } catch (const out_of_memory& e) {
    check(std::string(e.what()).find(hip ? "hipMalloc" : "cudaMalloc") != std::string::npos, "out_of_memory", e.what());
  }
  // The context is still usable after a failed allocation.
  std::vector<int> v(1024, 1);
  array_view<int, 1> av(1024, v);
  parallel_for_each(av.extent, [=](index<1> i) restrict(amp) { av[i] += i[0]; });
  check(av[1023] == 1024, "kernel after out_of_memory", std::to_string(av[1023]));

  // 2. A faulting kernel: an out-of-bounds write far outside the allocation.
  try {
    parallel_for_each(av.extent, [=](index<1> i) restrict(amp) { av[i + (1 << 30)] = 7; });
    av.synchronize();
    gpu.default_view.wait();
    check(false, "faulting kernel", "no exception");
  } catch (const runtime_exception& e) {
    check(std::string(e.what()).find(hip ? "HIP error" : "CUDA error") != std::string::npos, "faulting kernel -> runtime_exception",
          e.what());
  }
  std::printf("device errors: %d failed\n", failures);
  return failures == 0 ? 0 : 1;
}
