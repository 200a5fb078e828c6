#!/usr/bin/env bash
# never_breaks.sh AMPXX SOURCE WORKDIR: the tile compiler never breaks a build.
#  1. SOURCE built through the launcher with a fault injected into every
#     compiled kernel (AMP_TILE_COMPILER_FAULT=1: their compiled form does not
#     compile) must still build, warn once per such kernel naming it (the
#     injected error where the errors point into it), report
#     every kernel on fibers at run time, and print what the build without the
#     tile compiler (AMP_TILE_COMPILER=off) prints;
#  2. the census (amp++ --tiles-report) of the normal build lists every
#     kernel as compiled, and of the faulty one as fibers with the reason;
#  3. a source with an error of the user's own is reported once, as the
#     compiler reports it, with no word of the tile compiler;
#  4. a kernel whose barrier sits under a conditional the compiler may decide
#     otherwise than the tile compiler's Clang parse (`#ifdef __clang__`)
#     builds: compiled where the compiler agrees, else on fibers with a
#     warning that names the conditional; a kernel beside it with a plain
#     `#ifdef` toggle stays compiled; both print what the off build prints.
# Exit 77 (skipped) where the build has no tile compiler.
set -euo pipefail
ampxx=$1 src=$2 work=$3
mkdir -p "$work"
cd "$work"
"$ampxx" --tiles-report "$src" -o normal 2>normal.log || { cat normal.log; exit 1; }
grep -q 'compiled' normal.log || { echo "no kernel compiled: no tile compiler in this build (skipped)"; exit 77; }
AMP_TILE_COMPILER=off "$ampxx" "$src" -o off
AMP_TILE_COMPILER_FAULT=1 "$ampxx" --tiles-report "$src" -o faulty 2>faulty.log || { echo "FAIL: the faulty rewrite broke the build"; cat faulty.log; exit 1; }
# Every kernel the normal build compiled (its census: those run directly,
# `expect: compiled`, and those only a launcher's forwarding kernel runs).
kernels=$(sed -n 's/^amp host tiles: .* with barriers, \([0-9]*\) compiled.*/\1/p' normal.log | tail -1)
[ "${kernels:-0}" -ge "$(grep -c 'expect: compiled' "$src")" ] || { echo "FAIL: the census compiled ${kernels:-none}"; cat normal.log; exit 1; }
warned=$(grep -c 'warning: amp host tiles: the compiled form of this tiled kernel did not compile' faulty.log || true)
[ "$warned" = "$kernels" ] || { echo "FAIL: $warned warnings for $kernels kernels"; cat faulty.log; exit 1; }
grep -q "did not compile (.*amp_ht_injected_fault" faulty.log || { echo "FAIL: no warning names the compile error"; cat faulty.log; exit 1; }
grep -q 'tiles: .* 0 compiled' faulty.log || { echo "FAIL: the faulty build's census does not say 0 compiled"; cat faulty.log; exit 1; }
./off >off.out
./faulty >faulty.out
AMP_HOST_TILES_REPORT=1 ./faulty 2>&1 >/dev/null | grep 'host tiles: kernel at' >faulty.report || true
if grep -q ': compiled' faulty.report; then echo "FAIL: a kernel of the faulty build runs compiled"; cat faulty.report; exit 1; fi
./normal >normal.out
cmp off.out faulty.out || { echo "FAIL: the faulty build's output differs from the build without the tile compiler"; exit 1; }
cmp off.out normal.out || { echo "FAIL: the compiled build's output differs from the build without the tile compiler"; exit 1; }
# An error of the user's: reported once, as the compiler gives it.
printf '#include <amp.h>\nint main() { undeclared_name_here(); }\n' >bad.cpp
if "$ampxx" bad.cpp -o bad 2>bad.log; then echo "FAIL: bad.cpp built"; exit 1; fi
n=$(grep -c "undeclared_name_here" bad.log || true)
[ "$n" -ge 1 ] && ! grep -q 'amp host tiles' bad.log || { echo "FAIL: the user's error reported oddly"; cat bad.log; exit 1; }
[ "$(grep -c "error: .undeclared_name_here" bad.log)" = 1 ] || { echo "FAIL: the user's error is printed more than once"; cat bad.log; exit 1; }
# A conditional decided by the compiler's identity.
cat >ident.cpp <<'EOF_SRC'
#include <amp.h>
#include <cstdio>
using namespace concurrency;
#define TOGGLE 1
int main() {
  int d[64];
  for (int i = 0; i < 64; ++i) d[i] = i * 5 % 17;
  array_view<int, 1> v(64, d);
  parallel_for_each(v.extent.tile<16>(), [=](tiled_index<16> t) restrict(amp) {
    tile_static int s[16];
    s[t.local[0]] = v[t.global];
#ifdef __clang__
    t.barrier.wait();
#else
    t.barrier.wait_with_tile_static_memory_fence();
#endif
    v[t.global] = s[15 - t.local[0]] + 1;
  });
  parallel_for_each(v.extent.tile<16>(), [=](tiled_index<16> t) restrict(amp) {
    tile_static int s[16];
    s[t.local[0]] = v[t.global];
#ifdef TOGGLE
    t.barrier.wait();
#endif
    v[t.global] = s[(t.local[0] + 3) % 16] * 2;
  });
  v.synchronize();
  for (int i = 0; i < 64; ++i) std::printf("%d ", d[i]);
  std::printf("\n");
}
EOF_SRC
"$ampxx" --tiles-report ident.cpp -o ident 2>ident.log || { echo "FAIL: the conditional's check broke the build"; cat ident.log; exit 1; }
AMP_TILE_COMPILER=off "$ampxx" ident.cpp -o ident_off
grep -q 'ident.cpp:19:.*compiled' ident.log || { echo "FAIL: the plain #ifdef toggle's kernel is not compiled"; cat ident.log; exit 1; }
if ! grep -q 'ident.cpp:9:.*compiled' ident.log; then
  grep -q 'ident.cpp:9:.*warning: .*decides the preprocessor conditional of line 12' ident.log ||
    { echo "FAIL: the kernel under a compiler-identity conditional fell back without naming it"; cat ident.log; exit 1; }
fi
./ident >ident.out
./ident_off >ident_off.out
cmp ident.out ident_off.out || { echo "FAIL: the conditional kernels' output differs from the off build's"; exit 1; }
echo "never_breaks: $kernels kernels: faulty build warned for each, ran on fibers, same output; user's error printed once; conditionals checked"
