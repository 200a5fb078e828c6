#!/usr/bin/env bash
# The restrict(amp) checker's tests: each file here says `// amp_check: accept`
# (must pass the check and compile) or `// amp_check: reject CODE...`: then
# every line marked `// error: CODE...` must be reported with those codes
# (Microsoft's error numbers) and no other line may be. Then every sample
# and legacy program in samples/ must pass the check: legal AMP code is never
# refused. Exit 77 (skip) only when Clang 22 or its headers are missing.
#   run.sh [rules|samples|all]   (default all) the rule files, the samples, or both.
# The rule files are checked and compiled (an accepted file must also build);
# the samples are only checked (AMP_CHECK=only: the samples build compiles
# them), which halves the sweep's cost.
set -uo pipefail
what="${1:-all}"
case "$what" in rules | samples | all) ;; *) echo "usage: run.sh [rules|samples|all]" >&2; exit 2 ;; esac
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
AMPXX="$ROOT/scripts/amp++"
"$ROOT/scripts/amp_check.sh" plugin >/dev/null 2>&1 || { echo "amp_check unavailable (scripts/deps.sh checker)"; exit 77; }
fail=0 n=0
rule_files=("$HERE"/*.cpp)
[ "$what" = samples ] && rule_files=()
for f in "${rule_files[@]}"; do
  n=$((n + 1))
  spec="$(sed -n 's|^// amp_check: ||p' "$f" | head -n 1)"
  out="$("$AMPXX" --amp-check -fsyntax-only "$f" 2>&1)"; rc=$?
  case "$spec" in
    accept)
      if [ $rc = 0 ]; then echo "ok   $(basename "$f"): accepted"
      else echo "FAIL $(basename "$f"): legal code refused:"; echo "$out" | grep -m5 "error"; fail=1; fi ;;
    reject*)
      # Each line marked `// error: CODE...` must be reported with exactly
      # those codes, and nothing else may be: every rule is asserted alone.
      want="$(grep -n '// error: ' "$f" | sed -E 's|^([0-9]+):.*// error: (.*)$|\1 \2|' \
        | while read -r n codes; do for c in $codes; do echo "$n $c"; done; done | sort -u)"
      got="$(grep -oE "$(basename "$f"):[0-9]+:[0-9]+: error: .*\[C\+\+ AMP C[0-9]+\]" <<<"$out" \
        | sed -E 's|^[^:]*:([0-9]+):.*\[C\+\+ AMP (C[0-9]+)\]$|\1 \2|' | sort -u)"
      if [ $rc != 0 ] && [ -n "$want" ] && [ "$want" = "$got" ]; then
        echo "ok   $(basename "$f"): refused on each marked line ($(wc -l <<<"$want") line/code pairs)"
      else
        echo "FAIL $(basename "$f"): rc=$rc; expected (line code) but not reported:"
        comm -23 <(echo "$want") <(echo "$got") | sed 's/^/    /'
        echo "  reported but not marked:"; comm -13 <(echo "$want") <(echo "$got") | sed 's/^/    /'
        fail=1
      fi ;;
    *) echo "FAIL $(basename "$f"): no '// amp_check:' line"; fail=1 ;;
  esac
done
# Every sample and legacy program: legal AMP, so the check must accept it.
# The samples are checked in groups of the same folder and flags, one amp++
# (one launcher, one Clang driver) per group; a group that is not accepted
# whole is checked again file by file, which says which file and why.
sample_flags() { # sample_flags FILE: its flags, as samples/CMakeLists.txt builds it
  local f=$1 extra=()
  case "$f" in */legacy/*) extra=(--windows-compat) ;; esac
  grep -q '#include <Windows.h>' "$f" && extra=(--windows-compat)
  # shellcheck disable=SC2207 # the file holds whitespace-separated flags
  [ -f "${f%.cpp}.flags" ] && extra+=($(cat "${f%.cpp}.flags"))
  echo "${extra[*]}"
}
check_samples() { # check_samples FLAGS FILE...: exit 0 when every file is accepted
  local flags=$1 out rc; shift
  # shellcheck disable=SC2086 # FLAGS: whitespace-separated flags
  out="$(AMP_CHECK=only "$AMPXX" $flags -fsyntax-only -I"$(dirname "$1")" "$@" 2>&1)"; rc=$?
  if [ $rc = 0 ] && grep -q "could not parse" <<<"$out"; then echo "not checked: $out"; return 1; fi
  [ $rc = 0 ] || { echo "$out" | grep -m5 "error"; return 1; }
}
sample_files=()
[ "$what" = rules ] || mapfile -t sample_files < <(find "$ROOT/samples" -name '*.cpp' | sort)
declare -A groups=()
for f in "${sample_files[@]}"; do
  n=$((n + 1))
  key="$(dirname "$f")|$(sample_flags "$f")"
  groups[$key]+="$f"$'\n'
done
for key in "${!groups[@]}"; do
  mapfile -t files <<<"${groups[$key]%$'\n'}"
  if check_samples "${key#*|}" "${files[@]}" >/dev/null; then
    for f in "${files[@]}"; do echo "ok   ${f#$ROOT/}: accepted"; done
    continue
  fi
  for f in "${files[@]}"; do
    if why="$(check_samples "${key#*|}" "$f")"; then echo "ok   ${f#$ROOT/}: accepted"
    else echo "FAIL ${f#$ROOT/}: refused or not checked:"; echo "$why"; fail=1; fi
  done
done
echo "$n files checked"
exit $fail
