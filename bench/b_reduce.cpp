// Reductions of 2^26 ints: the two printed in seed 001 (SimpleReduction: one
// launch per halving stride; TiledReduction<256>: per tile, work-item 0 adds
// the tile's elements, one pass per tile level), and a well-written tiled
// reduction (tile_static tree, 64 elements per work-item).
#include "harness.h"

#include <numeric>

using namespace concurrency;

namespace bench {
namespace {

#if BENCH_GPU
__global__ void cu_simple_step(int* a, int* tail, int stride) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= stride) return;
  a[i] += a[i + stride];
  if (i == 0 && (stride & 1) && stride != 1) *tail += a[stride - 1];
}
template <int TILE> __global__ void cu_tile_sum(const int* in, int* out) {
  if (threadIdx.x == 0) {
    const int tid = blockIdx.x * TILE;
    int r = in[tid];
    for (int i = 1; i < TILE; ++i) r += in[tid + i];
    out[blockIdx.x] = r;
  }
}
template <int RT, int RK> __global__ void cu_reduce(const int* in, int* part, int G) {
  __shared__ int s[RT];
  const int l = threadIdx.x, g = blockIdx.x * RT + l;
  int sum = 0;
  for (int k = 0; k < RK; ++k) sum += in[g + k * G * RT];
  s[l] = sum;
  __syncthreads();
  for (int st = RT / 2; st > 0; st >>= 1) {
    if (l < st) s[l] += s[l + st];
    __syncthreads();
  }
  if (l == 0) part[blockIdx.x] = s[0];
}
#endif

struct input {
  int n;
  std::vector<int> h;
  long long sum = 0;
  explicit input(int count) : n(count), h(count) {
    for (int i = 0; i < n; ++i) sum += h[i] = (int)((i * 2654435761u) >> 28) + 1; // 1..16: sums fit in int
  }
  void verify(const std::string& what, long long got) const {
    if (got != sum) fail(what + ": sum " + std::to_string(got) + ", expected " + std::to_string(sum));
  }
};

// ---- SimpleReduction (seed 001, first block). n must be a power of two: the
// printed tail handling races for other sizes (samples/seeds/simple_reduction.cpp).
void simple_reduction(const input& in) {
  const int n = in.n;
  const double bytes = 4.0 * n;
  std::printf("simple-reduction: seed 001 SimpleReduction, %d ints (one launch per halving stride)\n", n);
  accelerator_view view = amp_view();
  int got = 0;
  {
    array<int, 1> pristine(n, in.h.cbegin(), in.h.cend(), view);
    array<int, 1> a(n, view);
    // As printed, minus the copy-in (done untimed in setup()).
    auto reduce = [&] {
      const int elementCount = n;
      std::vector<int> result(1);
      int tailResult = (elementCount % 2) ? in.h[elementCount - 1] : 0;
      array_view<int, 1> tailResultView(1, &tailResult);
      for (int stride = (elementCount / 2); stride > 0; stride /= 2) {
        parallel_for_each(view, extent<1>(stride), [=, &a](index<1> idx) restrict(amp) {
          a[idx] += a[idx + stride];
          if ((idx[0] == 0) && (stride & 0x1) && (stride != 1)) tailResultView[idx] += a[stride - 1];
        });
      }
      copy(a.section(0, 1), result.begin());
      tailResultView.synchronize();
      got = result[0] + tailResult;
    };
    auto setup = [&] { copy(pristine, a); };
    setup();
    reduce();
    in.verify("simple-reduction amp", got);
    add("simple-reduction", "amp", median_ms(reduce, setup), bytes, "gbps", n);
  }
  {
    auto pristine = kokkos_from(in.h, "pristine");
    Kokkos::View<int*> a(Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string("a")), n), tail("tail", 1);
    auto setup = [&] { Kokkos::deep_copy(a, pristine); };
    auto step = [=] KOKKOS_FUNCTION(int i, int stride) {
      a(i) += a(i + stride);
      if (i == 0 && (stride & 1) && stride != 1) tail(0) += a(stride - 1);
    };
    auto finish = [&] {
      int r = 0, t = 0;
      Kokkos::deep_copy(Kokkos::View<int, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(&r), Kokkos::subview(a, 0));
      Kokkos::deep_copy(Kokkos::View<int, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(&t), Kokkos::subview(tail, 0));
      got = r + t;
    };
    auto range = [&] {
      Kokkos::deep_copy(tail, 0);
      for (int stride = n / 2; stride > 0; stride /= 2)
        Kokkos::parallel_for("simple_reduction", Kokkos::RangePolicy<Exec>(0, stride),
                             KOKKOS_LAMBDA(int i) { step(i, stride); });
      finish();
    };
    auto team = [&] {
      Kokkos::deep_copy(tail, 0);
      for (int stride = n / 2; stride > 0; stride /= 2)
        kokkos_team_for("simple_reduction_team", stride, KOKKOS_LAMBDA(int i) { step(i, stride); });
      finish();
    };
    setup();
    range();
    in.verify("simple-reduction kokkos", got);
    add("simple-reduction", "kokkos", median_ms(range, setup), bytes, "gbps", n);
    setup();
    team();
    in.verify("simple-reduction kokkos-team", got);
    add("simple-reduction", "kokkos-team", median_ms(team, setup), bytes, "gbps", n);
  }
