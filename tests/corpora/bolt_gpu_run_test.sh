#!/usr/bin/env bash
# Test of the Bolt GPU bundle's runner (bolt_gpu_run.sh) without a GPU or
# Bolt: a bundle of two stand-ins for Google Test programs (shell scripts that
# list tests with sizes, honour --gtest_filter and GoogleTest's sharding
# variables and report as GoogleTest does), run on serial and openmp on 2
# cores. Checks that every test runs exactly once, on each accelerator,
# whether it is a big test run alone or in a shard of the rest; that the
# summary counts passed, failed and not run right; that a failing test's log
# is cut to its first lines; that the deadline stops a long test and counts
# what it did not reach; that `run.sh merge` joins two runs; and that
# `run.sh diff` runs the same processes on both accelerators with the result
# log, leaves out the tests above its size limit and reports per program the
# tests compared, identical and different (by name) and those not compared.
set -uo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
T="$(mktemp -d "${TMPDIR:-/tmp}/bolt-run-test.XXXXXX")"
trap 'rm -rf "$T"' EXIT
fail() { echo "bolt_gpu_run_test: FAILED: $*"; exit 1; }

mkdir -p "$T/bundle/bin" "$T/bundle/lib"
cp "$HERE/bolt_gpu_run.sh" "$T/bundle/run.sh"
cp "$HERE/../../scripts/differential.sh" "$T/bundle/differential.sh"
# The stand-in: its tests are the lines of $0.tests ("Suite.Name size
# outcome": pass, fail (30 lines of report), sleep:S, differ (passes, other
# results read back), scratch (passes, other kernel buffers, the same read back)).
cat >"$T/bundle/bin/fake" <<'EOF'
#!/usr/bin/env bash
set -f # filters hold *
tests="$0.tests"
filter="*"
for a in "$@"; do
  case "$a" in
    --gtest_list_tests)
      awk '{ split($1, p, "."); if (p[1] != last) print p[1] ".  # TypeParam = std::tuple<int, TypeValue<" $2 "ul> >"
             last = p[1]; print "  " p[2] }' "$tests"
      exit 0 ;;
    --gtest_filter=*) filter=${a#--gtest_filter=} ;;
    --gtest_flagfile=*) filter=$(sed -n 's/^--gtest_filter=//p' "${a#--gtest_flagfile=}"); echo "flagfile" >>"$0.ran" ;;
  esac
done
# The result log (AMP_RESULT_LOG): a kernel before the first test (a
# program's own start), different on each accelerator; then each test's.
rlog() { [ -n "${AMP_RESULT_LOG:-}" ] && echo "$*" >>"$AMP_RESULT_LOG"; return 0; }
rlog "kernel 1 extent 1 buffer 0 bytes 4 fnv1a start-$AMP_DEFAULT_ACCELERATOR"
match() { # NAME: whether the filter selects it (exact names, *, -negatives)
  local f=$1 pos neg IFS=:
  pos=${f%%-*} neg=""
  [[ "$f" == *-* ]] && neg=${f#*-}
  [ -z "$pos" ] && pos="*"
  local ok=0 x
  for x in $pos; do [[ "$x" == "*" || "$x" == "$2" ]] && ok=1; done
  for x in $neg; do [ "$x" = "$2" ] && ok=0; done
  [ $ok = 1 ]
}
i=0 failed=()
while read -r name size outcome; do
  match "$filter" "$name" || continue
  if [ -n "${GTEST_TOTAL_SHARDS:-}" ]; then
    [ $((i % GTEST_TOTAL_SHARDS)) -eq "$GTEST_SHARD_INDEX" ] || { i=$((i + 1)); continue; }
  fi
  i=$((i + 1))
  echo "[ RUN      ] $name"
  echo "accelerator $AMP_DEFAULT_ACCELERATOR threads $OMP_NUM_THREADS" >>"$0.ran"
  echo "$name $AMP_DEFAULT_ACCELERATOR" >>"$0.ran"
  echo "$name $AMP_DEFAULT_ACCELERATOR views ${AMP_HOST_VIEWS:-in-place}" >>"$0.views"
  [ -n "${AMP_RESULT_LOG:-}" ] && echo "$name $AMP_DEFAULT_ACCELERATOR shard ${GTEST_SHARD_INDEX:-none} logged" >>"$0.ran"
  rlog "test $name"
  hash="$name" khash="$name"
  [ "$outcome" = differ ] && hash="$name-$AMP_DEFAULT_ACCELERATOR" khash=$hash # passes, other results
  [ "$outcome" = scratch ] && khash="$name-$AMP_DEFAULT_ACCELERATOR" # passes, other scratch, same results read
  [ "$outcome" = crash ] || { rlog "kernel 2 extent 4 buffer 0 bytes 16 fnv1a $khash"; rlog "read bytes 16 fnv1a $hash"; }
  case "$outcome" in
    pass | differ | scratch) echo "[       OK ] $name (0 ms)"; rlog "end $name passed" ;;
    fail) for k in $(seq 30); do echo "report line $k"; done
          echo "[  FAILED  ] $name, where TypeParam = int (0 ms)"; failed+=("$name"); rlog "end $name failed" ;;
    sleep:*) sleep "${outcome#sleep:}"; echo "[       OK ] $name (0 ms)"; rlog "end $name passed" ;;
    crash) exit 139 ;; # in its first kernel: no kernel line, no end
  esac
