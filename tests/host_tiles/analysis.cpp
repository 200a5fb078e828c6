// The tile compiler's analysis (tools/tile_compiler), kernel by kernel: each
// `// expect:` comment, on the line where a kernel lambda starts, says what
// the compiler must decide: `compiled`, or `fibers:` and a part of the reason
// it must give. Checked by check_analysis.py on the compiler's notes; this
// file is only parsed, never run (each kernel is correct AMP).
#include <amp.h>
#include <amp_math.h>

using namespace concurrency;

#define KERNEL_IN_A_MACRO(body) [=](tiled_index<64> t) restrict(amp) body

void uniform_kinds(array_view<int, 1> a, int n, extent<1> e) {
  // A captured bound, t.tile in a condition, an extent accessor, a tile-level
  // local and its update, an if/else with barriers in both branches.
  parallel_for_each(a.extent.tile<64>(), [=](tiled_index<64> t) restrict(amp) { // expect: compiled
    tile_static int s[64];
    int x = a[t.global];
    const int half = e[0] / 2;
    int k = 1;
    for (int i = 0; i < n; i += 2) {
      s[t.local[0]] = x;
      t.barrier.wait();
      x += s[(t.local[0] + i) % 64];
      if (t.tile[0] % 2 == 0) {
        t.barrier.wait();
      } else {
        x -= 1;
        t.barrier.wait_with_all_memory_fence();
      }
    }
    while (k < half) {
      t.barrier.wait();
      k *= 2;
    }
    if (a.extent[0] > 64 && t.tile_origin[0] >= 0) {
      t.barrier.wait_with_global_memory_fence();
    }
    a[t.global] = x + k;
  });
}

void values_across(array_view<float, 1> a) {
  // An index<1> and a float kept per work-item; a `break` inside a region's
  // own loop is fine.
  parallel_for_each(a.extent.tile<32>(), [=](tiled_index<32> t) restrict(amp) { // expect: compiled
    tile_static float s[32];
    index<1> me = t.global;
    float v = a[me];
    for (int j = 0; j < 10; ++j) {
      if (v > 100.0f) break;
      v *= 2.0f;
    }
    s[t.local[0]] = v;
    t.barrier.wait();
    a[me] = s[31 - t.local[0]] + v;
  });
}

void not_uniform(array_view<int, 1> a) {
  parallel_for_each(a.extent.tile<64>(), [=](tiled_index<64> t) restrict(amp) { // expect: fibers: not provably uniform
    if (t.local[0] >= 0) {
      t.barrier.wait();
    }
    a[t.global] = 1;
  });
  parallel_for_each(a.extent.tile<64>(), [=](tiled_index<64> t) restrict(amp) { // expect: fibers: not provably uniform
    const int mine = a[t.global];
    for (int i = 0; i < 2; ++i) {
      if (mine == mine) {
        t.barrier.wait();
      }
    }
  });
  parallel_for_each(a.extent.tile<64>(), [=](tiled_index<64> t) restrict(amp) { // expect: fibers: not provably uniform
    int k = 0;
    while (k < 4) {
      t.barrier.wait();
      if (t.global[0] >= 0) k++;
    }
  });
  parallel_for_each(a.extent.tile<64>(), [=](tiled_index<64> t) restrict(amp) { // expect: fibers: loop variable `i`
    for (int i = 0; i < 4; ++i) {
      t.barrier.wait();
      i += t.local[0] * 0;
    }
  });
  // Counting loops that are not tile loops: started from the work-item's
  // index, bounded by its element, or calling a function; the count then
  // differs per work-item (or may) and so does the loop around the barrier.
  parallel_for_each(a.extent.tile<64>(), [=](tiled_index<64> t) restrict(amp) { // expect: fibers: not provably uniform
    int steps = 0;
    for (int w = t.local[0] + 2; w > 1; w >>= 1) ++steps;
    for (int k = 0; k < steps; ++k) t.barrier.wait();
  });
  parallel_for_each(a.extent.tile<64>(), [=](tiled_index<64> t) restrict(amp) { // expect: fibers: not provably uniform
    int steps = 0;
    for (int w = 0; w < a[t.global]; ++w) steps += 2;
    for (int k = 0; k < steps; ++k) t.barrier.wait();
  });
  parallel_for_each(a.extent.tile<64>(), [=](tiled_index<64> t) restrict(amp) { // expect: fibers: not provably uniform
    int steps = 0;
    for (int w = 64; w > 1; w >>= 1) steps += precise_math::fabs(float(w)) > 0.0f;
    for (int k = 0; k < steps; ++k) t.barrier.wait();
  });
  // t.global[0] of a tile two work-items deep in dimension 0 is not uniform.
  parallel_for_each(extent<2>(4, 64).tile<2, 32>(), [=](tiled_index<2, 32> t) restrict(amp) { // expect: fibers: not provably uniform
    for (int k = 0; k < t.global[0]; ++k) t.barrier.wait();
  });
}