#if BENCH_GPU
  {
    dbuf<int> pristine(in.h), a(n), tail(1);
    auto setup = [&] { CUDA_CHECK(cudaMemcpy(a.p, pristine.p, n * sizeof(int), cudaMemcpyDeviceToDevice)); };
    auto run = [&] {
      CUDA_CHECK(cudaMemset(tail.p, 0, sizeof(int)));
      for (int stride = n / 2; stride > 0; stride /= 2) cu_simple_step<<<(stride + 255) / 256, 256>>>(a.p, tail.p, stride);
      int r = 0, t = 0;
      CUDA_CHECK(cudaMemcpy(&r, a.p, sizeof(int), cudaMemcpyDeviceToHost));
      CUDA_CHECK(cudaMemcpy(&t, tail.p, sizeof(int), cudaMemcpyDeviceToHost));
      got = r + t;
    };
    setup();
    run();
    in.verify("simple-reduction cuda", got);
    add("simple-reduction", "cuda", median_ms(run, setup), bytes, "gbps", n);
  }
#endif
}

// ---- TiledReduction<TileSize> (seed 001, second block), TileSize = 256.
constexpr int TileSize = 256;

void tiled_reduction(const input& in) {
  const double bytes = 4.0 * in.n;
  std::printf("tiled-reduction: seed 001 TiledReduction<%d>, %d ints\n", TileSize, in.n);
  accelerator_view view = amp_view();
  int result = 0;
  {
    array<int, 1> pristine(in.n, in.h.cbegin(), in.h.cend(), view);
    std::unique_ptr<array<int, 1>> start;
    auto setup = [&] {
      start.reset(new array<int, 1>(in.n, view));
      copy(pristine, *start);
    };
    // As printed: the body of computeTime = TimeFunc(view, [&]() { ... }).
    auto reduce = [&] {
      int elementCount = in.n;
      array<int, 1>& arr0 = *start;
      array<int, 1> arr(std::move(arr0));
      while (elementCount >= TileSize) {
        extent<1> e(elementCount);
        array<int, 1> tmpArr(elementCount / TileSize);
        parallel_for_each(view, e.tile<TileSize>(), [=, &arr, &tmpArr](tiled_index<TileSize> tidx) restrict(amp) {
          if (tidx.local[0] == 0) {
            int tid = tidx.global[0];
            int tempResult = arr[tid];
            for (int i = 1; i < TileSize; ++i) tempResult += arr[tid + i];
            tmpArr[tidx.tile[0]] = tempResult;
          }
        });
        elementCount /= TileSize;
        std::swap(tmpArr, arr);
      }
      std::vector<int> partialResult(elementCount);
      copy(arr.section(0, elementCount), partialResult.begin());
      result = std::accumulate(partialResult.cbegin(), partialResult.cend(), 0);
      view.wait();
    };
    setup();
    reduce();
    in.verify("tiled-reduction amp", result);
    add("tiled-reduction", "amp", median_ms(reduce, setup), bytes, "gbps", in.n);
  }
  {
    constexpr int TEAM = team_size<TileSize>();
    auto pristine = kokkos_from(in.h, "pristine");
    Kokkos::View<int*> start;
    auto setup = [&] {
      start = Kokkos::View<int*>(Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string("start")), in.n);
      Kokkos::deep_copy(start, pristine);
    };
    auto reduce = [&] {
      int count = in.n;
      Kokkos::View<int*> arr = start;
      start = Kokkos::View<int*>();
      while (count >= TileSize) {
        Kokkos::View<int*> tmp(Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string("tmp")), count / TileSize);
        Kokkos::parallel_for(
            "tiled_reduction", Kokkos::TeamPolicy<Exec>(count / TileSize, TEAM), KOKKOS_LAMBDA(const Team& m) {
              if (m.team_rank() == 0) {
                const int tid = m.league_rank() * TileSize;
                int r = arr(tid);
                for (int i = 1; i < TileSize; ++i) r += arr(tid + i);
                tmp(m.league_rank()) = r;
              }
            });
        count /= TileSize;
        arr = tmp;
      }
      std::vector<int> part(count);
      Kokkos::deep_copy(Kokkos::View<int*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(part.data(), count),
                        Kokkos::subview(arr, std::make_pair(0, count)));
      result = std::accumulate(part.cbegin(), part.cend(), 0);
    };
    setup();
    reduce();
    in.verify("tiled-reduction kokkos", result);
    add("tiled-reduction", "kokkos", median_ms(reduce, setup), bytes, "gbps", in.n);
  }
