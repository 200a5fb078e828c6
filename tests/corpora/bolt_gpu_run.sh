#!/usr/bin/env bash
# run.sh of the Bolt GPU bundle (tests/corpora/bolt.sh bundle): AMD Bolt's
# Google Test programs, built with --gpu, each on cuda, openmp and serial
# (AMP_DEFAULT_ACCELERATOR), then Bolt's radix-sort race in programs of ours
# (C++ AMP on the three accelerators, hand-written CUDA, compute-sanitizer
# racecheck where the machine has it).
#
#   run.sh [RESULTS_DIR]      (default: $OUT if set, else ./results)
#
# Writes RESULTS_DIR/summary.md (passed / failed / not run per program and
# accelerator), summary.tsv, logs/PROGRAM.ACC.log, xml/PROGRAM.ACC.xml
# (GoogleTest's, written when a program ends within its limit) and race.txt.
#
# Time: the programs run in three lanes at once (cuda: 2 programs at a time,
# openmp: 2 at a time with 4 threads each, serial: 4 at a time; 16 cores, not
# more: an OpenMP team that shares its cores with other busy threads waits a
# scheduler slice at each kernel's end, milliseconds per launch),
# the cheapest first. Each run is cut at AMP_BOLT_LIMIT seconds (default 120)
# and no run starts or goes on past AMP_BOLT_DEADLINE seconds from the start
# (default 400): the tests a cut program did not reach count as "not run".
# The whole script takes about AMP_BOLT_DEADLINE + 40 seconds.
set -uo pipefail
B="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
R="${1:-${OUT:-$B/results}}"
mkdir -p "$R/logs" "$R/xml" "$R/status" || exit 1
R="$(cd "$R" && pwd)"
# The programs and libraries travel packed (payload.tar.xz: a fifth of their
# size); unpacked here into a temporary directory.
BIN="$B/bin" LIB="$B/lib"
if [ -f "$B/payload.tar.xz" ]; then
  X="$(mktemp -d "${TMPDIR:-/tmp}/bolt-bundle.XXXXXX")" && tar -xJf "$B/payload.tar.xz" -C "$X" \
    || { echo "run.sh: cannot unpack payload.tar.xz (xz missing?)"; exit 1; }
  BIN="$X/bin" LIB="$X/lib"
fi
export LD_LIBRARY_PATH="$LIB:${LD_LIBRARY_PATH:-}" OMP_PROC_BIND=false BIN
LIMIT=${AMP_BOLT_LIMIT:-120}
END=$(($(date +%s) + ${AMP_BOLT_DEADLINE:-400}))
export B R LIMIT END
command -v nvidia-smi >/dev/null && nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
echo "cores: $(nproc)"

# run_one PROGRAM ACC THREADS: one program on one accelerator, within the limit.
run_one() {
  local p=$1 acc=$2 threads=$3 left lim rc t0
  left=$((END - $(date +%s)))
  if [ "$left" -lt 5 ]; then echo "deadline" >"$R/status/$p.$acc"; return 0; fi
  lim=$((left < LIMIT ? left : LIMIT))
  t0=$(date +%s)
  timeout -k 5 "$lim" env AMP_DEFAULT_ACCELERATOR="$acc" OMP_NUM_THREADS="$threads" "$BIN/$p" \
    --gtest_output="xml:$R/xml/$p.$acc.xml" >"$R/logs/$p.$acc.log" 2>&1
  rc=$?
  echo "$rc $(($(date +%s) - t0)) $lim" >"$R/status/$p.$acc"
  echo "  $p on $acc: exit $rc after $(($(date +%s) - t0)) s"
}
export -f run_one

programs=$(cat "$B/programs.txt")
# Each program's number of tests (GoogleTest's list), for "not run".
echo "$programs" | xargs -n 1 -P 8 bash -c \
  'AMP_DEFAULT_ACCELERATOR=serial "$BIN/$1" --gtest_list_tests 2>/dev/null | grep -c "^  " >"$R/status/$1.total"' _
lane() { # ACC PARALLEL THREADS
  for p in $programs; do echo "$p $1 $3"; done | xargs -P "$2" -L 1 bash -c 'run_one "$@"' _
}
echo "== Bolt's programs (limit $LIMIT s each, all within ${AMP_BOLT_DEADLINE:-400} s)"
lane cuda 2 1 & # one OpenMP thread: no idle threads spinning beside the other lanes
lane openmp 2 4 &
lane serial 4 1 &
wait