void control(array_view<int, 1> a, int n) {
  // A switch on a uniform value: labels and `break` are the tile's.
  parallel_for_each(a.extent.tile<64>(), [=](tiled_index<64> t) restrict(amp) { // expect: compiled
    switch (n) {
    case 1:
      t.barrier.wait();
      break;
    case 2:
    case 3:
      a[t.global] = 2;
    default:
      t.barrier.wait();
      a[t.global] += 1;
    }
  });
  parallel_for_each(a.extent.tile<64>(), [=](tiled_index<64> t) restrict(amp) { // expect: fibers: not provably uniform
    switch (a[t.global]) {
    case 1:
      t.barrier.wait();
      break;
    default:
      break;
    }
  });
  parallel_for_each(a.extent.tile<64>(), [=](tiled_index<64> t) restrict(amp) { // expect: fibers: `case` label nested
    switch (n) {
    case 1:
      t.barrier.wait();
      if (n > 4) {
      case 2:
        a[t.global] = 1;
      }
    }
  });
  parallel_for_each(a.extent.tile<64>(), [=](tiled_index<64> t) restrict(amp) { // expect: compiled
    for (int i = 0; i < n; ++i) t.barrier.wait();
  });
  parallel_for_each(a.extent.tile<64>(), [=](tiled_index<64> t) restrict(amp) { // expect: compiled
    if (n > 0) t.barrier.wait();
  });
  parallel_for_each(a.extent.tile<64>(), [=](tiled_index<64> t) restrict(amp) { // expect: fibers: not provably uniform
    if (t.local[0] > 0) t.barrier.wait();
  });
  parallel_for_each(a.extent.tile<64>(), [=](tiled_index<64> t) restrict(amp) { // expect: compiled
    int k = 0;
    do {
      if (k > n) break;
      t.barrier.wait();
      k += 2;
    } while (k < 10);
    a[t.global] = k;
  });
  parallel_for_each(a.extent.tile<64>(), [=](tiled_index<64> t) restrict(amp) { // expect: fibers: not provably uniform
    do {
      t.barrier.wait();
    } while (a[t.global] > 0);
  });
  // Unbraced bodies that are themselves split statements: split as braced.
  parallel_for_each(a.extent.tile<64>(), [=](tiled_index<64> t) restrict(amp) { // expect: compiled
    if (n > 0) if (n > 1)
      for (int i = 0; i < n; ++i) while (n > 2) {
        t.barrier.wait();
        break;
      }
  });
  parallel_for_each(a.extent.tile<64>(), [=](tiled_index<64> t) restrict(amp) { // expect: compiled
    for (int i = 0; i < n; ++i) {
      t.barrier.wait();
      if (i == 2) continue;
      t.barrier.wait();
      if (i == n - 2) {
        break;
      }
    }
  });
  parallel_for_each(a.extent.tile<64>(), [=](tiled_index<64> t) restrict(amp) { // expect: fibers: `continue` at line
    for (int i = 0; i < n; ++i) {
      t.barrier.wait();
      if (i == t.local[0]) continue;
      t.barrier.wait();
    }
  });
  parallel_for_each(a.extent.tile<64>(), [=](tiled_index<64> t) restrict(amp) { // expect: fibers: `break` out of a loop
    for (int i = 0; i < n; ++i) {
      t.barrier.wait();
      if (i == 2) {
        a[t.global] = 1;
        break;
      }
    }
  });
  parallel_for_each(a.extent.tile<64>(), [=](tiled_index<64> t) restrict(amp) { // expect: compiled
    t.barrier.wait();
    if (n < 0) return;
    a[t.global] = 2;
  });
  parallel_for_each(a.extent.tile<64>(), [=](tiled_index<64> t) restrict(amp) { // expect: fibers: `goto`
    t.barrier.wait();
    if (n < 0) goto out;
    a[t.global] = 3;
  out:;
  });
}

// An object that keeps the tiled_index itself and waits through it later.
struct keeps_index {
  tiled_index<64> idx;
  keeps_index(const tiled_index<64>& t) restrict(amp) : idx(t) {}
  void sync() const restrict(amp) { idx.barrier.wait(); }
};
int barrier_user(const tile_barrier&) restrict(amp) { return 4; }
const tile_barrier& pick_barrier(const tile_barrier& b) restrict(amp) { return b; }
void escapes(array_view<int, 1> a) {
  // The kernel's own name for its barrier: compiled (habits.cpp
  // `barrier_handles`), unless used other than to wait.
  parallel_for_each(a.extent.tile<64>(), [=](tiled_index<64> t) restrict(amp) { // expect: compiled
    const tile_barrier& b = t.barrier;
    b.wait();
    a[t.global] = 4;
  });
  parallel_for_each(a.extent.tile<64>(), [=](tiled_index<64> t) restrict(amp) { // expect: fibers: used other than to wait
    tile_barrier b = t.barrier;
    b.wait();
    a[t.global] = barrier_user(b);
  });
  parallel_for_each(a.extent.tile<64>(), [=](tiled_index<64> t) restrict(amp) { // expect: fibers: through a tile_barrier other than
    const tile_barrier& r = pick_barrier(t.barrier);
    r.wait();
    a[t.global] = 4;
  });
  parallel_for_each(a.extent.tile<64>(), [=](tiled_index<64> t) restrict(amp) { // expect: fibers: the tiled_index is passed on or copied
    keeps_index k(t);
    k.sync();
    a[t.global] = 5;
  });
  parallel_for_each(a.extent.tile<64>(), [=](tiled_index<64> t) restrict(amp) { // expect: fibers: through another tiled_index
    tiled_index<64> copy = t;
    copy.barrier.wait();
  });
  parallel_for_each(a.extent.tile<64>(), [=](tiled_index<64> t) restrict(amp) { // expect: fibers: a lambda inside
    auto twice = [](int v) restrict(amp) { return 2 * v; };
    t.barrier.wait();
    a[t.global] = twice(5);
  });
  parallel_for_each(a.extent.tile<64>(), KERNEL_IN_A_MACRO({ t.barrier.wait(); })); // expect: fibers: macro
}

struct big {
  float v[128];
};

void too_big(array_view<float, 1> a) {
  // 512 bytes per work-item kept across the barrier, 1024 work-items: 512 KiB.
  parallel_for_each(a.extent.tile<1024>(), [=](tiled_index<1024> t) restrict(amp) { // expect: fibers: KiB per tile
    tile_static float s[1024];
    big b{};
    b.v[0] = a[t.global];
    s[t.local[0]] = b.v[0];
    t.barrier.wait();
    a[t.global] = s[1023 - t.local[0]] + b.v[0];
  });
}

