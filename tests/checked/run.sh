#!/usr/bin/env bash
# Checked builds (./amp c++ --checked, amp_compat/detail/checked.h): each kind
# of report, with the kernel, the tile and the work-item, and none for correct
# kernels; the shape of AMD Bolt's scan overrun reported at its first
# offending work-item; each kind of race between barriers (races.cpp), in both
# orders of the work-items, with the lines of both accesses; a race shown by
# the reverse order of work-items (AMP_CHECKED_ORDER) with the race reports
# off (AMP_CHECKED_RACES=0); reads of tile_static elements no work-item of the
# tile wrote (unwritten.cpp), and none with AMP_CHECKED_UNINIT=0. On OpenMP
# any tile may report first. Usage: run.sh
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
for p in reports scan_overrun races unwritten; do
  "$ROOT/amp" c++ --checked "$HERE/$p.cpp" -o "$OUT/$p" || { echo "checked: $p does not compile"; exit 1; }
done
k='in kernel amp::parallel_for_each\[(simple|tiled)\] main::'
# Both kernel paths of the host accelerators (parallel_for_each.h).
for path in native portable; do
for p in reports scan_overrun races unwritten; do
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
# Races: the kind, the array and its element, both work-items and the lines of
# their accesses (found in races.cpp by their text).
at_in() { echo "$1:$(grep -n -F -- "$2" "$HERE/$1" | head -1 | cut -d: -f1)"; }
at() { at_in races.cpp "$1"; }
r='checked build: tile_static race'
expect "$OUT/races.out" "^read_after_write: $r \(read-after-write\) on array \`h\` \(.*$(at 'unsigned h[32]')\) element \[16\]: local index \(0\), work-item \(0\) wrote it \(.*$(at 'h[16 + l] = h[16 + l - 1]')\), then local index \(1\), work-item \(1\) read \\(or stored unchanged\\) it \(.*$(at 'h[16 + l] = h[16 + l - 1]')\) with no barrier between, $k.*, tile \(0\)$"
expect "$OUT/races.out" "^write_after_write: $r \(write-after-write\) on array \`last\` \(.*$(at 'pair2 last[2][4]')\) element \[1\]\[2\]: local index \(0\), work-item \(([0-9]+)\) wrote it \(.*$(at 'last[1][2].a = 100')\), then local index \(1\), work-item \([0-9]+\) wrote it \(.*$(at 'last[1][2].a = 100')\) with no barrier between, $k.*, tile \([0-3]\)$"
expect "$OUT/races.out" "^write_after_read: $r \(write-after-read\) on array \`s\` \(.*races.cpp:[0-9]+\) element \[1\]: local index \(0\), work-item \([0-9]+\) read \\(or stored unchanged\\) it \(.*$(at 's[l] = s[(l + 1) % 16] + 1')\), then local index \(1\), work-item \([0-9]+\) wrote it \(.*$(at 's[l] = s[(l + 1) % 16] + 1')\) with no barrier between"
expect "$OUT/races.out" "^read_in_function: $r \(write-after-read\) .* element \[1\]: local index \(0\), work-item \([0-9]+\) read \\(or stored unchanged\\) it \(.*$(at 'data[i] < v')\), then local index \(1\), work-item \([0-9]+\) wrote it"
expect "$OUT/races.out" "^race_free: no report$"
# Unwritten elements: the last tile's work-items 10-15 load nothing; the
# first to read one is local index 2, reading s[10] in tree_sum.
expect "$OUT/unwritten.out" "^partial_tile: checked build: tile_static array \`s\` \(.*$(at_in unwritten.cpp 'tile_static int s[16]')\) element \[10\] read before any work-item of its tile wrote it: local index \(2\), work-item \(50\) read it \(.*$(at_in unwritten.cpp 's[l] += s[l + w]')\), $k.*, tile \(3\)$"
for c in padded through_pointer reads_within; do expect "$OUT/unwritten.out" "^$c: no report$"; done
done
# The reverse order of the work-items: the same races seen from the other side.
AMP_CHECKED_ORDER=reverse AMP_DEFAULT_ACCELERATOR="${AMP_DEFAULT_ACCELERATOR:-serial}" timeout 120 "$OUT/races" \
  >"$OUT/races.reverse" 2>&1 || { echo "checked: races failed (reverse)"; fail=1; }
