#!/bin/sh
# Smoke test for bench/plot.py: runs it on a small bench.json and checks the
# PNG signature, the IHDR size (and that IDAT holds exactly that many rows),
# the printed ratios, and the failure on malformed input.
# Usage: tests/plot_test.sh [path/to/plot.py]   (needs python3; exit 0 = pass)
set -eu
PLOT=${1:-"$(dirname "$0")/../bench/plot.py"}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
fail() { echo "plot_test: FAIL: $*" >&2; exit 1; }

# stream: amp/kokkos = 2.0 / min(2.5, 1.6) = 1.250 (kokkos-lb256,1 is ignored),
# amp/cuda = 2.0 / 1.0 = 2.000; transpose: 10.0 / 1.0 = 10.000 (clipped bar),
# no cuda record; copy-roof has no amp record and gets no row.
cat > "$TMP/bench.json" <<'EOF'
[
 {"name": "stream", "version": "amp", "median_ms": 2.0, "gbps": 10.0, "n": 64},
 {"name": "stream", "version": "kokkos", "median_ms": 2.5, "gbps": 8.0, "n": 64},
 {"name": "stream", "version": "kokkos-team", "median_ms": 1.6, "gbps": 12.5, "n": 64},
 {"name": "stream", "version": "kokkos-lb256,1", "median_ms": 0.1, "n": 64},
 {"name": "stream", "version": "cuda", "median_ms": 1.0, "gbps": 20.0, "n": 64},
 {"name": "copy-roof", "version": "memcpy", "median_ms": 0.5, "gbps": 40.0, "n": 64},
 {"name": "transpose", "version": "amp", "median_ms": 10.0, "n": 16},
 {"name": "transpose", "version": "kokkos", "median_ms": 1.0, "n": 16}
]
EOF

python3 "$PLOT" "$TMP/bench.json" -o "$TMP/out.png" --title "plot test" > "$TMP/table.txt" \
    || fail "plot.py exited non-zero on valid input"
grep -Eq '^stream +1\.250 +2\.000$' "$TMP/table.txt" || fail "stream ratios: $(cat "$TMP/table.txt")"
grep -Eq '^transpose +10\.000 +-$' "$TMP/table.txt" || fail "transpose ratios: $(cat "$TMP/table.txt")"
grep -q 'copy-roof' "$TMP/table.txt" && fail "roof got a row"

python3 - "$TMP/out.png" <<'EOF' || fail "PNG check"
import struct, sys, zlib
data = open(sys.argv[1], "rb").read()
assert data[:8] == b"\x89PNG\r\n\x1a\n", "bad PNG signature"
length, tag = struct.unpack(">I4s", data[8:16])
assert tag == b"IHDR" and length == 13, "first chunk is not IHDR"
w, h, depth, ctype = struct.unpack(">IIBB", data[16:26])
assert (depth, ctype) == (8, 2), "not 8-bit RGB"
assert w == 1000 and 100 <= h <= 2000, "unexpected size %dx%d" % (w, h)
pos, idat = 8, b""
while pos < len(data):                    # walk the chunks, checking CRCs
    n, t = struct.unpack(">I4s", data[pos:pos + 8])
    body = data[pos + 8:pos + 8 + n]
    crc, = struct.unpack(">I", data[pos + 8 + n:pos + 12 + n])
    assert crc == zlib.crc32(t + body) & 0xFFFFFFFF, "bad CRC in %r" % t
    idat += body if t == b"IDAT" else b""
    pos += 12 + n
assert t == b"IEND", "last chunk is not IEND"
raw = zlib.decompress(idat)
assert len(raw) == h * (1 + 3 * w), "IDAT size does not match IHDR"
assert all(raw[y * (1 + 3 * w)] == 0 for y in range(h)), "row filter is not 0"
EOF

# Malformed input: clear message on stderr, non-zero exit.
echo '[{"name": "stream", "version": "amp", "median_ms": "fast"}]' > "$TMP/bad.json"
if python3 "$PLOT" "$TMP/bad.json" -o "$TMP/bad.png" 2> "$TMP/err.txt" > /dev/null; then
    fail "accepted a non-numeric median_ms"
fi
grep -q "median_ms" "$TMP/err.txt" || fail "unclear error: $(cat "$TMP/err.txt")"
echo "plot_test: OK"
