// The tile compiler's analysis (tools/tile_compiler), kernel by kernel: each
// `// expect:` comment, on the line where a kernel lambda starts, says what
// the compiler must decide: `compiled`, or `fibers:` and a part of the reason
// it must give. Checked by check_analysis.py on the compiler's notes; this
// file is only parsed, never run (each kernel is correct AMP).
#include <amp.h>

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
}

void control(array_view<int, 1> a, int n) {
  parallel_for_each(a.extent.tile<64>(), [=](tiled_index<64> t) restrict(amp) { // expect: fibers: `switch`
    switch (n) {
    case 1:
      t.barrier.wait();
      break;
    default:
      t.barrier.wait();
    }
  });
  parallel_for_each(a.extent.tile<64>(), [=](tiled_index<64> t) restrict(amp) { // expect: fibers: unbraced body
    for (int i = 0; i < n; ++i) t.barrier.wait();
  });
  parallel_for_each(a.extent.tile<64>(), [=](tiled_index<64> t) restrict(amp) { // expect: fibers: unbraced body
    if (n > 0) t.barrier.wait();
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

void escapes(array_view<int, 1> a) {
  parallel_for_each(a.extent.tile<64>(), [=](tiled_index<64> t) restrict(amp) { // expect: fibers: through a tile_barrier other than
    const tile_barrier& b = t.barrier;
    b.wait();
    a[t.global] = 4;
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
