// Habits of real AMP code (ported CUDA samples, AMD's Bolt, sorting
// libraries) that kept the host tile compiler on fibers or broke the
// rewritten source; each kernel must take the compiled path (`// expect:`,
// checked by check.py) and print the bytes fibers print. The never-break
// test (never_breaks.sh) builds this file with a fault injected into every
// compiled kernel and checks the build still succeeds, with the same output.
#include <amp.h>
#include <amp_math.h>
#include <amp_short_vectors.h>

#include <algorithm>
#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <vector>

using namespace concurrency;

namespace {

template <class T> void digest(const char* name, const std::vector<T>& v) {
  std::uint64_t h = 1469598103934665603ull; // FNV-1a over the bytes
  const auto* p = reinterpret_cast<const unsigned char*>(v.data());
  for (std::size_t i = 0; i < v.size() * sizeof(T); ++i) h = (h ^ p[i]) * 1099511628211ull;
  std::printf("%-24s %016llx\n", name, static_cast<unsigned long long>(h));
}

// A binomial roll-back ported from a CUDA sample: function-like macros
// defined in the kernel over a view and the tile index, called with
// work-item values (`CELL(j + 1)`), a loop variable declared before its
// `for` loops, two barriers per time step.
#define HB_STEPS 96
void macro_pricer() {
  const int options = 6, tile = 32;
  std::vector<float> leaves(options * 2 * (HB_STEPS + 8)), res(options);
  for (std::size_t i = 0; i < leaves.size(); ++i) leaves[i] = float(i % 37) * 0.25f;
  array_view<float, 1> buf(int(leaves.size()), leaves), out(options, res);
  const float pu = 0.4995f, pd = 0.4985f;
  parallel_for_each(extent<1>(options * tile).tile<32>(), [=](tiled_index<32> t_idx) restrict(amp) { // expect: compiled
#define CELL(arg) buf[t_idx.tile[0] * 2 * (HB_STEPS + 8) + (arg)]
#define NEXT(arg) buf[t_idx.tile[0] * 2 * (HB_STEPS + 8) + HB_STEPS + 8 + (arg)]
    int tid = t_idx.local[0];
    int j;
    for (int i = HB_STEPS; i > 0; --i) {
      for (j = tid; j < i; j += 32) NEXT(j) = pu * CELL(j + 1) + pd * CELL(j);
      t_idx.barrier.wait();
      for (j = tid; j < i; j += 32) CELL(j) = NEXT(j);
      t_idx.barrier.wait();
    }
    if (tid == 0) out[t_idx.tile[0]] = CELL(0);
#undef CELL
#undef NEXT
  });
  out.synchronize();
  digest("macro_pricer", res);
}

// A value kept per work-item (not a pure function of it) read only through
// a macro, and an object-like macro for the tile size.
#define HB_TILE 64
#define HB_SHIFTED(k) (s[(l + (k)) % HB_TILE] + acc)
void macro_kept_value() {
  const int n = 512;
  std::vector<int> v(n);
  for (int i = 0; i < n; ++i) v[i] = (i * 29) % 97;
  array_view<int, 1> a(n, v);
  parallel_for_each(a.extent.tile<HB_TILE>(), [=](tiled_index<HB_TILE> t) restrict(amp) { // expect: compiled
    tile_static int s[HB_TILE];
    const int l = t.local[0];
    int acc = a[t.global] * 3;
    s[l] = acc;
    t.barrier.wait();
    a[t.global] = HB_SHIFTED(1) + HB_SHIFTED(HB_TILE - 1);
  });
  a.synchronize();
  digest("macro_kept_value", v);
}

// Bolt's scan shape: `for` loops around barriers whose inits are
// expressions over variables declared before, with comma increments.
void for_inits() {
  const int n = 1024;
  std::vector<int> v(n);
  for (int i = 0; i < n; ++i) v[i] = (i * 37) % 101 - 50;
  array_view<int, 1> a(n, v);
  parallel_for_each(a.extent.tile<128>(), [=](tiled_index<128> t) restrict(amp) { // expect: compiled
    tile_static int s[128];
    int l = t.local[0];
    s[l] = a[t.global];
    t.barrier.wait();
    unsigned int stride, k;
    for (stride = 1, k = 0; stride < 128; stride *= 2, ++k) {
      int add = (l >= int(stride)) ? s[l - stride] : 0;
      t.barrier.wait();
      s[l] += add;
      t.barrier.wait();
    }
    int rounds = 0;
    for (k = 4; k > 0; k >>= 1) {
      rounds += int(k);
      t.barrier.wait();
    }
    a[t.global] = s[l] * 4 + int(k) + rounds;
  });
  a.synchronize();
  digest("for_inits", v);
}

// Bolt's scan: a variable per work-item before a re-assignment by every
// work-item (`offset = 1;`) and uniform after it, the loop around the
// barriers starting from it (`for (offset = offset * 1; ...)`).
void restarted_variable() {
  const int n = 512;
  std::vector<int> v(n);
  for (int i = 0; i < n; ++i) v[i] = (i * 19) % 41 - 20;
  array_view<int, 1> a(n, v);
  parallel_for_each(a.extent.tile<64>(), [=](tiled_index<64> t) restrict(amp) { // expect: compiled
    tile_static int lds[64];
    const int locId = t.local[0];
    int offset;
    int sum = 0;
    if (t.global[0] % 3 != 0) {
      offset = 0;
      sum = a[t.global];
      for (offset = offset + 1; offset < 3; offset += 1) sum += offset;
    }
    t.barrier.wait();
    offset = 1;
    lds[locId] = sum;
    for (offset = offset * 1; offset < 64; offset *= 2) {
      t.barrier.wait();
      const int y = locId >= offset ? lds[locId - offset] : 0;
      t.barrier.wait();
      lds[locId] += y;
    }
    a[t.global] = lds[locId] + offset;
  });
  a.synchronize();
  digest("restarted_variable", v);
}

// A user's value type with constructors, an assignment and a destructor
// across barriers (Bolt's functors over user types), and one without a
// default constructor; a tile_static array of class type.
struct vec2 {
  float x, y;
  vec2() restrict(amp, cpu) : x(0), y(0) {}
  vec2(float a, float b) restrict(amp, cpu) : x(a), y(b) {}
  vec2(const vec2& o) restrict(amp, cpu) : x(o.x), y(o.y) {}
  vec2& operator=(const vec2& o) restrict(amp, cpu) {
    x = o.x;
    y = o.y;
    return *this;
  }
  ~vec2() restrict(amp, cpu) {}
  vec2 operator+(const vec2& o) const restrict(amp, cpu) { return vec2(x + o.x, y * 0.5f + o.y); }
};
struct scaled {
  float v;
  explicit scaled(float f) restrict(amp, cpu) : v(f * 2.0f) {}
};
void class_values() {
  const int n = 512;
  std::vector<vec2> v(n);
  for (int i = 0; i < n; ++i) v[i] = vec2(float(i % 31), float(n - i));
  array_view<vec2, 1> a(n, v);
  parallel_for_each(a.extent.tile<64>(), [=](tiled_index<64> t) restrict(amp) { // expect: compiled
    tile_static vec2 s[64];
    vec2 y = a[t.global];
    scaled f(y.x);
    s[t.local[0]] = y;
    t.barrier.wait();
    y = y + s[(t.local[0] + 1) % 64];
    t.barrier.wait();
    s[t.local[0]] = vec2(f.v, y.y);
    t.barrier.wait();
    a[t.global] = y + s[63 - t.local[0]];
  });
  a.synchronize();
  std::vector<float> flat;
  for (const vec2& p : v) flat.push_back(p.x), flat.push_back(p.y);
  digest("class_values", flat);
}

// Bolt's shape: a kernel in a template, instantiated with int and with a
// user's class, whose value of the template's type lives across barriers.
template <class T> std::vector<T> neighbour_sums(const std::vector<T>& in) {
  std::vector<T> v(in);
  array_view<T, 1> a(int(v.size()), v);
  parallel_for_each(a.extent.template tile<64>(), [=](tiled_index<64> t) restrict(amp) { // expect: compiled
    tile_static T s[64];
    T y = a[t.global];
    s[t.local[0]] = y;
    t.barrier.wait();
    y = y + s[(t.local[0] + 5) % 64];
    t.barrier.wait();
    a[t.global] = y;
  });
  a.synchronize();
  return v;
}
void template_values() {
  std::vector<int> iv(256);
  for (int i = 0; i < 256; ++i) iv[i] = (i * 11) % 23;
  std::vector<vec2> pv(256);
  for (int i = 0; i < 256; ++i) pv[i] = vec2(float(i % 7), float(i % 5));
  digest("template_values_int", neighbour_sums(iv));
  std::vector<float> flat;
  for (const vec2& p : neighbour_sums(pv)) flat.push_back(p.x), flat.push_back(p.y);
  digest("template_values_vec2", flat);
}

// A sorting library's shape: a template host function launches a kernel
// with a `[=, &data]` capture whose body calls a template function that
// declares tile_static storage and waits on barriers in a loop.
template <typename T, int TS>
void bitonic_tile(tiled_index<TS> tidx, array_view<T, 1>& data, unsigned level) restrict(amp) {
  tile_static T sh[TS];
  const int l = tidx.local[0];
  sh[l] = data[tidx.global];
  tidx.barrier.wait();
  for (unsigned j = level >> 1; j > 0; j >>= 1) {
    const T r = sh[l ^ j];
    const bool up = (unsigned(l) & level) == 0, lower = (unsigned(l) & j) == 0;
    const T mine = sh[l];
    T res = (lower == up) ? (mine < r ? mine : r) : (mine < r ? r : mine);
    tidx.barrier.wait();
    sh[l] = res;
    tidx.barrier.wait();
  }
  data[tidx.global] = sh[l];
}
template <typename T> void sort_tiles(std::vector<T>& v) {
  array_view<T, 1> data(int(v.size()), v);
  for (unsigned level = 2; level <= 256; level <<= 1)
    parallel_for_each(data.extent.template tile<256>(), [=, &data](tiled_index<256> tidx) restrict(amp) { // expect: compiled
      bitonic_tile<T, 256>(tidx, data, level);
    });
  data.synchronize();
}
void template_callee() {
  std::vector<int> v(1024);
  for (int i = 0; i < 1024; ++i) v[i] = (i * 7919) % 1031;
  sort_tiles(v);
  std::vector<float> f(512);
  for (int i = 0; i < 512; ++i) f[i] = float((i * 131) % 509) * 0.5f;
  sort_tiles(f);
  digest("template_callee_int", v);
  digest("template_callee_float", f);
}

// A library's helper (the AMP Algorithms Library's shape): a template in a
// namespace of its own that scans a tile_static array with barriers and
// returns a value the kernel discards, called with a functor temporary.
namespace hb_lib {
template <class T> struct plus {
  T operator()(const T& a, const T& b) const restrict(amp, cpu) { return a + b; }
};
namespace details {
template <int TS, typename Op, typename T>
inline T scan_tile_inclusive(T* const data, tiled_index<TS> tidx, const Op& op) restrict(amp) {
  const int l = tidx.local[0];
  for (int s = 1; s < TS; s *= 2) {
    const T add = l >= s ? data[l - s] : T(0);
    tidx.barrier.wait_with_tile_static_memory_fence();
    data[l] = op(data[l], add);
    tidx.barrier.wait_with_tile_static_memory_fence();
  }
  return data[TS - 1];
}
} // namespace details
} // namespace hb_lib
void library_callee() {
  std::vector<int> v(256);
  for (int i = 0; i < 256; ++i) v[i] = (i * 13) % 17 - 8;
  array_view<int, 1> a(256, v);
  parallel_for_each(a.extent.tile<32>(), [=](tiled_index<32> t) restrict(amp) { // expect: compiled
    tile_static int d[32];
    d[t.local[0]] = a[t.global];
    hb_lib::details::scan_tile_inclusive<32>(d, t, hb_lib::plus<int>());
    t.barrier.wait();
    a[t.global] = d[t.local[0]] * 3 + d[31];
  });
  a.synchronize();
  digest("library_callee", v);
}

// The AMP Algorithms Library's shapes: a kernel in a template host function
// (a local typedef for its value type) calls a library template whose
// arguments are all deduced (`T` from a pointer to that typedef, the functor
// from a temporary, the tile size from the tiled_index); it hands its
// tiled_index to a helper that never waits; a kernel outside the library
// calls a library function that names its own namespace's functions
// unqualified and through a relative `_details::` (the caller's scope has a
// `_details` of its own, as a test library's does).
namespace _details {
inline int hb_unrelated() restrict(amp, cpu) { return 0; }
} // namespace _details
namespace hb_alg {
template <class T> struct plus {
  T operator()(const T& a, const T& b) const restrict(amp, cpu) { return a + b; }
};
namespace _details {
inline int key_of(int v, int bit) restrict(amp, cpu) { return (v >> bit) & 1; }
inline int bucket(int key, int n) restrict(amp, cpu) { return key == 0 ? 0 : n; }
template <typename T, int TS, typename F>
void reduce_tile(T* const mem, tiled_index<TS> tidx, const F& op, int valid) restrict(amp) {
  const int l = tidx.local[0];
  for (int s = TS / 2; s > 0; s /= 2) {
    if (l < s && l + s < valid) mem[l] = op(mem[l], mem[l + s]);
    tidx.barrier.wait();
  }
}
template <int TS> void split_tile(int* const keys, tiled_index<TS> tidx, int bit) restrict(amp) {
  tile_static int zeros[1];
  const int l = tidx.local[0];
  const int v = keys[l];
  if (l == 0) {
    int z = 0;
    for (int i = 0; i < TS; ++i) z += key_of(keys[i], bit) == 0;
    zeros[0] = z;
  }
  tidx.barrier.wait();
  int before = 0;
  for (int i = 0; i < l; ++i) before += _details::key_of(keys[i], bit) == key_of(v, bit);
  tidx.barrier.wait();
  keys[bucket(key_of(v, bit), zeros[0]) + before] = v;
  tidx.barrier.wait();
}
} // namespace _details
template <typename T, int TS> int valid_in_tile(const array_view<T, 1>& v, tiled_index<TS> t) restrict(amp) {
  const int rest = v.extent[0] - t.tile_origin[0];
  return rest < TS ? rest : TS;
}
template <int TS, typename T> std::vector<T> tile_sums(const std::vector<T>& in) {
  typedef T result_type;
  std::vector<T> out(in.size() / TS);
  array_view<const T, 1> a(int(in.size()), in);
  array_view<T, 1> o(int(out.size()), out);
  const plus<T> op;
  parallel_for_each(a.extent.template tile<TS>(), [=](tiled_index<TS> tidx) restrict(amp) { // expect: compiled
    tile_static result_type buf[TS];
    tile_static result_type sq[TS];
    result_type& mine = buf[tidx.local[0]];
    mine = a[tidx.global];
    sq[tidx.local[0]] = mine * mine;
    tidx.barrier.wait();
    const int valid = valid_in_tile(a, tidx);
    _details::reduce_tile(&mine - tidx.local[0], tidx, op, valid);
    _details::reduce_tile(sq, tidx, plus<T>(), TS);
    if (tidx.local[0] == 0) o[tidx.tile[0]] = buf[0] + sq[0];
  });
  o.synchronize();
  return out;
}
} // namespace hb_alg
void library_shapes() {
  std::vector<int> v(512);
  for (int i = 0; i < 512; ++i) v[i] = (i * 41) % 53 - 20;
  digest("library_deduced_int", hb_alg::tile_sums<64>(v));
  std::vector<float> f(256);
  for (int i = 0; i < 256; ++i) f[i] = float((i * 7) % 19) * 0.25f;
  digest("library_deduced_float", hb_alg::tile_sums<32>(f));
  std::vector<int> k(256);
  for (int i = 0; i < 256; ++i) k[i] = (i * 97) % 251;
  array_view<int, 1> keys(256, k);
  parallel_for_each(keys.extent.tile<64>(), [=](tiled_index<64> t) restrict(amp) { // expect: compiled
    tile_static int tk[64];
    tk[t.local[0]] = keys[t.global];
    t.barrier.wait();
    hb_alg::_details::split_tile<64>(tk, t, 2);
    keys[t.global] = tk[t.local[0]] + _details::hb_unrelated();
  });
  keys.synchronize();
  digest("library_foreign_names", k);
}

// Bolt's radix sort: each work-item keeps arrays of its own
// (`unsigned int sortData[4]`) across barriers and hands one to a helper
// whose parameter is declared as an array.
static void hb_rotate4(unsigned int d[4], unsigned int* lds, tiled_index<64> t) restrict(amp) {
  const int l = t.local[0];
  for (int k = 0; k < 4; ++k) lds[l * 4 + k] = d[k];
  t.barrier.wait();
  for (int k = 0; k < 4; ++k) d[k] = lds[((l + 1) % 64) * 4 + (3 - k)];
  t.barrier.wait();
}
void item_arrays() {
  std::vector<unsigned int> v(1024);
  for (int i = 0; i < 1024; ++i) v[i] = (unsigned(i) * 2654435761u) >> 7;
  array_view<unsigned int, 1> a(1024, v);
  parallel_for_each(extent<1>(256).tile<64>(), [=](tiled_index<64> t) restrict(amp) { // expect: compiled
    tile_static unsigned int lds[64 * 4];
    unsigned int data[4];
    for (int k = 0; k < 4; ++k) data[k] = a[t.global[0] * 4 + k];
    hb_rotate4(data, lds, t);
    unsigned int keys[4];
    for (int k = 0; k < 4; ++k) keys[k] = data[k] & 0xffu;
    t.barrier.wait();
#define HB_KEY(k) keys[(k)]
    for (int k = 0; k < 4; ++k) a[t.global[0] * 4 + k] = data[k] + HB_KEY((k + 1) % 4);
#undef HB_KEY
  });
  a.synchronize();
  digest("item_arrays", v);
}

// Bolt's radix sort again: an inlined helper takes the value of another
// waiting helper, in a declaration and in an assignment of a class value
// (`prefixSum = localPrefixSum256V(...)` returning a uint_4), its types
// written through an object-like macro.
struct hb_pair {
  unsigned a = 0, b = 0;
  hb_pair() restrict(amp, cpu) {}
  hb_pair(unsigned x, unsigned y) restrict(amp, cpu) : a(x), b(y) {}
};
#define HB_PAIR hb_pair
static unsigned hb_rank(unsigned v, unsigned* lm, tiled_index<64> t) restrict(amp) {
  const int l = t.local[0];
  lm[l] = v;
  t.barrier.wait();
  unsigned r = 0;
  for (int i = 0; i < l; ++i) r += lm[i] < v;
  t.barrier.wait();
  return r;
}
static HB_PAIR hb_ranks(HB_PAIR p, unsigned* lm, tiled_index<64> t) restrict(amp) {
  unsigned r = hb_rank(p.a, lm, t);
  return HB_PAIR(r, p.b + r);
}
static void hb_rank_both(unsigned* d, unsigned* lm, tiled_index<64> t) restrict(amp) {
  HB_PAIR p(d[0], d[1]);
  p = hb_ranks(p, lm, t);
  d[0] = p.a;
  d[1] = p.b;
}
void valued_in_callee() {
  std::vector<unsigned> v(512);
  for (int i = 0; i < 512; ++i) v[i] = (unsigned(i) * 40503u) % 1009u;
  array_view<unsigned, 1> a(512, v);
  parallel_for_each(extent<1>(256).tile<64>(), [=](tiled_index<64> t) restrict(amp) { // expect: compiled
    tile_static unsigned lm[64];
    unsigned d[2];
    d[0] = a[t.global[0] * 2];
    d[1] = a[t.global[0] * 2 + 1];
    hb_rank_both(d, lm, t);
    a[t.global[0] * 2] = d[0];
    a[t.global[0] * 2 + 1] = d[1];
  });
  a.synchronize();
  digest("valued_in_callee", v);
}

// Bolt's radix sort's block loop: `for (iblock = 0; ...; iblock++, addr +=
// blockSize)` around barriers, `addr` a work-item's own value, bounded by
// `_min(nBlocksPerWG, nBlocks)` (an lvalue `?:` of two uniform values).
#define HB_MIN(a, b) (((a) < (b)) ? (a) : (b))
void item_increment() {
  std::vector<int> v(1024);
  for (int i = 0; i < 1024; ++i) v[i] = (i * 613) % 97;
  array_view<int, 1> a(1024, v);
  parallel_for_each(extent<1>(64).tile<64>(), [=](tiled_index<64> t) restrict(amp) { // expect: compiled
    tile_static int s[64];
    const int blockSize = 64;
    int addr = t.local[0];
    const int perTile = 16;
    int blocks = 18 - 2 * t.tile[0];
    for (int iblock = 0; iblock < HB_MIN(perTile, blocks); iblock++, addr += blockSize) {
      s[t.local[0]] = a[addr];
      t.barrier.wait();
      a[addr] = s[63 - t.local[0]] + iblock;
      t.barrier.wait();
    }
  });
  a.synchronize();
  digest("item_increment", v);
}

// Bolt's sort: a static helper scans one value per work-item through
// tile_static memory with barriers and returns the work-item's result, which
// initialises a local of the kernel (`unsigned res = scan_values(...)`).
static unsigned int hb_scan_values(unsigned int val, unsigned int* lmem, tiled_index<64> t) restrict(amp) {
  const int l = t.local[0];
  lmem[l] = val;
  for (int s = 1; s < 64; s *= 2) {
    t.barrier.wait();
    const unsigned int add = l >= s ? lmem[l - s] : 0u;
    t.barrier.wait();
    lmem[l] += add;
  }
  t.barrier.wait();
  return l > 0 ? lmem[l - 1] : 0u;
}
void valued_callee() {
  std::vector<unsigned int> v(512);
  for (int i = 0; i < 512; ++i) v[i] = unsigned(i * 7) % 13u;
  array_view<unsigned int, 1> a(512, v);
  parallel_for_each(a.extent.tile<64>(), [=](tiled_index<64> t) restrict(amp) { // expect: compiled
    tile_static unsigned int lmem[64];
    const unsigned int val = a[t.global];
    unsigned int res = hb_scan_values(val, lmem, t);
    a[t.global] = res * 2u + val;
  });
  a.synchronize();
  digest("valued_callee", v);
}

// Bolt's reduce: one macro invocation expands to a guarded step and the
// barrier after it. Its statements cannot be told apart in the source (they
// all have the invocation's text): the tile compiler writes each invocation
// out (its expansion, one level deep) and compiles that text. A first
// version that compiled the statements in place got Bolt's ReduceTest wrong.
#define HB_REDUCE_STEP(LEN, IDX, W)                                                                      \
  if ((IDX < W) && ((IDX + W) < LEN)) {                                                                  \
    int mine = scratch[IDX];                                                                            \
    int other = scratch[IDX + W];                                                                       \
    scratch[IDX] = mine + other;                                                                        \
  }                                                                                                     \
  t_idx.barrier.wait();
void macro_barrier() {
  std::vector<int> v(1000), res(8);
  for (int i = 0; i < 1000; ++i) v[i] = (i * 31) % 97;
  array_view<const int, 1> in(1000, v);
  array_view<int, 1> out(8, res);
  const int n = 1000;
  parallel_for_each(extent<1>(8 * 128).tile<128>(), [=](tiled_index<128> t_idx) restrict(amp) { // expect: compiled
    tile_static int scratch[128];
    unsigned int tileIndex = t_idx.local[0];
    scratch[tileIndex] = t_idx.global[0] < n ? in[t_idx.global] : 0;
    t_idx.barrier.wait();
    unsigned int tail = n - t_idx.tile[0] * 128;
    HB_REDUCE_STEP(tail, tileIndex, 64u);
    HB_REDUCE_STEP(tail, tileIndex, 32u);
    HB_REDUCE_STEP(tail, tileIndex, 16u);
    HB_REDUCE_STEP(tail, tileIndex, 8u);
    HB_REDUCE_STEP(tail, tileIndex, 4u);
    HB_REDUCE_STEP(tail, tileIndex, 2u);
    HB_REDUCE_STEP(tail, tileIndex, 1u);
    if (tileIndex == 0) out[t_idx.tile] = scratch[0];
  });
  out.synchronize();
  digest("macro_barrier", res);
}

// A three-dimensional tile with a uniform `while` and a uniform `break`.
void tile_3d() {
  std::vector<int> v(8 * 8 * 8);
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = int(i % 23);
  array_view<int, 3> a(8, 8, 8, v);
  parallel_for_each(a.extent.tile<2, 4, 4>(), [=](tiled_index<2, 4, 4> t) restrict(amp) { // expect: compiled
    tile_static int s[2][4][4];
    int round = 0;
    int x = a[t.global];
    while (round < 5) {
      s[t.local[0]][t.local[1]][t.local[2]] = x;
      t.barrier.wait();
      x += s[1 - t.local[0]][3 - t.local[1]][t.local[2]];
      t.barrier.wait();
      if (round == 3) break;
      ++round;
    }
    a[t.global] = x;
  });
  a.synchronize();
  digest("tile_3d", v);
}

// A Visual Studio sample's shape: the kernel body is one call to a function
// taking the tiled_index by non-const reference and an `array` by
// reference (captured `[=, &buf]`); one `int i;` serves as the loop
// variable of a barrier-free `for` (per work-item values) and later of a
// `for` around barriers (uniform); the inner loop's counter is stepped in its
// body, not its header; bounds come from a helper `hb_min`; index copies
// (`index<1> tile_idx = tidx.tile;`) are read through operator[].
template <class T> T hb_min(const T& a, const T& b) restrict(amp, cpu) { return a < b ? a : b; }
#define HB_ROLL_STEPS 48
#define HB_ROLL_TILE 16
void hb_roll(tiled_index<HB_ROLL_TILE>& tidx, array_view<const float, 1> pu, array<float, 1>& buf,
             array_view<float, 1> out) restrict(amp) {
  index<1> tile_idx = tidx.tile;   // copies of the tile's and the work-item's
  index<1> local_idx = tidx.local; // indices, read through operator[]
  tile_static float a_[HB_ROLL_TILE + 1];
  tile_static float b_[HB_ROLL_TILE + 1];
  int tid = local_idx[0];
  const int base = tile_idx[0] * (HB_ROLL_STEPS + 4);
  int i;
  for (i = tid; i <= HB_ROLL_STEPS; i += HB_ROLL_TILE) buf[base + i] = float(i % 7) + 0.5f * float(tidx.tile[0]);
  for (i = HB_ROLL_STEPS; i > 0; i -= 4) {
    for (int c = 0; c < i; c += HB_ROLL_TILE - 4) {
      const int start = hb_min(HB_ROLL_TILE - 1, i - c);
      const int end = start - 4;
      tidx.barrier.wait();
      if (tid <= start) a_[tid] = buf[base + c + tid];
      for (int k = start - 1; k >= end;) {
        tidx.barrier.wait();
        b_[tid] = pu[tile_idx] * a_[tid + 1] + (1.0f - pu[tile_idx]) * a_[tid];
        k--;
        tidx.barrier.wait();
        a_[tid] = pu[tidx.tile] * b_[tid + 1] + (1.0f - pu[tidx.tile]) * b_[tid];
        k--;
      }
      tidx.barrier.wait();
      if (tid <= end) buf[base + c + tid] = a_[tid];
    }
  }
  if (tid == 0) out[tidx.tile] = a_[0];
}
void sample_shape() {
  const int options = 5;
  std::vector<float> p(options), res(options);
  for (int o = 0; o < options; ++o) p[o] = 0.45f + 0.02f * float(o);
  array_view<const float, 1> pu(options, p);
  array_view<float, 1> out(options, res);
  array<float, 1> buf(options * (HB_ROLL_STEPS + 4));
  parallel_for_each(extent<1>(options * HB_ROLL_TILE).tile<HB_ROLL_TILE>(), [=, &buf](tiled_index<HB_ROLL_TILE> ti) restrict(amp) { // expect: compiled
    hb_roll(ti, pu, buf, out);
  });
  out.synchronize();
  digest("sample_shape", res);
}

// A bound from a helper whose result depends only on its arguments: the
// view's size and the tile's position (the AMP Algorithms Library's
// tile_partial_data_size), then a loop around barriers up to it.
template <int TS, typename V> int hb_in_tile(const V& v, tiled_index<TS> t) restrict(amp) {
  return v.extent.size() - t.tile[0] * t.tile_extent[0];
}
void uniform_helper() {
  std::vector<int> v(100), res(4);
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = int(i * 7 % 19);
  array_view<const int, 1> a(int(v.size()), v);
  array_view<int, 1> out(4, res);
  parallel_for_each(extent<1>(128).tile<32>(), [=](tiled_index<32> t) restrict(amp) { // expect: compiled
    tile_static int s[32];
    const int valid = hb_in_tile(a, t);
    s[t.local[0]] = t.global[0] < a.extent[0] ? a[t.global] : 0;
    for (int stride = 16; stride > 0; stride /= 2) {
      t.barrier.wait();
      if (t.local[0] < stride && t.local[0] + stride < valid) s[t.local[0]] += s[t.local[0] + stride];
    }
    t.barrier.wait();
    if (t.local[0] == 0) out[t.tile] = s[0] + valid;
  });
  out.synchronize();
  digest("uniform_helper", res);
}

// A warp-style tail after a tree reduction (the C++ AMP book's unrolled
// reductions): under a guard, steps separated by AMP's free fence functions
// on the barrier, which order memory but do not wait. Fibers switch only at
// barriers, so both paths run the guarded steps work-item after work-item.
void fence_tail() {
  const int n = 256;
  std::vector<int> v(n), res(n / 64);
  for (int i = 0; i < n; ++i) v[i] = (i * 11) % 23 - 7;
  array_view<const int, 1> a(n, v);
  array_view<int, 1> out(n / 64, res);
  parallel_for_each(extent<1>(n).tile<64>(), [=](tiled_index<64> t) restrict(amp) { // expect: compiled
    tile_static int part[64];
    const int l = t.local[0];
    part[l] = a[t.global];
    t.barrier.wait();
    if (l < 32) part[l] += part[l + 32];
    t.barrier.wait_with_tile_static_memory_fence();
    if (l < 16) {
      part[l] += part[l + 16];
      tile_static_memory_fence(t.barrier);
      part[l] += part[l + 8];
      global_memory_fence(t.barrier);
      part[l] = part[l] * 3 + part[l + 4];
      all_memory_fence(t.barrier);
    }
    t.barrier.wait();
    if (l == 0) out[t.tile] = part[0] - part[1];
  });
  out.synchronize();
  digest("fence_tail", res);
}

// Loop bounds from the tile's extent kept in a local (`extent<1> te =
// t.get_tile_extent();`, an HCC-era reduction) and from the extent of an
// array captured by reference (AMD's radix sort: `integers.extent[0] /
// cNTiles`).
void extent_bounds() {
  const int tiles = 4, ts = 32;
  std::vector<int> v(tiles * ts * 3), res(tiles);
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = int(i % 13) + 1;
  array<int, 1> a(int(v.size()), v.begin());
  array_view<int, 1> out(tiles, res);
  parallel_for_each(extent<1>(tiles * ts).tile<ts>(), [=, &a](tiled_index<ts> t) restrict(amp) { // expect: compiled
    tile_static int s[ts];
    const int region = a.extent[0] / tiles;
    int sum = 0;
    for (int i = t.tile[0] * region; i < (t.tile[0] + 1) * region; i += ts) {
      s[t.local[0]] = a[i + t.local[0]];
      t.barrier.wait();
      sum += s[(t.local[0] + 1) % ts];
      t.barrier.wait();
    }
    extent<1> te = t.get_tile_extent();
    s[t.local[0]] = sum;
    t.barrier.wait();
    for (int k = te[0] / 2; k > 0; k /= 2) {
      if (t.local[0] < k) s[t.local[0]] += s[t.local[0] + k];
      t.barrier.wait();
    }
    if (t.local[0] == 0) out[t.tile] = s[0];
  });
  out.synchronize();
  digest("extent_bounds", res);
}

// A work-item's array with an initialiser, live across barriers (AMD's
// radix sort histogram: `unsigned int histogram[16] = {0, ...};`), one
// declared in a loop (a fresh array each iteration) and one partly
// initialised.
void initialised_arrays() {
  const int n = 128;
  std::vector<unsigned> v(n), res(n);
  for (int i = 0; i < n; ++i) v[i] = unsigned(i * 2654435761u);
  array_view<const unsigned, 1> a(n, v);
  array_view<unsigned, 1> out(n, res);
  parallel_for_each(extent<1>(n).tile<32>(), [=](tiled_index<32> t) restrict(amp) { // expect: compiled
    tile_static unsigned s[32];
    unsigned counts[4] = {0, 0, 0, 0};
    const unsigned bias[3] = {7};
    for (int round = 0; round < 3; ++round) {
      unsigned seen[2] = {1u, unsigned(round)};
      s[t.local[0]] = a[t.global] >> (round * 8);
      t.barrier.wait();
      ++counts[s[(t.local[0] + round + 1) % 32] & 3];
      seen[0] += s[t.local[0] ^ 1];
      t.barrier.wait();
      counts[round] += seen[0] + seen[1] + bias[round];
    }
    out[t.global] = counts[0] * 1000003u + counts[1] * 1009u + counts[2] * 31u + counts[3];
  });
  out.synchronize();
  digest("initialised_arrays", res);
}

// A waiting helper whose value is assigned to an array element and to a
// scalar in the kernel's own body (AMD's radix sort: `histogram[j] =
// Scan(histogram[j], idx);`), the tiled_index taken by non-const reference,
// a pointer into the helper's tile_static storage.
template <int TS> unsigned hb_prefix(unsigned value, tiled_index<TS>& t) restrict(amp) {
  tile_static unsigned scratch[2 * TS];
  scratch[t.local[0]] = 0;
  unsigned* upper = &scratch[TS];
  upper[t.local[0]] = value;
  t.barrier.wait();
  for (int d = 1; d < TS; d <<= 1) {
    const unsigned left = upper[t.local[0] - d];
    t.barrier.wait();
    upper[t.local[0]] += left;
    t.barrier.wait();
  }
  return upper[t.local[0] - 1];
}
template <int TS> unsigned hb_first(unsigned value, tiled_index<TS>& t) restrict(amp) {
  tile_static unsigned first;
  if (t.local[0] == 0) first = value;
  t.barrier.wait();
  return first;
}
void valued_assignment() {
  const int n = 128;
  std::vector<unsigned> v(n), res(n);
  for (int i = 0; i < n; ++i) v[i] = unsigned((i * 37) % 11);
  array_view<const unsigned, 1> a(n, v);
  array_view<unsigned, 1> out(n, res);
  parallel_for_each(extent<1>(n).tile<32>(), [=](tiled_index<32> t) restrict(amp) { // expect: compiled
    unsigned h[3];
    unsigned total;
    for (int j = 0; j < 3; ++j) {
      h[j] = a[t.global] + unsigned(j);
      t.barrier.wait();
      h[j] = hb_prefix(h[j], t);
    }
    total = hb_first(h[0] + h[2], t);
    out[t.global] = total * 7u + h[1];
  });
  out.synchronize();
  digest("valued_assignment", res);
}

// Loop bounds read from a small view of sizes (CUDA ports: Torch's
// reductions pass sizes and strides as `array_view<unsigned>`), in a
// kernel that writes only floats: every work-item reads the same sizes.
void view_bounds() {
  std::vector<unsigned> sizes = {3u, 40u, 2u};
  std::vector<float> in(3 * 40 * 2), res(2 * 32);
  for (std::size_t i = 0; i < in.size(); ++i) in[i] = float(i % 11) * 0.5f;
  array_view<const unsigned, 1> dims(3, sizes);
  array_view<const float, 1> a(int(in.size()), in);
  array_view<float, 1> out(int(res.size()), res);
  parallel_for_each(extent<1>(2 * 32).tile<32>(), [=](tiled_index<32> t) restrict(amp) { // expect: compiled
    tile_static float s[32];
    float acc = 0.0f;
    for (unsigned row = 0; row < dims[0]; ++row) {
      for (unsigned col = 0; col < dims[1]; col += 32) {
        const unsigned c = col + unsigned(t.local[0]);
        s[t.local[0]] = c < dims[1] ? a[(t.tile[0] * dims[0] + row) * dims[1] + c] : 0.0f;
        t.barrier.wait();
        acc += s[(t.local[0] + 1) % 32] * float(row + 1);
        t.barrier.wait();
      }
    }
    out[t.global] = acc;
  });
  out.synchronize();
  digest("view_bounds", res);
}

// AMD's FFT sample: a barrier as the unbraced branch of an `if` on a
// uniform flag (`if (barrierAfter) idx.barrier.wait...;` through a macro)
// and an array of short vectors (`float_2 t[8]`, default-built) live across
// barriers; here race-free, so any order of work-items gives these bytes.
#define HB_EXCHANGE(after)                                   \
  s[t.local[0]] = v[0].x + v[1].y;                           \
  t.barrier.wait();                                          \
  v[1].x = s[(t.local[0] + 5) % 32];                         \
  if (after) t.barrier.wait();
void unbraced_barrier() {
  const int n = 128;
  std::vector<float> in(n), res(n);
  for (int i = 0; i < n; ++i) in[i] = float(i % 9) - 4.0f;
  array_view<const float, 1> a(n, in);
  array_view<float, 1> out(n, res);
  parallel_for_each(extent<1>(n).tile<32>(), [=](tiled_index<32> t) restrict(amp) { // expect: compiled
    tile_static float s[32];
    graphics::float_2 v[2];
    const graphics::float_2 w[2] = {graphics::float_2(1.0f, 2.0f), graphics::float_2(0.5f, a[t.global])};
    v[0] = w[1];
    HB_EXCHANGE(true)
    v[1].y += w[0].y;
    HB_EXCHANGE(true)
    for (int k = 0; k < 3; ++k) t.barrier.wait();
    out[t.global] = v[0].x * 3.0f + v[1].x + v[1].y;
  });
  out.synchronize();
  digest("unbraced_barrier", res);
}
#undef HB_EXCHANGE

// A waiting call inside a larger expression of the kernel's own body: a
// sum with a local (`x = l + f(t, ...)`), a declaration from a product
// (`int y = f(t, ...) * 2 - l`), a waiting call as the argument of a plain
// function, of a functor's operator() too. The call runs first, into a
// value the statement then reads; the rest of each statement is quiet (no
// memory read the call could change, no side effect), so any order C++
// allows gives these bytes.
int hb_swap(const tiled_index<32>& t, int* s, int x) restrict(amp) {
  s[t.local[0]] = x;
  t.barrier.wait();
  const int r = s[31 - t.local[0]];
  t.barrier.wait();
  return r;
}
int hb_mix(int a, int b) restrict(amp) { return a * 3 + b; }
// Inside an inlined helper too: a declaration from a sum and the value the
// helper returns (`return f(t, ...) * 2 + x;` as its last statement).
int hb_swap_twice(const tiled_index<32>& t, int* s, int x) restrict(amp) {
  int y = 1 + hb_swap(t, s, x);
  return hb_swap(t, s, y) * 2 + x;
}
struct hb_mixer {
  array_view<int, 1> out;
  int bias;
  void operator()(tiled_index<32> t) const restrict(amp) { // expect: compiled
    tile_static int s[32];
    const int l = t.local[0];
    out[t.global] = hb_mix(hb_swap(t, s, out[t.global] + l), bias) - bias;
  }
};
void call_in_expression() {
  const int n = 128;
  std::vector<int> in(n), res(n);
  for (int i = 0; i < n; ++i) in[i] = (i * 13) % 41 - 20;
  array_view<const int, 1> a(n, in);
  array_view<int, 1> out(n, res);
  parallel_for_each(a.extent.tile<32>(), [=](tiled_index<32> t) restrict(amp) { // expect: compiled
    tile_static int s[32];
    const int l = t.local[0];
    int x = a[t.global];
    x = l + hb_swap(t, s, x);
    int y = hb_swap(t, s, x) * 2 - l;
    out[t.global] = hb_mix(hb_swap(t, s, y), l);
  });
  parallel_for_each(a.extent.tile<32>(), [=](tiled_index<32> t) restrict(amp) { // expect: compiled
    tile_static int s[32];
    out[t.global] = hb_swap_twice(t, s, a[t.global] + out[t.global]);
  });
  parallel_for_each(a.extent.tile<32>(), hb_mixer{out, 7});
  out.synchronize();
  digest("call_in_expression", res);
}

// ---- Function objects as tiled kernels (Microsoft's samples and book: a
// class with a constructor and private `m_` members; a particle
// simulation's functor templates deriving from a base and holding
// `const array<...>&` members; the conformance suite's FunctObj with
// `array<int, 2>&` members). Their members play the captures' role.

// A class with a constructor and private members: a view, and a count of
// rounds bounding the loop around the barriers (uniform: a member of a
// const operator()); a value kept per work-item across them.
class hb_rounds {
public:
  hb_rounds(array_view<int, 1> data, int rounds) : m_data(data), m_rounds(rounds) {}
  void operator()(tiled_index<32> t) const restrict(amp) { // expect: compiled
    tile_static int s[32];
    const int l = t.local[0];
    int acc = m_data[t.global];
    for (int r = 0; r < m_rounds; ++r) {
      s[l] = acc;
      t.barrier.wait();
      acc += s[(l + r + 1) % 32] / 2;
      t.barrier.wait();
    }
    m_data[t.global] = acc;
  }

private:
  array_view<int, 1> m_data;
  int m_rounds;
};

// A functor template over the tile size and the element type: a tree
// reduction, one sum per tile.
template <int TS, class T> struct hb_tile_sum {
  array_view<const T, 1> in;
  array_view<T, 1> out;
  void operator()(tiled_index<TS> t) const restrict(amp) { // expect: compiled
    tile_static T s[TS];
    const int l = t.local[0];
    s[l] = in[t.global];
    t.barrier.wait();
    for (int k = TS / 2; k > 0; k /= 2) {
      if (l < k) s[l] += s[l + k];
      t.barrier.wait();
    }
    if (l == 0) out[t.tile] = s[0];
  }
};

// Two-dimensional tiles: a transpose through a padded tile_static tile.
template <int TS> struct hb_transpose {
  array_view<const float, 2> in;
  array_view<float, 2> out;
  void operator()(tiled_index<TS, TS> t) const restrict(amp) { // expect: compiled
    tile_static float tile[TS][TS + 1];
    tile[t.local[0]][t.local[1]] = in[t.global];
    t.barrier.wait();
    out(t.tile_origin[1] + t.local[0], t.tile_origin[0] + t.local[1]) = tile[t.local[1]][t.local[0]];
  }
};

// Reference members bound to arrays, members inherited from a base class
// template and read through `this->`, a step size kept as a member.
template <class T> struct hb_fields {
  array<T, 1>& values;
  const array<T, 1>& weights;
  T step;
};
template <class T> struct hb_weighted : hb_fields<T> {
  hb_weighted(array<T, 1>& v, const array<T, 1>& w, T step) : hb_fields<T>{v, w, step} {}
  void operator()(tiled_index<16> t) const restrict(amp) { // expect: compiled
    tile_static T s[16];
    const int l = t.local[0];
    s[l] = this->values[t.global] * this->weights[t.global];
    t.barrier.wait();
    this->values[t.global] = s[15 - l] + s[(l + 1) % 16] * this->step;
  }
};

// A functor that hands its tiled_index to a helper that waits (inlined).
template <int N> void hb_rotate(tiled_index<N> t, array_view<int, 1> a, int by) restrict(amp) {
  tile_static int s[N];
  s[t.local[0]] = a[t.global];
  t.barrier.wait();
  a[t.global] = s[(t.local[0] + by) % N] + by;
}
struct hb_rotator {
  array_view<int, 1> a;
  int by;
  void operator()(tiled_index<16> t) const restrict(amp) { // expect: compiled
    hb_rotate(t, a, by);
  }
};

// A functor template whose operator() is defined outside its class (a
// particle simulation's shape: `template <class K> void density<K>::
// operator()(...) const restrict(amp)` after the class, which derives from
// its kernel-function parameter and holds references to arrays).
struct hb_kernel_weight {
  float w = 0.5f;
};
template <class K> class hb_density : public K {
public:
  hb_density(array<float, 1>& d, const array<float, 1>& p, float m) : m_density(d), m_points(p), m_mass(m) {}
  void operator()(tiled_index<32> idx) const restrict(amp);

private:
  array<float, 1>& m_density;
  const array<float, 1>& m_points;
  float m_mass;
};
template <class K>
void hb_density<K>::operator()(tiled_index<32> idx) const restrict(amp) { // expect: compiled
  tile_static float s[32];
  s[idx.local[0]] = m_points[idx.global];
  idx.barrier.wait();
  float acc = 0.0f;
  for (int j = 0; j < 32; ++j) acc += s[(idx.local[0] + j) % 32] * this->w;
  m_density[idx.global] = acc * m_mass;
}

void function_objects() {
  const int n = 256;
  std::vector<int> v(n);
  for (int i = 0; i < n; ++i) v[i] = (i * 37) % 101 - 50;
  array_view<int, 1> a(n, v);
  parallel_for_each(a.extent.tile<32>(), hb_rounds(a, 4));
  parallel_for_each(a.extent.tile<16>(), hb_rotator{a, 5});
  a.synchronize();
  digest("functor_rounds", v);

  std::vector<float> in(1024), sums(1024 / 128);
  for (int i = 0; i < 1024; ++i) in[i] = float(i % 29) * 0.125f - 1.0f;
  array_view<const float, 1> ia(1024, in);
  array_view<float, 1> sa(int(sums.size()), sums);
  parallel_for_each(ia.extent.tile<128>(), hb_tile_sum<128, float>{ia, sa});
  sa.synchronize();
  digest("functor_template", sums);
  std::vector<int> isums(1024 / 64);
  std::vector<int> iin(1024);
  for (int i = 0; i < 1024; ++i) iin[i] = i % 13;
  array_view<const int, 1> iia(1024, iin);
  array_view<int, 1> isa(int(isums.size()), isums);
  parallel_for_each(iia.extent.tile<64>(), hb_tile_sum<64, int>{iia, isa});
  isa.synchronize();
  digest("functor_template_int", isums);

  std::vector<float> m(32 * 48), mt(48 * 32);
  for (std::size_t i = 0; i < m.size(); ++i) m[i] = float(i) * 0.5f;
  array_view<const float, 2> mi(32, 48, m);
  array_view<float, 2> mo(48, 32, mt);
  parallel_for_each(mi.extent.tile<16, 16>(), hb_transpose<16>{mi, mo});
  mo.synchronize();
  digest("functor_2d", mt);

  std::vector<double> vals(64), wts(64);
  for (int i = 0; i < 64; ++i) vals[i] = i * 0.75, wts[i] = 1.0 + (i % 5) * 0.25;
  array<double, 1> va(64, vals.begin()), wa(64, wts.begin());
  parallel_for_each(va.extent.tile<16>(), hb_weighted<double>(va, wa, 0.5));
  vals = va;
  digest("functor_references", vals);

  std::vector<float> pts(128);
  for (int i = 0; i < 128; ++i) pts[i] = float(i % 23) * 0.375f;
  array<float, 1> pa(128, pts.begin()), da(128);
  parallel_for_each(pa.extent.tile<32>(), hb_density<hb_kernel_weight>(da, pa, 1.5f));
  std::vector<float> dens = da;
  digest("functor_outside_class", dens);
}

// A BLAS library's matrix multiply: references to the work-item's element
// of a tile_static array, chosen by a template parameter (`T& a_local =
// (transposed ? a_tile[col][row] : a_tile[row][col]);`), declared before
// the loop around the barriers and written through in every iteration.
enum class hb_layout { plain, transposed };
template <int TS, hb_layout LA, hb_layout LB>
void hb_gemm(int n, const array_view<const float, 2>& a, const array_view<const float, 2>& b,
             const array_view<float, 2>& c) {
  parallel_for_each(c.extent.tile<TS, TS>(), [=](tiled_index<TS, TS> tid) restrict(amp) { // expect: compiled
    tile_static float a_tile[TS][TS];
    tile_static float b_tile[TS][TS];
    const int col = tid.local[0];
    const int row = tid.local[1];
    float& a_local = (LA == hb_layout::plain ? a_tile[row][col] : a_tile[col][row]);
    float& b_local = (LB == hb_layout::plain ? b_tile[row][col] : b_tile[col][row]);
    const int j = tid.tile_origin[0], i = tid.tile_origin[1];
    float sum = 0.0f;
    for (int k = 0; k < n; k += TS) {
      a_local = LA == hb_layout::plain ? a(k + row, i + col) : a(i + row, k + col);
      b_local = LB == hb_layout::plain ? b(j + row, k + col) : b(k + row, j + col);
      tid.barrier.wait_with_tile_static_memory_fence();
      for (int l = 0; l < TS; ++l) sum += a_tile[l][col] * b_tile[row][l];
      tid.barrier.wait_with_tile_static_memory_fence();
    }
    c(j + row, i + col) = sum;
  });
}
void element_references() {
  const int n = 32;
  std::vector<float> ha(n * n), hb(n * n), hc(n * n), hd(n * n);
  for (int i = 0; i < n * n; ++i) ha[i] = float(i % 13) * 0.5f, hb[i] = float(i % 7) - 2.0f;
  array_view<const float, 2> a(n, n, ha), b(n, n, hb);
  array_view<float, 2> c(n, n, hc), d(n, n, hd);
  hb_gemm<16, hb_layout::plain, hb_layout::plain>(n, a, b, c);
  hb_gemm<16, hb_layout::transposed, hb_layout::plain>(n, a, b, d);
  c.synchronize();
  d.synchronize();
  digest("element_references_nn", hc);
  digest("element_references_tn", hd);
}

// A BLAS library's GEMM kernels: `do { ... } while (--blocks > 0);` around
// the barriers, the count a tile-level local (`K` rounded up, shifted by
// `log2` of the step), and `do { ... } while (++k < n);`: a loop condition
// that updates a tile-level counter by a uniform step is uniform and runs
// once per tile, as a `for` increment does. Race-free, so any order of
// work-items gives these bytes.
void counted_loops() {
  const int n = 96, depth = 45;
  std::vector<float> in(n * depth), res(n);
  for (std::size_t i = 0; i < in.size(); ++i) in[i] = float(i % 13) * 0.5f - 2.0f;
  array_view<const float, 1> a(int(in.size()), in);
  array_view<float, 1> out(n, res);
  parallel_for_each(extent<1>(n).tile<32>(), [=](tiled_index<32> t) restrict(amp) { // expect: compiled
    tile_static float s[32];
    const int shift = fast_math::log2(16.0f);
    int blocks = ((depth + 15) & ~15) >> shift;
    int k = 0;
    float acc = 0.0f;
    do {
      const int row = k * 16 + t.local[0] % 16;
      s[t.local[0]] = row < depth ? a[row * n + t.global[0]] : 0.0f;
      t.barrier.wait();
      acc += s[(t.local[0] + 7) % 32];
      t.barrier.wait();
      k++;
    } while (--blocks > 0);
    int step = 0;
    do {
      s[t.local[0]] = acc + float(step);
      t.barrier.wait();
      acc = acc * 0.5f + s[31 - t.local[0]];
      t.barrier.wait();
    } while (++step < k);
    out[t.global] = acc;
  });
  out.synchronize();
  digest("counted_loops", res);
}

// A BLAS library's reduction: a kernel in a host template calls a tile
// reduction template with its element type and tile size written and its
// functor deduced from a member of the host template's functor parameter
// (`hb_tile_reduce<T, TS>(&smem, tid, helper.op)`, a dependent type no
// text of the kernel spells).
template <class T> struct hb_sum {
  T operator()(const T& a, const T& b) const restrict(cpu, amp) { return a + b; }
};
template <class T> struct hb_abs_sum_helper {
  hb_sum<T> op;
  T init_value = T(0);
  void local_reduce(T& acc, int i, const array_view<const T, 1>& x) const restrict(cpu, amp) {
    acc = op(acc, x[i] < T(0) ? -x[i] : x[i]);
  }
};
template <typename T, unsigned int TS, typename F>
void hb_tile_reduce(T* const mem, tiled_index<TS> tid, const F& op) restrict(amp) {
  const unsigned int local = tid.local[0];
  for (unsigned int half = TS / 2; half > 0; half /= 2) {
    if (local < half) mem[0] = op(mem[0], mem[half]);
    tid.barrier.wait_with_tile_static_memory_fence();
  }
}
template <unsigned int TS, typename T, typename H>
std::vector<T> hb_reduce(const std::vector<T>& in, const H& reduce_helper) {
  const int n = static_cast<int>(in.size()), tiles = 4, threads = tiles * TS;
  array_view<const T, 1> x(n, in);
  std::vector<T> partial(tiles);
  array_view<T, 1> out(tiles, partial);
  parallel_for_each(extent<1>(threads).tile<TS>(), [=](tiled_index<TS> tid) restrict(amp) { // expect: compiled
    tile_static T local_buffer[TS];
    int idx = tid.global[0];
    T& smem = local_buffer[tid.local[0]];
    smem = reduce_helper.init_value;
    while (idx < n) {
      reduce_helper.local_reduce(smem, idx, x);
      idx += threads;
    }
    tid.barrier.wait_with_tile_static_memory_fence();
    hb_tile_reduce<T, TS>(&smem, tid, reduce_helper.op);
    if (tid.local[0] == 0) out[tid.tile[0]] = smem;
  });
  out.synchronize();
  return partial;
}
void deduced_functor() {
  std::vector<float> v(1000);
  for (int i = 0; i < 1000; ++i) v[i] = float(i % 17) - 8.25f;
  digest("deduced_functor", hb_reduce<64>(v, hb_abs_sum_helper<float>{}));
}

// A sparse-matrix library's bitonic sort: the number of stages counted by a
// barrier-free loop (`for (t = n; t > 1; t >>= 1) ++stages;`) in a helper
// that takes the tiled_index by reference and pointers into tile_static
// memory; the loops around the barriers are bounded by that count. A
// `while` loop counts the same way in the kernel itself, over `register`
// locals (a CUDA port's habit; C++17 made `register` an error in Clang).
static void hb_bitonic_step(int* key, float* val, int stage, int pass, int id, int len) restrict(amp) {
  const int pair = 1 << (stage - pass), block = 2 << stage;
  const int left = (id / pair) * 2 * pair + id % pair, right = left + pair;
  if (right < len) {
    const bool up = (left / block) % 2 == 0;
    if ((key[left] > key[right]) == up) {
      const int k = key[left];
      key[left] = key[right], key[right] = k;
      const float v = val[left];
      val[left] = val[right], val[right] = v;
    }
  }
}
static void hb_bitonic_sort(tiled_index<64>& t, int* key, float* val, int len) restrict(amp) {
  const int id = t.local[0];
  int stages = 0;
  for (int w = len; w > 1; w >>= 1) {
    ++stages;
  }
  for (int stage = 0; stage < stages; ++stage)
    for (int pass = 0; pass <= stage; ++pass) {
      hb_bitonic_step(key, val, stage, pass, id, len);
      t.barrier.wait();
    }
}
void counted_stages() {
  const int rows = 4, len = 128;
  std::vector<int> keys(rows * len);
  std::vector<float> vals(rows * len), sums(rows);
  for (int i = 0; i < rows * len; ++i) keys[i] = (i * 7919) % 997, vals[i] = float(i % 13) * 0.5f;
  array_view<int, 1> k(rows * len, keys);
  array_view<float, 1> v(rows * len, vals), out(rows, sums);
  parallel_for_each(extent<1>(rows * 64).tile<64>(), [=](tiled_index<64> t) restrict(amp) { // expect: compiled
    tile_static int sk[len];
    tile_static float sv[len];
    const int row = t.tile[0], id = t.local[0];
    sk[id] = k[row * len + id], sk[id + 64] = k[row * len + id + 64];
    sv[id] = v[row * len + id], sv[id + 64] = v[row * len + id + 64];
    t.barrier.wait();
    hb_bitonic_sort(t, sk, sv, len);
    k[row * len + id] = sk[id], k[row * len + id + 64] = sk[id + 64];
    register int levels = 0, n = len; // CUDA ports' `register` (an error in Clang's C++17 parse)
    while (n > 1)
      n /= 2, levels += 1;
    for (int l = 0; l < levels; ++l) {
      const int stride = len >> (l + 1);
      if (id < stride) sv[id] += sv[id + stride];
      t.barrier.wait();
    }
    if (id == 0) out[row] = sv[0];
  });
  k.synchronize();
  out.synchronize();
  digest("counted_stages_keys", keys);
  digest("counted_stages_sums", sums);
}

// A multigrid smoother's 3-D tiles one work-item deep (`tiled_index<1, 4,
// 8>`): `t.global[0]` names the tile's block, the same for all its
// work-items, and bounds the loops around the barrier through a view.
void unit_depth_tiles() {
  const int blocks = 3;
  std::vector<int> lo(blocks), hi(blocks);
  for (int b = 0; b < blocks; ++b) lo[b] = b, hi[b] = 3 + 2 * b;
  std::vector<float> grid(blocks * 4 * 8);
  for (size_t i = 0; i < grid.size(); ++i) grid[i] = float(i % 11) * 0.25f;
  array_view<const int, 1> from(blocks, lo), to(blocks, hi);
  array_view<float, 3> g(blocks, 4, 8, grid);
  parallel_for_each(extent<3>(blocks, 4, 8).tile<1, 4, 8>(), [=](tiled_index<1, 4, 8> t) restrict(amp) { // expect: compiled
    tile_static float plane[4][8];
    const int block = t.global[0];
    const int y = t.local[1], x = t.local[2];
    for (int i = from[block]; i < to[block]; ++i) {
      plane[y][x] = g(block, y, x);
      t.barrier.wait();
      g(block, y, x) = 0.5f * plane[y][x] + 0.125f * (plane[(y + 1) % 4][x] + plane[y][(x + 7) % 8]) + float(i);
      t.barrier.wait();
    }
  });
  g.synchronize();
  digest("unit_depth_tiles", grid);
}

// Debugging toggles of ported CUDA code: a barrier (and statements around
// it) inside `#ifdef`/`#if` groups, a `#define` in a group the preprocessor
// skips, a conditional in the middle of a statement, an `#elif` chain
// holding barriers. The compiled body keeps the groups the build takes.
#define HB_SYNC 1
#define HB_VARIANT 2
void conditional_barriers() {
  std::vector<int> data(4 * 32);
  for (size_t i = 0; i < data.size(); ++i) data[i] = int(i * 7 % 23);
  array_view<int, 1> v(int(data.size()), data);
  parallel_for_each(v.extent.tile<32>(), [=](tiled_index<32> t) restrict(amp) { // expect: compiled
    tile_static int s[32];
#if 0
#define HB_SCALE 100
#endif
#ifndef HB_SCALE
#define HB_SCALE 3
#endif
    int mine = v[t.global] * HB_SCALE
#if HB_VARIANT == 2
               + 1
#endif
        ;
    for (int k = 1; k < 32; k *= 2) {
      s[t.local[0]] = mine;
#ifdef HB_SYNC
      t.barrier.wait();
#endif
      mine += s[(t.local[0] + k) % 32];
#ifdef HB_SYNC
      t.barrier.wait();
#endif
    }
#if HB_VARIANT == 1
    t.barrier.wait();
    mine = 0;
#elif HB_VARIANT == 2
#if defined(HB_SYNC)
    t.barrier.wait();
#endif
    s[t.local[0]] = mine;
    t.barrier.wait();
#else
    mine = -1;
#endif
    v[t.global] = mine - s[31 - t.local[0]];
#undef HB_SCALE
  });
  v.synchronize();
  digest("conditional_barriers", data);
}

// A function waiting on the barrier declared before the kernel and defined
// after it (a class's header declares it, its .cpp defines it below the
// launch: the C++ AMP book's Cartoonizer).
void hb_late_smooth(const array_view<float, 2>& img, tiled_index<8, 8> t) restrict(amp);
void late_definition() {
  std::vector<float> pixels(16 * 16);
  for (size_t i = 0; i < pixels.size(); ++i) pixels[i] = float(i * 13 % 29) * 0.5f;
  array_view<float, 2> img(16, 16, pixels);
  parallel_for_each(img.extent.tile<8, 8>(), [=](tiled_index<8, 8> t) restrict(amp) { // expect: compiled
    hb_late_smooth(img, t);
  });
  img.synchronize();
  digest("late_definition", pixels);
}
void hb_late_smooth(const array_view<float, 2>& img, tiled_index<8, 8> t) restrict(amp) {
  tile_static float s[8][8];
  const int y = t.local[0], x = t.local[1];
  s[y][x] = img[t.global];
  t.barrier.wait();
  img[t.global] = 0.5f * s[y][x] + 0.25f * (s[(y + 1) % 8][x] + s[y][(x + 7) % 8]);
}

// Helpers that return early above their barrier loop (a guard on uniform
// values: Alex Voicu's AMP_helpers `reduce`, `if (f >= l) return (l);`),
// void and valued, the guard braced or not, the value used.
template <int N> void hb_guard_void(int* s, int n, tiled_index<N> t) restrict(amp) {
  if (n <= 0) return;
  for (int m = N / 2; m > 0; m /= 2) {
    if (t.local[0] < m) s[t.local[0]] += s[t.local[0] + m];
    t.barrier.wait();
  }
}
template <int N> int hb_guard_max(int* s, int lo, int hi, tiled_index<N> t) restrict(amp) {
  if (lo >= hi) { return -1; }
  if (hi - lo == 1) return s[lo];
  for (int m = N / 2; m > 0; m /= 2) {
    if (t.local[0] < m) s[t.local[0]] = s[t.local[0]] > s[t.local[0] + m] ? s[t.local[0]] : s[t.local[0] + m];
    t.barrier.wait();
  }
  return s[0];
}
void guarded_callee() {
  std::vector<int> in(256), out(8);
  for (int i = 0; i < 256; ++i) in[i] = (i * 37) % 101;
  array_view<const int, 1> a(256, in);
  array_view<int, 1> o(8, out);
  parallel_for_each(extent<1>(256).tile<64>(), [=](tiled_index<64> t) restrict(amp) { // expect: compiled
    tile_static int s[64];
    s[t.local[0]] = a[t.global];
    t.barrier.wait();
    hb_guard_void<64>(s, t.tile[0], t); // tile 0 returns at once
    if (t.local[0] == 0) o[t.tile[0]] = s[0];
  });
  parallel_for_each(extent<1>(256).tile<64>(), [=](tiled_index<64> t) restrict(amp) { // expect: compiled
    tile_static int s[64];
    s[t.local[0]] = a[t.global];
    t.barrier.wait();
    const int r = hb_guard_max<64>(s, 0, t.tile[0] == 1 ? 1 : (t.tile[0] == 2 ? 0 : 64), t);
    if (t.local[0] == 0) o[4 + t.tile[0]] = r;
  });
  o.synchronize();
  digest("guarded_callee", out);
}

// What GCC takes with a warning and Clang refuses: narrowing in braces and a
// macro right after a string literal (`"%"PRId64`, older C/C++ code). The
// tile compiler's Clang parse failed on them, which left every tiled kernel
// of the file on fibers (options.py, GCC_LENIENCE).
void gcc_lenience() {
  std::vector<int> data(64);
  for (int i = 0; i < 64; ++i) data[i] = i * 3 % 17;
  array_view<int, 1> v(64, data);
  parallel_for_each(v.extent.tile<16>(), [=](tiled_index<16> t) restrict(amp) { // expect: compiled
    tile_static int s[16];
    s[t.local[0]] = v[t.global];
    t.barrier.wait();
    v[t.global] = s[15 - t.local[0]];
  });
  v.synchronize();
  const unsigned char low[] = {data[0] + 200, data[1]}; // narrowing: GCC warns
  std::printf("%-24s %"PRId64" %d\n", "gcc_lenience", static_cast<std::int64_t>(data[5]), int(low[0]));
  digest("gcc_lenience", data);
}

// A helper waiting on the barrier that hands back a second result, through
// a reference parameter bound to a kernel local (a public radix sort's
// `tile_prefix_sum(x, tidx, last_val)`) or in a returned struct.
unsigned hb_scan_last(unsigned x, tiled_index<64> t, unsigned& last) restrict(amp) {
  tile_static unsigned s[64];
  s[t.local[0]] = x;
  t.barrier.wait();
  unsigned r = 0;
  for (int i = 0; i < t.local[0]; ++i) r += s[i];
  last = s[63];
  t.barrier.wait();
  return r;
}
struct hb_scan_pair {
  unsigned sum, last;
};
hb_scan_pair hb_scan_both(unsigned x, tiled_index<64> t) restrict(amp) {
  tile_static unsigned s[64];
  s[t.local[0]] = x;
  t.barrier.wait();
  hb_scan_pair res;
  res.sum = 0;
  for (int i = 0; i < t.local[0]; ++i) res.sum += s[i];
  res.last = s[63];
  t.barrier.wait();
  return res;
}
void second_results() {
  std::vector<unsigned> in(256), out(256), out2(256);
  for (int i = 0; i < 256; ++i) in[i] = unsigned(i % 7);
  array_view<const unsigned, 1> a(256, in);
  array_view<unsigned, 1> o(256, out), o2(256, out2);
  parallel_for_each(o.extent.tile<64>(), [=](tiled_index<64> t) restrict(amp) { // expect: compiled
    unsigned carry = 0, last = 0;
    for (int k = 0; k < 2; ++k) {
      const unsigned v = hb_scan_last(a[t.global] + k, t, last);
      carry += v + last;
    }
    o[t.global] = carry;
  });
  parallel_for_each(o2.extent.tile<64>(), [=](tiled_index<64> t) restrict(amp) { // expect: compiled
    unsigned carry = 0;
    for (int k = 0; k < 2; ++k) {
      const hb_scan_pair p = hb_scan_both(a[t.global] + k, t);
      carry += p.sum + p.last;
    }
    o2[t.global] = carry;
  });
  o.synchronize();
  o2.synchronize();
  digest("second_results_ref", out);
  digest("second_results_struct", out2);
}

// A waiting call beside a read of a view's element (a public radix sort:
// `uint scan = tile_prefix_sum((num == i), tidx) + interm_prefix_sums[i *
// num_tiles + tidx.tile[0]];`, whose helper writes only tile_static memory
// and a local of its wrapper through a reference).
unsigned hb_wrapped_scan(unsigned x, tiled_index<64> t) restrict(amp) {
  unsigned ignored;
  return hb_scan_last(x, t, ignored);
}
void call_beside_read() {
  std::vector<unsigned> in(256), base(4), out(256);
  for (int i = 0; i < 256; ++i) in[i] = unsigned(i % 5);
  for (int i = 0; i < 4; ++i) base[i] = 1000u * unsigned(i);
  array_view<const unsigned, 1> a(256, in), b(4, base);
  array_view<unsigned, 1> o(256, out);
  parallel_for_each(o.extent.tile<64>(), [=](tiled_index<64> t) restrict(amp) { // expect: compiled
    const unsigned v = hb_wrapped_scan(a[t.global], t) + b[t.tile[0]];
    o[t.global] = v;
  });
  o.synchronize();
  digest("call_beside_read", out);
}

// A radix sort's helpers (a public parallel::amp library): the barrier
// and the loops are macros of its own, `#define BARRIER t_idx.barrier.wait()`
// naming the tiled_index as the kernels name theirs, `EACH(i, n)` a `for`
// over `decltype(n)`; a loop around barriers counts to a member of a struct
// a pure function returns (std::min/std::max inside); a helper that takes
// the tiled_index but never waits makes no kernel with barriers.
#define HB_BARRIER t_idx.barrier.wait()
#define HB_EACH(i, count) for (auto i = decltype(count)(0); i < count; i++)
#define HB_LC_IDX t_idx.local[0]
struct hb_blocks_info {
  unsigned count, offset;
};
hb_blocks_info hb_blocks(unsigned n, unsigned tile) restrict(cpu, amp) {
  const unsigned per = (n + 255u) / 256u;
  const int left = int(n / 64u) - int(per * tile);
  return hb_blocks_info{unsigned(std::min(std::max(left, 0), int(per))), per * 64u * tile};
}
unsigned hb_macro_scan(unsigned x, tiled_index<64> t_idx) restrict(amp) {
  tile_static unsigned s[64];
  s[HB_LC_IDX] = x;
  HB_BARRIER;
  HB_EACH(k, 6u) {
    const unsigned v = HB_LC_IDX >= (1u << k) ? s[HB_LC_IDX - (1u << k)] : 0u;
    HB_BARRIER;
    s[HB_LC_IDX] += v;
    HB_BARRIER;
  }
  const unsigned r = s[HB_LC_IDX];
  HB_BARRIER;
  return r;
}
void hb_macro_blocks(tiled_index<64> t_idx, array_view<const unsigned, 1> in, array_view<unsigned, 1> out,
                     unsigned rounds) restrict(amp) {
  const unsigned n = in.extent.size();
  const auto blocks = hb_blocks(n, t_idx.tile[0]);
  unsigned acc = 0;
  HB_EACH(b, blocks.count) {
    const unsigned scan = hb_macro_scan(in[blocks.offset + b * 64u + HB_LC_IDX], t_idx);
    HB_EACH(r, rounds) acc += scan >> r;
  }
  out[t_idx.global] = acc;
}
void hb_flip(tiled_index<64> t_idx, array_view<unsigned, 1> d) restrict(amp) { d[t_idx.global] ^= 0x80000000u; }
void macro_helpers() {
  std::vector<unsigned> in(4096), out(256);
  for (int i = 0; i < 4096; ++i) in[i] = unsigned(i * 2654435761u) >> 20;
  array_view<const unsigned, 1> a(4096, in);
  array_view<unsigned, 1> o(256, out);
  const unsigned rounds = 3;
  parallel_for_each(o.extent.tile<64>(), [=](tiled_index<64> t_idx) restrict(amp) { // expect: compiled
    hb_macro_blocks(t_idx, a, o, rounds);
  });
  parallel_for_each(o.extent.tile<64>(), [=](tiled_index<64> t_idx) restrict(amp) { // expect: unwrapped
    hb_flip(t_idx, o);
  });
  o.synchronize();
  digest("macro_helpers", out);
}

// `decltype(v)` of a value the compiled form keeps per work-item: v's own
// type (the use became an element of its row, whose decltype is a reference).
void decltype_kept() {
  std::vector<unsigned> v(256);
  for (int i = 0; i < 256; ++i) v[i] = unsigned(i * 5);
  array_view<unsigned, 1> d(256, v);
  parallel_for_each(d.extent.tile<64>(), [=](tiled_index<64> t) restrict(amp) { // expect: compiled
    const unsigned r = 3u + (t.local[0] & 3u);
    tile_static unsigned s[64];
    s[t.local[0]] = d[t.global];
    t.barrier.wait();
    unsigned acc = 0;
    for (auto i = decltype(r)(0); i < r; i++) acc += s[(t.local[0] + i) % 64u];
    t.barrier.wait();
    d[t.global] = acc + decltype(acc)(sizeof(r));
  });
  d.synchronize();
  digest("decltype_kept", v);
}

// The barrier handed on, as CUDA ports hand on __syncthreads: a helper
// taking a `tile_barrier&` (Alex Voicu's ant colony helpers, `T
// amp_scan(T* beg, T* end, unsigned idx, tile_barrier& barrier, Op op)`,
// called with the kernel's own copy of its barrier), one taking `const
// tile_barrier&` given `t.barrier`, and a kernel waiting through its own
// reference to its barrier, with a fence on it.
template <typename T, typename Op>
T hb_scan(T* const beg, T* const end, unsigned idx, concurrency::tile_barrier& barrier, Op op) restrict(amp) {
  const unsigned half = unsigned(end - beg) / 2;
  for (auto i = half; i != 0u; i /= 2) {
    if (idx < i) beg[idx] = op(beg[idx], beg[idx + i]);
    barrier.wait_with_tile_static_memory_fence();
  }
  return beg[0];
}
struct hb_max {
  float operator()(const float& l, const float& r) const restrict(amp) { return l < r ? r : l; }
};
void hb_spread(float* sh, unsigned idx, const tile_barrier& b) restrict(amp) {
  for (unsigned s = 1; s < 64; s *= 2) {
    const float v = idx >= s ? sh[idx - s] : 0.0f;
    b.wait();
    sh[idx] += v;
    b.wait();
  }
}
// (A view read at the tiled_index itself, `d[t]`: its conversion to an
// index is a member named by no identifier, which the binding keys must
// take; Microsoft's ControlFlow tests read `fA[idx]` so.)
void hb_load(tiled_index<64> t, const array<float, 1>& d, float* sh) restrict(amp) {
  sh[t.local[0]] = d[t];
  t.barrier.wait();
}
void barrier_handles() {
  std::vector<float> v(1024), m(16);
  for (int i = 0; i < 1024; ++i) v[i] = float((i * 37) % 101) * 0.25f;
  array_view<float, 1> d(1024, v), mx(16, m);
  parallel_for_each(d.extent.tile<64>(), [=](tiled_index<64> t) restrict(amp) { // expect: compiled
    tile_static float sh[64];
    tile_barrier bar(t.barrier);
    sh[t.local[0]] = d[t.global];
    bar.wait();
    const float best = hb_scan(sh, sh + 64, unsigned(t.local[0]), bar, hb_max());
    if (t.local[0] == 0) mx[t.tile] = best;
  });
  array<float, 1> arr(1024, v.begin());
  parallel_for_each(d.extent.tile<64>(), [=, &arr](tiled_index<64> t) restrict(amp) { // expect: compiled
    tile_static float sh[64];
    hb_load(t, arr, sh);
    hb_spread(sh, unsigned(t.local[0]), t.barrier);
    d[t.global] = sh[t.local[0]];
  });
  parallel_for_each(d.extent.tile<64>(), [=](tiled_index<64> t) restrict(amp) { // expect: compiled
    tile_static float sh[64];
    const tile_barrier& b = t.barrier;
    auto& again = b;
    sh[t.local[0]] = d[t.global];
    for (int k = 0; k < 3; ++k) {
      b.wait();
      const float x = sh[(t.local[0] + 1) % 64];
      again.wait();
      sh[t.local[0]] = x * 0.5f + float(k);
      tile_static_memory_fence(b);
    }
    b.wait();
    d[t.global] = sh[63 - t.local[0]];
  });
  d.synchronize();
  mx.synchronize();
  digest("barrier_handles", v);
  digest("barrier_handles_max", m);
}

// A library's launcher whose kernel only hands its tiled_index to the
// function object it is given (a public particle library's
// `forEachTiledWithBarrier(extent, function)`: `[=](tiled_index<N> t)
// restrict(amp) { function(t); }`): it runs compiled where that function
// object is, a lambda or a class whose operator() waits.
template <typename F> void hb_for_each_tile(int n, const F& function) {
  parallel_for_each(extent<1>(n).tile<64>().pad(), [=](tiled_index<64> t) restrict(amp) { // expect: forwards
    function(t);
  });
}
struct hb_tile_max {
  array_view<float, 1> d;
  void operator()(tiled_index<64> t) const restrict(amp) { // expect: unwrapped
    tile_static float s[64];
    s[t.local[0]] = t.global[0] < d.extent[0] ? d[t.global] : 0.0f;
    t.barrier.wait();
    for (int k = 32; k > 0; k /= 2) {
      if (t.local[0] < k && s[t.local[0]] < s[t.local[0] + k]) s[t.local[0]] = s[t.local[0] + k];
      t.barrier.wait();
    }
    if (t.global[0] < d.extent[0]) d[t.global] = s[0];
  }
};
void forwarding_launcher() {
  std::vector<float> v(1000), sums(16);
  for (int i = 0; i < 1000; ++i) v[i] = float((i * 29) % 83) * 0.5f;
  array_view<float, 1> d(1000, v), o(16, sums);
  hb_for_each_tile(1000, [=](tiled_index<64> t) restrict(amp) { // expect: unwrapped
    tile_static float s[64];
    const int li = t.local[0];
    s[li] = t.global[0] < 1000 ? d[t.global] : 0.0f;
    t.barrier.wait();
    for (int stride = 32; stride > 0; stride /= 2) {
      if (li < stride) s[li] += s[li + stride];
      t.barrier.wait();
    }
    if (li == 0) o[t.tile] = s[0];
  });
  hb_for_each_tile(1000, hb_tile_max{d});
  d.synchronize();
  o.synchronize();
  digest("forwarding_launcher", v);
  digest("forwarding_launcher_sums", sums);
}

// Scalars kept across barriers initialised with parentheses (an ant colony
// app's `register Value_t pherom_to_add(0);`): direct-initialisation.
void paren_inits() {
  std::vector<float> v(256);
  for (int i = 0; i < 256; ++i) v[i] = float(i % 13) + 0.25f;
  array_view<float, 1> d(256, v);
  parallel_for_each(d.extent.tile<64>(), [=](tiled_index<64> t) restrict(amp) { // expect: compiled
    tile_static float s[64];
    float acc(0);
    unsigned int n(t.local[0] % 3u);
    auto z(0.5f * float(t.local[0]));
    for (int k = 0; k < 2; ++k) {
      s[t.local[0]] = d[t.global] * float(k + 1);
      t.barrier.wait();
      acc += s[63 - t.local[0]] + float(n) + z;
      t.barrier.wait();
    }
    d[t.global] = acc;
  });
  d.synchronize();
  digest("paren_inits", v);
}

// A local object built from the tiled_index, keeping copies of its
// coordinates (an ant colony app's `Worker_ant ant(tidx, view, seed);`):
// the constructor keeps no barrier, so the object is a value per work-item.
struct hb_worker {
  index<1> lidx, gidx;
  template <class Idx> hb_worker(const Idx& idx, int salt) restrict(amp) : lidx(idx.local), gidx(idx.global) {
    gidx[0] += salt * 0;
  }
  int me() const restrict(amp) { return lidx[0]; }
};
void object_from_index() {
  std::vector<float> v(512);
  for (int i = 0; i < 512; ++i) v[i] = float((i * 7) % 31);
  array_view<float, 1> d(512, v);
  parallel_for_each(d.extent.tile<64>(), [=](tiled_index<64> t) restrict(amp) { // expect: compiled
    tile_static float s[64];
    hb_worker w(t, 3);
    s[w.me()] = d[w.gidx];
    t.barrier.wait();
    d[w.gidx] = s[63 - w.me()] + s[w.me()];
  });
  d.synchronize();
  digest("object_from_index", v);
}

} // namespace

int main() {
  macro_pricer();
  macro_kept_value();
  for_inits();
  restarted_variable();
  class_values();
  template_values();
  template_callee();
  library_callee();
  library_shapes();
  item_arrays();
  valued_in_callee();
  item_increment();
  valued_callee();
  macro_barrier();
  tile_3d();
  sample_shape();
  uniform_helper();
  fence_tail();
  extent_bounds();
  initialised_arrays();
  valued_assignment();
  view_bounds();
  unbraced_barrier();
  function_objects();
  call_in_expression();
  element_references();
  counted_loops();
  deduced_functor();
  counted_stages();
  unit_depth_tiles();
  conditional_barriers();
  late_definition();
  guarded_callee();
  gcc_lenience();
  second_results();
  call_beside_read();
  macro_helpers();
  decltype_kept();
  barrier_handles();
  forwarding_launcher();
  paren_inits();
  object_from_index();
  return 0;
}
