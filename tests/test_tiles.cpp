// The tiled model (C++ AMP spec 4.3-4.5): tiled_index members, tile_static
// memory shared by a tile, barriers (also in loops and with fences), tiles of
// the largest sizes AMP allows, and tiled kernels without barriers.
#include "amp_test_util.h"

#include <climits>
#include <numeric>

using namespace concurrency;
using amp_test::iota;

namespace {

// ---- tiled_index members

TEST(Tiles, TiledIndexMembers1D) {
  const int n = 96;
  std::vector<int> g(n), l(n), t(n), o(n), conv(n), te(n);
  array_view<int, 1> gv(n, g), lv(n, l), tv(n, t), ov(n, o), cv(n, conv), ev(n, te);
  parallel_for_each(extent<1>(n).tile<16>(), [=](tiled_index<16> ti) restrict(amp) {
    const index<1> as_index = ti; // conversion to the global index
    gv[ti.global] = ti.global[0];
    lv[ti] = ti.local[0];
    tv[ti] = ti.tile[0];
    ov[ti] = ti.tile_origin[0];
    cv[ti] = as_index[0];
    ev[ti] = ti.tile_extent[0] * 100 + ti.get_tile_extent()[0] + tiled_index<16>::tile_dim0 * 10000;
  });
  for (auto* v : {&gv, &lv, &tv, &ov, &cv, &ev}) v->synchronize();
  for (int i = 0; i < n; ++i) {
    EXPECT_EQ(g[i], i);
    EXPECT_EQ(l[i], i % 16);
    EXPECT_EQ(t[i], i / 16);
    EXPECT_EQ(o[i], i / 16 * 16);
    EXPECT_EQ(conv[i], i);
    EXPECT_EQ(te[i], 16 * 10000 + 1600 + 16);
  }
  static_assert(tiled_index<16>::rank == 1, "tiled_index<D0>::rank");
}

TEST(Tiles, TiledIndexMembers2D) {
  const int R = 12, C = 20;
  std::vector<int> out(R * C * 4);
  array_view<int, 3> o(R, C, 4, out); // per point: local, tile, origin, global (each packed)
  o.discard_data();
  parallel_for_each(extent<2>(R, C).tile<4, 5>(), [=](tiled_index<4, 5> ti) restrict(amp) {
    const index<2> gi = ti;
    const int r = gi[0], c = gi[1];
    o(r, c, 0) = ti.local[0] * 100 + ti.local[1];
    o(r, c, 1) = ti.tile[0] * 100 + ti.tile[1];
    o(r, c, 2) = ti.tile_origin[0] * 100 + ti.tile_origin[1];
    o(r, c, 3) = (ti.global == ti.tile_origin + ti.local) ? ti.global[0] * 100 + ti.global[1] : -1;
  });
  o.synchronize();
  for (int r = 0; r < R; ++r)
    for (int c = 0; c < C; ++c) {
      const int* p = &out[(r * C + c) * 4];
      EXPECT_EQ(p[0], (r % 4) * 100 + c % 5);
      EXPECT_EQ(p[1], (r / 4) * 100 + c / 5);
      EXPECT_EQ(p[2], (r / 4 * 4) * 100 + c / 5 * 5);
      EXPECT_EQ(p[3], r * 100 + c);
    }
  static_assert(tiled_index<4, 5>::rank == 2 && tiled_index<4, 5>::tile_dim1 == 5, "tiled_index<D0,D1>");
}

TEST(Tiles, TiledIndexMembers3D) {
  const extent<3> e(4, 6, 8);
  std::vector<int> out(e.size() * 3);
  const int dims[] = {4, 6, 8, 3}; // no component constructor above rank 3 in AMP
  array_view<int, 4> o(extent<4>(dims), out);
  o.discard_data();
  parallel_for_each(e.tile<2, 3, 4>(), [=](tiled_index<2, 3, 4> ti) restrict(amp) {
    const index<3> g = ti.global;
    int packed[3] = {0, 0, 0};
    for (int d = 0; d < 3; ++d) {
      packed[0] = packed[0] * 10 + ti.local[d];
      packed[1] = packed[1] * 10 + ti.tile[d];
      packed[2] = packed[2] * 10 + ti.tile_origin[d];
    }
    for (int k = 0; k < 3; ++k) {
      int c[4] = {g[0], g[1], g[2], k};
      o[index<4>(c)] = packed[k];
    }
  });
  o.synchronize();
  for (int a = 0; a < 4; ++a)
    for (int b = 0; b < 6; ++b)
      for (int c = 0; c < 8; ++c) {
        const int* p = &out[((a * 6 + b) * 8 + c) * 3];
        EXPECT_EQ(p[0], (a % 2) * 100 + (b % 3) * 10 + c % 4);
        EXPECT_EQ(p[1], (a / 2) * 100 + (b / 3) * 10 + c / 4);
        EXPECT_EQ(p[2], (a / 2 * 2) * 100 + (b / 3 * 3) * 10 + c / 4 * 4);
      }
  static_assert(tiled_index<2, 3, 4>::rank == 3 && tiled_index<2, 3, 4>::tile_dim2 == 4, "tiled_index<D0,D1,D2>");
}

// ---- tile_static + barrier

template <int TS> void tile_sum_check(int n) {
  std::vector<int> data(n);
  for (int i = 0; i < n; ++i) data[i] = (i * 7) % 13 - 6;
  std::vector<int> sums(n / TS, 0);
  array_view<const int, 1> in(n, data);
  array_view<int, 1> out(n / TS, sums);
  out.discard_data();
  parallel_for_each(in.extent.tile<TS>(), [=](tiled_index<TS> t) restrict(amp) {
    tile_static int s[TS];
    const int l = t.local[0];
    s[l] = in[t.global];
    t.barrier.wait();
    for (int stride = TS / 2; stride > 0; stride /= 2) {
      if (l < stride) s[l] += s[l + stride];
      t.barrier.wait();
    }
    if (l == 0) out[t.tile] = s[0];
  });
  out.synchronize();
  for (int k = 0; k < n / TS; ++k)
    ASSERT_EQ(sums[k], std::accumulate(data.begin() + k * TS, data.begin() + (k + 1) * TS, 0)) << "tile " << k;
}

TEST(Tiles, TileReduction) {
  tile_sum_check<256>(256 * 7);
  tile_sum_check<2>(10);
  tile_sum_check<64>(64 * 5);
}

TEST(Tiles, LargestTiles1D) { tile_sum_check<1024>(1024 * 3); }

// seed 002 / 003: sum of each 2x2 tile of a 2x6 matrix, written at the tile origin.
TEST(Tiles, SeedTileSum) {
  std::vector<int> m = {130, 140, 150, 160, 170, 180, 290, 316, 342, 368, 394, 420};
  array_view<int, 2> av(2, 6, m);
  parallel_for_each(av.extent.tile<2, 2>(), [=](tiled_index<2, 2> t_idx) restrict(amp) {
    tile_static int b[2][2];
    b[t_idx.local[0]][t_idx.local[1]] = av[t_idx.global];
    t_idx.barrier.wait();
    if (t_idx.local == index<2>(0, 0)) av[t_idx.tile_origin] = b[0][0] + b[1][0] + b[0][1] + b[1][1];
  });
  EXPECT_EQ(av(0, 0), 130 + 140 + 290 + 316);
  EXPECT_EQ(av(0, 2), 150 + 160 + 342 + 368);
  EXPECT_EQ(av(0, 4), 170 + 180 + 394 + 420);
  EXPECT_EQ(av(0, 0) + av(0, 2) + av(0, 4), 3060);
  EXPECT_EQ(av(1, 1), 316); // other elements untouched
}

template <int TS> void tiled_matmul_check(int M, int K, int N) {
  std::vector<float> A(M * K), B(K * N), C(M * N);
  for (int i = 0; i < M * K; ++i) A[i] = static_cast<float>((i * 3) % 7 - 3);
  for (int i = 0; i < K * N; ++i) B[i] = static_cast<float>((i * 5) % 11 - 5);
  array_view<const float, 2> a(M, K, A), b(K, N, B);
  array_view<float, 2> c(M, N, C);
  c.discard_data();
  parallel_for_each(c.extent.tile<TS, TS>(), [=](tiled_index<TS, TS> t) restrict(amp) {
    const int row = t.local[0], col = t.local[1];
    float sum = 0.0f;
    for (int k0 = 0; k0 < a.extent[1]; k0 += TS) {
      tile_static float sa[TS][TS];
      tile_static float sb[TS][TS];
      sa[row][col] = a(t.global[0], k0 + col);
      sb[row][col] = b(k0 + row, t.global[1]);
      t.barrier.wait();
      for (int k = 0; k < TS; ++k) sum += sa[row][k] * sb[k][col];
      t.barrier.wait();
    }
    c[t.global] = sum;
  });
  c.synchronize();
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float s = 0.0f;
      for (int k = 0; k < K; ++k) s += A[i * K + k] * B[k * N + j];
      ASSERT_EQ(C[i * N + j], s) << "(" << i << "," << j << ")"; // small integers: exact in float
    }
}