# The summary: passed, failed (GoogleTestVerification apart: GoogleTest 1.10+
# reports each uninstantiated parameterised suite, which Bolt predates), not
# run (cut by the limit or a crash), per program and accelerator.
{
  echo "| program | tests | cuda | openmp | serial |"
  echo "|---|---|---|---|---|"
} >"$R/summary.md"
: >"$R/summary.tsv"
for p in $programs; do
  total=$(cat "$R/status/$p.total")
  row="| $p | $total |"
  for acc in cuda openmp serial; do
    log="$R/logs/$p.$acc.log"
    st=$(cat "$R/status/$p.$acc" 2>/dev/null || echo "none")
    if [ "$st" = deadline ] || [ "$st" = none ]; then
      row="$row not run (time) |"
      printf '%s\t%s\t0\t0\t%s\tnot started\n' "$p" "$acc" "$total" >>"$R/summary.tsv"
      continue
    fi
    read -r rc secs lim <<<"$st"
    passed=$(grep -c '^\[       OK \]' "$log")
    failed=$(grep '^\[  FAILED  \] [A-Za-z_].*\.' "$log" | grep -v ' listed below' | grep -v '^\[  FAILED  \] GoogleTestVerification' |
      sed 's/^\[  FAILED  \] \([^ ,]*\).*/\1/' | sort -u | wc -l)
    notrun=$((total - passed - failed)) # the list has no GoogleTestVerification entries
    [ $notrun -lt 0 ] && notrun=0
    how="${secs} s"
    case $rc in
      0 | 1) ;;
      124 | 137) how="cut at $lim s" ;;
      *) how="exit $rc after $secs s" ;;
    esac
    cell="$passed passed"
    [ "$failed" -gt 0 ] && cell="$cell, **$failed failed**"
    [ $notrun -gt 0 ] && cell="$cell, $notrun not run"
    row="$row $cell ($how) |"
    printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$p" "$acc" "$passed" "$failed" "$notrun" "$how" >>"$R/summary.tsv"
  done
  echo "$row" >>"$R/summary.md"
done
{
  echo
  echo "Failed tests (first 20 per program and accelerator; GoogleTestVerification apart):"
  for f in "$R"/logs/*.log; do
    n=$(grep '^\[  FAILED  \] [A-Za-z_].*\.' "$f" | grep -v ' listed below' | grep -v GoogleTestVerification | sed 's/ (.*//' | sort -u)
    [ -n "$n" ] && { echo "- $(basename "$f" .log):"; echo "$n" | head -20 | sed 's/^\[  FAILED  \] /    /'; }
  done
  echo
  echo "Slowest tests of the runs that took 60 s or more (GoogleTest's times) and the test a cut run was in:"
  for f in "$R"/status/*.*; do
    case "$f" in *.total) continue ;; esac
    read -r rc secs lim <"$f" 2>/dev/null || continue
    [ "${secs:-0}" -ge 60 ] 2>/dev/null || continue
    log="$R/logs/$(basename "$f").log"
    echo "- $(basename "$f") ($secs s, exit $rc):"
    grep -E '^\[ +(OK|FAILED) +\] .* \([0-9]+ ms\)$' "$log" | sed -E 's/^\[ +(OK|FAILED) +\] (.*) \(([0-9]+) ms\)$/\3 ms  \2/' |
      sort -rn | head -5 | sed 's/^/    /'
    case $rc in 124 | 137) echo "    cut in: $(grep '^\[ RUN' "$log" | tail -1 | sed 's/^\[ RUN *\] //')" ;; esac
  done
} >>"$R/summary.md"

# Bolt's radix-sort race in programs of ours (tests/corpora/bolt_radix_race.*).
{
  echo "== bolt_radix_race (C++ AMP, amp_compat)"
  for acc in cuda openmp serial; do
    echo "-- $acc"
    AMP_DEFAULT_ACCELERATOR=$acc timeout 60 "$BIN/bolt_radix_race" 2>&1
  done
  echo "== bolt_radix_race_cuda (hand-written CUDA)"
  for i in 1 2 3; do timeout 60 "$BIN/bolt_radix_race_cuda" 2>&1; done
  CS=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
  if [ -x "$CS" ]; then
    echo "== compute-sanitizer --tool racecheck bolt_radix_race_cuda 8 (8 blocks of each kernel)"
    timeout 120 "$CS" --tool racecheck --racecheck-report hazard "$BIN/bolt_radix_race_cuda" 8 2>&1 | tail -n 40
  else
    echo "(no compute-sanitizer on this machine)"
  fi
} >"$R/race.txt" 2>&1
# The table and the race programs' output (the failed tests and the slowest
# ones are in summary.md).
sed -n '1,/^$/p' "$R/summary.md"
cat "$R/race.txt"
