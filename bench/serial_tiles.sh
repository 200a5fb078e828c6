#!/usr/bin/env bash
# Serial instruction counts (callgrind) of the host tile paths: compiled,
# fibers and a hand-written loop, for the barrier kernels in
# bench/serial_tiles.cpp. Builds it with ./amp c++ (the tile compiler rewrites
# its kernels when clang++-22 is there) and prints one row per kernel:
# instructions per work-item of the counted launch, and for the barriers
# kernel the cost per work-item per barrier ((16 barriers - 0) / 16).
#   bench/serial_tiles.sh [BUILD_DIR]
# AMP_SERIAL_OPT=-O3 (default -O2): the optimisation level (the bench's
# Release build is -O3).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
OUT="${1:-${AMP_BUILD_DIR:-$ROOT/build}/serial_tiles}"
mkdir -p "$OUT"
AMP_HOST_TILES_REPORT=1 "$ROOT/amp" c++ "${AMP_SERIAL_OPT:--O2}" "$ROOT/bench/serial_tiles.cpp" -o "$OUT/serial_tiles"
ir() { # KERNEL VERSION -> instructions counted
  local f="$OUT/cg.$1.$2"
  AMP_DEFAULT_ACCELERATOR=serial valgrind --tool=callgrind --collect-atstart=no --callgrind-out-file="$f" \
    "$OUT/serial_tiles" "$1" "$2" >"$f.stdout" 2>"$f.stderr" || { cat "$f.stderr" >&2; exit 1; }
  awk '/^(summary|totals):/ {print $2; exit}' "$f"
}
declare -A items=([barriers0]=65536 [barriers16]=65536 [reduce]=16384 [transpose]=262144 [transpose8]=65536 [pricing]=4096)
printf '%-12s %14s %14s %14s   (instructions per work-item)\n' kernel compiled fibers loop
for k in barriers0 barriers16 reduce transpose transpose8 pricing; do
  row=()
  for v in compiled fibers loop; do
    n=$(ir "$k" "$v")
    eval "IR_${k}_${v}=$n"
    row+=("$(awk -v n="$n" -v i="${items[$k]}" 'BEGIN {printf "%.1f", n / i}')")
  done
  sums=$(cat "$OUT"/cg.$k.*.stdout | awk '{print $3}' | sort -u | wc -l)
  [ "$sums" = 1 ] || { echo "$k: the versions' results differ:" >&2; cat "$OUT"/cg.$k.*.stdout >&2; exit 1; }
  printf '%-12s %14s %14s %14s\n' "$k" "${row[@]}"
done
for v in compiled fibers loop; do
  a=$(eval echo "\$IR_barriers16_$v"); b=$(eval echo "\$IR_barriers0_$v")
  printf 'barrier cost %-9s %6.2f instructions per work-item per barrier\n' "$v" \
    "$(awk -v a="$a" -v b="$b" 'BEGIN {print (a - b) / (16 * 65536)}')"
done
