#!/usr/bin/env bash
# Compile-time benchmark on the AMP Algorithms Library (a user's code base,
# ../shared/corpora/ampalgorithms or $AMP_CORPORA_DIR/ampalgorithms; never
# copied here): CPU seconds (user + system, every child included) of
# `./amp c++ -c SRC` for each of its test sources, with the flags of
# tests/corpora/ampalgorithms.sh build (--windows-compat --msvc: clang++-22 in
# Microsoft mode), against the compiler alone: the CPU of the last compiler
# run (the one that writes the object) of the same compile with the tile
# compiler and the precompiled prefix header off (AMP_TILE_COMPILER=off
# AMP_PREFIX_PCH=0; a wrapper named by AMP_MSVC_CXX times each run). These sources do not compile as written with clang++-22 and the
# same flags (the MSVC dialect pass supplies what Clang's fix-its ask for),
# so that is the reference of bench/RESULTS.md's "Compile times" rounds.
#
#   bench/compile_times_corpus.sh [NAME...]   default: every test/*.cpp
#   AMP_COMPILE_BASE=DIR: also time DIR/amp (another checkout) in a column of
#                         its own, its run alternating with this checkout's per
#                         source (each checkout keeps its own build folder and
#                         caches: AMP_BUILD_DIR unset).
#   AMP_COMPILE_ALONE=0: no compiler-alone column (half the time).
#   AMP_COMPILE_CENSUS=FILE: the host tile census of this checkout's compiles
#                            (AMP_TILES_CENSUS), printed after the table.
# Prints a Markdown table with the load average at each source's start.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
CORPUS="${AMP_CORPORA_DIR:-$ROOT/../shared/corpora}/ampalgorithms"
[ -d "$CORPUS/test" ] || { echo "no corpus at $CORPUS" >&2; exit 77; }
BASE="${AMP_COMPILE_BASE:-}"
work="$(mktemp -d "${TMPDIR:-/tmp}/amp_corpus_times.XXXXXX")"
trap 'rm -rf "$work"' EXIT
flags=(--windows-compat --msvc -DWIN32 -D_CONSOLE -DNDEBUG -DUNICODE -D_UNICODE -I"$CORPUS/inc" -I"$CORPUS/test")
cat >"$work/cxx" <<'WRAP'
#!/bin/sh
exec /usr/bin/time -a -o "$AMP_CORPUS_TIMES" -f '%U %S' clang++-22 "$@"
WRAP
chmod +x "$work/cxx"

cpu() { # CMD... -> user+system CPU seconds of CMD and its children
  /usr/bin/time -f '%U %S' -o "$work/t" "$@" >"$work/log" 2>&1 || { cat "$work/log" >&2; echo "failed: $*" >&2; exit 1; }
  awk '{ printf "%.2f", $1 + $2 }' "$work/t"
}
names=("$@")
if [ ${#names[@]} = 0 ]; then for s in "$CORPUS"/test/*.cpp; do names+=("$(basename "$s" .cpp)"); done; fi
hb="" ; [ -n "$BASE" ] && hb="before (s CPU) | "
ha="" ; [ "${AMP_COMPILE_ALONE:-1}" = 1 ] && ha=" the compiler alone (s CPU) | ratio |"
echo "| source | ${hb}./amp c++ (s CPU) |${ha} load |"
echo "|---|$([ -n "$BASE" ] && echo '---:|')---:|$([ -n "$ha" ] && echo '---:|---:|')---:|"
tb=0 ta=0 tc=0
for n in "${names[@]}"; do
  s="$CORPUS/test/$n.cpp"
  load="$(cut -d' ' -f1 /proc/loadavg)"
  b=""
  if [ -n "$BASE" ]; then b="$(cpu "$BASE/amp" c++ "${flags[@]}" -c "$s" -o "$work/$n.base.o")"; tb="$(awk -v x="$tb" -v y="$b" 'BEGIN { print x + y }')"; fi
  a="$(AMP_TILES_CENSUS="${AMP_COMPILE_CENSUS:-}" cpu "$ROOT/amp" c++ "${flags[@]}" -c "$s" -o "$work/$n.o")"
  ta="$(awk -v x="$ta" -v y="$a" 'BEGIN { print x + y }')"
  row="| $n | ${b:+$b | }$a |"
  if [ -n "$ha" ]; then
    : >"$work/runs"
    AMP_TILE_COMPILER=off AMP_PREFIX_PCH=0 AMP_MSVC_CXX="$work/cxx" AMP_CORPUS_TIMES="$work/runs" \
      "$ROOT/amp" c++ "${flags[@]}" -c "$s" -o "$work/$n.alone.o" >"$work/log" 2>&1 || { cat "$work/log" >&2; exit 1; }
    c="$(grep -E '^[0-9.]+ [0-9.]+$' "$work/runs" | tail -n 1 | awk '{ printf "%.2f", $1 + $2 }')"
    tc="$(awk -v x="$tc" -v y="$c" 'BEGIN { print x + y }')"
    row+=" $c | $(awk -v a="$a" -v c="$c" 'BEGIN { printf "%.2f", a / c }') |"
  fi
  echo "$row $load |"
done
row="| **total** (${#names[@]}) | ${BASE:+$tb | }$ta |"
[ -n "$ha" ] && row+=" $tc | $(awk -v a="$ta" -v c="$tc" 'BEGIN { printf "%.2f", a / c }') |"
echo "$row |"
if [ -n "${AMP_COMPILE_CENSUS:-}" ]; then
  echo
  census="$("$ROOT/scripts/amp_driver.sh" tiles-census "$AMP_COMPILE_CENSUS")"
  echo "$(tail -n 1 <<<"$census"); $(grep -c 'baseline copy only' <<<"$census" || true) of them built in the baseline copy only"
fi
