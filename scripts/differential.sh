#!/usr/bin/env bash
# differential.sh: the same programs on several accelerators, their outputs
# compared byte for byte with the reference accelerator's (the last one named;
# default serial). README.md, "Results across accelerators", says what must be
# identical. Run from the GPU bundle's directory (its run.sh calls it), or
# anywhere with the variables below pointing at a build.
#
#  * every sample (DIFF_SAMPLES_LIST: one NAME, or "group/NAME expected", a
#    line; programs in DIFF_SAMPLES_DIR) and every self-checking program of
#    DIFF_PROGRAMS: stdout, then stderr, then the exit status, with the lines
#    that start with the timing marker "[timing] " left out (samples print
#    their timings that way, nothing else is dropped);
#  * the test suite (DIFF_TESTS), run with AMP_RESULT_LOG: for every test that
#    passed on both accelerators, the size and FNV-1a hash of every buffer each
#    of its kernels could write (runtime/result_log.h). A test whose name
#    matches a pattern of DIFF_EXCLUSIONS (a glob and its reason a line) may
#    differ and is listed as such; any other difference fails;
#  * precise_math: with AMP_MATH_DUMP the same run writes each function's
#    results for the ulp table's arguments; the count of bit-identical results
#    per function and type goes to OUT/precise_math_identity.md (information,
#    never a failure);
#  * DIFF_CONTROL (optional): the self-checking program built with contraction
#    on (--fast-math); on a GPU it is expected to differ, which shows that the
#    check sees a fused multiply-add. Reported, never a failure.
#
# An accelerator may be named ACC@MODE: ACC with AMP_HOST_TILES=MODE (host
# tiles compiled or on fibers, tools/tile_compiler), e.g. "openmp@compiled
# openmp@fibers" compares the two host tile paths on one accelerator; MODE
# baseline, x86-64-v3 or x86-64-v4: compiled, in that copy of the compiled
# tiles (AMP_HOST_TILES_ISA; at most the CPU's widest).
#
# Result logs written elsewhere (e.g. by programs that are not the test suite,
# each run as several processes whose logs were joined), compared test by test
# the same way, nothing run:
#   differential.sh logs NAME ACC=LOG... [REF=LOG]
# each ACC's log against the last one's (the reference), with DIFF_OUT and
# DIFF_EXCLUSIONS as below; writes DIFF_OUT/runs/NAME.ACC.tests and
# DIFF_OUT/NAME.ACC.differences ("DIFFERS: TEST", "may differ: TEST (why)",
# "not compared: TEST (ACC outcome, REF outcome)") and prints one summary line
# per ACC; exit status 1 when a test differs unexpectedly.
#
# Environment (defaults: the bundle's layout):
#   DIFF_ACCELERATORS "cuda openmp serial"   DIFF_OUT results/differential
#   DIFF_SAMPLES_DIR samples  DIFF_SAMPLES_LIST samples.list
#   DIFF_PROGRAMS ./fidelity_checks   DIFF_CONTROL ./fidelity_checks_fast
#   DIFF_TESTS ./amp_tests   DIFF_TEST_FILTER '*'   DIFF_EXCLUSIONS differential_exclusions.txt
#   DIFF_COMPARE kernels (each kernel's writable buffers) or reads (what the program read back)
# Exit status 0 when nothing differs unexpectedly, 1 otherwise.
set -u
mode=run
if [ "${1:-}" = logs ]; then
  mode=logs
  logs_name=${2:?usage: differential.sh logs NAME ACC=LOG... REF=LOG}
  shift 2
  [ $# -ge 2 ] || { echo "differential.sh logs: at least two ACC=LOG" >&2; exit 2; }
  accs=() logs_file=()
  for a in "$@"; do accs+=("${a%%=*}"); logs_file+=("${a#*=}"); done
else
  read -r -a accs <<<"${DIFF_ACCELERATORS:-cuda openmp serial}"
fi
ref="${accs[${#accs[@]} - 1]}"
out="${DIFF_OUT:-results/differential}"
sdir="${DIFF_SAMPLES_DIR:-samples}"
slist="${DIFF_SAMPLES_LIST:-samples.list}"
read -r -a programs <<<"${DIFF_PROGRAMS-./fidelity_checks}"
control="${DIFF_CONTROL-./fidelity_checks_fast}"
tests="${DIFF_TESTS-./amp_tests}"
excl="${DIFF_EXCLUSIONS:-differential_exclusions.txt}"
marker='[timing] '
# on ACC CMD...: CMD with ACC's environment (ACC@MODE: AMP_HOST_TILES=MODE, or the copy, too).
on() {
  local acc=$1; shift
  case "$acc" in
    *@baseline | *@x86-64-v*) AMP_DEFAULT_ACCELERATOR="${acc%%@*}" AMP_HOST_TILES=compiled AMP_HOST_TILES_ISA="${acc#*@}" "$@" ;;
    *@*) AMP_DEFAULT_ACCELERATOR="${acc%%@*}" AMP_HOST_TILES="${acc#*@}" "$@" ;;
    *) AMP_DEFAULT_ACCELERATOR="$acc" "$@" ;;
  esac
}
# ---- result logs, test by test (AMP_RESULT_LOG: runtime/result_log.h)
# test_lines LOG > TESTS: one line per test: name, outcome, its kernel lines
# joined by '|', sorted and without the kernel's sequence number (kernels
# launched from several threads at once are logged in either order), and the
# lines of its last launch (the highest sequence number: what the test's last
# kernel wrote; "-" if none). DIFF_COMPARE=reads: the test's `read` lines
# instead of its kernel lines, what the program read back of its kernels'
# results (log_host_read, runtime/result_log.h), so that scratch buffers and
# device copies the program never reads are not compared.
# Kernel lines outside a test's marks (before the first, or between one's end
# and the next's start: a process's own start, or the next process's when logs
# were joined) belong to "(outside-tests)", which has no outcome and is not
# compared. A test that started and did not end (its process crashed or was
# stopped) is "unfinished", kernel results or not.
test_lines() {
  awk -v what="${DIFF_COMPARE:-kernels}" 'BEGIN { t = "(outside-tests)" } /^test / { t = $2; print t, "begin"; next }
       /^read / { if (what == "reads") { l = $0; gsub(/ /, "_", l); print t, "k", l }; next }
       /^kernel / { l = $0; k = $2 + 0; sub(/^kernel [0-9]+ /, "", l); gsub(/ /, "_", l); if (what != "reads") print t, "k", l
                    if (!(t in top) || k > top[t]) { top[t] = k; last[t] = l } else if (k == top[t]) last[t] = last[t] "|" l
                    next }
       /^end / { print $2, "end", $3; if ($2 in last) print $2, "last", last[$2]; t = "(outside-tests)" }' "$1" |
    LC_ALL=C sort |
    awk 'function flush() { if (cur != "") print cur, outcome, (body == "" ? "-" : body), lastl }
         $1 != cur { flush(); cur = $1; body = ""; outcome = "unfinished"; lastl = "-" }
         $2 == "begin" { next }
         $2 == "end" { outcome = $3; next }
         $2 == "last" { lastl = $3; next }
         { body = body "|" $3 }
         END { flush() }'
}
patterns=()
if [ -f "$excl" ]; then
  while read -r pat _; do
    case "$pat" in '' | '#'*) continue ;; esac
    patterns+=("$pat")
  done <"$excl"
