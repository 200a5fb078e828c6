#!/usr/bin/env bash
# windows_case.sh AMPXX OUTDIR: kernels reached through a header included with
# another letter case (wincase/: "tile_kernels.h" for Tile_Kernels.h), built
# with --windows-compat, whose include shim (an -idirafter folder) includes
# the header by its absolute path. Both kernels (one written in the header,
# one declared there and defined in main.cpp) must run compiled: each
# reports so at run time (the header's once compiled unwrapped while the
# census said compiled; the other was neither compiled nor reported), and
# the program prints the same on both host paths.
# Exit 77 when the tile compiler is not available (no clang++-22).
set -euo pipefail
ampxx=$1 out=$2
here="$(cd "$(dirname "$0")" && pwd)/wincase"
mkdir -p "$out"
notes=$(AMP_HOST_TILES_REPORT=1 "$ampxx" --windows-compat "$here/main.cpp" -o "$out/wincase" 2>&1) || {
  echo "$notes"; echo "FAIL: the build failed"; exit 1; }
if ! grep -q "amp host tiles" <<<"$notes"; then echo "the tile compiler is not available here (skipped)"; exit 77; fi
grep "amp host tiles" <<<"$notes"
run() { AMP_HOST_TILES=$1 AMP_HOST_TILES_REPORT=1 AMP_DEFAULT_ACCELERATOR=serial "$out/wincase" 2>"$out/report.$1"; }
c=$(run compiled)
f=$(run fibers)
cat "$out/report.compiled"
n=$(grep -c "host tiles: kernel at .*: compiled" "$out/report.compiled" || true)
[ "$n" = 2 ] || { echo "FAIL: $n of 2 kernels ran compiled"; exit 1; }
echo "compiled: $c"; echo "fibers:   $f"
[ "$c" = "$f" ] || { echo "FAIL: the two paths differ"; exit 1; }
echo "ok"
