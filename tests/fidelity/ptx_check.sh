#!/usr/bin/env bash
# ptx_check.sh AMPXX SOURCE: the GPU code of SOURCE (fidelity_checks.cpp),
# compiled by `amp++ --gpu` to PTX, must have no contracted multiply-add
# (fma.rn), no approximate square root and no flush to zero (.ftz) by default,
# and must have fused multiply-adds with --fast-math (so the first check is
# not vacuous). No GPU needed.
set -u
ampxx=$1 src=$2
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
fail=0
"$ampxx" --gpu --cuda-device-only -S "$src" -o "$tmp/default.ptx" || { echo "FAIL: compile (default)"; exit 1; }
"$ampxx" --gpu --fast-math --cuda-device-only -S "$src" -o "$tmp/fast.ptx" || { echo "FAIL: compile (--fast-math)"; exit 1; }
for pat in 'fma\.rn' 'sqrt\.approx' 'div\.approx' '\.ftz'; do
  n=$(grep -c "$pat" "$tmp/default.ptx")
  echo "default: $n instructions matching $pat"
  [ "$n" -eq 0 ] || fail=1
done
n=$(grep -c 'fma\.rn' "$tmp/fast.ptx")
echo "--fast-math: $n fma.rn instructions"
[ "$n" -gt 0 ] || fail=1
[ $fail -eq 0 ] && echo "ok" || echo "FAIL"
exit $fail
