#!/usr/bin/env bash
# The Windows habits of scripts/amp_driver/passes/windows.py through amp++, where a test
# needs a failing compile or a file system that git should not carry:
#   1. "DUP.H" with both Dup.h and dup.h present: an error naming both files;
#   2. a plain build of `void main` fails and the note names it and the flag;
#   3. a plain build of a Windows-spelled include names the file and the flag;
#   4. --windows-compat resolves it and leaves no folder behind;
#   5. --msvc (Clang, MSVC dialect) accepts `void main` too;
#   6. a plain build of assert(cond, "message") names it and --windows-compat;
#   7. array and texture property syntax (arr.accelerator_view,
#      tex.data_length) and an AMP name used in a
#      template before `using namespace concurrency`: the --windows-compat
#      build fails, the note names the habit and --msvc, and --msvc builds it;
#   8. a plain build of a temporary array viewed as an array_view names it.
set -uo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
AMPXX="$(cd "$HERE/../../.." && pwd)/scripts/amp++"
work="$(mktemp -d "${TMPDIR:-/tmp}/amp_habits.XXXXXX")"
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
fail=0
check() {  # check NAME CONDITION-STATUS OUTPUT
  if [ "$2" = 0 ]; then echo "ok   $1"; else echo "FAIL $1"; printf '%s\n' "$3" | tail -n 8; fail=1; fi
}

mkdir amb
echo 'int upper();' >amb/Dup.h
echo 'int lower();' >amb/dup.h
printf '#include "DUP.H"\nint main() { return 0; }\n' >amb/a.cpp
out="$("$AMPXX" --windows-compat -fsyntax-only amb/a.cpp 2>&1)"; rc=$?
[ $rc != 0 ] && grep -q 'names several files' <<<"$out" && grep -q 'amb/Dup.h' <<<"$out" && grep -q 'amb/dup.h' <<<"$out"
check "ambiguous spelling: an error naming both files" $? "$out"

out="$("$AMPXX" -fsyntax-only "$HERE/void_main.cpp" 2>&1)"; rc=$?
[ $rc != 0 ] && grep -q 'void main()` (accepted with --windows-compat or --msvc' <<<"$out"
check "plain build of void main: fails, the note names it and the flags" $? "$out"

out="$("$AMPXX" -fsyntax-only -I"$HERE/inc" "$HERE/src/includes.cpp" 2>&1)"; rc=$?
[ $rc != 0 ] && grep -q 'note: #include "blackscholes.h" .*(the file is .*src/BlackScholes.h); add --windows-compat' <<<"$out"
check "plain build of a Windows-spelled include: the note names the file and the flag" $? "$out"

out="$("$AMPXX" --windows-compat -I"$HERE/inc" "$HERE/src/includes.cpp" -o inc 2>&1)" && out+="$(./inc)"; rc=$?
[ $rc = 0 ] && grep -qx 'BlackScholes.h Common/Timer.h Common/Clock.h inc/winlib/api.h' <<<"$out" && [ -z "$(ls -d ./*.win 2>/dev/null)" ]
check "--windows-compat: resolved, nothing left beside the program" $? "$out"

out="$("$AMPXX" --msvc "$HERE/void_main.cpp" -o vm 2>&1)" && out+="$(./vm early)"; rc=$?
[ $rc = 0 ] && grep -qx 'early return' <<<"$out"
check "--msvc: void main accepted, return; returns 0" $? "$out"
printf '#include <cassert>\nint main(int argc, char**) { assert(argc > 0, "why"); return 0; }\n' >am.cpp
out="$("$AMPXX" -fsyntax-only am.cpp 2>&1)"; rc=$?
[ $rc != 0 ] && grep -q 'assert(condition, "message") with a message argument .*add --windows-compat' <<<"$out"
check "plain build of assert(cond, \"message\"): the note names it and the flag" $? "$out"

out="$("$AMPXX" --windows-compat -fsyntax-only "$HERE/property_syntax.cpp" 2>&1)"; rc=$?
[ $rc != 0 ] && grep -q "MSVC's property syntax on an array or texture" <<<"$out" && grep -q 'add --msvc' <<<"$out"
check "array and texture property syntax: the note names it and --msvc" $? "$out"
out="$("$AMPXX" --windows-compat --msvc "$HERE/property_syntax.cpp" -o ps 2>&1)" && out+="$(OMP_NUM_THREADS=2 ./ps)"; rc=$?
[ $rc = 0 ] && grep -qx '16' <<<"$out" && grep -qx '64 16 1 16 1' <<<"$out"
check "--msvc: array and texture property syntax builds, the properties are the getters" $? "$out"

out="$("$AMPXX" --windows-compat -fsyntax-only "$HERE/late_using.cpp" 2>&1)"; rc=$?
[ $rc != 0 ] && grep -q 'an AMP name used in a template before `using namespace concurrency;`' <<<"$out" && grep -q 'add --msvc' <<<"$out"
check "AMP name before using namespace concurrency: the note names it and --msvc" $? "$out"
out="$("$AMPXX" --windows-compat --msvc "$HERE/late_using.cpp" -o lu 2>&1)" && out+="$(OMP_NUM_THREADS=2 ./lu)"; rc=$?
[ $rc = 0 ] && grep -qx '1 2' <<<"$out"
check "--msvc: the late using-directive builds and runs" $? "$out"

out="$("$AMPXX" -fsyntax-only "$HERE/sample_pack_habits.cpp" 2>&1)"; rc=$?
[ $rc != 0 ] && grep -q 'a temporary array viewed as an array_view' <<<"$out"
check "plain build of a temporary array as array_view: the note names it" $? "$out"
exit $fail
