#!/usr/bin/env bash
# relative_include.sh AMPXX OUTDIR [FLAG...]: kernels in a library's headers
# that include each other by names relative to themselves (relinc/: lib.h
# includes "detail/reverse.h" and "lib_utility.h", which includes
# "utility/tile_sum.h"), built with -I relinc/inc and FLAGs. Both kernels
# must run compiled, each reporting so at run time: a header that includes a
# rewritten one relatively found the original beside itself, and its
# kernels ran unwrapped on fibers while the census said compiled. The
# program prints the same on both host paths.
# Exit 77 when the tile compiler is not available (no clang++-22).
set -euo pipefail
ampxx=$1 out=$2
shift 2
here="$(cd "$(dirname "$0")" && pwd)/relinc"
mkdir -p "$out"
notes=$(AMP_HOST_TILES_REPORT=1 "$ampxx" "$@" -I"$here/inc" "$here/main.cpp" -o "$out/relinc" 2>&1) || {
  echo "$notes"; echo "FAIL: the build failed"; exit 1; }
if ! grep -q "amp host tiles" <<<"$notes"; then echo "the tile compiler is not available here (skipped)"; exit 77; fi
grep "amp host tiles" <<<"$notes"
run() { AMP_HOST_TILES=$1 AMP_HOST_TILES_REPORT=1 AMP_DEFAULT_ACCELERATOR=serial "$out/relinc" 2>"$out/report.$1"; }
c=$(run compiled)
f=$(run fibers)
cat "$out/report.compiled"
n=$(grep -c "host tiles: kernel at .*: compiled" "$out/report.compiled" || true)
[ "$n" = 2 ] || { echo "FAIL: $n of 2 kernels ran compiled"; exit 1; }
echo "compiled: $c"; echo "fibers:   $f"
[ "$c" = "$f" ] || { echo "FAIL: the two paths differ"; exit 1; }
echo "ok"