done <"$tests"
if [ ${#failed[@]} -gt 0 ]; then
  echo "[  FAILED  ] ${#failed[@]} tests, listed below:"
  for n in "${failed[@]}"; do echo "[  FAILED  ] $n"; done
  exit 1
fi
EOF
chmod +x "$T/bundle/bin/fake"
cp "$T/bundle/bin/fake" "$T/bundle/bin/Long"
cp "$T/bundle/bin/fake" "$T/bundle/bin/Short"
rm "$T/bundle/bin/fake"
# Long: 3 big tests (size 2^21; one fails, one sleeps past the deadline in
# the second run) and 11 small ones (2 fail) in shards. Short: no big test.
{
  echo "Big.A 2097152 pass"
  echo "Big.B 2097152 fail"
  echo "Big.C 4194304 pass"
  for k in $(seq 11); do
    case $k in 3 | 7) o=fail ;; *) o=pass ;; esac
    echo "Small$((k % 3)).T$k $((k * 100)) $o"
  done
} >"$T/bundle/bin/Long.tests"
sort -t. -k1,1 -s "$T/bundle/bin/Long.tests" -o "$T/bundle/bin/Long.tests"
printf 'S.one 10 pass\nS.two 10 pass\nS.three 10 fail\n' >"$T/bundle/bin/Short.tests"
printf 'Short\nLong\n' >"$T/bundle/programs.txt"

run() { AMP_BOLT_LONG=Long AMP_BOLT_CORES=2 AMP_BOLT_SHARDS=3 AMP_BOLT_MEM_MB=100000 bash "$T/bundle/run.sh" "$@" >"$T/out.txt" 2>&1 \
          || { cat "$T/out.txt"; fail "run.sh $* exited with $?"; }; }
row() { awk -F'\t' -v p="$2" -v a="$3" '$1 == p && $2 == a { print $3, $4, $5 }' "$1/summary.tsv"; }

# 1. Everything, on serial and openmp.
AMP_BOLT_ACCS="serial openmp" run "$T/r1"
units=$(awk -F'\t' '$2 == "Long" && $3 == "serial"' "$T/r1/units.tsv" | wc -l)
[ "$units" -eq 6 ] || fail "Long on serial should be 3 big tests + 3 shards, got $units units"
for acc in serial openmp; do
  for name in $(awk '{print $1}' "$T/bundle/bin/Long.tests"); do
    n=$(grep -c "^$name $acc\$" "$T/bundle/bin/Long.ran")
    [ "$n" -eq 1 ] || fail "$name ran $n times on $acc"
  done
  [ "$(row "$T/r1" Long $acc)" = "11 3 0" ] || fail "Long on $acc: $(row "$T/r1" Long $acc), expected 11 3 0"
  [ "$(row "$T/r1" Short $acc)" = "2 1 0" ] || fail "Short on $acc: $(row "$T/r1" Short $acc), expected 2 1 0"
done
grep -q "^accelerator openmp threads 2$" "$T/bundle/bin/Long.ran" || fail "no openmp unit had 2 OpenMP threads"
grep -q "^report line 20$" "$T/r1/logs/Long.serial.log" || fail "the first 20 report lines are missing"
! grep -q "^report line 21$" "$T/r1/logs/Long.serial.log" || fail "the log was not cut after 20 report lines"
grep -q "Big.B" "$T/r1/summary.md" || fail "summary.md does not list the failed big test"

# 2. The deadline: Big.C sleeps past it; its test is "not run", the unit cut.
rm -f "$T/bundle/bin/"*.ran
sed -i 's/^Big.C 4194304 pass$/Big.C 4194304 sleep:30/' "$T/bundle/bin/Long.tests"
AMP_BOLT_ACCS=serial AMP_BOLT_PROGRAMS=Long AMP_BOLT_DEADLINE=8 run "$T/r2"
[ "$(row "$T/r2" Long serial)" = "10 3 1" ] || fail "cut run: $(row "$T/r2" Long serial), expected 10 3 1"
grep -q "1 cut at the deadline" "$T/r2/summary.md" || fail "summary.md does not say a unit was cut"

# 3. merge: r1's openmp rows and r2's serial ones, one summary.
AMP_BOLT_ACCS=openmp AMP_BOLT_OMP_THREADS=1 AMP_BOLT_DEADLINE=8 run "$T/r3"
bash "$T/bundle/run.sh" merge "$T/all" "$T/r2" "$T/r3" >/dev/null || fail "merge failed"
[ "$(row "$T/all" Long serial)" = "10 3 1" ] && [ "$(row "$T/all" Long openmp)" = "10 3 1" ] ||
  fail "merged: $(row "$T/all" Long serial) / $(row "$T/all" Long openmp)"