// Region loops marked `#pragma GCC ivdep`: only where no work-item of the
// region touches memory another one writes (tools/tile_compiler/independence.cpp,
// "work-items of a region that cannot see each other"). Counted per kernel.
int scale(int v) restrict(amp) { return 2 * v; }

void independent_regions(array_view<const int, 1> in, array_view<int, 1> part, array_view<int, 1> b,
                         array_view<int, 2> b2) {
  // bench/b_reduce.cpp's kernel: the strided sums (own slot of s written,
  // array_views only read) and the tree's `s[l] += s[l + st]` under
  // `if (l < st)` (reads at st and above, writes below st) are marked; the
  // last region writes part[t.tile[0]], the same element for every work-item.
  parallel_for_each(extent<1>(4096).tile<256>(), [=](tiled_index<256> t) restrict(amp) { // expect: compiled ivdep=2
    tile_static int s[256];
    const int l = t.local[0], g = t.global[0];
    int sum = 0;
    for (int k = 0; k < 16; ++k) sum += in[g + k * 4096];
    s[l] = sum;
    t.barrier.wait();
    for (int st = 128; st > 0; st >>= 1) {
      if (l < st) s[l] += s[l + st];
      t.barrier.wait();
    }
    if (l == 0) part[t.tile[0]] = s[0];
  });
  // A 2-D block: own slot written, then one array_view element written at an
  // index injective over the tile (a tile-uniform offset plus each coordinate;
  // a rank-1 index computed from both would not be recognised).
  parallel_for_each(extent<2>(64, 64).tile<16, 16>(), [=](tiled_index<16, 16> t) restrict(amp) { // expect: compiled ivdep=2
    tile_static int blk[16][17];
    const int lx = t.local[1], ly = t.local[0];
    blk[ly][lx] = in[t.global[0] * 64 + t.global[1]];
    t.barrier.wait();
    b2(t.tile[1] * 16 + ly, t.tile[0] * 16 + lx) = blk[lx][ly];
  });
  // Each region here has work-items that may see each other (or cannot be
  // shown not to): none is marked.
  parallel_for_each(extent<1>(4096).tile<64>(), [=](tiled_index<64> t) restrict(amp) { // expect: compiled ivdep=0
    tile_static int s[128];
    const int l = t.local[0];
    s[l] = in[t.global];
    s[l + 64] = 0;                  // a slot of s other than the work-item's own
    t.barrier.wait();
    for (int st = 32; st > 0; st >>= 1) {
      if (l <= st) s[l] += s[l + st]; // <=: work-item st writes s[st], work-item 0 reads it
      t.barrier.wait();
    }
    s[l] = s[(l + 1) % 64];         // reads a neighbour's slot of the array it writes
    t.barrier.wait();
    b[t.global] = part[t.global[0] + 1]; // writes one array_view and reads another (views may alias)
    t.barrier.wait();
    b[t.tile[0]] = s[l];            // the same element for every work-item of the tile
    t.barrier.wait();
    b[t.global] = scale(s[l]);      // a call
    t.barrier.wait();
    b[t.global] = s[l];
    b[t.global[0] + 64] = s[l];     // two elements written (they could overlap another work-item's)
  });
  // Kernel-wide: an address taken anywhere (a view could then alias a
  // tile_static array) leaves every region unmarked.
  parallel_for_each(extent<1>(4096).tile<64>(), [=](tiled_index<64> t) restrict(amp) { // expect: compiled ivdep=0
    tile_static int s[64];
    const int l = t.local[0];
    s[l] = in[t.global];
    t.barrier.wait();
    const int* p = &s[63 - l];
    b[t.global] = *p;
  });
}

// A barrier in a function that takes the tiled_index by value (the
// conformance suite's shape): the copy is seen, the kernel keeps fibers and
// says why (it used to be left unwrapped, with no report at all).
void waits_by_value(tiled_index<64> t, array_view<int, 1> a) restrict(amp) {
  t.barrier.wait();
  a[t.global] += 1;
}

void by_value(array_view<int, 1> a) {
  parallel_for_each(a.extent.tile<64>(), [=](tiled_index<64> t) restrict(amp) { // expect: compiled
    waits_by_value(t, a);
  });
}

// ---- barriers in called functions: inlined by the first pass, then
// analysed and split as any kernel (tools/tile_compiler/inliner.cpp).
void step_by_value(tiled_index<64> t, array_view<int, 1> a, int k) restrict(amp) {
  tile_static int s[64];
  s[t.local[0]] = a[t.global] * k;
  t.barrier.wait();
  a[t.global] = s[63 - t.local[0]];
}
void step_by_cref(const tiled_index<64>& t, const array_view<int, 1>& a) restrict(amp) {
  const int l = t.local[0];
  tile_static int s[64];
  s[l] = a[t.global];
  t.barrier.wait();
  a[t.global] = s[(l + 1) % 64];
  return;
}
template <typename T, int N>
void step_template(tiled_index<N> t, const array_view<T, 1>& a) restrict(amp) {
  tile_static T s[N];
  s[t.local[0]] = a[t.global];
  t.barrier.wait();
  a[t.global] = s[N - 1 - t.local[0]];
}
void inner_wait(tiled_index<64> t, array_view<int, 1> a, int rounds) restrict(amp) {
  for (int r = 0; r < rounds; ++r) {
    t.barrier.wait();
    a[t.global] += r;
  }
}
void outer_wait(tiled_index<64> idx, array_view<int, 1> a, int rounds) restrict(amp) {
  a[idx.global] += 1;
  inner_wait(idx, a, rounds);
  idx.barrier.wait();
}
void early_return(tiled_index<64> t, array_view<int, 1> a) restrict(amp) {
  if (a[t.global] < 0) return;
  t.barrier.wait();
  a[t.global] = 1;
}
namespace other {
inline int twice(int v) restrict(amp) { return 2 * v; }
inline void waits_elsewhere(tiled_index<64> t, array_view<int, 1> a) restrict(amp) {
  t.barrier.wait();
  a[t.global] = twice(a[t.global]);
}
// A friend defined in its class is found only by argument-dependent lookup:
// no qualified name reaches it, so the callee's text cannot be made to mean
// the same where the kernel is.
struct Cell {
  int v;
  friend int get(const Cell& c) restrict(amp) { return c.v; }
};
inline void waits_friend(tiled_index<64> t, array_view<int, 1> a) restrict(amp) {
  t.barrier.wait();
  const Cell c{a[t.global]};
  a[t.global] = get(c);
}
} // namespace other
const int shadowed = 3;
void uses_global(tiled_index<64> t, array_view<int, 1> a) restrict(amp) {
  t.barrier.wait();
  a[t.global] = shadowed;
}
void with_tile_static(tiled_index<64> t, array_view<int, 1> a) restrict(amp) {
  tile_static int s[64];
  s[t.local[0]] = a[t.global];
  t.barrier.wait();
  a[t.global] = s[0];
}

