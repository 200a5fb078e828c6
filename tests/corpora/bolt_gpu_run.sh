#!/usr/bin/env bash
# run.sh of the Bolt GPU bundle (tests/corpora/bolt.sh bundle): AMD Bolt's
# Google Test programs, built with --gpu, each on cuda, openmp and serial
# (AMP_DEFAULT_ACCELERATOR), then Bolt's radix-sort race in programs of ours
# (C++ AMP on the three accelerators, hand-written CUDA, compute-sanitizer
# racecheck where the machine has it).
#
#   run.sh [RESULTS_DIR]              (default: $OUT if set, else ./results)
#   run.sh merge RESULTS_DIR DIR...   one summary of several runs' results (no GPU needed)
#   run.sh diff [RESULTS_DIR]         the differential: the same processes on each
#                                     accelerator with the result log, compared test by test
#
# Writes RESULTS_DIR/summary.md (passed / failed / not run per program and
# accelerator, the failed tests, the longest processes), summary.tsv,
# logs/PROGRAM.ACC.log (every process of that program and accelerator, one
# after another), units.tsv (the plan: one line per process), status.txt
# (how each ended), lists/ (the tests and their sizes) and race.txt.
#
# Work units. A program is one process per accelerator, except the long ones
# (AMP_BOLT_LONG, default SortTest StableSortTest SortByKeyTest
# StableSortByKeyTest: minutes to hours of CPU each): each of their tests of
# AMP_BOLT_SPLIT elements or more (2^20 by default) runs as a process of its
# own (--gtest_filter), the rest as AMP_BOLT_SHARDS GoogleTest
# shards (GTEST_TOTAL_SHARDS / GTEST_SHARD_INDEX, default 8). A test's size is
# read from GoogleTest's list (TypeValue<N>, GetParam() = N), or from the table
# below for the few whose size is in their body.
#
# Scheduling. The units run at once on AMP_BOLT_CORES cores (default: all),
# the most costly first (estimated from the sizes), each taking one core, an
# openmp one AMP_BOLT_OMP_THREADS (default 2) with as many OpenMP threads; a
# unit starts when its cores (and its estimated memory: AMP_BOLT_MEM_MB,
# default 85% of MemAvailable) are free, so that no core is shared (an OpenMP
# team that shares its cores with other busy threads waits a scheduler slice
# at each kernel's end, milliseconds per launch). cuda units use the GPUs in
# turn (CUDA_VISIBLE_DEVICES). No unit starts or goes on past
# AMP_BOLT_DEADLINE seconds from the start (default 510; also AMP_BOLT_LIMIT
# per unit, default none): the tests it did not reach count as "not run".
# The whole script takes about AMP_BOLT_DEADLINE + 15 seconds.
#
# Selection: AMP_BOLT_ACCS (default "cuda openmp serial"; ACC@copy: ACC with
# AMP_HOST_VIEWS=copy, e.g. serial@copy), AMP_BOLT_PROGRAMS
# (default: every program of the bundle) less AMP_BOLT_SKIP. The whole corpus
# needs about 31,000 CPU seconds (estimated: tests/corpora/README.md): one run on a
# machine of 64 cores or more, or several runs of parts on 16 cores, merged with
# `run.sh merge`.
#
# Differential (run.sh diff; the differential idea of scripts/differential.sh
# applied to Bolt). Every process runs with AMP_RESULT_LOG (runtime/result_log.h:
# after each launch, a hash of every buffer the kernel could write; the
# programs' test marks come from bolt_result_marks.cpp, linked in by bolt.sh),
# on each of AMP_BOLT_ACCS (default "cuda serial"; the last is the reference)
# with the same plan, so that each test sees the same inputs on each side:
# every program runs as AMP_BOLT_SHARDS shards (the log makes each launch wait
# and hashes its buffers), and tests of more than AMP_BOLT_DIFF_MAX elements
# (default 1048576; 0: no limit) are left out (--gtest_filter, through a
# --gtest_flagfile when long). The logs of a program's processes are joined
# and compared with differential.sh (`logs` mode): only tests that passed on
# both sides are compared (DIFF_EXCLUSIONS=AMP_BOLT_DIFF_EXCLUSIONS, default
# none: globs of tests allowed to differ, each with its reason), twice: what
# each test read back of its kernels' results (the log's read lines,
# DIFF_COMPARE=reads: the judged comparison) and every buffer each kernel
# could write (information: Bolt's scratch and device copies differ where the
# program never reads them). Writes RESULTS_DIR/differential.md and .tsv (per
# program: tests compared, identical (those with kernel results apart),
# different, each named, not compared, left out by size), the same for the
# kernels in differential-kernels.md, differential/
# (differential.sh's per-test files, xz-packed) beside the usual summary; the
# deadline defaults to 480 s to leave the comparison its time.
#
# Output. Bolt's failing by-key tests report every element (millions of
# GoogleTest failures, gigabytes of text): each log keeps GoogleTest's status
# lines and the first 20 other lines of each test.
set -uo pipefail
B="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ACCS_ALL="cuda openmp serial"

