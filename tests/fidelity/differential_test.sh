#!/usr/bin/env bash
# Test of scripts/differential.sh with stand-in programs (no AMP, no GPU):
# timing lines are left out only where the marker starts the line; a
# difference in a sample, in a self-checking program's verdict or in a test's
# kernel results fails; an excluded test and a test that did not pass on both
# sides do not; precise_math's identical results are counted per element;
# the logs mode compares result logs written elsewhere.
# Usage: differential_test.sh path/to/differential.sh
set -u
DIFF=$(readlink -f "$1")
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "differential_test: FAIL: $*" >&2; exit 1; }
cd "$T" || exit 1
mkdir samples
# A sample whose output is the same everywhere apart from marked timing lines.
cat >samples/steady <<'S'
#!/bin/sh
echo "result 42"
echo "[timing] $$ ms" >&2
echo "[timing] $$ ms on stdout"
S
# A sample that prints its accelerator in an unmarked line.
cat >samples/leaky <<'S'
#!/bin/sh
echo "result 42"
echo "took [timing] $AMP_DEFAULT_ACCELERATOR" >&2
S
# A self-checking program: fails on "b".
cat >checks <<'S'
#!/bin/sh
if [ "$AMP_DEFAULT_ACCELERATOR" = b ]; then echo "x 1 of 2 results differ"; exit 1; fi
echo "x all identical"
S
# A test suite: its result log and, for precise_math, 3 floats per run.
cat >suite <<'S'
#!/bin/sh
a=$AMP_DEFAULT_ACCELERATOR
{
  echo "test S.Same"; echo "kernel 1 extent 4 buffer 0 bytes 16 fnv1a 01"; echo "end S.Same passed"
  echo "test S.Order"; echo "kernel 2 extent 4 buffer 0 bytes 16 fnv1a 0$([ $a = b ] && echo 3 || echo 2)"
  echo "kernel 3 extent 4 buffer 0 bytes 16 fnv1a 0$([ $a = b ] && echo 2 || echo 3)"; echo "end S.Order passed"
  echo "test S.Bits"; echo "kernel 4 extent 4 buffer 0 bytes 16 fnv1a 0$([ $a = b ] && echo 5 || echo 4)"; echo "end S.Bits passed"
  echo "test M.Lib"; echo "kernel 5 extent 4 buffer 0 bytes 16 fnv1a 0$([ $a = b ] && echo 7 || echo 6)"; echo "end M.Lib passed"
  echo "test S.Skip"; echo "end S.Skip $([ $a = b ] && echo skipped || echo passed)"
} >"$AMP_RESULT_LOG"
if [ $a = b ]; then printf '\000\000\200\077\000\000\000\100\000\000\100\100' >"$AMP_MATH_DUMP/sin.float.bin"
else printf '\000\000\200\077\001\000\000\100\000\000\100\100' >"$AMP_MATH_DUMP/sin.float.bin"; fi
S
chmod +x samples/* checks suite
printf 'steady\n' >samples.list
echo 'M.* comes from each target library' >excl.txt
run() { DIFF_ACCELERATORS="b a" DIFF_PROGRAMS=./checks DIFF_CONTROL= DIFF_TESTS=./suite DIFF_EXCLUSIONS=excl.txt "$DIFF" >log 2>&1; }

run && fail "a failing self-check passed: $(cat log)"
grep -q 'same     steady' log || fail "timing lines not left out: $(cat log)"
grep -q 'DIFFERS  checks on b: not identical' log || fail "self-check verdict not reported: $(cat log)"
grep -q 'DIFFERS  S.Bits (b vs a)' log || fail "differing kernel result not reported: $(cat log)"
grep -q 'S.Order' log && fail "kernel lines compared in log order: $(cat log)"
grep -q 'b vs a: 2 tests identical (2 with kernel results, 0 without), 1 differ where allowed (DIFF_EXCLUSIONS), 1 differ unexpectedly, 1 not compared' log \
  || fail "test summary: $(cat log)"
grep -q '^may differ: M.Lib (comes from each target library)$' results/differential/amp_tests.b.differences || fail "exclusion reason"
grep -qx '| sin | float | 2 of 3 |' results/differential/precise_math_identity.md || fail "math table: $(cat results/differential/precise_math_identity.md)"

# A sample with an unmarked difference fails; everything else equal passes.
printf 'steady\nleaky\n' >samples.list
sed -i 's/= b ]; then echo "x 1/= never ]; then echo "x 1/' checks
sed -i 's/echo 5 || echo 4/echo 4 || echo 4/' suite
run && fail "unmarked difference passed: $(cat log)"
grep -q 'DIFFERS  leaky' log || fail "leaky not reported: $(cat log)"
printf 'steady\n' >samples.list
run || fail "identical runs failed: $(cat log)"

# ACC@MODE: the accelerator ACC with AMP_HOST_TILES=MODE (the host tile paths).
cat >samples/tiles <<'S'
#!/bin/sh
echo "on $AMP_DEFAULT_ACCELERATOR"
[ "$AMP_HOST_TILES" = fibers ] && echo "a fibers-only line"
exit 0
S
chmod +x samples/tiles
printf 'tiles\n' >samples.list
DIFF_ACCELERATORS="a@compiled a@fibers" DIFF_PROGRAMS= DIFF_CONTROL= DIFF_TESTS= "$DIFF" >log 2>&1 \
  && fail "a difference between the host tile paths passed: $(cat log)"
grep -q 'DIFFERS  tiles .*a@compiled vs a@fibers' log || fail "host tile paths not compared: $(cat log)"
grep -qx 'on a' results/differential/runs/tiles.a@compiled || fail "ACC@MODE ran on the wrong accelerator"
sed -i '/fibers-only/d' samples/tiles
DIFF_ACCELERATORS="a@compiled a@fibers" DIFF_PROGRAMS= DIFF_CONTROL= DIFF_TESTS= "$DIFF" >log 2>&1 \
  || fail "identical host tile paths failed: $(cat log)"
# logs mode: result logs written elsewhere (two processes' logs joined), nothing
# run; a kernel line between one test's end and the next test (the second
# process's start) is outside every test and compared with none; a test that
# started and never ended (a crash in its first kernel) is not compared; a
# test that differs before its last launch only is said to.
cat >a.rlog <<'L'
test P.One
kernel 1 extent 4 buffer 0 bytes 16 fnv1a 01
end P.One passed
kernel 1 extent 2 buffer 0 bytes 8 fnv1a 0a
test P.Two
kernel 2 extent 4 buffer 0 bytes 16 fnv1a 02
end P.Two passed
test P.Three
end P.Three failed
test P.Four
test P.Five
kernel 7 extent 4 buffer 0 bytes 16 fnv1a 05
kernel 8 extent 4 buffer 0 bytes 16 fnv1a 55
kernel 8 extent 4 buffer 1 bytes 4 fnv1a 56
end P.Five passed
L
sed -e 's/fnv1a 02/fnv1a 09/' -e 's/fnv1a 0a/fnv1a 0b/' -e 's/P.Three failed/P.Three passed/' -e 's/fnv1a 05/fnv1a 06/' a.rlog >b.rlog
DIFF_OUT=logsout DIFF_EXCLUSIONS=none "$DIFF" logs prog b=b.rlog a=a.rlog >log 2>&1 && fail "logs: a difference passed: $(cat log)"
grep -qx '  DIFFERS  P.Two (b vs a)' log || fail "logs: differing test not named: $(cat log)"
grep -qx "DIFFERS: P.Five (the last launch's results identical)" logsout/prog.b.differences \
  || fail "logs: a test that differs before its last launch only: $(cat logsout/prog.b.differences)"
grep -q "b vs a: 1 tests identical (1 with kernel results, 0 without), 0 differ where allowed (DIFF_EXCLUSIONS), 2 differ unexpectedly, 3 not compared (not passed on both); of those that differ, 1 with the last launch's results identical" log \
  || fail "logs summary: $(cat log)"
grep -qx 'not compared: P.Three (b passed, a failed)' logsout/prog.b.differences || fail "logs: $(cat logsout/prog.b.differences)"
grep -qx 'not compared: P.Four (b unfinished, a unfinished)' logsout/prog.b.differences || fail "logs: a test that crashed before any kernel result: $(cat logsout/prog.b.differences)"
DIFF_OUT=logsout DIFF_EXCLUSIONS=none "$DIFF" logs prog b=a.rlog a=a.rlog >log 2>&1 || fail "logs: identical logs failed: $(cat log)"
# DIFF_COMPARE=reads: only what each test read back counts; a scratch buffer
# that differs (its kernel line) does not, a read-back that differs does.
cat >r.rlog <<'L'
test R.Scratch
kernel 1 extent 4 buffer 0 bytes 16 fnv1a 01
kernel 1 extent 4 buffer 1 bytes 16 fnv1a 02
read bytes 16 fnv1a 01
end R.Scratch passed
test R.Result
kernel 2 extent 4 buffer 0 bytes 16 fnv1a 03
read bytes 16 fnv1a 03
end R.Result passed
L
sed -e 's/buffer 1 bytes 16 fnv1a 02/buffer 1 bytes 16 fnv1a 0f/' -e 's/read bytes 16 fnv1a 03/read bytes 16 fnv1a 04/' r.rlog >s.rlog
DIFF_OUT=readsout DIFF_EXCLUSIONS=none DIFF_COMPARE=reads "$DIFF" logs prog s=s.rlog r=r.rlog >log 2>&1 \
  && fail "reads: a differing read-back passed: $(cat log)"
grep -qx '  DIFFERS  R.Result (s vs r)' log || fail "reads: differing read-back not named: $(cat log)"
grep -q 'R.Scratch' log && fail "reads: a scratch buffer's kernel line compared: $(cat log)"
DIFF_OUT=kernelsout DIFF_EXCLUSIONS=none "$DIFF" logs prog s=s.rlog r=r.rlog >log 2>&1
grep -qx '  DIFFERS  R.Scratch (s vs r)' log || fail "kernels: the scratch buffer's difference not seen: $(cat log)"
echo "differential_test: ok"