void sum_into(tiled_index<64> t, int& c, const array_view<int, 1>& a) restrict(amp) {
  int acc = 0;
  for (int r = 0; r < 2; ++r) {
    t.barrier.wait();
    acc += a[t.global];
  }
  c = acc;
}

void with_default(tiled_index<64> t, array_view<int, 1> a, int k = 3) restrict(amp) {
  t.barrier.wait();
  a[t.global] = k;
}
int three() restrict(cpu, amp) { return 3; }
void with_call_default(tiled_index<64> t, array_view<int, 1> a, int k = three()) restrict(amp) {
  t.barrier.wait();
  a[t.global] = k;
}

void called_barriers(array_view<int, 1> a, array_view<float, 1> f, int n) {
  parallel_for_each(a.extent.tile<64>(), [=](tiled_index<64> t) restrict(amp) { // expect: compiled
    with_default(t, a);
  });
  parallel_for_each(a.extent.tile<64>(), [=](tiled_index<64> t) restrict(amp) { // expect: fibers: a default argument other than a literal
    with_call_default(t, a);
  });
  // The work-item's element by reference: re-bound in each region using it
  // (that region is not marked: the proof does not follow references).
  parallel_for_each(a.extent.tile<64>(), [=](tiled_index<64> t) restrict(amp) { // expect: compiled ivdep=2
    sum_into(t, a[t], a);
  });
  parallel_for_each(a.extent.tile<64>(), [=](tiled_index<64> t) restrict(amp) { // expect: compiled
    step_by_value(t, a, n);
  });
  parallel_for_each(a.extent.tile<64>(), [=](tiled_index<64> t) restrict(amp) { // expect: compiled
    step_by_cref(t, a);
    if (n > 2) {
      inner_wait(t, a, n);
    }
  });
  parallel_for_each(f.extent.tile<64>(), [=](tiled_index<64> t) restrict(amp) { // expect: compiled
    step_template<float, 64>(t, f);
  });
  parallel_for_each(a.extent.tile<64>(), [=](tiled_index<64> t) restrict(amp) { // expect: compiled
    step_template(t, a);
  });
  parallel_for_each(a.extent.tile<64>(), [=](tiled_index<64> t) restrict(amp) { // expect: compiled
    outer_wait(t, a, n);
  });
  parallel_for_each(a.extent.tile<64>(), [=](tiled_index<64> t) restrict(amp) { // expect: fibers: after inlining 1 call(s): the condition at line 393 around a barrier is not provably uniform
    early_return(t, a);
  });
  parallel_for_each(a.extent.tile<64>(), [=](tiled_index<64> t) restrict(amp) { // expect: compiled
    other::waits_elsewhere(t, a);
  });
  parallel_for_each(a.extent.tile<64>(), [=](tiled_index<64> t) restrict(amp) { // expect: fibers: a friend found only by argument-dependent lookup
    other::waits_friend(t, a);
  });
  parallel_for_each(a.extent.tile<64>(), [=](tiled_index<64> t) restrict(amp) { // expect: fibers: bind a name differently
    const int shadowed = 5;
    a[t.global] += shadowed;
    uses_global(t, a);
  });
  parallel_for_each(a.extent.tile<64>(), [=](tiled_index<64> t) restrict(amp) { // expect: fibers: called at 2 places
    with_tile_static(t, a);
    with_tile_static(t, a);
  });
  parallel_for_each(a.extent.tile<64>(), [=](tiled_index<64> t) restrict(amp) { // expect: fibers: not provably uniform
    if (a[t.global] > 0) {
      step_by_cref(t, a);
    }
  });
}

// A name in a nested call's argument shadowed where the kernel is: the
// argument is checked like the rest of the inlined body.
const int global_rounds = 2;
void passes_global(tiled_index<64> t, array_view<int, 1> a) restrict(amp) {
  inner_wait(t, a, global_rounds);
}
void nested_shadow(array_view<int, 1> a) {
  parallel_for_each(a.extent.tile<64>(), [=](tiled_index<64> t) restrict(amp) { // expect: fibers: bind a name differently
    const int global_rounds = 5;
    a[t.global] = global_rounds;
    passes_global(t, a);
  });
  parallel_for_each(a.extent.tile<64>(), [=](tiled_index<64> t) restrict(amp) { // expect: compiled
    passes_global(t, a);
  });
}

