#!/usr/bin/env bash
# read_log_test.sh PROGRAM [ACC[@copy]...]: runs read_log.cpp's program with
# AMP_RESULT_LOG on each accelerator (ACC@copy: with AMP_HOST_VIEWS=copy) and
# checks that the log's `read` lines are the program's reads, in its order,
# with the hashes of the bytes it read (7 reads; nothing for the scratch array,
# the read-only view or a second synchronize()). Without AMP_RESULT_LOG no log
# is written. Default accelerators: serial, serial@copy, openmp.
set -u
prog=$1; shift
accs=("$@"); [ ${#accs[@]} -gt 0 ] || accs=(serial serial@copy openmp)
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
fail() { echo "read_log_test: FAIL: $*" >&2; exit 1; }
for acc in "${accs[@]}"; do
  mode=in-place; case "$acc" in *@copy) mode=copy ;; esac
  AMP_DEFAULT_ACCELERATOR="${acc%@*}" AMP_HOST_VIEWS=$mode AMP_RESULT_LOG="$T/log.$acc" "$prog" >"$T/out.$acc" 2>&1 ||
    fail "$acc: exit status $?: $(cat "$T/out.$acc")"
  grep -q wrong "$T/out.$acc" && fail "$acc: $(cat "$T/out.$acc")"
  awk '{ print $NF }' "$T/out.$acc" >"$T/want.$acc"
  awk '/^read / { print $NF }' "$T/log.$acc" >"$T/got.$acc"
  [ "$(wc -l <"$T/want.$acc")" -eq 7 ] || fail "$acc: the program printed $(wc -l <"$T/want.$acc") reads, not 7"
  cmp -s "$T/want.$acc" "$T/got.$acc" ||
    fail "$acc: the log's reads are not the program's: $(paste "$T/want.$acc" "$T/got.$acc")"
  echo "$acc: 7 reads logged with the program's hashes"
done
AMP_DEFAULT_ACCELERATOR="${accs[0]%@*}" "$prog" >/dev/null 2>&1 || fail "unlogged run failed"
cmp -s "$T/want.${accs[0]}" <(AMP_DEFAULT_ACCELERATOR="${accs[0]%@*}" "$prog" | awk '{ print $NF }') ||
  fail "the unlogged run read other bytes"
echo "read_log_test: passed"