#if BENCH_GPU
  {
    dbuf<int> pristine(in.h);
    int* start = nullptr;
    auto setup = [&] {
      CUDA_CHECK(cudaMalloc(&start, in.n * sizeof(int)));
      CUDA_CHECK(cudaMemcpy(start, pristine.p, in.n * sizeof(int), cudaMemcpyDeviceToDevice));
    };
    auto reduce = [&] {
      int count = in.n;
      int* arr = start;
      while (count >= TileSize) {
        int* tmp;
        CUDA_CHECK(cudaMalloc(&tmp, count / TileSize * sizeof(int)));
        cu_tile_sum<TileSize><<<count / TileSize, TileSize>>>(arr, tmp);
        count /= TileSize;
        CUDA_CHECK(cudaFree(arr));
        arr = tmp;
      }
      std::vector<int> part(count);
      CUDA_CHECK(cudaMemcpy(part.data(), arr, count * sizeof(int), cudaMemcpyDeviceToHost));
      CUDA_CHECK(cudaFree(arr));
      result = std::accumulate(part.cbegin(), part.cend(), 0);
    };
    setup();
    reduce();
    in.verify("tiled-reduction cuda", result);
    add("tiled-reduction", "cuda", median_ms(reduce, setup), bytes, "gbps", in.n);
  }
#endif
}

// ---- A well-written tiled reduction: RT work-items per tile, each first
// adds RK elements RT*G apart (coalesced), then a tile_static tree. One
// partial sum per tile; kernel time only (partials are checked afterwards).
constexpr int RT = 256, RK = 64;

long long total(const std::vector<int>& p) { return std::accumulate(p.begin(), p.end(), 0LL); }

// The AMP kernel over `data` (a view of an array, or of the user's vector).
void amp_tree(const input& in, const std::string& row, const array_view<const int, 1>& data, int G) {
  const double bytes = 4.0 * in.n;
  accelerator_view v = amp_view();
  std::vector<int> hpart(G);
  array_view<int, 1> part(G, hpart);
  auto run = [&] {
    parallel_for_each(v, extent<1>(G * RT).tile<RT>(), [=](tiled_index<RT> t) restrict(amp) {
      tile_static int s[RT];
      const int l = t.local[0], g = t.global[0];
      int sum = 0;
      for (int k = 0; k < RK; ++k) sum += data[g + k * G * RT];
      s[l] = sum;
      t.barrier.wait();
      for (int st = RT / 2; st > 0; st >>= 1) {
        if (l < st) s[l] += s[l + st];
        t.barrier.wait();
      }
      if (l == 0) part[t.tile[0]] = s[0];
    });
    v.wait();
  };
  part.discard_data();
  run();
  part.synchronize();
  in.verify(row + " amp", total(hpart));
  add(row, "amp", median_ms(run, [&] { part.discard_data(); }), bytes, "gbps", in.n);
  add_fibers_row(row, run, [&] { part.discard_data(); }, [&] {
    part.synchronize();
    in.verify(row + " amp-fibers", total(hpart));
  }, bytes, "gbps", in.n);
}