// A function object that waits on its barrier: compiled as a lambda is (its
// members in the captures' role).
struct functor_kernel {
  array_view<int, 1> a;
  void operator()(tiled_index<64> t) const restrict(amp) { // expect: compiled
    tile_static int s[64];
    s[t.local[0]] = a[t.global];
    t.barrier.wait();
    a[t.global] = s[63 - t.local[0]];
  }
};
// What keeps a function object on fibers, each with its reason: an
// operator() that is not const (the launcher runs each work-item on its own
// copy of the object, as for a `mutable` lambda), a member whose value may
// change (`mutable`) bounding a loop around barriers, a class local to a
// function (no member templates). An operator() defined outside its class is
// compiled (the member template declared in the class, defined beside it).
struct functor_not_const {
  array_view<int, 1> a;
  int calls = 0;
  void operator()(tiled_index<64> t) restrict(amp) { // expect: fibers: not const
    tile_static int s[64];
    calls += 1;
    s[t.local[0]] = a[t.global] + calls;
    t.barrier.wait();
    a[t.global] = s[63 - t.local[0]];
  }
};
struct functor_mutable_bound {
  array_view<int, 1> a;
  mutable int rounds;
  void operator()(tiled_index<64> t) const restrict(amp) { // expect: fibers: not provably uniform
    tile_static int s[64];
    for (int r = 0; r < rounds; ++r) {
      s[t.local[0]] = a[t.global] + r;
      t.barrier.wait();
      a[t.global] = s[63 - t.local[0]];
      t.barrier.wait();
    }
  }
};
struct functor_outside {
  array_view<int, 1> a;
  void operator()(tiled_index<64> t) const restrict(amp);
};
void functor_outside::operator()(tiled_index<64> t) const restrict(amp) { // expect: compiled
  tile_static int s[64];
  s[t.local[0]] = a[t.global];
  t.barrier.wait();
  a[t.global] = s[63 - t.local[0]];
}
struct functor_template_operator {
  array_view<int, 1> a;
  template <int N> void operator()(tiled_index<N> t) const restrict(amp) { // expect: fibers: operator() is a template
    tile_static int s[N];
    s[t.local[0]] = a[t.global];
    t.barrier.wait();
    a[t.global] = s[N - 1 - t.local[0]];
  }
};
void function_object_refused(array_view<int, 1> a) {
  parallel_for_each(a.extent.tile<64>(), functor_template_operator{a});
  parallel_for_each(a.extent.tile<64>(), functor_not_const{a});
  parallel_for_each(a.extent.tile<64>(), functor_mutable_bound{a, 2});
  parallel_for_each(a.extent.tile<64>(), functor_outside{a});
  struct local_kernel {
    array_view<int, 1> a;
    void operator()(tiled_index<64> t) const restrict(amp) { // expect: fibers: local to a function
      tile_static int s[64];
      s[t.local[0]] = a[t.global];
      t.barrier.wait();
      a[t.global] = s[63 - t.local[0]];
    }
  };
  parallel_for_each(a.extent.tile<64>(), local_kernel{a});
}
void function_object(array_view<int, 1> a) { parallel_for_each(a.extent.tile<64>(), functor_kernel{a}); }

// Sizes read from a view in a kernel that also stores values of the sizes'
// type (it could change them through another view of the same memory):
// not provably uniform.
void view_bounds_written(array_view<const int, 1> dims, array_view<int, 1> a) {
  parallel_for_each(a.extent.tile<64>(), [=](tiled_index<64> t) restrict(amp) { // expect: fibers: not provably uniform
    tile_static int s[64];
    for (int k = 0; k < dims[0]; ++k) {
      s[t.local[0]] = a[t.global] + k;
      t.barrier.wait();
      a[t.global] = s[63 - t.local[0]];
      t.barrier.wait();
    }
  });
}

// A waiting call inside a larger expression: moved ahead of the rest of its
// statement when that order is one C++ allows and gives the same bytes;
// kept on fibers where the call may not run (`&&`), is evaluated after the
// rest (the left of `=`), or sits beside a read of tile_static memory it
// writes.
int swaps(const tiled_index<64>& t, int* s, int x) restrict(amp) {
  s[t.local[0]] = x;
  t.barrier.wait();
  return s[63 - t.local[0]];
}
void call_in_expressions(array_view<int, 1> a) {
  parallel_for_each(a.extent.tile<64>(), [=](tiled_index<64> t) restrict(amp) { // expect: compiled
    tile_static int s[64];
    const int l = t.local[0];
    int v = 3 * swaps(t, s, a[t.global]) + l;
    a[t.global] = v;
  });
  parallel_for_each(a.extent.tile<64>(), [=](tiled_index<64> t) restrict(amp) { // expect: fibers: right operand of `&&`
    tile_static int s[64];
    const bool b = t.local[0] > 3 && swaps(t, s, 1) > 0;
    a[t.global] = b;
  });
  parallel_for_each(a.extent.tile<64>(), [=](tiled_index<64> t) restrict(amp) { // expect: fibers: on the left of an assignment
    tile_static int s[64];
    a[swaps(t, s, 5) & 63] = 1;
  });
  parallel_for_each(a.extent.tile<64>(), [=](tiled_index<64> t) restrict(amp) { // expect: fibers: other operands read memory
    tile_static int s[64];
    s[t.local[0]] = 2;
    t.barrier.wait();
    a[t.global] = s[0] + swaps(t, s, 7);
  });
}
// Inside an inlined helper: a statement whose other operands name only the
// helper's own parameters and locals is compiled; one naming a global keeps
// fibers (the second parse would not check how that name binds).
const int swap_bias = 3;
int swaps_plus(const tiled_index<64>& t, int* s, int x) restrict(amp) {
  const int y = swaps(t, s, x) + x;
  return 2 * swaps(t, s, y);
}
int swaps_global(const tiled_index<64>& t, int* s, int x) restrict(amp) { return swaps(t, s, x) + swap_bias; }
void call_in_callee_expressions(array_view<int, 1> a) {
  parallel_for_each(a.extent.tile<64>(), [=](tiled_index<64> t) restrict(amp) { // expect: compiled
    tile_static int s[64];
    a[t.global] = swaps_plus(t, s, a[t.global]);
  });
  parallel_for_each(a.extent.tile<64>(), [=](tiled_index<64> t) restrict(amp) { // expect: fibers: other operands read memory
    tile_static int s[64];
    a[t.global] = swaps_global(t, s, a[t.global]);
  });
}