echo "-- races, reverse order:"; cat "$OUT/races.reverse"
expect "$OUT/races.reverse" "^read_after_write: $r \(write-after-read\) on array \`h\` .* element \[30\]: local index \(15\), work-item \(15\) read \\(or stored unchanged\\) it .*, then local index \(14\), work-item \(14\) wrote it"
expect "$OUT/races.reverse" "^write_after_read: $r \(read-after-write\) .* element \[15\]: local index \(15\), .* wrote it .*, then local index \(14\), .* read \\(or stored unchanged\\) it"
expect "$OUT/races.reverse" "^race_free: no report$"
# Off: AMP_CHECKED_RACES=0.
AMP_CHECKED_RACES=0 AMP_DEFAULT_ACCELERATOR="${AMP_DEFAULT_ACCELERATOR:-serial}" timeout 120 "$OUT/races" \
  >"$OUT/races.off" 2>&1 || { echo "checked: races failed (off)"; fail=1; }
[ "$(grep -c ': no report$' "$OUT/races.off")" = 5 ] || { echo "checked: AMP_CHECKED_RACES=0 still reports"; cat "$OUT/races.off"; fail=1; }
# Reads of unwritten elements: the reverse order reports one too (the first
# reader is then local index 7, of s[15]); off with AMP_CHECKED_UNINIT=0.
AMP_CHECKED_ORDER=reverse AMP_DEFAULT_ACCELERATOR="${AMP_DEFAULT_ACCELERATOR:-serial}" timeout 120 "$OUT/unwritten" \
  >"$OUT/unwritten.reverse" 2>&1 || { echo "checked: unwritten failed (reverse)"; fail=1; }
expect "$OUT/unwritten.reverse" "^partial_tile: .* element \[15\] read before any work-item of its tile wrote it: local index \(7\), work-item \(55\) read it"
AMP_CHECKED_UNINIT=0 AMP_DEFAULT_ACCELERATOR="${AMP_DEFAULT_ACCELERATOR:-serial}" timeout 120 "$OUT/unwritten" \
  >"$OUT/unwritten.off" 2>&1 || { echo "checked: unwritten failed (off)"; fail=1; }
[ "$(grep -c ': no report$' "$OUT/unwritten.off")" = 4 ] || { echo "checked: AMP_CHECKED_UNINIT=0 still reports"; cat "$OUT/unwritten.off"; fail=1; }
# A race between barriers: the work-items of a tile in reverse order
# (AMP_CHECKED_ORDER=reverse) change the racy kernel's result only.
"$ROOT/amp" c++ --checked "$HERE/order.cpp" -o "$OUT/order" || { echo "checked: order does not compile"; exit 1; }
for order in forward reverse; do
  AMP_CHECKED_RACES=0 AMP_CHECKED_ORDER=$order AMP_DEFAULT_ACCELERATOR="${AMP_DEFAULT_ACCELERATOR:-serial}" timeout 60 "$OUT/order" \
    >"$OUT/order.$order" 2>&1 || { echo "checked: order failed ($order)"; fail=1; }
  echo "-- order.cpp, $order:"; cat "$OUT/order.$order"
done
[ "$(grep '^racy:' "$OUT/order.forward")" != "$(grep '^racy:' "$OUT/order.reverse")" ] \
  || { echo "checked: the racy kernel gave the same result in both orders"; fail=1; }
[ "$(grep '^barrier:' "$OUT/order.forward")" = "$(grep '^barrier:' "$OUT/order.reverse")" ] && grep -q '^barrier: 0 100 ' "$OUT/order.forward" \
  || { echo "checked: the kernel with the barrier changed with the order"; fail=1; }
[ $fail = 0 ] && echo "checked: every report as expected"
exit $fail
