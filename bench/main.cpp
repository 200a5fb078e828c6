// amp_compat benchmarks: each kernel through <amp.h>, as hand-written Kokkos
// and (GPU build) as hand-written CUDA; a table on stdout and DIR/bench.json.
// Usage: amp_bench_{host,gpu} [--quick] [--reps N] [--out DIR] [--only a,b,...]
#include "harness.h"

#include <cstring>
#include <fstream>
#include <functional>

namespace bench {

options opt;
std::vector<record> records;

void fail(const std::string& what) {
  std::printf("FAIL: %s\n", what.c_str());
  std::fflush(stdout);
  std::exit(1);
}

void add(const std::string& name, const std::string& version, double ms, double work, const std::string& unit,
         long long n) {
  const double rate = unit.empty() ? 0 : work / (ms * 1e-3) / 1e9;
  records.push_back({name, version, ms, rate, unit, n});
  if (unit.empty())
    std::printf("  %-26s %-16s %12.4g ns\n", name.c_str(), version.c_str(), ms * 1e6);
  else
    std::printf("  %-26s %-16s %10.4f ms %10.2f %s\n", name.c_str(), version.c_str(), ms, rate,
                unit == "gbps" ? "GB/s" : "GFLOP/s");
  std::fflush(stdout);
}

namespace {

const record* find(const std::string& name, const std::string& version) {
  for (const record& r : records)
    if (r.name == name && r.version == version) return &r;
  return nullptr;
}
// amp/kokkos compares with the faster of the plain Kokkos versions.
const record* best_kokkos(const std::string& name) {
  const record* b = nullptr;
  for (const record& r : records)
    if (r.name == name && (r.version == "kokkos" || r.version == "kokkos-team") && (!b || r.ms < b->ms)) b = &r;
  return b;
}
bool starts(const std::string& s, const char* p) { return s.rfind(p, 0) == 0; }
const record* roof_for(const std::string& name) {
  if (starts(name, "matmul") && name != "matmul-roof-float") return find("matmul-roof-float", "cublas-sgemm");
  if (starts(name, "stream") || starts(name, "reduce") || starts(name, "simple-reduction") ||
      starts(name, "tiled-reduction") || starts(name, "transpose") || starts(name, "tile-averages")) {
    const record* b = nullptr;
    for (const record& r : records)
      if (r.name == "copy-roof" && (!b || r.rate > b->rate)) b = &r;
    return b;
  }
  return nullptr;
}

void report(const std::string& dir) {
  std::printf("\n%-26s %-16s %12s %10s %8s %10s %9s %7s\n", "kernel", "version", "median ms", "rate", "unit",
              "amp/kokkos", "amp/cuda", "% roof");
  for (const record& r : records) {
    char ak[16] = "", ac[16] = "", pr[16] = "";
    if (r.version == "amp" || r.version == "amp-fibers") {
      if (const record* k = best_kokkos(r.name)) std::snprintf(ak, sizeof ak, "%.3f", r.ms / k->ms);
      if (const record* c = find(r.name, "cuda")) std::snprintf(ac, sizeof ac, "%.3f", r.ms / c->ms);
    }
    if (const record* roof = roof_for(r.name))
      if (roof->rate > 0 && !r.unit.empty()) std::snprintf(pr, sizeof pr, "%.1f", 100.0 * r.rate / roof->rate);
    const bool per_op = r.unit.empty();
    std::printf("%-26s %-16s %12.4f %10.4g %8s %10s %9s %7s\n", r.name.c_str(), r.version.c_str(), r.ms,
                per_op ? r.ms * 1e6 : r.rate, per_op ? "ns" : r.unit == "gbps" ? "GB/s" : "GFLOP/s", ak, ac, pr);
  }
  const std::string path = dir + "/bench.json";
  std::ofstream f(path);
  if (!f) fail("cannot write " + path);
  f.precision(9);
  f << "[\n";
  for (size_t i = 0; i < records.size(); ++i) {
    const record& r = records[i];
    f << "  {\"name\": \"" << r.name << "\", \"version\": \"" << r.version << "\", \"median_ms\": " << r.ms;
    if (!r.unit.empty()) f << ", \"" << r.unit << "\": " << r.rate;
    f << ", \"n\": " << r.n << "}" << (i + 1 < records.size() ? "," : "") << "\n";
  }
  f << "]\n";
  std::printf("\nwrote %s\n", path.c_str());
}

} // namespace
} // namespace bench

int main(int argc, char** argv) {
  using namespace bench;
  std::string out = ".", only;
  bool reps_given = false;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--quick") opt.quick = true;
    else if (a == "--out" && i + 1 < argc) out = argv[++i];
    else if (a == "--reps" && i + 1 < argc) opt.reps = std::max(1, std::atoi(argv[++i])), reps_given = true;
    else if (a == "--only" && i + 1 < argc) only = std::string(",") + argv[++i] + ",";
    else {
      std::printf("usage: %s [--quick] [--reps N] [--out DIR] [--only launch,transfer,matmul,reduce,transpose,tiles,multi,texture,facilities]\n",
                  argv[0]);
      return 2;
    }
  }
  if (opt.quick && !reps_given) opt.reps = 5;
  if (std::system(("mkdir -p '" + out + "'").c_str()) != 0) fail("cannot create " + out);
  Concurrency::accelerator acc;
  const std::wstring wd = acc.description;
  std::printf("AMP default accelerator: %s\n", std::string(wd.begin(), wd.end()).c_str());
  // Kokkos starts with the first kernel; an instance (concurrency() is no longer
  // static in Kokkos 5) exists only while it runs, so 0 means "not started yet".
  std::printf("Kokkos execution space: %s (concurrency %d)%s, median of %d timed runs\n", Exec::name(),
              Kokkos::is_initialized() ? Exec().concurrency() : 0, opt.quick ? ", --quick" : "", opt.reps);
  const std::pair<const char*, void (*)()> benches[] = {
      {"launch", launch_and_stream}, {"transfer", transfers},   {"matmul", matmul},
      {"reduce", reductions},        {"transpose", transposes}, {"tiles", tile_kernels},
      {"multi", multi}, {"texture", textures}, {"facilities", facilities}};
  for (const auto& b : benches)
    if (only.empty() || only.find(std::string(",") + b.first + ",") != std::string::npos) b.second();
  report(out);
  return 0;
}