#define COEF pu[t.tile]
void uniform_reads(array_view<const float, 1> pu, array_view<const float, 1> pd, array_view<float, 1> out,
                   array_view<int, 1> counts, int n) {
  // Microsoft's BinomialOptions: coefficients read at the tile's index in
  // the innermost region, which writes only tile_static memory: each read
  // once per tile (2); the last region writes `out`, so its read stays.
  parallel_for_each(out.extent.tile<64>(), [=](tiled_index<64> t) restrict(amp) { // expect: compiled hoisted=2
    tile_static float a[65], b[65];
    const int i = t.local[0];
    a[i] = out[t.global];
    if (i == 0) a[64] = 0.0f;
    for (int k = 0; k < n; ++k) {
      t.barrier.wait();
      b[i] = pu[t.tile] * a[i + 1] + pd[t.tile] * a[i];
      t.barrier.wait();
      a[i] = b[i];
    }
    t.barrier.wait();
    out[t.global] = a[i] + pu[t.tile];
  });
  // Not read once: under a condition, beside an atomic (a call whose writes
  // the analysis does not follow). A macro whose whole expansion is the read
  // (COEF, defined before the kernel) is read once (1).
  parallel_for_each(out.extent.tile<64>(), [=](tiled_index<64> t) restrict(amp) { // expect: compiled hoisted=1
    tile_static float a[64], b[64];
    const int i = t.local[0];
    a[i] = out[t.global];
    t.barrier.wait();
    b[i] = n > 2 ? pu[t.tile] * a[i] : a[i];
    t.barrier.wait();
    a[i] = COEF * b[i];
    t.barrier.wait();
    atomic_fetch_add(&counts[t.tile], 1);
    b[i] = pd[t.tile] * a[i];
    t.barrier.wait();
    out[t.global] = b[i];
  });
  // A pricer's coefficients read into const locals before its loop of
  // barriers (binomial_macro): every work-item reads the same element in a
  // region that writes no memory, so each is one value of the tile, not a
  // row of 64 equal copies (kept=0; `i` is recomputed).
  parallel_for_each(out.extent.tile<64>(), [=](tiled_index<64> t) restrict(amp) { // expect: compiled kept=0
    tile_static float a[65], b[65];
    const int i = t.local[0];
    const float u = pu[t.tile], d = pd[t.tile];
    a[i] = out[t.global];
    for (int k = 0; k < n; ++k) {
      t.barrier.wait();
      b[i] = u * a[i + 1] + d * a[i];
      t.barrier.wait();
      a[i] = b[i];
    }
    out[t.global] = a[i];
  });
  // Kept per work-item: a local that is not const (w), one read in a region
  // that writes a view (v: another work-item may have written the element
  // first), one read under a condition (c).
  parallel_for_each(out.extent.tile<64>(), [=](tiled_index<64> t) restrict(amp) { // expect: compiled kept=3
    tile_static float a[64];
    const int i = t.local[0];
    float w = pu[t.tile];
    a[i] = w;
    t.barrier.wait();
    const float v = pu[t.tile];
    out[t.global] = a[63 - i];
    const float c = i > 3 ? pd[t.tile] : 0.0f;
    t.barrier.wait();
    w += 1.0f;
    out[t.global] = v + w + c + a[i];
  });
}
#undef COEF

