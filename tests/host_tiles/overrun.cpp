// A kernel that writes past its tile_static array, as AMD's Bolt scan does
// (`lds[locId + wgSize/2]` into an array of one tile's size): a GPU keeps
// such writes inside the group's shared memory. On the host tile_static
// storage is thread-local; the tile compiler gives each array as many bytes
// of slack after it (host_tiles::tile_static_slack), in the compiled branch
// and in the original body fibers run, so the writes land in storage of the
// kernel's own: the arrays declared around it and the runtime's
// thread-locals keep their values, and both paths print the same (check.py).
// Without the slack (the previous tile compiler) this program crashes. It
// checks its own results and exits 1 when they are wrong.
#include <amp.h>

#include <cstdio>
#include <string>
#include <type_traits>
#include <vector>

using namespace concurrency;

namespace {

// Counts the elements of got that differ from want(i), prints the count
// under name, and says whether there were none.
template <class T, class Want> bool expect_all(const char* name, const std::vector<T>& got, Want want) {
  int wrong = 0;
  for (int i = 0; i < static_cast<int>(got.size()); ++i) wrong += got[i] != want(i);
  std::printf("%s: %d of %zu wrong\n", name, wrong, got.size());
  return wrong == 0;
}

// Every work-item stores -1000 half a tile past its own element; `before`
// and `after` must keep their 1s and 2s. Each work-item then reads its
// element of the array's second half, where some work-item stored -1000.
template <class T, int TS> bool scan_shape(int tiles) {
  const int n = tiles * TS;
  std::vector<T> in(n), out(n);
  for (int i = 0; i < n; ++i) in[i] = T(i % 7);
  array_view<const T, 1> a(n, in);
  array_view<T, 1> b(n, out);
  for (int rep = 0; rep < 3; ++rep)
    parallel_for_each(extent<1>(n).tile<TS>(), [=](tiled_index<TS> t) restrict(amp) { // expect: compiled
      tile_static T before[TS];
      tile_static T lds[TS];
      tile_static T after[TS];
      const int l = t.local[0];
      before[l] = T(1);
      after[l] = T(2);
      lds[l] = a[t.global];
      t.barrier.wait();
      lds[l + TS / 2] = T(-1000);
      t.barrier.wait();
      b[t.global] = before[l] + after[l] + (l < TS / 2 ? lds[l + TS / 2] : lds[l]);
    });
  b.synchronize();
  const std::string name = "scan_shape<" + std::to_string(TS) + ">";
  return expect_all(name.c_str(), out, [](int) { return T(3 - 1000); });
}

// A two-dimensional array written one row past its end.
bool rows_past() {
  const int n = 64 * 64;
  std::vector<float> out(n);
  array_view<float, 2> b(64, 64, out);
  parallel_for_each(b.extent.tile<16, 16>(), [=](tiled_index<16, 16> t) restrict(amp) { // expect: compiled
    tile_static float tile[16][16];
    tile_static float keep[16][16];
    const int r = t.local[0], c = t.local[1];
    keep[r][c] = float(r * 16 + c);
    tile[r][c] = 1.0f;
    t.barrier.wait();
    tile[r + 8][c] = -1.0f; // rows 16..23 do not exist
    t.barrier.wait();
    b[t.global] = keep[r][c] + (r < 8 ? tile[r + 8][c] : tile[r][c]);
  });
  b.synchronize();
  return expect_all("rows_past", out, [](int i) { return float((i / 64 % 16) * 16 + i % 16) - 1.0f; });
}

// A callee that waits (inlined by the tile compiler's first pass: the
// original body fibers run is then kept as text for the second).
template <int TS> void ov_settle(tiled_index<TS> t) restrict(amp) { t.barrier.wait(); }

bool inlined_callee() {
  const int n = 2048;
  std::vector<int> out(n);
  array_view<int, 1> b(n, out);
  parallel_for_each(b.extent.tile<128>(), [=](tiled_index<128> t) restrict(amp) { // expect: compiled
    tile_static int lds[128];
    tile_static int keep[128];
    const int l = t.local[0];
    keep[l] = l;
    ov_settle(t);
    lds[l + 64] = 5;
    ov_settle(t);
    b[t.global] = keep[l] + (l < 64 ? lds[l + 64] : lds[l]);
  });
  b.synchronize();
  return expect_all("inlined_callee", out, [](int i) { return i % 128 + 5; });
}

// A kernel the tile compiler refuses (a lambda inside it) runs on fibers,
// its arrays with slack all the same.
bool refused_kernel() {
  const int n = 1024;
  std::vector<int> out(n);
  array_view<int, 1> b(n, out);
  parallel_for_each(b.extent.tile<64>(), [=](tiled_index<64> t) restrict(amp) { // expect: fibers: a lambda inside the kernel
    auto twice = [](int x) restrict(amp) { return 2 * x; };
    tile_static int lds[64];
    tile_static int keep[64];
    const int l = t.local[0];
    keep[l] = twice(l);
    t.barrier.wait();
    lds[l + 32] = 7;
    t.barrier.wait();
    b[t.global] = keep[l] + (l < 32 ? lds[l + 32] : lds[l]);
  });
  b.synchronize();
  return expect_all("refused_kernel", out, [](int i) { return 2 * (i % 64) + 7; });
}

// What the storage with slack must not change: the array's type where the
// kernel asks for it (decltype: std::extent of a reference is 0), and a
// lambda in the kernel that names the array (capturing a reference by copy
// would copy the array; such a kernel keeps fibers and its arrays as
// written).
bool array_types() {
  const int n = 256;
  std::vector<int> out(n);
  array_view<int, 1> b(n, out);
  parallel_for_each(b.extent.tile<64>(), [=](tiled_index<64> t) restrict(amp) { // expect: compiled
    tile_static int lds[64];
    const int l = t.local[0];
    lds[l] = l;
    t.barrier.wait();
    b[t.global] = lds[63 - l] + static_cast<int>(std::extent<decltype(lds)>::value);
  });
  parallel_for_each(b.extent.tile<64>(), [=](tiled_index<64> t) restrict(amp) { // expect: fibers: a lambda inside the kernel
    tile_static int lds[64];
    const int l = t.local[0];
    auto at = [=](int j) restrict(amp) { return lds[j]; };
    lds[l] = 2 * l;
    t.barrier.wait();
    b[t.global] += at(63 - l);
  });
  b.synchronize();
  return expect_all("array_types", out, [](int i) { return 3 * (63 - i % 64) + 64; });
}

} // namespace

int main() {
  bool ok = scan_shape<int, 256>(8);
  ok = scan_shape<float, 64>(16) && ok;
  ok = rows_past() && ok;
  ok = inlined_callee() && ok;
  ok = refused_kernel() && ok;
  ok = array_types() && ok;
  return ok ? 0 : 1;
}