# ---- the summary (also `run.sh merge`)

# count_log LOG: "passed failed" (GoogleTestVerification apart: GoogleTest
# 1.10+ reports each uninstantiated parameterised suite, which Bolt predates).
failed_names() {
  grep -a '^\[  FAILED  \] [A-Za-z_].*\.' "$1" | grep -v ' listed below' | grep -v '^\[  FAILED  \] GoogleTestVerification' |
    sed 's/^\[  FAILED  \] \([^ ,]*\).*/\1/' | sort -u
}

# summarize R: summary.md, summary.tsv and failed.txt from R/lists, R/units.tsv,
# R/status.txt (per unit: id, then exit status, seconds and limit, or
# "deadline": not started) and R/logs.
summarize() {
  local R=$1 p acc total passed failed notrun how cell row n cut crash late secs maxs rc lim id st rest
  local -A ST=()
  : >"$R/failed.txt" # every failed test: PROGRAM.ACC NAME, a line
  while read -r id rest; do ST[$id]=$rest; done <"$R/status.txt"
  {
    echo "| program | tests | cuda | openmp | serial |"
    echo "|---|---|---|---|---|"
  } >"$R/summary.md"
  : >"$R/summary.tsv"
  for p in $(cat "$R/programs.txt"); do
    total=$(wc -l <"$R/lists/$p.tsv" 2>/dev/null || echo 0)
    row="| $p | $total |"
    for acc in $ACCS_ALL; do
      local ids
      ids=$(awk -F'\t' -v p="$p" -v a="$acc" '$2 == p && $3 == a {print $1}' "$R/units.tsv" 2>/dev/null)
      if [ -z "$ids" ]; then
        row="$row |"
        continue
      fi
      log="$R/logs/$p.$acc.log"
      n=0 cut=0 crash=0 late=0 maxs=0
      for id in $ids; do
        n=$((n + 1))
        st=${ST[$id]:-none}
        case "$st" in deadline | none) late=$((late + 1)); continue ;; esac
        read -r rc secs lim <<<"$st"
        [ "$secs" -gt "$maxs" ] && maxs=$secs
        case $rc in 0 | 1) ;; 124 | 137) cut=$((cut + 1)) ;; *) crash=$((crash + 1)) ;; esac
      done
      passed=$(grep -ac '^\[       OK \]' "$log" 2>/dev/null)
      failed=$(failed_names "$log" 2>/dev/null | grep -c .)
      notrun=$((total - passed - failed))
      [ $notrun -lt 0 ] && notrun=0
      if [ "$late" -eq "$n" ]; then how="not started (time)"
      elif [ "$n" -eq 1 ]; then how="${maxs} s"
      else how="$n processes, longest ${maxs} s"; fi
      [ $cut -gt 0 ] && how="$how, $cut cut at the deadline"
      [ $crash -gt 0 ] && how="$how, $crash ended by a crash"
      [ $late -gt 0 ] && [ $late -lt $n ] && how="$how, $late not started (time)"
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
    echo "Tests: GoogleTest's list less GoogleTestVerification (GoogleTest 1.10+ reports each"
    echo "uninstantiated parameterised suite; Bolt predates the check). A process cut at the deadline"
    echo "leaves its remaining tests \"not run\"."
    echo
    echo "Failed tests (first 20 per program and accelerator; every one in failed.txt):"
    for f in "$R"/logs/*.log; do
      [ -f "$f" ] || continue
      n=$(failed_names "$f")
      [ -n "$n" ] && { echo "- $(basename "$f" .log) ($(echo "$n" | wc -l)):"; echo "$n" | head -20 | sed 's/^/    /'
                       echo "$n" | sed "s|^|$(basename "$f" .log) |" >>"$R/failed.txt"; }
    done
    echo
    echo "The 25 longest processes (seconds, program, accelerator, tests):"
    awk 'FNR == NR { if ($2 != "deadline") { rc[$1] = $2; secs[$1] = $3 }; next }
      { split($0, u, "\t") }
      u[1] in rc {
        what = (u[6] > 1) ? ("shard " (u[7] + 1) " of " u[6] " of the rest") : u[5]
        printf "%6d  %s %s  %s%s\n", secs[u[1]], u[2], u[3], what, (rc[u[1]] == 124 || rc[u[1]] == 137) ? " (cut)" : ""
      }' "$R/status.txt" "$R/units.tsv" | sort -rn | head -25 | sed 's/^/    /'
  } >>"$R/summary.md"
}

if [ "${1:-}" = merge ]; then
  R=${2:?usage: run.sh merge RESULTS_DIR DIR...}
  shift 2
  mkdir -p "$R/logs" "$R/lists" || exit 1
  : >"$R/units.tsv.tmp"
  : >"$R/status.txt"
  for d in "$@"; do
    cp "$d"/logs/*.log "$R/logs/" 2>/dev/null
    cat "$d/status.txt" >>"$R/status.txt"
    cp "$d"/lists/*.tsv "$R/lists/" 2>/dev/null
    cat "$d/units.tsv" >>"$R/units.tsv.tmp"
    cat "$d/programs.txt" >>"$R/programs.txt.tmp"
  done
  mv "$R/units.tsv.tmp" "$R/units.tsv"
  awk '!seen[$0]++' "$R/programs.txt.tmp" >"$R/programs.txt" && rm -f "$R/programs.txt.tmp"
  summarize "$R"
  sed -n '1,/^$/p' "$R/summary.md"
  exit 0
fi

DIFF=0
if [ "${1:-}" = diff ]; then DIFF=1; shift; fi
R="${1:-${OUT:-$B/results}}"
mkdir -p "$R/logs" "$R/status" "$R/lists" "$R/units" || exit 1
[ $DIFF = 1 ] && { mkdir -p "$R/rlogs" "$R/flags" || exit 1; }
R="$(cd "$R" && pwd)"
T0=$(date +%s)
# The programs and libraries travel packed (payload.tar.xz: a fifth of their
# size); unpacked here into a temporary directory.
BIN="$B/bin" LIB="$B/lib"
if [ -f "$B/payload.tar.xz" ]; then
  X="$(mktemp -d "${TMPDIR:-/tmp}/bolt-bundle.XXXXXX")" && tar -xJf "$B/payload.tar.xz" -C "$X" \
    || { echo "run.sh: cannot unpack payload.tar.xz (xz missing?)"; exit 1; }
  BIN="$X/bin" LIB="$X/lib"
fi
export LD_LIBRARY_PATH="$LIB:${LD_LIBRARY_PATH:-}" OMP_PROC_BIND=false BIN R
CORES=${AMP_BOLT_CORES:-$(nproc)}
THREADS=${AMP_BOLT_OMP_THREADS:-2}
[ "$THREADS" -gt "$CORES" ] && THREADS=$CORES
SPLIT=${AMP_BOLT_SPLIT:-1048576}
LONG=" ${AMP_BOLT_LONG:-SortTest StableSortTest SortByKeyTest StableSortByKeyTest} "
SHARDS=${AMP_BOLT_SHARDS:-8}
DEADLINE=${AMP_BOLT_DEADLINE:-510}
ACCS=${AMP_BOLT_ACCS:-$ACCS_ALL}
CAP=0
if [ $DIFF = 1 ]; then
  DEADLINE=${AMP_BOLT_DEADLINE:-480}
  ACCS=${AMP_BOLT_ACCS:-cuda serial}
  CAP=${AMP_BOLT_DIFF_MAX:-1048576}
fi
LIMIT=${AMP_BOLT_LIMIT:-$DEADLINE}
END=$((T0 + DEADLINE))
GPUS=0
command -v nvidia-smi >/dev/null && {
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
  GPUS=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU')
}
programs=${AMP_BOLT_PROGRAMS:-$(cat "$B/programs.txt")}
for p in ${AMP_BOLT_SKIP:-}; do programs=$(echo "$programs" | tr ' ' '\n' | grep -vx "$p"); done
echo "$programs" | tr ' ' '\n' | grep . >"$R/programs.txt"
echo "cores: $(nproc) (using $CORES), GPUs: $GPUS, accelerators: $ACCS"

# Bolt's radix-sort race in programs of ours (tests/corpora/bolt_radix_race.*),
# beside the units (a few seconds of one core).
race() {
  echo "== bolt_radix_race (C++ AMP, amp_compat)"
  for acc in cuda openmp serial; do
    echo "-- $acc"
    AMP_DEFAULT_ACCELERATOR=$acc OMP_NUM_THREADS=1 timeout 60 "$BIN/bolt_radix_race" 2>&1
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
}
RACE_PID=
if [ $DIFF = 0 ] && [ -x "$BIN/bolt_radix_race" ]; then race >"$R/race.txt" 2>&1 & RACE_PID=$!; fi

# ---- the plan
# Tests whose size is in their body, not their name.
SIZES="Sort_large_power.StdclLong 33554432
StableSortUDD_largepower_test.AddDouble4 33554432
StableSortbykeyFloatVectorTest.Normal 33554432
DefaultGPU.Normal 2097152
AMPTileLimitTest.AMPTileLimitTest 134217728"
# Each program's tests: "name<TAB>size" (GoogleTest's list, serial, one thread).
list_tests() {
  AMP_DEFAULT_ACCELERATOR=serial OMP_NUM_THREADS=1 "$BIN/$1" --gtest_list_tests 2>/dev/null | LC_ALL=C awk '
    /^[^ ]/ { suite = $1; tsz = 0; if (match($0, /TypeValue<[0-9]+/)) tsz = substr($0, RSTART + 10, RLENGTH - 10) + 0; next }
    /^  / { sz = tsz; if (match($0, /GetParam\(\) = [0-9]+/)) sz = substr($0, RSTART + 13, RLENGTH - 13) + 0
            print suite $1 "\t" sz }' | grep -v '^GoogleTestVerification\.' >"$R/lists/$1.tsv"
}
export -f list_tests
for p in $programs; do echo "$p"; done | xargs -n 1 -P "$CORES" bash -c 'list_tests "$1"' _
# units.tsv: id, program, accelerator, cores, filter, shards, shard, cost,
# threads, memory (MB).
# Cost (estimated milliseconds, only to start the costly units first): a big
# test's elements times what one element costs (README.md: Bolt's radix sort on
# one core of the loaded host 3.5 us; cuda: the test's own std::sort and
# copies, 0.4 us; openmp: serial's over its threads, plus 15%; the by-key tests
# that fail element by element, 40 us on every accelerator: GoogleTest's
# reports); a program without big tests, 30 s (each took under a minute).
# Memory (estimated MB, so that the units running at once fit the machine): 60
# bytes per element (SortArrayTest's four std::arrays and Bolt's copies), 2.6
# KB for the tests failing element by element (GoogleTest keeps each report:
# 2.6 GB at 2^20 elements, measured); a program without big tests, 1 GB.
# Differential: every program in shards (no test alone: the size limit is
# below the split), the tests above the limit left out of each (capped).
for p in $programs; do
  split=$SPLIT
  [ $DIFF = 1 ] || [[ "$LONG" == *" $p "* ]] || split=999999999999 # one process
  echo "$SIZES" | LC_ALL=C awk -v p="$p" -v splitsize="$split" -v shards="$SHARDS" -v accs="$ACCS" -v threads="$THREADS" \
    -v cap="$CAP" -v capped="$R/lists/$p.capped" -v diff="$DIFF" -v flagfile="$R/flags/$p" '
    BEGIN { OFS = "\t"; na = split(accs, acc, " ") }
    FNR == NR { known[$1] = $2; next }
    function fails(name) { return name ~ /SortbyKeyDoubleVector\.Normal|\/SortbyDoubleKeyVector\.Normal/ }
    function mb(name, size) { return int(size * (fails(name) ? 0.0026 : 0.00006)) + 300 }
    { size = ($1 in known) ? known[$1] : $2
      if (cap > 0 && size > cap) { out[++no] = $1; print $1 > capped; next }
      if (size >= splitsize) { big[++nb] = $1; bigsize[nb] = size }
      else { rest += size; m = mb($1, size); if (m > restmb) restmb = m } }
    END {
      for (a = 1; a <= na; a++) {
        us = acc[a] == "cuda" ? 0.4 : acc[a] == "openmp" ? 3.5 * 1.15 / threads : 3.5
        cores = acc[a] == "openmp" ? threads : 1
        k = 0
        for (i = 1; i <= nb; i++) {
          # One core for an openmp one: its OpenMP team works for a few
          # percent of the time, GoogleTest reporting each element the rest.
          f = fails(big[i])
          print p "." acc[a] "." k++, p, acc[a], f ? 1 : cores, big[i], 1, 0, int(bigsize[i] * (f ? 40 : us) / 1000), cores,
            mb(big[i], bigsize[i])
        }
        if (nb == 0 && !diff) { print p "." acc[a] "." k++, p, acc[a], cores, "*", 1, 0, 30000, cores, 1000; continue }
        neg = ""; for (i = 1; i <= nb; i++) neg = neg ":" big[i]
        for (i = 1; i <= no; i++) neg = neg ":" out[i]
        neg = (neg == "") ? "*" : "-" substr(neg, 2)
        # A filter that names the tests left out by size: long (thousands of
        # names), so read from a file (--gtest_flagfile), the same for each unit.
        if (no > 0) { if (!written++) print "--gtest_filter=" neg > flagfile; close(flagfile); neg = "@flags/" p }
        for (s = 0; s < shards; s++) print p "." acc[a] "." k++, p, acc[a], cores, neg, shards, s, int(rest * us / 1000 / shards), cores, restmb
      }
    }' - "$R/lists/$p.tsv"
done | sort -t$'\t' -k8,8nr >"$R/units.tsv"
echo "== $(wc -l <"$R/units.tsv") processes for $(echo $programs | wc -w) programs on $ACCS" \
     "(all within $DEADLINE s of the start)"

# ---- running the units
# run_unit ID PROGRAM ACC THREADS FILTER SHARDS SHARD GPU
run_unit() {
  local id=$1 p=$2 acc=$3 threads=$4 filter=$5 shards=$6 shard=$7 gpu=$8 left lim rc t0 env=()
  left=$((END - $(date +%s)))
  if [ "$left" -lt 5 ]; then echo deadline >"$R/status/$id"; return 0; fi
  lim=$((left < LIMIT ? left : LIMIT))
  [ "$shards" -gt 1 ] && env+=(GTEST_TOTAL_SHARDS="$shards" GTEST_SHARD_INDEX="$shard")
  [ "$acc" = cuda ] && [ "$gpu" -ge 0 ] && env+=(CUDA_VISIBLE_DEVICES="$gpu")
  [ $DIFF = 1 ] && env+=(AMP_RESULT_LOG="$R/rlogs/$id.rlog")
  # ACC@copy: ACC with AMP_HOST_VIEWS=copy (a host accelerator keeping copies
  # of views as a GPU does: runtime.h host_views).
  [ "${acc%@copy}" != "$acc" ] && env+=(AMP_HOST_VIEWS=copy)
  local select=--gtest_filter="$filter"
  [ "${filter#@}" != "$filter" ] && select=--gtest_flagfile="$R/${filter#@}"
  t0=$(date +%s)
  # Logs: GoogleTest's status lines, and the first 20 other lines of each test.
  timeout -k 5 "$lim" env "${env[@]}" AMP_DEFAULT_ACCELERATOR="${acc%@copy}" OMP_NUM_THREADS="$threads" \
    "$BIN/$p" "$select" 2>&1 |
    LC_ALL=C awk 'substr($0, 1, 1) == "[" { print; if (index($0, "[ RUN") == 1) n = 0; next }
                  n < 20 { print } n++ == 20 { print "(further lines of this test left out)" }' >"$R/units/$id.log"
  rc=${PIPESTATUS[0]}
  echo "$rc $(($(date +%s) - t0)) $lim" >"$R/status/$id"
}

declare -A held held_mb # pid -> cores, memory
free=$CORES
free_mb=${AMP_BOLT_MEM_MB:-$(awk '/^MemAvailable:/ {print int($2 / 1024 * 0.85)}' /proc/meminfo)}
# The plan in arrays (read once: the queue is scanned at every event).
U_id=() U_p=() U_acc=() U_cores=() U_filter=() U_shards=() U_shard=() U_threads=() U_mb=() U_done=()
while IFS=$'\t' read -r id p acc cores filter shards shard _ threads mb; do
  U_id+=("$id") U_p+=("$p") U_acc+=("$acc") U_cores+=("$cores") U_filter+=("$filter")
  U_shards+=("$shards") U_shard+=("$shard") U_threads+=("$threads") U_mb+=("$mb") U_done+=(0)
done <"$R/units.tsv"
next_gpu=0
reap() {
  local pid
  for pid in "${!held[@]}"; do
    kill -0 "$pid" 2>/dev/null && continue
    wait "$pid" 2>/dev/null
    free=$((free + held[$pid]))
    free_mb=$((free_mb + held_mb[$pid]))
    unset "held[$pid]" "held_mb[$pid]"
  done
}
# List scheduling: the costliest unit whose cores and memory are free starts
# first (one whose memory exceeds the machine's, when nothing else runs).
n=${#U_id[@]} head=0 left=$n
while [ $left -gt 0 ]; do
  if [ $(($(date +%s) + 5)) -ge "$END" ]; then # too late for the rest
    for ((i = head; i < n; i++)); do [ "${U_done[i]}" = 1 ] || echo deadline >"$R/status/${U_id[i]}"; done
    break
  fi
  reap
  pick=-1
  for ((i = head; i < n; i++)); do
    [ "${U_done[i]}" = 0 ] && [ "${U_cores[i]}" -le "$free" ] || continue
    [ "${U_mb[i]}" -le "$free_mb" ] || [ ${#held[@]} -eq 0 ] || continue
    pick=$i
    break
  done
  if [ $pick -lt 0 ]; then
    wait -n 2>/dev/null || sleep 1
    continue
  fi
  gpu=-1
  if [ "${U_acc[pick]}" = cuda ] && [ "$GPUS" -gt 1 ]; then gpu=$next_gpu; next_gpu=$(((next_gpu + 1) % GPUS)); fi
  run_unit "${U_id[pick]}" "${U_p[pick]}" "${U_acc[pick]}" "${U_threads[pick]}" "${U_filter[pick]}" \
    "${U_shards[pick]}" "${U_shard[pick]}" "$gpu" &
  held[$!]=${U_cores[pick]}
  held_mb[$!]=${U_mb[pick]}
  free=$((free - U_cores[pick]))
  free_mb=$((free_mb - U_mb[pick]))
  U_done[pick]=1
  left=$((left - 1))
  while [ $head -lt $n ] && [ "${U_done[head]}" = 1 ]; do head=$((head + 1)); done
done
wait
echo "== units done after $(($(date +%s) - T0)) s"

# One log per program and accelerator: its units' logs in plan order.
while IFS=$'\t' read -r id p acc _ filter shards shard _ _ _; do
  {
    if [ "$shards" -gt 1 ]; then echo "#### $id: shard $((shard + 1)) of $shards"; else echo "#### $id: $filter"; fi
    cat "$R/units/$id.log" 2>/dev/null
  } >>"$R/logs/$p.$acc.log"
done < <(sort -t$'\t' -k2,2 -k3,3 -k1,1V "$R/units.tsv")
rm -rf "$R/units"
for f in "$R"/status/*; do [ -f "$f" ] && echo "$(basename "$f") $(cat "$f")"; done >"$R/status.txt"
rm -rf "$R/status"

summarize "$R"

# ---- the differential: each program's result logs joined per accelerator
# (its processes' logs in plan order) and compared test by test by
# differential.sh against the reference (the last of AMP_BOLT_ACCS).
# differential MODE: reads (what each test read back of its kernels' results,
# the judged comparison: differential.md) or kernels (every buffer each launch
# could write, scratch and device copies included: differential-kernels.md,
# information). Both read the joined logs that join_logs leaves in $R/joined.
join_logs() {
  local p acc id accs; read -r -a accs <<<"$ACCS"
  mkdir -p "$R/joined"
  for p in $(cat "$R/programs.txt"); do
    for acc in "${accs[@]}"; do
      for id in $(awk -F'\t' -v p="$p" -v a="$acc" '$2 == p && $3 == a {print $1}' "$R/units.tsv" | sort -V); do
        cat "$R/rlogs/$id.rlog" 2>/dev/null
      done >"$R/joined/$p.$acc.rlog"
    done
  done
  rm -rf "$R/rlogs"
}
differential() {
  local mode=$1 D="$R/differential" M="$R/differential" p acc f args line n_idt n_kern n_allowed n_diff n_nok n_failed n_capped n_earlier
  [ "$mode" = reads ] || { D="$R/differential-$mode"; M="$R/differential-$mode"; }
  local accs; read -r -a accs <<<"$ACCS"
  local ref=${accs[${#accs[@]} - 1]}
  mkdir -p "$D"
  {
    echo "| program | accelerators | compared | identical (with kernels) | different | of which the last launch same | allowed to differ | not compared: failed | not compared: not run | left out (size) |"
    echo "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|"
  } >"$M.md"
  : >"$M.tsv"
  : >"$M.names"
  for p in $(cat "$R/programs.txt"); do
    args=()
    for acc in "${accs[@]}"; do args+=("$acc=$R/joined/$p.$acc.rlog"); done
    DIFF_COMPARE=$mode DIFF_OUT="$D" DIFF_EXCLUSIONS="${AMP_BOLT_DIFF_EXCLUSIONS:-none}" bash "$B/differential.sh" logs "$p" \
      "${args[@]}" >"$D/$p.txt" 2>&1
    n_capped=0
    [ -f "$R/lists/$p.capped" ] && n_capped=$(wc -l <"$R/lists/$p.capped")
    for acc in "${accs[@]}"; do
      [ "$acc" = "$ref" ] && continue
      line=$(sed -n "s/^  $acc vs $ref: \([0-9]*\) tests identical (\([0-9]*\) with kernel results.*), \([0-9]*\) differ where allowed .*, \([0-9]*\) differ unexpectedly, \([0-9]*\) not compared.*/\1 \2 \3 \4 \5/p" "$D/$p.txt")
      [ -n "$line" ] || { echo "| $p | $acc vs $ref | comparison failed: $(head -c 200 "$D/$p.txt" | tr '\n' ' ') |" >>"$M.md"; continue; }
      read -r n_idt n_kern n_allowed n_diff n_nok <<<"$line"
      f="$D/$p.$acc.differences"
      # Failed: on either side; kernels outside every test (a program's own start) are no test,
      # nor GoogleTestVerification.* (GoogleTest's report of uninstantiated suites).
      n_failed=$(grep '^not compared: ' "$f" | grep -vE '^not compared: (\(outside-tests\)|GoogleTestVerification\.)' |
        grep -c ' failed[,)]')
      # Not run: the listed tests neither compared, failed nor left out (a
      # process crashed or was cut before or in them, on either side).
      n_nok=$(($(wc -l <"$R/lists/$p.tsv") - n_capped - n_idt - n_diff - n_allowed - n_failed))
      # Information: of the tests that differ, those whose last launch wrote
      # the same bytes (differential.sh's note).
      n_earlier=$(grep -c "^DIFFERS: .* (the last launch's results identical)\$" "$f")
      printf '| %s | %s vs %s | %d | %d (%d) | %s | %d | %d | %d | %d | %d |\n' "$p" "$acc" "$ref" $((n_idt + n_diff + n_allowed)) \
        "$n_idt" "$n_kern" "$([ "$n_diff" -gt 0 ] && echo "**$n_diff**" || echo 0)" "$n_earlier" "$n_allowed" "$n_failed" "$n_nok" \
        "$n_capped" >>"$M.md"
      printf '%s\t%s\t%s\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\n' "$p" "$acc" "$ref" $((n_idt + n_diff + n_allowed)) "$n_idt" \
        "$n_diff" "$n_allowed" "$n_failed" "$n_nok" "$n_capped" "$n_kern" "$n_earlier" >>"$M.tsv"
      sed -n "s/^DIFFERS: /$p $acc vs $ref: /p" "$f" >>"$M.names"
    done
    # The per-test lines packed (kernel hashes: they differ from run to run
    # only where results do).
    for f in "$D/runs/$p".*.tests; do [ -s "$f" ] && xz -T1 -f "$f"; done
  done
  {
    echo
    echo "Compared: tests that passed on both sides (identical + different + allowed to differ);"
    echo "not compared: failed on either side, or not run on one or both (a process that crashed or was cut"
    echo "at the deadline before the test ended);"
    echo "left out: more than AMP_BOLT_DIFF_MAX=$CAP elements (0: no limit), on every side."
    if [ "$mode" = reads ]; then
      echo "Each test's results: what it read back of its kernels' results (AMP_RESULT_LOG's read lines:"
      echo "the whole buffer, hashed, at its first host read after a kernel wrote it: synchronize(), host"
      echo "element access, copies out, the last view of user memory going away); scratch the program never"
      echo "reads is not compared. Identical (with kernels): of the identical tests, those that read back"
      echo "kernel results (the others read none: Bolt's serial paths, host-only containers)."
    else
      echo "Each test's kernel results: every buffer each launch could write, hashed (AMP_RESULT_LOG);"
      echo "identical (with kernels): of the identical tests, those that launched kernels (the others ran"
      echo "none: Bolt's serial paths, host-only containers). Of which the last launch same: tests that differ"
      echo "only before their last launch (intermediate states, scratch a later launch overwrote or dropped);"
      echo "information (differential.md, what the tests read back, is the judged comparison)."
    fi
    echo
    echo "Tests that differ ($(wc -l <"$M.names"); all in $(basename "$D")/PROGRAM.ACC.differences; the first 100):"
    head -100 "$M.names" | sed 's/^/    /'
  } >>"$M.md"
}
[ $DIFF = 1 ] && { join_logs; differential reads; differential kernels; rm -rf "$R/joined"; }
[ -n "$RACE_PID" ] && wait "$RACE_PID" 2>/dev/null
# The table and the race programs' output (the failed tests and the longest
# processes are in summary.md).
sed -n '1,/^$/p' "$R/summary.md"
[ $DIFF = 1 ] && { echo "== differential: what the tests read back ($ACCS)"; sed -n '1,/^$/p' "$R/differential.md"
  echo "== every buffer each kernel could write (information)"; sed -n '1,/^$/p' "$R/differential-kernels.md"; }
[ $DIFF = 0 ] && [ -f "$R/race.txt" ] && cat "$R/race.txt"
echo "run.sh: $(($(date +%s) - T0)) s in all"