// Which compiled kernels get the wider instruction-set copies
// (tools/tile_compiler/vector_width.cpp): `copies=baseline` those without a
// product, quotient or math function of their data (moves, sums, index
// arithmetic), `copies=wide` the others; a template is wide when one of its
// instantiations is.
void copies_moves_and_sums(array_view<int, 1> a, array_view<float, 1> f, int n) {
  parallel_for_each(a.extent.tile<64>(), [=](tiled_index<64> t) restrict(amp) { // expect: compiled copies=baseline
    tile_static int s[64];
    s[t.local[0]] = a[t.global];
    t.barrier.wait();
    a[t.global] = s[63 - t.local[0]] + s[t.local[0]];
  });
  parallel_for_each(f.extent.tile<64>(), [=](tiled_index<64> t) restrict(amp) { // expect: compiled copies=baseline
    tile_static float s[64];
    s[t.local[0]] = f[t.global];
    t.barrier.wait();
    for (int k = 32; k > 0; k /= 2) { // index arithmetic: a constant divisor, a product of indices
      if (t.local[0] < k) s[t.local[0]] += s[t.local[0] + k];
      t.barrier.wait();
    }
    f[t.tile[0] * n % 64 + t.local[0] * 2] = s[0];
  });
}
// A user's function that returns an element (the library's padded_read), not a math function.
inline float element_or_zero(const array_view<float, 1>& f, int i) restrict(amp) { return i < f.extent[0] ? f[i] : 0.0f; }
void copies_user_function(array_view<float, 1> f) {
  parallel_for_each(f.extent.tile<64>(), [=](tiled_index<64> t) restrict(amp) { // expect: compiled copies=baseline
    tile_static float s[64];
    s[t.local[0]] = element_or_zero(f, t.global[0] + 1);
    t.barrier.wait();
    f[t.global] = s[63 - t.local[0]];
  });
}
void copies_arithmetic(array_view<int, 1> a, array_view<float, 1> f, int n) {
  parallel_for_each(f.extent.tile<64>(), [=](tiled_index<64> t) restrict(amp) { // expect: compiled copies=wide
    tile_static float s[65];
    s[t.local[0]] = f[t.global];
    t.barrier.wait();
    f[t.global] = 0.5f * s[t.local[0]] + 0.5f * s[t.local[0] + 1];
  });
  parallel_for_each(a.extent.tile<64>(), [=](tiled_index<64> t) restrict(amp) { // expect: compiled copies=wide
    tile_static int s[64];
    s[t.local[0]] = a[t.global];
    t.barrier.wait();
    int sum = 0;
    for (int k = 0; k < n; ++k) sum += s[k % 64] * s[t.local[0]]; // matmul's product of elements
    a[t.global] = sum;
  });
  parallel_for_each(f.extent.tile<64>(), [=](tiled_index<64> t) restrict(amp) { // expect: compiled copies=wide
    tile_static float s[64];
    s[t.local[0]] = f[t.global];
    t.barrier.wait();
    f[t.global] = fast_math::sqrtf(s[63 - t.local[0]]);
  });
}
template <class T> void copies_template(array_view<T, 1> a) {
  parallel_for_each(a.extent.template tile<64>(), [=](tiled_index<64> t) restrict(amp) { // expect: compiled copies=wide
    tile_static T s[64];
    s[t.local[0]] = a[t.global];
    t.barrier.wait();
    a[t.global] = s[63 - t.local[0]] * 3; // int: index-like (a constant factor); float: arithmetic
  });
}
template void copies_template<int>(array_view<int, 1>);
template void copies_template<float>(array_view<float, 1>);
template <class T> void copies_template_int_only(array_view<T, 1> a) {
  parallel_for_each(a.extent.template tile<64>(), [=](tiled_index<64> t) restrict(amp) { // expect: compiled copies=baseline
    tile_static T s[64];
    s[t.local[0]] = a[t.global];
    t.barrier.wait();
    a[t.global] = s[63 - t.local[0]] * 3;
  });
}
template void copies_template_int_only<int>(array_view<int, 1>);
template void copies_template_int_only<unsigned>(array_view<unsigned, 1>);

// Bolt's radix sort: a waiting callee's pointer parameter bound to a
// tile_static array (`lmem`), and a local pointer to one, are one address for
// the whole tile: tile-level, not kept per work-item (5 kept before). Kept:
// the callee's `s`, `v` (its value parameter, read after the barrier) and its
// return value; `l` is recomputed. A pointer into a work-item's own storage
// (`mine`) is not tile-level: recomputed per region from the kept `x`.
static unsigned scan_through(unsigned* lmem, unsigned v, tiled_index<64> t) restrict(amp) {
  const int l = t.local[0];
  lmem[l] = v;
  t.barrier.wait();
  unsigned s = 0;
  for (int i = 0; i <= l; ++i) s += lmem[i];
  t.barrier.wait();
  return s + v;
}
void pointer_to_tile_static(array_view<unsigned, 1> a) {
  parallel_for_each(a.extent.tile<64>(), [=](tiled_index<64> t) restrict(amp) { // expect: compiled kept=3
    tile_static unsigned buf[64];
    unsigned* p = buf;
    const unsigned r = scan_through(p, a[t.global], t);
    a[t.global] = r;
  });
  parallel_for_each(a.extent.tile<64>(), [=](tiled_index<64> t) restrict(amp) { // expect: compiled kept=1
    tile_static unsigned buf[64];
    unsigned x = a[t.global];
    unsigned* mine = &x;
    buf[t.local[0]] = *mine;
    t.barrier.wait();
    a[t.global] = buf[63 - t.local[0]] + *mine;
  });
}

// A kernel template declared first in the user's header that a system
// header includes (`--windows-compat` answers `#include "scan.h"` for
// Scan.h so, Microsoft's Scan sample): its instantiations are visited from
// that declaration, which was not entered (no note, the kernel on fibers
// without a word). Only files in a system include folder are system.
#include "shimmed_scan.h"
template <int N> void shimmed_scan(array_view<int, 1> a) {
  parallel_for_each(a.extent.tile<N>(), [=](tiled_index<N> t) restrict(amp) { // expect: compiled
    tile_static int s[N];
    s[t.local[0]] = a[t.global];
    t.barrier.wait();
    a[t.global] = s[N - 1 - t.local[0]];
  });
}
void use_shimmed_scan(array_view<int, 1> a) { shimmed_scan<64>(a); }