// The hand-written Kokkos version over `data` (a View of its own, or an
// unmanaged View of the user's vector).
template <class V> void kokkos_tree(const input& in, const std::string& row, const V& data, int G) {
  constexpr int TEAM = team_size<RT>(), ITEMS = RT / TEAM;
  Kokkos::View<int*> part("part", G);
  auto run = [&] {
    Kokkos::parallel_for(
        "reduce", Kokkos::TeamPolicy<Exec>(G, TEAM).set_scratch_size(0, Kokkos::PerTeam(RT * sizeof(int))),
        KOKKOS_LAMBDA(const Team& m) {
          ScratchView<int> s(m.team_scratch(0), RT);
          for (int it = 0; it < ITEMS; ++it) {
            const int l = m.team_rank() + it * TEAM, g = m.league_rank() * RT + l;
            int sum = 0;
            for (int k = 0; k < RK; ++k) sum += data(g + k * G * RT);
            s(l) = sum;
          }
          m.team_barrier();
          for (int st = RT / 2; st > 0; st >>= 1) {
            for (int it = 0; it < ITEMS; ++it) {
              const int l = m.team_rank() + it * TEAM;
              if (l < st) s(l) += s(l + st);
            }
            m.team_barrier();
          }
          if (m.team_rank() == 0) part(m.league_rank()) = s(0);
        });
    Kokkos::fence();
  };
  run();
  in.verify(row + " kokkos", total(kokkos_to(part)));
  add(row, "kokkos", median_ms(run), 4.0 * in.n, "gbps", in.n);
}

// Two rows that differ only in where the input lives, each comparing like
// with like: `reduce` reads an AMP array against a Kokkos View (each filled
// by its own runtime's copy, which on the host spreads the first touch of
// the pages over the threads); `reduce-user-memory` (host builds) reads the
// user's std::vector, written by one thread, through an array_view against
// an unmanaged Kokkos View of the same vector. (Before 2026-11-25 the
// `reduce` row compared an array_view of the vector with a Kokkos View.)
void tree_reduction(const input& in) {
  const int n = in.n, G = n / (RT * RK);
  const double bytes = 4.0 * n;
  std::printf("reduce: well-written tiled reduction, %d ints, %d tiles of %d, %d elements per work-item\n", n, G, RT,
              RK);
  {
    array<int, 1> data(n, in.h.cbegin(), in.h.cend(), amp_view());
    amp_tree(in, "reduce", array_view<const int, 1>(data), G);
  }
  kokkos_tree(in, "reduce", kokkos_from(in.h, "in"), G);
#if !BENCH_DEVICE
  amp_tree(in, "reduce-user-memory", array_view<const int, 1>(n, in.h), G);
  kokkos_tree(in, "reduce-user-memory",
              Kokkos::View<const int*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(in.h.data(), in.h.size()), G);
#endif
#if BENCH_GPU
  {
    dbuf<int> data(in.h), part(G);
    auto run = [&] {
      cu_reduce<RT, RK><<<G, RT>>>(data.p, part.p, G);
      cuda_sync();
    };
    run();
    in.verify("reduce cuda", total(part.download()));
    add("reduce", "cuda", median_ms(run), bytes, "gbps", n);
  }
#endif
}

} // namespace

void reductions() {
  const input in(opt.quick ? 1 << 20 : 1 << 26);
  simple_reduction(in);
  tiled_reduction(in);
  tree_reduction(in);
}

} // namespace bench
