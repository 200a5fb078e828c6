// The tile compiler's fallback when the inlined text of a kernel does not
// parse where the kernel is (tools/tile_compiler/README.md, "Barriers in
// called functions"): here a kernel local `S` hides the struct `S` the
// callee names, so the second parse fails; the script then runs the first
// pass again without inlining. Checked by check_analysis.py like
// analysis.cpp: the kernel that calls keeps fibers and says why, the other
// kernels of the file are compiled as usual. Only parsed, never run.
#include <amp.h>

using namespace concurrency;

struct S {
  int v;
};
void uses_struct(tiled_index<64> t, array_view<int, 1> a) restrict(amp) {
  S s{1};
  t.barrier.wait();
  a[t.global] = s.v;
}
void kernels(array_view<int, 1> a) {
  parallel_for_each(a.extent.tile<64>(), [=](tiled_index<64> t) restrict(amp) { // expect: fibers: did not parse
    const int S = 2;
    a[t.global] = S;
    uses_struct(t, a);
  });
  parallel_for_each(a.extent.tile<64>(), [=](tiled_index<64> t) restrict(amp) { // expect: compiled
    tile_static int s[64];
    s[t.local[0]] = a[t.global];
    t.barrier.wait();
    a[t.global] = s[63 - t.local[0]];
  });
}
