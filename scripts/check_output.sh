#!/usr/bin/env bash
# check_output.sh EXE EXPECTED: runs EXE (stdin empty) and compares its stdout
# with EXPECTED byte for byte; prints a diff on mismatch.
set -u
exe=$1 expected=$2
out=$(mktemp)
trap 'rm -f "$out"' EXIT
if ! "$exe" </dev/null >"$out"; then
  echo "FAIL: $exe exited with status $?" >&2
  exit 1
fi
if ! diff -u "$expected" "$out" >&2; then
  echo "FAIL: output of $exe differs from $expected" >&2
  exit 1
fi
exit 0
