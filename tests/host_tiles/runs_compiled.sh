#!/usr/bin/env bash
# runs_compiled.sh AMPXX OUTDIR DIR N [FLAG...]: builds DIR/main.cpp with
# FLAGs, whose tiled kernels live in headers reached in ways a compile can
# miss (another letter case through --windows-compat's shims: wincase/;
# names relative to the including header: relinc/). All N kernels must run
# compiled, each reporting so at run time (the census alone said compiled
# where the compile read the original header, its kernels unwrapped on
# fibers), and the program must print the same on both host paths.
# Exit 77 when the tile compiler is not available (no clang++-22).
set -euo pipefail
ampxx=$1 out=$2 dir=$3 want=$4
shift 4
mkdir -p "$out"
notes=$(AMP_HOST_TILES_REPORT=1 "$ampxx" "$@" "$dir/main.cpp" -o "$out/prog" 2>&1) || {
  echo "$notes"; echo "FAIL: the build failed"; exit 1; }
if ! grep -q "amp host tiles" <<<"$notes"; then echo "the tile compiler is not available here (skipped)"; exit 77; fi
grep "amp host tiles" <<<"$notes"
run() { AMP_HOST_TILES=$1 AMP_HOST_TILES_REPORT=1 AMP_DEFAULT_ACCELERATOR=serial "$out/prog" 2>"$out/report.$1"; }
c=$(run compiled)
f=$(run fibers)
cat "$out/report.compiled"
n=$(grep -c "host tiles: kernel at .*: compiled" "$out/report.compiled" || true)
[ "$n" = "$want" ] || { echo "FAIL: $n of $want kernels ran compiled"; exit 1; }
echo "compiled: $c"; echo "fibers:   $f"
[ "$c" = "$f" ] || { echo "FAIL: the two paths differ"; exit 1; }
echo "ok"
