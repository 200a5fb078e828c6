#!/usr/bin/env bash
# AMP_HOST_VIEWS=copy against the default (in-place) on the host accelerators:
# builds bench/host_views.cpp with ./amp c++ -O2 and prints, per backend and
# kernel, the median times of both modes and their ratio (copy / in-place).
#   bench/host_views.sh [BUILD_DIR]      (OMP_NUM_THREADS as set, default all cores)
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
OUT="${1:-${AMP_BUILD_DIR:-$ROOT/build}/host_views_bench}"
mkdir -p "$OUT"
"$ROOT/amp" c++ -O2 "$ROOT/bench/host_views.cpp" -o "$OUT/host_views"
printf '%-8s %-7s %12s %12s %7s\n' backend kernel in-place_ms copy_ms ratio
for b in serial openmp; do
  AMP_DEFAULT_ACCELERATOR=$b AMP_HOST_VIEWS=in-place "$OUT/host_views" >"$OUT/$b.in-place"
  AMP_DEFAULT_ACCELERATOR=$b AMP_HOST_VIEWS=copy "$OUT/host_views" >"$OUT/$b.copy"
  for k in stream tiled; do
    i=$(awk -v k=$k '$1 == k {print $2}' "$OUT/$b.in-place")
    c=$(awk -v k=$k '$1 == k {print $2}' "$OUT/$b.copy")
    awk -v b=$b -v k=$k -v i="$i" -v c="$c" 'BEGIN {printf "%-8s %-7s %12.2f %12.2f %7.2f\n", b, k, i, c, c / i}'
  done
done