TEST(Tiles, TiledMatrixMultiply) {
  tiled_matmul_check<16>(64, 48, 32);
  tiled_matmul_check<4>(12, 8, 20);
}

TEST(Tiles, LargestTiles2DTranspose) {
  const int R = 64, C = 96;
  std::vector<int> in = iota(R * C), out(R * C, -1);
  array_view<const int, 2> a(R, C, in);
  array_view<int, 2> b(C, R, out);
  b.discard_data();
  parallel_for_each(a.extent.tile<32, 32>(), [=](tiled_index<32, 32> t) restrict(amp) {
    tile_static int block[32][33];
    block[t.local[1]][t.local[0]] = a[t.global];
    t.barrier.wait();
    // Work-item (i, j) writes element (i, j) of the transposed tile.
    const int r = t.tile_origin[1] + t.local[0], c = t.tile_origin[0] + t.local[1];
    b(r, c) = block[t.local[0]][t.local[1]];
  });
  b.synchronize();
  for (int r = 0; r < C; ++r)
    for (int c = 0; c < R; ++c) ASSERT_EQ(out[r * R + c], in[c * C + r]) << r << "," << c;
}

// 3-D tiles: each tile reverses its elements through tile_static memory.
template <int D0, int D1, int D2> void reverse_in_tile_check(const extent<3>& e) {
  const int n = static_cast<int>(e.size());
  std::vector<int> in = iota(n), out(n, -1);
  array_view<const int, 3> a(e, in);
  array_view<int, 3> b(e, out);
  b.discard_data();
  parallel_for_each(e.tile<D0, D1, D2>(), [=](tiled_index<D0, D1, D2> t) restrict(amp) {
    tile_static int s[D0][D1][D2];
    s[t.local[0]][t.local[1]][t.local[2]] = a[t.global];
    t.barrier.wait();
    b[t.global] = s[D0 - 1 - t.local[0]][D1 - 1 - t.local[1]][D2 - 1 - t.local[2]];
  });
  b.synchronize();
  for (int x = 0; x < e[0]; ++x)
    for (int y = 0; y < e[1]; ++y)
      for (int z = 0; z < e[2]; ++z) {
        const int sx = x / D0 * D0 + (D0 - 1 - x % D0), sy = y / D1 * D1 + (D1 - 1 - y % D1),
                  sz = z / D2 * D2 + (D2 - 1 - z % D2);
        ASSERT_EQ(out[(x * e[1] + y) * e[2] + z], in[(sx * e[1] + sy) * e[2] + sz]) << x << "," << y << "," << z;
      }
}

