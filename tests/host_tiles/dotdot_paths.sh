#!/usr/bin/env bash
# dotdot_paths.sh AMPXX OUTDIR: a kernel in a header whose callee waits on the
# barrier, the source and the include folder named through `..`
# (dotdot/src/../src/main.cpp, -Idotdot/src/../inc), as CMake projects
# and tests/corpora/bolt.sh write them. The build's note must say compiled
# (the tile compiler's parses once disagreed on such paths and the kernel
# kept fibers), and the program must print the same on both host paths.
# Exit 77 when the tile compiler is not available (no clang++-22).
set -euo pipefail
ampxx=$1 out=$2
here="$(cd "$(dirname "$0")" && pwd)/dotdot"
mkdir -p "$out"
notes=$(AMP_HOST_TILES_REPORT=1 "$ampxx" -I"$here/src/../inc" "$here/src/../src/main.cpp" -o "$out/dotdot" 2>&1) || {
  echo "$notes"; echo "FAIL: the build failed"; exit 1; }
if ! grep -q "amp host tiles" <<<"$notes"; then echo "the tile compiler is not available here (skipped)"; exit 77; fi
grep "amp host tiles" <<<"$notes"
grep -q "tiled kernel compiled" <<<"$notes" || { echo "FAIL: the kernel did not take the compiled path"; exit 1; }
c=$(AMP_HOST_TILES=compiled AMP_DEFAULT_ACCELERATOR=serial "$out/dotdot")
f=$(AMP_HOST_TILES=fibers AMP_DEFAULT_ACCELERATOR=serial "$out/dotdot")
echo "compiled: $c"; echo "fibers:   $f"
[ "$c" = "$f" ] || { echo "FAIL: the two paths differ"; exit 1; }
echo "ok"