# 4. The differential (run.sh diff): the same processes on openmp and serial
# with the result log; tests above the size limit (250 elements: Big.* and
# Small0.*, whose suite says 300) left out through a flag file; Small2.T5 passes on both with
# other results; the failing tests, and S.four, whose process crashes in it,
# are not compared; the kernels before the first test differ and are no test.
rm -f "$T/bundle/bin/"*.ran
sed -i -e 's/^\(Small2.T5 [0-9]*\) pass$/\1 differ/' -e 's/^\(Small1.T4 [0-9]*\) pass$/\1 scratch/' "$T/bundle/bin/Long.tests"
grep -q '^Small2.T5 500 differ$' "$T/bundle/bin/Long.tests" || fail "test setup: $(cat "$T/bundle/bin/Long.tests")"
echo 'S.four 10 crash' >>"$T/bundle/bin/Short.tests" # ends its shard's process
AMP_BOLT_ACCS="openmp serial" AMP_BOLT_DIFF_MAX=250 run diff "$T/r4"
drow() { awk -F'\t' -v p="$2" '$1 == p { print $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12 }' "$1/differential.tsv"; }
[ "$(drow "$T/r4" Long)" = "openmp serial 7 6 1 0 1 0 6 6 0" ] || fail "diff Long: $(drow "$T/r4" Long), expected openmp serial 7 6 1 0 1 0 6 6 0"
[ "$(drow "$T/r4" Short)" = "openmp serial 2 2 0 0 1 1 0 2 0" ] || fail "diff Short: $(drow "$T/r4" Short), expected openmp serial 2 2 0 0 1 1 0 2 0"
grep -q '^    Long openmp vs serial: Small2.T5$' "$T/r4/differential.md" || fail "the differing test is not named: $(cat "$T/r4/differential.md")"
# What the tests read back is the judged comparison (above); every kernel's
# buffers, information: Small1.T4's scratch differs there only.
krow() { awk -F'\t' -v p="$2" '$1 == p { print $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12 }' "$1/differential-kernels.tsv"; }
[ "$(krow "$T/r4" Long)" = "openmp serial 7 5 2 0 1 0 6 5 0" ] || fail "kernels Long: $(krow "$T/r4" Long), expected openmp serial 7 5 2 0 1 0 6 5 0"
grep -q '^    Long openmp vs serial: Small1.T4$' "$T/r4/differential-kernels.md" || fail "scratch difference not named: $(cat "$T/r4/differential-kernels.md")"
grep -q 'Small1.T4' "$T/r4/differential.md" && fail "a scratch difference judged: $(cat "$T/r4/differential.md")"
for name in $(awk '$2 <= 250 {print $1}' "$T/r4/lists/Long.tsv"); do
  for acc in serial openmp; do
    n=$(grep -c "^$name $acc shard [0-9] logged\$" "$T/bundle/bin/Long.ran")
    [ "$n" -eq 1 ] || fail "diff: $name ran $n times with the result log on $acc (sharded)"
  done
  [ "$(grep "^$name openmp shard" "$T/bundle/bin/Long.ran" | cut -d' ' -f4)" = \
    "$(grep "^$name serial shard" "$T/bundle/bin/Long.ran" | cut -d' ' -f4)" ] || fail "diff: $name in other shards on each side"
done
! grep -qE '^(Big|Small0)\.' "$T/bundle/bin/Long.ran" || fail "diff: a test above the size limit ran"
grep -q '^flagfile$' "$T/bundle/bin/Long.ran" || fail "diff: the left-out tests were not given through a flag file"
[ "$(row "$T/r4" Long serial)" = "7 1 6" ] || fail "diff summary: $(row "$T/r4" Long serial), expected 7 1 6"
[ -d "$T/r4/rlogs" ] || [ -d "$T/r4/joined" ] && fail "diff: the raw result logs were kept"
# ACC@copy: ACC with AMP_HOST_VIEWS=copy, compared as an accelerator of its own.
rm -f "$T/bundle/bin/"*.views
AMP_BOLT_ACCS="serial@copy serial" AMP_BOLT_PROGRAMS=Short run diff "$T/r6"
grep -q '^S.one serial views copy$' "$T/bundle/bin/Short.views" && grep -q '^S.one serial views in-place$' "$T/bundle/bin/Short.views" ||
  fail "serial@copy: $(cat "$T/bundle/bin/Short.views")"
[ "$(drow "$T/r6" Short)" = "serial@copy serial 2 2 0 0 1 1 0 2 0" ] || fail "diff serial@copy: $(drow "$T/r6" Short)"
# Without diff no result log.
rm -f "$T/bundle/bin/"*.ran
AMP_BOLT_ACCS=serial AMP_BOLT_PROGRAMS=Short run "$T/r5"
! grep -q logged "$T/bundle/bin/Short.ran" || fail "a result log without diff"
echo "bolt_gpu_run_test: passed"