TEST(Tiles, ThreeDimensionalTiles) {
  reverse_in_tile_check<4, 4, 4>(extent<3>(8, 12, 4));
  reverse_in_tile_check<64, 4, 4>(extent<3>(128, 4, 8)); // 1024 work-items, D0 at its limit
  reverse_in_tile_check<1, 1, 1>(extent<3>(2, 2, 2));
}

// The largest tile_static allocation AMP allows: 32 KB per tile.
TEST(Tiles, TileStatic32KB) {
  constexpr int TS = 256, WORDS = 32 * 1024 / sizeof(int); // 8192 ints
  const int tiles = 4;
  std::vector<int> out(tiles * TS, 0);
  array_view<int, 1> o(tiles * TS, out);
  o.discard_data();
  parallel_for_each(o.extent.tile<TS>(), [=](tiled_index<TS> t) restrict(amp) {
    tile_static int big[WORDS];
    const int l = t.local[0];
    for (int k = l; k < WORDS; k += TS) big[k] = k * 3 + t.tile[0];
    t.barrier.wait();
    // Each work-item sums a strided slice written by other work-items.
    int s = 0;
    for (int k = (l * 7) % TS; k < WORDS; k += TS) s += big[WORDS - 1 - k];
    o[t.global] = s;
  });
  o.synchronize();
  for (int tile = 0; tile < tiles; ++tile)
    for (int l = 0; l < TS; ++l) {
      int s = 0;
      for (int k = (l * 7) % TS; k < WORDS; k += TS) s += (WORDS - 1 - k) * 3 + tile;
      ASSERT_EQ(out[tile * TS + l], s) << "tile " << tile << " local " << l;
    }
}

