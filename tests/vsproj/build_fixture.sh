#!/usr/bin/env bash
# `./amp build` on the fixture solution (tests/vsproj/fixture: a static
# library and a Unicode AMP console program referencing it), then runs the
# program it reports: it checks its own results and prints OK.
#
#   tests/vsproj/build_fixture.sh OUTDIR      (CTest: vsproj.build_fixture)
set -uo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
OUT="${1:?usage: build_fixture.sh OUTDIR}"
mkdir -p "$OUT"
# stdout: the programs built, one a line; stderr: the build's log.
progs="$("$ROOT/amp" build "$HERE/fixture/Fixture.sln" --out "$OUT" 2>"$OUT/build.log")" \
  || { cat "$OUT/build.log"; echo "FAIL: ./amp build"; exit 1; }
grep -q "skipped: PostBuildEvent" "$OUT/build.log" || { echo "FAIL: the post-build event is not reported as skipped"; exit 1; }
[ "$progs" = "$OUT/build/bin/fixture_app" ] || { echo "FAIL: expected one program, fixture_app; got: $progs"; exit 1; }
out="$("$progs" 2>&1)"; rc=$?
echo "$out"
[ $rc = 0 ] && [ "$(tail -n 1 <<<"$out")" = OK ] || { echo "FAIL: fixture_app (exit $rc)"; exit 1; }
echo "ok: ./amp build Fixture.sln, fixture_app ran"
