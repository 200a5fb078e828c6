#!/usr/bin/env bash
# Compile-time benchmark (host): CPU seconds (user + system, the compiler's
# children included) of building each program with `./amp c++ SRC -o X`
# against g++ with the same flags (`amp++ --cflags` / `--libs`), i.e. what the
# launcher's source passes (restrict pairs, Windows spellings, host tiles ...)
# add to a compile.
#
#   bench/compile_times.sh [SRC...]    default: samples/seeds/*.cpp and a source
#                                      that only includes <amp.h>; each built as
#                                      samples/CMakeLists.txt builds a sample
#                                      (--windows-compat, NAME.flags)
#   AMP_COMPILE_RUNS=N (default 1): runs per program, the minimum is kept.
#
# Prints a Markdown table (bench/RESULTS.md, "Compile times"): per program the
# two CPU times and their ratio, then the totals. One compile at a time: the
# numbers are CPU time, so a busy machine inflates them less than wall time.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
AMPXX="$ROOT/scripts/amp++"
RUNS="${AMP_COMPILE_RUNS:-1}"
work="$(mktemp -d "${TMPDIR:-/tmp}/amp_compile_times.XXXXXX")"
trap 'rm -rf "$work"' EXIT

srcs=("$@")
if [ ${#srcs[@]} = 0 ]; then
  printf '#include <amp.h>\nint main() { return 0; }\n' >"$work/amp_h_only.cpp"
  srcs=("$work/amp_h_only.cpp" "$ROOT"/samples/seeds/*.cpp)
fi

# cpu_seconds CMD...: the least user+system CPU seconds of RUNS runs.
cpu_seconds() {
  local best="" r t
  for ((r = 0; r < RUNS; r++)); do
    /usr/bin/time -f '%U %S' "$@" >/dev/null 2>"$work/err" || { cat "$work/err" >&2; echo "failed: $*" >&2; exit 1; }
    t="$(tail -n 1 "$work/err")"
    t="$(awk '{ printf "%.2f", $1 + $2 }' <<<"$t")"
    if [ -z "$best" ] || awk -v a="$t" -v b="$best" 'BEGIN { exit !(a < b) }'; then best=$t; fi
  done
  echo "$best"
}

echo "| program | ./amp c++ (s CPU) | g++, same flags (s CPU) | ratio |"
echo "|---|---:|---:|---:|"
tot_amp=0 tot_gxx=0
for s in "${srcs[@]}"; do
  name="$(basename "$s" .cpp)"
  # As samples/CMakeLists.txt builds a sample: --windows-compat for the
  # legacy programs and those including <Windows.h>, NAME.flags beside it.
  mode=() own=() cxx=g++
  case "$s" in */legacy/*) mode=(--windows-compat) ;; esac
  grep -qs '#include <Windows.h>' "$s" && mode=(--windows-compat)
  # shellcheck disable=SC2207 # the file holds whitespace-separated flags
  [ -f "${s%.cpp}.flags" ] && own=($(cat "${s%.cpp}.flags"))
  for f in "${own[@]}"; do [ "$f" = --msvc ] && mode+=(--msvc) && cxx=clang++-22; done
  own=("${own[@]/--msvc/}")
  read -r -a cflags <<<"$("$AMPXX" "${mode[@]}" --cflags)"
  read -r -a libs <<<"$("$AMPXX" "${mode[@]}" --libs)"
  a="$(cpu_seconds "$AMPXX" "${mode[@]}" -I"$(dirname "$s")" "$s" -o "$work/$name.amp" ${own[@]+"${own[@]}"})"
  g="$(cpu_seconds "$cxx" "${cflags[@]}" -I"$(dirname "$s")" "$s" -o "$work/$name.gxx" ${own[@]+"${own[@]}"} "${libs[@]}")"
  [ ${#mode[@]} = 0 ] || name="$name (${mode[*]})"
  ratio="$(awk -v a="$a" -v g="$g" 'BEGIN { printf "%.2f", (g > 0 ? a / g : 0) }')"
  echo "| $name | $a | $g | $ratio |"
  tot_amp="$(awk -v x="$tot_amp" -v y="$a" 'BEGIN { print x + y }')"
  tot_gxx="$(awk -v x="$tot_gxx" -v y="$g" 'BEGIN { print x + y }')"
done
echo "| **total** | $tot_amp | $tot_gxx | $(awk -v a="$tot_amp" -v g="$tot_gxx" 'BEGIN { printf "%.2f", a / g }') |"
