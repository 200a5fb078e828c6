#!/usr/bin/env bash
# The Windows habits of scripts/win_includes.py through amp++, where a test
# needs a failing compile or a file system that git should not carry:
#   1. "DUP.H" with both Dup.h and dup.h present: an error naming both files;
#   2. a plain build of `void main` fails and the note names it and the flag;
#   3. a plain build of a Windows-spelled include names the file and the flag;
#   4. --windows-compat resolves it and leaves no folder behind;
#   5. --msvc (Clang, MSVC dialect) accepts `void main` too.
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
exit $fail
