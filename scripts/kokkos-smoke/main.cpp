// Smoke test for an installed Kokkos: a View in the default device memory
// space (CudaSpace in a CUDA build), a TeamPolicy kernel that uses team
// scratch memory and team_barrier, a reduction, deep_copy back to host, and
// (CUDA builds) a View in CudaUVMSpace.
// Prints the results and exits non-zero on a mismatch.
#include <Kokkos_Core.hpp>

#include <cstdio>
#include <cstdlib>

namespace {

using ExecSpace = Kokkos::DefaultExecutionSpace;
using MemSpace = ExecSpace::memory_space;
using TeamPolicy = Kokkos::TeamPolicy<ExecSpace>;
using Member = TeamPolicy::member_type;
using ScratchView =
    Kokkos::View<long*, ExecSpace::scratch_memory_space,
                 Kokkos::MemoryTraits<Kokkos::Unmanaged>>;

constexpr int kTeams = 64;
constexpr int kTile = 32;  // elements per team

// out(t * kTile + i) = data at index i + data at index (i + 1) % kTile of
// team t's tile, read back through scratch memory after a team_barrier.
struct NeighbourSum {
  Kokkos::View<const long*, MemSpace> in;
  Kokkos::View<long*, MemSpace> out;

  KOKKOS_INLINE_FUNCTION void operator()(const Member& team) const {
    ScratchView tile(team.team_scratch(0), kTile);
    const int base = team.league_rank() * kTile;
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, kTile),
                         [&](const int i) { tile(i) = in(base + i); });
    team.team_barrier();
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, kTile), [&](const int i) {
      out(base + i) = tile(i) + tile((i + 1) % kTile);
    });
  }
};

}  // namespace

int main(int argc, char* argv[]) {
  int failures = 0;
  Kokkos::initialize(argc, argv);
  {
    std::printf("kokkos_smoke: default execution space %s, memory space %s\n",
                ExecSpace::name(), MemSpace::name());
#ifdef KOKKOS_ENABLE_CUDA
    static_assert(std::is_same<MemSpace, Kokkos::CudaSpace>::value,
                  "CUDA build should default to CudaSpace");
#endif
    const int n = kTeams * kTile;
    Kokkos::View<long*, MemSpace> in("in", n), out("out", n);

    Kokkos::parallel_for(
        "fill", Kokkos::RangePolicy<ExecSpace>(0, n),
        KOKKOS_LAMBDA(const int i) { in(i) = i; });

    const int team_size =
        TeamPolicy(kTeams, Kokkos::AUTO)
            .set_scratch_size(0, Kokkos::PerTeam(ScratchView::shmem_size(kTile)))
            .team_size_max(NeighbourSum{in, out}, Kokkos::ParallelForTag());
    const int ts = team_size < kTile ? team_size : kTile;
    Kokkos::parallel_for(
        "neighbour_sum",
        TeamPolicy(kTeams, ts).set_scratch_size(
            0, Kokkos::PerTeam(ScratchView::shmem_size(kTile))),
        NeighbourSum{in, out});

    long total = 0;
    Kokkos::parallel_reduce(
        "sum", Kokkos::RangePolicy<ExecSpace>(0, n),
        KOKKOS_LAMBDA(const int i, long& acc) { acc += out(i); }, total);

    auto host = Kokkos::create_mirror_view(out);
    Kokkos::deep_copy(host, out);

    long expected_total = 0;
    for (int t = 0; t < kTeams; ++t) {
      for (int i = 0; i < kTile; ++i) {
        const long expected = (t * kTile + i) + (t * kTile + (i + 1) % kTile);
        expected_total += expected;
        if (host(t * kTile + i) != expected) {
          if (failures < 5)
            std::printf("mismatch at %d: got %ld expected %ld\n",
                        t * kTile + i, host(t * kTile + i), expected);
          ++failures;
        }
      }
    }
    if (total != expected_total) {
      std::printf("reduction mismatch: got %ld expected %ld\n", total,
                  expected_total);
      ++failures;
    }
#ifdef KOKKOS_ENABLE_CUDA
    {
      // Managed memory: allocating it runs Kokkos' cudaMemPrefetchAsync path.
      const int m = 1024;
      Kokkos::View<long*, Kokkos::CudaUVMSpace> uvm("uvm", m);
      Kokkos::parallel_for(
          "uvm_fill", Kokkos::RangePolicy<Kokkos::Cuda>(0, m),
          KOKKOS_LAMBDA(const int i) { uvm(i) = 3L * i; });
      Kokkos::fence();
      for (int i = 0; i < m; ++i) {
        if (uvm(i) != 3L * i) {
          if (failures < 5)
            std::printf("uvm mismatch at %d: got %ld\n", i, uvm(i));
          ++failures;
        }
      }
    }
#endif
    std::printf("kokkos_smoke: team_size %d, sum %ld (expected %ld), %s\n", ts,
                total, expected_total, failures ? "FAILED" : "OK");
  }
  Kokkos::finalize();
  return failures ? EXIT_FAILURE : EXIT_SUCCESS;
}
