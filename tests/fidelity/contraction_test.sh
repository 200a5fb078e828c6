#!/bin/sh
# Test of bench/contraction.py: rows only for kernels in both runs, the ratio
# off/on, and usage errors. Usage: contraction_test.sh path/to/contraction.py
set -eu
CT=$1
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
fail() { echo "contraction_test: FAIL: $*" >&2; exit 1; }
cat >"$TMP/off.json" <<'JSON'
[{"name": "matmul-simple", "version": "amp", "median_ms": 2.5, "gflops": 10.0, "n": 1},
 {"name": "matmul-simple", "version": "cuda", "median_ms": 2.0, "n": 1},
 {"name": "only-off", "version": "amp", "median_ms": 1.0, "n": 1}]
JSON
cat >"$TMP/on.json" <<'JSON'
[{"name": "matmul-simple", "version": "amp", "median_ms": 2.0, "n": 1},
 {"name": "matmul-simple", "version": "cuda", "median_ms": 2.0, "n": 1}]
JSON
out=$(python3 "$CT" "$TMP/off.json" "$TMP/on.json")
echo "$out" | grep -qx '| matmul-simple | amp | 2.5000 | 2.0000 | 1.250 |' || fail "amp row: $out"
echo "$out" | grep -qx '| matmul-simple | cuda | 2.0000 | 2.0000 | 1.000 |' || fail "cuda row: $out"
echo "$out" | grep -q 'only-off' && fail "a kernel of one run only has a row"
[ "$(echo "$out" | wc -l)" -eq 4 ] || fail "expected 2 header lines and 2 rows: $out"
if python3 "$CT" "$TMP/off.json" 2>/dev/null; then fail "one argument accepted"; fi
echo "contraction_test: ok"
