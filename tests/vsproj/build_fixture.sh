#!/usr/bin/env bash
# `./amp build --test` on the fixture solution (tests/vsproj/fixture: a static
# library, a DLL, a Unicode AMP console program referencing them and a
# CppUnitTest project), then runs the program it reports: it checks its own
# results and prints OK. --test has run the CppUnitTest project under CTest.
#
#   tests/vsproj/build_fixture.sh OUTDIR      (CTest: vsproj.build_fixture)
set -uo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
OUT="${1:?usage: build_fixture.sh OUTDIR}"
mkdir -p "$OUT"
# stdout: the programs built, one a line; stderr: the build's log.
progs="$("$ROOT/amp" build "$HERE/fixture/Fixture.sln" --out "$OUT" --test 2>"$OUT/build.log")" \
  || { cat "$OUT/build.log"; echo "FAIL: ./amp build"; exit 1; }
grep -q "skipped: PostBuildEvent" "$OUT/build.log" || { echo "FAIL: the post-build event is not reported as skipped"; exit 1; }
[ "$progs" = "$OUT/build/bin/fixture_app"$'\n'"$OUT/build/bin/UnitTests" ] \
  || { echo "FAIL: expected two programs, fixture_app and UnitTests; got: $progs"; exit 1; }
# The CppUnitTest project ran under CTest with its two TEST_METHODs.
grep -q "UnitTests .*Passed" "$OUT/build.log" || { cat "$OUT/build.log"; echo "FAIL: the CppUnitTest project did not pass under CTest"; exit 1; }
tests="$("$OUT/build/bin/UnitTests" --gtest_list_tests)"
for t in SquaresFromTheLibrary KernelInTheTest; do
  grep -q "$t" <<<"$tests" || { echo "FAIL: TEST_METHOD $t is not registered: $tests"; exit 1; }
done
prog="$OUT/build/bin/fixture_app"
out="$("$prog" 2>&1)"; rc=$?
echo "$out"
[ $rc = 0 ] && [ "$(tail -n 1 <<<"$out")" = OK ] || { echo "FAIL: fixture_app (exit $rc)"; exit 1; }
echo "ok: ./amp build --test Fixture.sln: UnitTests passed under CTest, fixture_app ran"