// ---- barriers in loops

// Hillis-Steele inclusive scan inside each tile: two barriers per step.
TEST(Tiles, BarriersInLoopsScan) {
  constexpr int TS = 128;
  const int n = TS * 6;
  std::vector<int> in(n), out(n);
  for (int i = 0; i < n; ++i) in[i] = (i % 5) + 1;
  array_view<const int, 1> a(n, in);
  array_view<int, 1> b(n, out);
  b.discard_data();
  parallel_for_each(a.extent.tile<TS>(), [=](tiled_index<TS> t) restrict(amp) {
    tile_static int s[TS];
    const int l = t.local[0];
    s[l] = a[t.global];
    t.barrier.wait();
    for (int off = 1; off < TS; off *= 2) {
      const int add = l >= off ? s[l - off] : 0;
      t.barrier.wait();
      s[l] += add;
      t.barrier.wait();
    }
    b[t.global] = s[l];
  });
  b.synchronize();
  for (int tile = 0; tile < n / TS; ++tile) {
    int run = 0;
    for (int l = 0; l < TS; ++l) {
      run += in[tile * TS + l];
      ASSERT_EQ(out[tile * TS + l], run) << "tile " << tile << " local " << l;
    }
  }
}

// A value passed around the tile: each step every work-item reads its left
// neighbour's value; after TS steps it has gone full circle.
TEST(Tiles, ManyBarrierRounds) {
  constexpr int TS = 32;
  const int n = TS * 4, rounds = 3 * TS + 5;
  std::vector<int> out(n);
  array_view<int, 1> o(n, out);
  o.discard_data();
  parallel_for_each(o.extent.tile<TS>(), [=](tiled_index<TS> t) restrict(amp) {
    tile_static int ring[2][TS];
    const int l = t.local[0];
    ring[0][l] = l + 1000 * t.tile[0];
    t.barrier.wait();
    for (int r = 0; r < rounds; ++r) {
      ring[(r + 1) % 2][l] = ring[r % 2][(l + TS - 1) % TS];
      t.barrier.wait();
    }
    o[t.global] = ring[rounds % 2][l];
  });
  o.synchronize();
  for (int i = 0; i < n; ++i) {
    const int tile = i / TS, l = i % TS;
    ASSERT_EQ(out[i], (l + TS - rounds % TS) % TS + 1000 * tile) << i;
  }
}

