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
#   AMP_COMPILE_GPU=1: GPU builds (`./amp c++ --gpu`, Clang CUDA) against the
#                      CUDA compiler (AMP_CUDA_CXX, default clang++-22) with
#                      `amp++ --gpu --cflags` / `--libs`; compiling needs no GPU.
#   AMP_COMPILE_BASE=DIR: also time DIR/scripts/amp++ (another checkout, e.g.
#                         `git archive` of an earlier commit) in a column of its
#                         own, its runs alternating with this checkout's.
#   The first compile of a set of flags builds amp++'s precompiled <amp.h>
#   (amp_driver/pch.py; AMP_PCH=0: none): with RUNS > 1 the minimum is a
#   compile that finds it built, as every later compile of a build does.
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

BASE="${AMP_COMPILE_BASE:-}"
ref="g++"
[ "${AMP_COMPILE_GPU:-0}" = 1 ] && ref="${AMP_CUDA_CXX:-clang++-22} (CUDA)"
if [ -n "$BASE" ]; then
  echo "| program | before: $BASE (s CPU) | ./amp c++ (s CPU) | $ref, same flags (s CPU) | ratio |"
  echo "|---|---:|---:|---:|---:|"
else
  echo "| program | ./amp c++ (s CPU) | $ref, same flags (s CPU) | ratio |"
  echo "|---|---:|---:|---:|"
fi
tot_amp=0 tot_gxx=0 tot_base=0
for s in "${srcs[@]}"; do
  name="$(basename "$s" .cpp)"
  # As samples/CMakeLists.txt builds a sample: --windows-compat for the
  # legacy programs and those including <Windows.h>, NAME.flags beside it.
  mode=() own=() cxx=g++
  case "$s" in */legacy/*) mode=(--windows-compat) ;; esac
  grep -qs '#include <Windows.h>' "$s" && mode=(--windows-compat)
  if [ "${AMP_COMPILE_GPU:-0}" = 1 ]; then mode+=(--gpu) cxx="${AMP_CUDA_CXX:-clang++-22}"; fi
  # shellcheck disable=SC2207 # the file holds whitespace-separated flags
  [ -f "${s%.cpp}.flags" ] && own=($(cat "${s%.cpp}.flags"))
  for f in ${own[@]+"${own[@]}"}; do [ "$f" = --msvc ] && mode+=(--msvc) && cxx=clang++-22; done
  own=("${own[@]/--msvc/}")
  read -r -a cflags <<<"$("$AMPXX" "${mode[@]}" --cflags)"
  read -r -a libs <<<"$("$AMPXX" "${mode[@]}" --libs)"
  a="" b=""
  for ((k = 0; k < RUNS; k++)); do  # alternating with the base checkout's runs
    t="$(RUNS=1 cpu_seconds "$AMPXX" "${mode[@]}" -I"$(dirname "$s")" "$s" -o "$work/$name.amp" ${own[@]+"${own[@]}"})"
    if [ -z "$a" ] || awk -v x="$t" -v y="$a" 'BEGIN { exit !(x < y) }'; then a=$t; fi
    [ -n "$BASE" ] || continue
    t="$(RUNS=1 cpu_seconds "$BASE/scripts/amp++" "${mode[@]}" -I"$(dirname "$s")" "$s" -o "$work/$name.base" ${own[@]+"${own[@]}"})"
    if [ -z "$b" ] || awk -v x="$t" -v y="$b" 'BEGIN { exit !(x < y) }'; then b=$t; fi
  done
  g="$(cpu_seconds "$cxx" "${cflags[@]}" -I"$(dirname "$s")" "$s" -o "$work/$name.gxx" ${own[@]+"${own[@]}"} "${libs[@]}")"
  [ ${#mode[@]} = 0 ] || name="$name (${mode[*]})"
  ratio="$(awk -v a="$a" -v g="$g" 'BEGIN { printf "%.2f", (g > 0 ? a / g : 0) }')"
  if [ -n "$BASE" ]; then
    echo "| $name | $b | $a | $g | $ratio |"
    tot_base="$(awk -v x="$tot_base" -v y="$b" 'BEGIN { print x + y }')"
  else
    echo "| $name | $a | $g | $ratio |"
  fi
  tot_amp="$(awk -v x="$tot_amp" -v y="$a" 'BEGIN { print x + y }')"
  tot_gxx="$(awk -v x="$tot_gxx" -v y="$g" 'BEGIN { print x + y }')"
done
total_ratio="$(awk -v a="$tot_amp" -v g="$tot_gxx" 'BEGIN { printf "%.2f", a / g }')"
if [ -n "$BASE" ]; then echo "| **total** | $tot_base | $tot_amp | $tot_gxx | $total_ratio |"
else echo "| **total** | $tot_amp | $tot_gxx | $total_ratio |"; fi