fi
# compare_tests NAME ACC: $out/runs/NAME.ACC.tests against NAME.$ref.tests,
# test by test; only tests that passed on both are compared. Writes
# $out/NAME.ACC.differences, prints the differing tests and a summary line.
compare_tests() {
  local name=$1 acc=$2 idt=0 nok=0 expected=0 unexpected=0 nokernel=0 earlier=0 t o1 b1 l1 o2 b2 l2 why p note
  : >"$out/$name.$acc.differences"
  while read -r t o1 b1 l1 o2 b2 l2; do
    if [ "$o1" != passed ] || [ "$o2" != passed ]; then
      nok=$((nok + 1)); echo "not compared: $t ($acc $o1, $ref $o2)" >>"$out/$name.$acc.differences"; continue
    fi
    if [ "$b1" = "$b2" ]; then
      idt=$((idt + 1)); [ "$b1" = - ] && nokernel=$((nokernel + 1)); continue
    fi
    why=""
    for p in "${patterns[@]}"; do
      # shellcheck disable=SC2053
      [[ "$t" == $p ]] && { why="$(awk -v p="$p" '$1 == p { $1 = ""; sub(/^ /, ""); print; exit }' "$excl")"; break; }
    done
    if [ -n "$why" ]; then
      expected=$((expected + 1)); echo "may differ: $t ($why)" >>"$out/$name.$acc.differences"
    else
      # Information only: whether the test's last launch wrote the same bytes
      # (the difference then lies in earlier launches: intermediate states,
      # scratch that a later launch overwrote or dropped).
      note=""
      [ "${DIFF_COMPARE:-kernels}" != reads ] && [ "$l1" = "$l2" ] && { note=" (the last launch's results identical)"; earlier=$((earlier + 1)); }
      unexpected=$((unexpected + 1)); echo "DIFFERS: $t$note" >>"$out/$name.$acc.differences"
      printf '  DIFFERS  %s (%s vs %s)%s\n' "$t" "$acc" "$ref" "$note"
    fi
  done < <(LC_ALL=C join -a1 -a2 -e missing -o 0,1.2,1.3,1.4,2.2,2.3,2.4 "$out/runs/$name.$acc.tests" "$out/runs/$name.$ref.tests")
  echo "  $acc vs $ref: $idt tests identical ($((idt - nokernel)) with kernel results, $nokernel without)," \
    "$expected differ where allowed (DIFF_EXCLUSIONS), $unexpected differ unexpectedly, $nok not compared (not passed on both);" \
    "of those that differ, $earlier with the last launch's results identical"
  same=$((same + idt)); differ=$((differ + unexpected))
}