// ---- wait_with_* and the fence functions

TEST(Tiles, BarrierAndFenceVariants) {
  constexpr int TS = 64;
  const int n = TS * 3;
  std::vector<int> in = iota(n), out(n), mid(n, 0);
  array_view<const int, 1> a(n, in);
  array_view<int, 1> g(n, mid); // global memory shared within a tile
  array_view<int, 1> b(n, out);
  b.discard_data();
  parallel_for_each(a.extent.tile<TS>(), [=](tiled_index<TS> t) restrict(amp) {
    tile_static int s[TS];
    const int l = t.local[0];
    s[l] = a[t.global];
    t.barrier.wait_with_tile_static_memory_fence();
    g[t.global] = s[TS - 1 - l];
    t.barrier.wait_with_global_memory_fence();
    s[l] = g[t.tile_origin[0] + (l + 1) % TS];
    t.barrier.wait_with_all_memory_fence();
    int v = s[(l + 2) % TS];
    tile_static_memory_fence(t.barrier);
    global_memory_fence(t.barrier);
    all_memory_fence(t.barrier);
    t.barrier.wait();
    b[t.global] = v;
  });
  b.synchronize();
  for (int i = 0; i < n; ++i) {
    const int tile = i / TS, l = i % TS;
    // v = s[(l+2)%TS] = g[origin + (l+3)%TS] = a[origin + TS-1-(l+3)%TS]
    ASSERT_EQ(out[i], tile * TS + TS - 1 - (l + 3) % TS) << i;
  }
}

// ---- tiled kernels without barriers

TEST(Tiles, BarrierFreeTiledKernels) {
  const int R = 30, C = 40;
  std::vector<int> out(R * C);
  array_view<int, 2> o(R, C, out);
  o.discard_data();
  parallel_for_each(o.extent.tile<10, 8>(), [=](tiled_index<10, 8> t) restrict(amp) {
    o[t] = t.tile[0] * 1000 + t.tile[1] * 100 + t.local[0] * 10 + t.local[1] % 10;
  });
  o.synchronize();
  for (int r = 0; r < R; ++r)
    for (int c = 0; c < C; ++c) ASSERT_EQ(out[r * C + c], (r / 10) * 1000 + (c / 8) * 100 + (r % 10) * 10 + (c % 8));

  // tile_static without a barrier: each work-item uses only its own slot.
  std::vector<int> o2(512);
  array_view<int, 1> v2(512, o2);
  v2.discard_data();
  parallel_for_each(v2.extent.tile<128>(), [=](tiled_index<128> t) restrict(amp) {
    tile_static int own[128];
    own[t.local[0]] = t.global[0] * 2;
    v2[t.global] = own[t.local[0]] + 1;
  });
  v2.synchronize();
  for (int i = 0; i < 512; ++i) ASSERT_EQ(o2[i], 2 * i + 1);

  // Only some work-items of each tile do anything (seed 001 pattern).
  std::vector<int> o3(64, 0);
  array_view<int, 1> v3(64, o3);
  parallel_for_each(v3.extent.tile<16>(), [=](tiled_index<16> t) restrict(amp) {
    if (t.local[0] == 0)
      for (int k = 0; k < 16; ++k) v3[t.global[0] + k] = t.tile[0];
  });
  v3.synchronize();
  for (int i = 0; i < 64; ++i) ASSERT_EQ(o3[i], i / 16);
}

// A tile_static variable declared in a restrict(amp) helper.
int tile_rotate(const tiled_index<32>& t, int value) restrict(amp) {
  tile_static int buf[32];
  buf[t.local[0]] = value;
  t.barrier.wait();
  const int r = buf[(t.local[0] + 1) % 32];
  t.barrier.wait();
  return r;
}

