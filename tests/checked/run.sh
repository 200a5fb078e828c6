#!/usr/bin/env bash
# Checked builds (./amp c++ --checked, amp_compat/detail/checked.h): each kind
# of report, with the kernel, the tile and the work-item, and none for correct
# kernels; the shape of AMD Bolt's scan overrun reported at its first
# offending work-item; a race between barriers shown by the reverse order of
# work-items (AMP_CHECKED_ORDER). On OpenMP any tile may report first. Usage: run.sh
# [OUT_DIR] (CTest checked.reports, on AMP_DEFAULT_ACCELERATOR or Serial).
set -uo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
OUT="${1:-$(mktemp -d)}"
mkdir -p "$OUT"
fail=0
expect() { # expect FILE PATTERN
  grep -Eq -- "$2" "$1" || { echo "checked: no line matching: $2"; fail=1; }
}
for p in reports scan_overrun; do
  "$ROOT/amp" c++ --checked "$HERE/$p.cpp" -o "$OUT/$p" || { echo "checked: $p does not compile"; exit 1; }
done
k='in kernel amp::parallel_for_each\[(simple|tiled)\] main::'
# Both kernel paths of the host accelerators (parallel_for_each.h).
for path in native portable; do
for p in reports scan_overrun; do
  AMP_KERNEL_PATH=$path AMP_DEFAULT_ACCELERATOR="${AMP_DEFAULT_ACCELERATOR:-serial}" timeout 120 "$OUT/$p" \
    >"$OUT/$p.out" 2>&1 || { echo "checked: $p failed"; fail=1; }
  echo "-- $p, $path path:"; cat "$OUT/$p.out"
done
expect "$OUT/reports.out" "^view_read: checked build: array_view element \(64\) is outside its extent \(64\) $k.*, work-item \(63\)$"
expect "$OUT/reports.out" "^array_write: checked build: array element \(8,[0-7]\) is outside its extent \(8,8\) $k.*, tile \(1,[01]\), local index \(3,[0-3]\), work-item \(7,[0-7]\)$"
expect "$OUT/reports.out" "^tile_static_before: checked build: tile_static array \`s\` \(.*reports.cpp:[0-9]+\) written out of range \(byte 8 before its start\) $k.*, tile \([0-3]\), local index \(3\), work-item \((3|19|35|51)\), before its barrier$"
expect "$OUT/reports.out" "^tile_static_class_2d: .*tile_static array \`s\` .* \(byte 0 past its end\) $k.*, tile \([0-3]\), local index \(15\), work-item \((15|31|47|63)\), at the end of the work-item$"
expect "$OUT/reports.out" "^correct: no report$"
expect "$OUT/scan_overrun.out" "^checked build: tile_static array \`lds\` \(.*scan_overrun.cpp:[0-9]+\) written out of range \(byte 0 past its end\) $k.*, tile \([01]\), local index \(128\), work-item \((128|384)\), before its barrier$"
done
# A race between barriers: the work-items of a tile in reverse order
# (AMP_CHECKED_ORDER=reverse) change the racy kernel's result only.
"$ROOT/amp" c++ --checked "$HERE/order.cpp" -o "$OUT/order" || { echo "checked: order does not compile"; exit 1; }
for order in forward reverse; do
  AMP_CHECKED_ORDER=$order AMP_DEFAULT_ACCELERATOR="${AMP_DEFAULT_ACCELERATOR:-serial}" timeout 60 "$OUT/order" \
    >"$OUT/order.$order" 2>&1 || { echo "checked: order failed ($order)"; fail=1; }
  echo "-- order.cpp, $order:"; cat "$OUT/order.$order"
done
[ "$(grep '^racy:' "$OUT/order.forward")" != "$(grep '^racy:' "$OUT/order.reverse")" ] \
  || { echo "checked: the racy kernel gave the same result in both orders"; fail=1; }
[ "$(grep '^barrier:' "$OUT/order.forward")" = "$(grep '^barrier:' "$OUT/order.reverse")" ] && grep -q '^barrier: 0 100 ' "$OUT/order.forward" \
  || { echo "checked: the kernel with the barrier changed with the order"; fail=1; }
[ $fail = 0 ] && echo "checked: every report as expected"
exit $fail
