#!/usr/bin/env python3
"""Unit tests of scripts/amp_driver/passes/gpu.py: which parallel_for_each spellings a GPU
compile wraps in a lambda, and which it leaves alone."""
import sys
from pathlib import Path

from amp_driver.passes import gpu as gpu_edits
from amp_driver.cpp_lexer import mask

W = gpu_edits.SCOPE
C = gpu_edits.CLOSE
CASES = [
    # (source, expected) -- calls in every context the rewrite must reach
    ("f(){ parallel_for_each(e, k); }", "f(){ " + W + "parallel_for_each(e, k)" + C + "; }"),
    ("f(){ concurrency::parallel_for_each(av, e, [&](index<1> i) restrict(amp) { a[i] = 1; }); }",
     "f(){ " + W + "concurrency::parallel_for_each(av, e, [&](index<1> i) restrict(amp) { a[i] = 1; })" + C + "; }"),
    ("f(){ ::Concurrency::parallel_for_each(e, k); }", "f(){ " + W + "::Concurrency::parallel_for_each(e, k)" + C + "; }"),
    ("f(){ lib::_details::parallel_for_each(av, e, k); }",
     "f(){ " + W + "lib::_details::parallel_for_each(av, e, k)" + C + "; }"),
    ("f(){ parallel_for_each<16, 16>(e, k); }", "f(){ " + W + "parallel_for_each<16, 16>(e, k)" + C + "; }"),
    ("f(){ if (c) parallel_for_each(e, k); else parallel_for_each(e, j); }",
     "f(){ if (c) " + W + "parallel_for_each(e, k)" + C + "; else " + W + "parallel_for_each(e, j)" + C + "; }"),
    ("void f(){ return parallel_for_each(e, k); }", "void f(){ return " + W + "parallel_for_each(e, k)" + C + "; }"),
    ("f(){ TIME(parallel_for_each(e, k)); }", "f(){ TIME(" + W + "parallel_for_each(e, k)" + C + "); }"),
    # a call split over lines keeps its line breaks (diagnostics keep their lines)
    ("f(){\n  parallel_for_each(e,\n    k);\n}", "f(){\n  " + W + "parallel_for_each(e,\n    k)" + C + ";\n}"),
]
S = gpu_edits.STORAGE
CASES += [
    # tile_static of a class (or dependent) type: union storage and a reference, on the same line
    ("k(){ tile_static pair<int, int> buf[256]; }",
     "k(){ tile_static " + S + "<pair<int, int>[256]> amp_ts_buf; auto& buf = amp_ts_buf.value; }"),
    ("k(){ tile_static T m[16][16]; x; }",
     "k(){ tile_static " + S + "<T[16][16]> amp_ts_m; auto& m = amp_ts_m.value; x; }"),
    # any constant-expression bound (Bolt's scan_by_key: `lds[SCAN_WAVESIZE*SCAN_KERNELWAVES]`)
    ("k(){ tile_static T lds[A * B]; tile_static P q[sizeof(unsigned int) * (N + 1)][2]; }",
     "k(){ tile_static " + S + "<T[A * B]> amp_ts_lds; auto& lds = amp_ts_lds.value; tile_static " + S +
     "<P[sizeof(unsigned int) * (N + 1)][2]> amp_ts_q; auto& q = amp_ts_q.value; }"),
    ("k(){ tile_static typename V::value_type sum; }",
     "k(){ tile_static " + S + "<typename V::value_type> amp_ts_sum; auto& sum = amp_ts_sum.value; }"),
    # inside a wrapped call: both edits
    ("f(){ parallel_for_each(e, [=](tiled_index<4> t) restrict(amp) { tile_static P p[4]; }); }",
     "f(){ " + W + "parallel_for_each(e, [=](tiled_index<4> t) restrict(amp) { tile_static " + S +
     "<P[4]> amp_ts_p; auto& p = amp_ts_p.value; })" + C + "; }"),
]
N = gpu_edits.NORM_CLASS
U = "using namespace concurrency::graphics;\n"
CASES += [
    # `norm` after a using-directive for graphics: the class, never CUDA's ::norm(int, const double*)
    (U + "f(){ norm v(2.0f); float x = norm(0.25f) + unorm(1.5f); texture<norm, 2> t(4, 4); }",
     U + "f(){ " + N + " v(2.0f); float x = " + N + "(0.25f) + unorm(1.5f); texture<" + N + ", 2> t(4, 4); }"),
    ("using namespace Concurrency::graphics;\nf(){ norm_2 a; norm b; c.norm(); std::norm(z); }",
     "using namespace Concurrency::graphics;\nf(){ norm_2 a; " + N + " b; c.norm(); std::norm(z); }"),
]
CASES += [
    # `mutable restrict(...)`: the attribute before `mutable` (Clang takes no GNU attribute after it)
    ("k(){ auto f = [=](index<1> i) mutable restrict(amp) { n += i[0]; }; }",
     "k(){ auto f = [=](index<1> i) restrict(amp) mutable { n += i[0]; }; }"),
    ("k(){ auto f = [=](index<1> i) mutable\n  restrict(cpu, amp) -> void { }; }",
     "k(){ auto f = [=](index<1> i) restrict(cpu, amp) mutable\n -> void { }; }"),
    # amp.h's spellings too
    ("k(){ [p]() mutable __GPU { *p = 1; }(); [n]() mutable __GPU_ONLY { ++n; }(); }",
     "k(){ [p]() __GPU mutable { *p = 1; }(); [n]() __GPU_ONLY mutable { ++n; }(); }"),
]
UNCHANGED = [
    "k(){ auto f = [=](index<1> i) restrict(amp) mutable { }; mutable_t m; }",  # already in Clang's order
    "struct S { mutable int restricted; };",
    "f(){ norm v(2.0f); }",  # no using-directive: the host build would not find it either
    U + "f(){ float norm = 1.0f; norm += 2; }",  # a variable of the user's named norm
    U + "double norm(const float_3& v);",  # a function of the user's named norm

    "k(){ tile_static float a[256]; tile_static unsigned int n; tile_static const double d[2][2]; }",
    "k(){ tile_static float a[16], b[16]; }",
    "k(){ tile_static int x = 0; }",
    "k(){ tile_static T *p[A * B]; tile_static T x[A * B] = {}; tile_static T a[2 * N], b[N]; }",
    "template <int N, class K> void parallel_for_each(const extent<N>& e, const K& k);",
    "namespace d { template <class K> inline void parallel_for_each(const accelerator_view& a, const K& k) {} }",
    "void lib::parallel_for_each(int);",
    "void ::lib::parallel_for_each(int);",
    "using concurrency::parallel_for_each;",
    "f(){ x.parallel_for_each(e, k); p->parallel_for_each(e, k); }",
    "auto p = &parallel_for_each<1, F>;",
    'f(){ const char* s = "parallel_for_each(e, k)"; /* parallel_for_each(e, k) */ }',
    "// parallel_for_each(e, k);",
    "#define LAUNCH(e, k) parallel_for_each(e, k)",
    "f(){ Outer<T>::parallel_for_each(e, k); }",
    "template <class T> void f(){ T::template parallel_for_each<1>(e, k); }",
]