TEST(Tiles, BarrierInHelperFunction) {
  std::vector<int> out(96);
  array_view<int, 1> o(96, out);
  o.discard_data();
  parallel_for_each(o.extent.tile<32>(), [=](tiled_index<32> t) restrict(amp) {
    int v = t.global[0];
    v = tile_rotate(t, v);
    v = tile_rotate(t, v);
    o[t] = v;
  });
  o.synchronize();
  for (int i = 0; i < 96; ++i) ASSERT_EQ(out[i], (i / 32) * 32 + (i % 32 + 2) % 32) << i;
}

// A tiled_extent whose tile could never be launched (more than 1024
// work-items, or D0 > 64 in 3-D) is still a valid extent: AMP rejects such a
// tile at parallel_for_each only (tests/compile_fail checks that launch).
TEST(Tiles, UnlaunchableTileIsStillAnExtent) {
  const tiled_extent<2048> t1 = extent<1>(5000).tile<2048>();
  EXPECT_EQ(t1.tile_dim0, 2048);
  EXPECT_EQ(t1.pad()[0], 6144);
  EXPECT_EQ(t1.truncate()[0], 4096);
  const tiled_extent<128, 2, 2> t3 = extent<3>(130, 3, 4).tile<128, 2, 2>();
  EXPECT_EQ(t3.get_tile_extent(), extent<3>(128, 2, 2));
  EXPECT_EQ(extent<3>(t3.pad()), extent<3>(256, 4, 4));
  // Padding near INT_MAX: the padded size fits although e + tile - 1 does not.
  const int big = INT_MAX - 1;
  const tiled_extent<INT_MAX - 1, INT_MAX - 11> t2 = extent<2>(big, INT_MAX - 11).tile<INT_MAX - 1, INT_MAX - 11>();
  EXPECT_EQ(extent<2>(t2.pad()), extent<2>(big, INT_MAX - 11));
  EXPECT_EQ(extent<2>(t2.truncate()), extent<2>(big, INT_MAX - 11));
  EXPECT_EQ(t2.size_64(), static_cast<long long>(big) * (INT_MAX - 11));
}

} // namespace

// tile_static of a class type whose default constructor is not empty, in an
// array whose bound is a constant expression (AMD Bolt's scan_by_key:
// `tile_static iType lds[SCAN_WAVESIZE*SCAN_KERNELWAVES]`): AMP runs no
// constructor for it (GPU builds: the launcher's unconstructed storage,
// scripts/amp_driver/passes/gpu.py, whatever the bound's expression), and every work-item
// sees the values the tile wrote.
namespace {
struct tile_pair {
  int key, value;
  tile_pair() restrict(cpu, amp) : key(-1), value(-1) {}
};
constexpr int pair_waves = 4, pair_wave = 16;
} // namespace

TEST(Tiles, TileStaticClassArrayWithExpressionBound) {
  std::vector<int> out(pair_waves * pair_wave * 3);
  array_view<int, 1> av(static_cast<int>(out.size()), out);
  parallel_for_each(av.extent.tile<pair_waves * pair_wave>(), [=](tiled_index<pair_waves * pair_wave> t) restrict(amp) {
    tile_static tile_pair lds[pair_wave * pair_waves];
    tile_static tile_pair two[sizeof(int) * (pair_waves / 4)][pair_wave * pair_waves / 4];
    const int l = t.local[0];
    lds[l].key = l;
    lds[l].value = t.global[0];
    two[l % 4][l / 4].key = 2 * l;
    t.barrier.wait();
    const int r = pair_waves * pair_wave - 1 - l;
    av[t.global] = lds[r].value + two[r % 4][r / 4].key;
  });
  av.synchronize();
  const int n = pair_waves * pair_wave;
  for (int g = 0; g < static_cast<int>(out.size()); ++g) {
    const int r = n - 1 - g % n;
    ASSERT_EQ(out[g], g / n * n + r + 2 * r) << "at " << g;
  }
}