// Callees declared before the kernel and defined after it (a header's
// prototypes, the definitions later in the .cpp: the C++ AMP book's
// Cartoonizer). Inlined when all their bodies name is declared before the
// kernel; else fibers, and only that kernel: a name the kernel's place
// cannot see would fail the second parse for every inlined kernel of the file.
void late_plain(const array_view<int, 1>& a, tiled_index<64> t) restrict(amp);
void late_global(const array_view<int, 1>& a, tiled_index<64> t) restrict(amp);
void late_overload(const array_view<int, 1>& a, tiled_index<64> t) restrict(amp);
void late_type(const array_view<int, 1>& a, tiled_index<64> t) restrict(amp);
int late_scale(int x) restrict(amp, cpu) { return 2 * x; }
void late_callees(array_view<int, 1> a) {
  parallel_for_each(a.extent.tile<64>(), [=](tiled_index<64> t) restrict(amp) { late_plain(a, t); }); // expect: compiled
  parallel_for_each(a.extent.tile<64>(), [=](tiled_index<64> t) restrict(amp) { late_global(a, t); }); // expect: fibers: names `late_offset`, declared after the kernel too
  parallel_for_each(a.extent.tile<64>(), [=](tiled_index<64> t) restrict(amp) { late_overload(a, t); }); // expect: fibers: names `late_scale`, declared after
  parallel_for_each(a.extent.tile<64>(), [=](tiled_index<64> t) restrict(amp) { late_type(a, t); }); // expect: fibers: names `late_pair`, declared after
}
static const int late_offset = 5;
float late_scale(float x) restrict(amp, cpu) { return 3 * x; }
struct late_pair { int v; };
void late_plain(const array_view<int, 1>& a, tiled_index<64> t) restrict(amp) {
  tile_static int s[64];
  s[t.local[0]] = late_scale(a[t.global]);
  t.barrier.wait();
  a[t.global] = s[63 - t.local[0]];
}
void late_global(const array_view<int, 1>& a, tiled_index<64> t) restrict(amp) {
  tile_static int s[64];
  s[t.local[0]] = a[t.global] + late_offset;
  t.barrier.wait();
  a[t.global] = s[63 - t.local[0]];
}
void late_overload(const array_view<int, 1>& a, tiled_index<64> t) restrict(amp) {
  tile_static int s[64];
  s[t.local[0]] = int(late_scale(float(a[t.global])));
  t.barrier.wait();
  a[t.global] = s[63 - t.local[0]];
}
void late_type(const array_view<int, 1>& a, tiled_index<64> t) restrict(amp) {
  tile_static int s[64];
  late_pair p{a[t.global]};
  s[t.local[0]] = p.v;
  t.barrier.wait();
  a[t.global] = s[63 - t.local[0]];
}

// Guards that return early from a callee waiting on the barrier (Alex
// Voicu's AMP_helpers `reduce`: `if (f >= l) return (l);` above the loop):
// inlined as `if (C) { RESULT = (X); } else { the rest }`, compiled where C
// is uniform. A guard on the work-item's index would leave the rest's
// barriers to part of the tile: fibers, which report it if it happens.
template <int N> int guard_uniform(unsigned* f, unsigned* l, tiled_index<N> t) restrict(amp) {
  if (f >= l) return 0;
  for (int m = N / 2; m > 0; m /= 2) {
    if (t.local[0] < m) f[t.local[0]] += f[t.local[0] + m];
    t.barrier.wait();
  }
  return int(f[0]);
}
template <int N> void guard_per_item(unsigned* f, tiled_index<N> t) restrict(amp) {
  if (t.local[0] >= N) { return; }
  f[t.local[0]] += 1;
  t.barrier.wait();
}
void guarded_callees(array_view<unsigned, 1> a) {
  parallel_for_each(a.extent.tile<64>(), [=](tiled_index<64> t) restrict(amp) { // expect: compiled
    tile_static unsigned s[64];
    s[t.local[0]] = a[t.global];
    t.barrier.wait();
    const int r = guard_uniform<64>(s, s + 64, t);
    a[t.global] = unsigned(r);
  });
  parallel_for_each(a.extent.tile<64>(), [=](tiled_index<64> t) restrict(amp) { // expect: fibers: after inlining 1 call(s)
    tile_static unsigned s[64];
    s[t.local[0]] = a[t.global];
    guard_per_item<64>(s, t);
    a[t.global] = s[63 - t.local[0]];
  });
}

// A waiting call beside a read of a view's element (`tile_sum(x, t) +
// base[t.tile[0]]`, a public radix sort): evaluating the call first gives
// the bytes of every order when the call writes only tile_static memory and
// locals (its own, or the caller's bound to its reference parameters).
// A call that writes a view, or through a pointer, keeps fibers.
unsigned expr_tile_sum(unsigned x, tiled_index<64> t, unsigned& last) restrict(amp) {
  tile_static unsigned s[64];
  s[t.local[0]] = x;
  t.barrier.wait();
  unsigned r = 0;
  for (int i = 0; i <= t.local[0]; ++i) r += s[i];
  last = s[63];
  t.barrier.wait();
  return r;
}
unsigned expr_tile_sum(unsigned x, tiled_index<64> t) restrict(amp) {
  unsigned ll;
  return expr_tile_sum(x, t, ll);
}
unsigned expr_store(unsigned x, tiled_index<64> t, array_view<unsigned, 1> out) restrict(amp) {
  out[t.global] = x;
  t.barrier.wait();
  return x;
}
unsigned expr_through(unsigned x, tiled_index<64> t, unsigned* p) restrict(amp) {
  p[0] = x;
  t.barrier.wait();
  return x;
}
void calls_beside_reads(array_view<unsigned, 1> a, array_view<const unsigned, 1> base) {
  parallel_for_each(a.extent.tile<64>(), [=](tiled_index<64> t) restrict(amp) { // expect: compiled
    const unsigned v = expr_tile_sum(a[t.global], t) + base[t.tile[0]];
    a[t.global] = v;
  });
  parallel_for_each(a.extent.tile<64>(), [=](tiled_index<64> t) restrict(amp) { // expect: fibers: other operands read memory
    const unsigned v = expr_store(7u, t, a) + a[t.global];
    a[t.global] = v;
  });
  parallel_for_each(a.extent.tile<64>(), [=](tiled_index<64> t) restrict(amp) { // expect: fibers: other operands read memory
    tile_static unsigned cell[64];
    const unsigned v = expr_through(7u, t, &cell[t.local[0]]) + base[t.tile[0]];
    a[t.global] = v;
  });
}
void call_beside_local_view(array_view<unsigned, 1> a) {
  parallel_for_each(a.extent.tile<64>(), [=](tiled_index<64> t) restrict(amp) { // expect: fibers: other operands read memory
    array_view<unsigned, 1> part = a.section(0, 64);
    const unsigned v = expr_tile_sum(a[t.global], t) + part[t.local[0]];
    a[t.global] = v;
  });
}