# Checked host builds: every tile_static array (built-in element types too)
# between guard zones, named with its file and line; scalars, pointers and
# several declarators left alone.
G = gpu_edits.CHECKED_STORAGE
CHECKED_CASES = [
    ("k(){\n tile_static int lds[A * B]; tile_static float x; tile_static T m[2][N];\n"
     " tile_static T *p[4]; tile_static int a[2], b[2]; }",
     "k(){\n tile_static " + G + '<int[A * B]> amp_ts_lds("lds", "d/f.cpp", 2); auto& lds = amp_ts_lds.use();'
     " tile_static float x; tile_static " + G + '<T[2][N]> amp_ts_m("m", "d/f.cpp", 2); auto& m = amp_ts_m.use();'
     "\n tile_static T *p[4]; tile_static int a[2], b[2]; }"),
]


def checked_apply(text):
    for s, e, r in sorted(gpu_edits.checked_tile_static_edits(mask(text), "d/f.cpp"), reverse=True):
        text = text[:s] + r + text[e:]
    return text


def main():
    bad = 0
    for src, want in CASES + [(u, u) for u in UNCHANGED]:
        got = gpu_edits.apply(src, mask(src))
        if got != want:
            bad += 1
            print(f"FAIL\n  source:   {src!r}\n  expected: {want!r}\n  got:      {got!r}")
    for src, want in CHECKED_CASES:
        got = checked_apply(src)
        if got != want:
            bad += 1
            print(f"FAIL (checked)\n  source:   {src!r}\n  expected: {want!r}\n  got:      {got!r}")
    total = len(CASES) + len(UNCHANGED) + len(CHECKED_CASES)
    print(f"gpu_edits: {total - bad} of {total} cases")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