if [ $mode = logs ]; then
  mkdir -p "$out/runs"
  same=0 differ=0
  for i in "${!accs[@]}"; do
    test_lines "${logs_file[i]}" 2>/dev/null >"$out/runs/$logs_name.${accs[i]}.tests"
  done
  for acc in "${accs[@]}"; do
    [ "$acc" = "$ref" ] || compare_tests "$logs_name" "$acc"
  done
  [ "$differ" -eq 0 ]
  exit
fi

rm -rf "$out"
mkdir -p "$out/runs" "$out/diffs"
same=0 differ=0

# Lines that start with the marker are dropped; a line merely containing it stays.
grep_v_marker() { awk -v m="$marker" 'substr($0, 1, length(m)) != m'; }
# run NAME EXE ACC: EXE's normalized output on ACC -> $out/runs/NAME.ACC
run() {
  local name=$1 exe=$2 acc=$3 o e rc
  case "$exe" in */*) ;; *) exe="./$exe" ;; esac # a name in this directory, not on PATH
  o="$(mktemp)" e="$(mktemp)"
  on "$acc" "$exe" </dev/null >"$o" 2>"$e"
  rc=$?
  { grep_v_marker <"$o"; echo "== stderr"; grep_v_marker <"$e"; echo "== exit status $rc"; } >"$out/runs/$name.$acc"
  rm -f "$o" "$e"
}
# compare NAME: each accelerator's output against the reference's
compare() {
  local name=$1 acc
  for acc in "${accs[@]}"; do
    [ "$acc" = "$ref" ] && continue
    if cmp -s "$out/runs/$name.$acc" "$out/runs/$name.$ref"; then
      same=$((same + 1)); printf '  same     %-34s %s = %s\n' "$name" "$acc" "$ref"
    else
      differ=$((differ + 1)); printf '  DIFFERS  %-34s %s vs %s\n' "$name" "$acc" "$ref"
      diff "$out/runs/$name.$ref" "$out/runs/$name.$acc" >"$out/diffs/$name.$acc.diff"
      head -n 8 "$out/diffs/$name.$acc.diff" | sed 's/^/           /'
    fi
  done
}

echo "== differential: ${accs[*]} (reference $ref), output in $out"
if [ -f "$slist" ]; then
  echo "-- samples (timing lines marked \"$marker\" left out)"
  while read -r entry _; do
    [ -n "$entry" ] || continue
    name="$(basename "$entry")"
    for acc in "${accs[@]}"; do run "$name" "$sdir/$name" "$acc"; done
    compare "$name"
  done <"$slist"
fi
for p in "${programs[@]}"; do
  [ -x "$p" ] || { echo "  MISSING  $p"; differ=$((differ + 1)); continue; }
  echo "-- $(basename "$p") (exact comparisons with CPU loops)"
  for acc in "${accs[@]}"; do run "$(basename "$p")" "$p" "$acc"; done
  compare "$(basename "$p")"
  # Each run's own verdict too: identical to its CPU loops, exit status 0.
  for acc in "${accs[@]}"; do
    grep -q '^== exit status 0$' "$out/runs/$(basename "$p").$acc" \
      || { differ=$((differ + 1)); echo "  DIFFERS  $(basename "$p") on $acc: not identical to the CPU loops"; grep 'differ' "$out/runs/$(basename "$p").$acc" | sed 's/^/           /'; }
  done
done
if [ -n "$control" ] && [ -x "$control" ]; then
  echo "-- control: $(basename "$control") (contraction on; may differ)"
  for acc in "${accs[@]}"; do
    run "$(basename "$control")" "$control" "$acc"
    if grep -q '^== exit status 0$' "$out/runs/$(basename "$control").$acc"; then
      echo "  $acc: identical to the CPU loops"
    else
      echo "  $acc: differs from the CPU loops with contraction on:"
      grep 'differ' "$out/runs/$(basename "$control").$acc" | sed 's/^/           /'
    fi
  done
fi

# ---- the test suite: result logs, test by test
if [ -n "$tests" ] && [ -x "$tests" ]; then
  echo "-- test suite (kernel results per test, AMP_RESULT_LOG)"
  for acc in "${accs[@]}"; do
    log="$out/runs/amp_tests.$acc.log"
    mkdir -p "$out/math/$acc"
    AMP_RESULT_LOG="$log" AMP_MATH_DUMP="$out/math/$acc" on "$acc" \
      "$tests" --gtest_brief=1 --gtest_filter="${DIFF_TEST_FILTER:-*}" >"$out/runs/amp_tests.$acc.out" 2>&1
    echo "  $acc: amp_tests exit status $? ($(grep -c '^test ' "$log" 2>/dev/null || echo 0) tests, $(grep -c '^kernel ' "$log" 2>/dev/null || echo 0) kernel results)"
    test_lines "$log" >"$out/runs/amp_tests.$acc.tests"
  done
  for acc in "${accs[@]}"; do
    [ "$acc" = "$ref" ] || compare_tests amp_tests "$acc"
  done
  # ---- precise_math: bit-identical results per function, each accelerator against the reference
  md="$out/precise_math_identity.md"
  {
    printf '| function | type |'; for acc in "${accs[@]}"; do [ "$acc" = "$ref" ] || printf ' %s = %s |' "$acc" "$ref"; done; echo
    printf '| --- | --- |'; for acc in "${accs[@]}"; do [ "$acc" = "$ref" ] || printf ' ---: |'; done; echo
    for f in "$out/math/$ref"/*.bin; do
      [ -f "$f" ] || continue
      b="$(basename "$f" .bin)"; fn="${b%.*}"; ty="${b##*.}"
      w=8; [ "$ty" = float ] && w=4
      printf '| %s | %s |' "$fn" "$ty"
      for acc in "${accs[@]}"; do
        [ "$acc" = "$ref" ] && continue
        g="$out/math/$acc/$b.bin"
        if [ -f "$g" ]; then
          paste <(od -An -v -tx$w -w$w "$g") <(od -An -v -tx$w -w$w "$f") |
            awk -F'\t' '{ n++; if ($1 == $2) s++ } END { printf " %d of %d |", s, n }'
        else printf ' - |'; fi
      done
      echo
    done
  } >"$md"
  echo "  precise_math bit-identical results: $md"
fi
echo "differential: $same identical, $differ differ unexpectedly"
[ "$differ" -eq 0 ]
