#!/usr/bin/env bash
# The host tile compiler (tools/tile_compiler/, a Clang plugin).
#
#   tile_compiler.sh plugin                 build the plugin if needed; print its path
#   tile_compiler.sh rewrite SRC OUT FLAG...
#       parse SRC with clang++-22 and the given compile flags (-I -D -U -include
#       -isystem -iquote -idirafter -std; others are dropped) and write SRC with
#       its tiled kernels rewritten to OUT. Exit status 0: OUT written; else
#       nothing usable (the caller compiles SRC unchanged: fibers).
#       Two parses when a kernel of SRC calls a function that waits on its
#       barrier: the first inlines such calls, the second (pass=2, on the
#       first's output) analyses those kernels; should the second fail, the
#       first runs again without inlining (tools/tile_compiler/README.md).
#       AMP_HOST_TILES_REPORT=1: a note per tiled kernel with a barrier.
#       AMP_TILE_FIBERS: kernels (FILE:LINE:COL, one a line) kept on fibers.
#       AMP_TILE_HEADERS=H1:H2... AMP_TILE_OVERLAY=DIR: the kernels of these
#       project headers too, each rewritten header written to DIR/<its path>.
#
# Needs Clang 22's C++ headers (Debian: libclang-22-dev; scripts/deps.sh
# checker installs it). AMP_CHECK_CLANG names another clang++, as for amp_check.
#
# Where the plugin comes from: in a source checkout, built on first use into
# build/tile_compiler ($AMP_BUILD_DIR). Installed (share/amp_compat/ holds
# this script and tile_compiler/, the plugin's sources): the plugin `./amp install`
# built beside the source, else one built on first use into
# $AMP_BUILD_DIR/tile_compiler or ${XDG_CACHE_HOME:-~/.cache}/amp_compat/tile_compiler.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
CLANG="${AMP_CHECK_CLANG:-clang++-22}"

# The plugin, built (or found prebuilt, in an install) by the driver's one
# plugin builder (scripts/amp_driver/plugins.py); its path on stdout.
plugin() { "$HERE/amp_driver.sh" plugin tile_compiler; }

# A precompiled <amp.h> for the parse: half of a parse is <amp.h> and Kokkos
# (tile_averages: 1.1 s of CPU, 0.5 s with it). Used where the source
# includes nothing before <amp.h> but standard headers (so that <amp.h> read
# first parses the same; `#include <amp.h>` again is then skipped by its
# guard); built once per set of flags into the user's build or cache folder.
# A parse that fails with it runs again without it (a stale or refused
# precompiled header never costs a kernel its compiled form).
# AMP_TILE_PCH=0: never.
amp_first() { # SRC: true when only comments, blank lines, #line, #pragma once
  # and <standard> includes come before its #include <amp.h> / "amp.h"
  awk '
    /^[ \t]*#[ \t]*include[ \t]*[<"]amp\.h[>"]/ { found = 1; exit }
    incomment { if ($0 ~ /\*\//) incomment = 0; next }
    /^[ \t]*$/ || /^[ \t]*\/\// || /^[ \t]*#[ \t]*(line|pragma[ \t]+once)/ { next }
    /^[ \t]*\/\*/ { if ($0 !~ /\*\//) incomment = 1; next }
    /^[ \t]*#[ \t]*include[ \t]*<[a-z_]+>[ \t]*(\/\/.*)?$/ { next }
    { exit }
    END { exit !found }' "$1"
}
pch_for() { # SRC FLAG...: the precompiled header's path on stdout, or nothing
  local src=$1 dir key hdr pch f flags=()
  shift
  [ "${AMP_TILE_PCH:-1}" != 0 ] && amp_first "$src" || return 0
  for f in "$@"; do flags+=("$f"); done
  dir="${AMP_BUILD_DIR:-${XDG_CACHE_HOME:-${HOME:-/tmp}/.cache}/amp_compat}/tile_compiler/pch"
  mkdir -p "$dir" 2>/dev/null || return 0
  key="$( { "$CLANG" --version; printf '%s\n' "${flags[@]}"; } | sha1sum | cut -c1-16)"
  pch="$dir/$key.pch"
  if [ ! -s "$pch" ]; then
    hdr="$dir/$key.h"
    printf '#include <amp.h>\n' >"$hdr"
    ( flock 9
      [ -s "$pch" ] || { "$CLANG" -x c++-header -w "${flags[@]}" "$hdr" -o "$pch.tmp.$$" 2>/dev/null \
                         && mv "$pch.tmp.$$" "$pch"; rm -f "$pch.tmp.$$"; }
    ) 9>"$dir/.lock"
  fi
  [ -s "$pch" ] && echo "$pch"
  return 0
}

rewrite() {
  local src=$1 out=$2 so keep=() a next="" lang=(-x c++ -fopenmp)
  shift 2
  so="$(plugin)"
  for a in "$@"; do
    if [ -n "$next" ]; then keep+=("$a"); next=""; continue; fi
    case "$a" in
      -I | -D | -U | -include | -isystem | -iquote | -idirafter) keep+=("$a"); next=1 ;;
      -I* | -D* | -U* | -isystem* | -iquote* | -idirafter* | -std=*) keep+=("$a") ;;
      # --msvc compiles (Clang in Microsoft mode, amp_compat/compat/msvc/flags.txt):
      # the same dialect, or the parse fails on what that mode accepts.
      -fms-* | -fdelayed-template-parsing | -fno-delayed-template-parsing) keep+=("$a") ;;
      # What changes the language the parse must accept: diagnostics that are
      # errors by default and the build turns off (-Wno-c++11-narrowing under
      # --msvc), char and wchar_t types, exceptions, RTTI.
      -Wno-* | -f*char8_t | -fsigned-char | -funsigned-char | -fshort-wchar | -fno-exceptions | -fno-rtti) keep+=("$a") ;;
      # A CUDA compile (Clang's): its host side is parsed, as the CUDA
      # compile's host pass sees it (the rewritten copy then goes through both
      # passes; the device pass never instantiates the per-tile form).
      --cuda-gpu-arch=* | --cuda-path=*) keep+=("$a"); lang=(-x cuda --cuda-host-only -Wno-unknown-cuda-version -fopenmp) ;;
    esac
  done
  local report=()
  [ -n "${AMP_HOST_TILES_REPORT:-}" ] && [ "${AMP_HOST_TILES_REPORT}" != 0 ] \
    && report=(-Xclang -plugin-arg-tile-compiler -Xclang report=1)
  # Project headers whose kernels are rewritten too (AMP_TILE_HEADERS, paths
  # separated by ':'), their copies written under AMP_TILE_OVERLAY/<path>.
  local hdrs=() h
  if [ -n "${AMP_TILE_HEADERS:-}" ] && [ -n "${AMP_TILE_OVERLAY:-}" ]; then
    hdrs+=(-Xclang -plugin-arg-tile-compiler -Xclang "overlay=$AMP_TILE_OVERLAY")
    IFS=: read -r -a hl <<<"$AMP_TILE_HEADERS"
    for h in "${hl[@]}"; do hdrs+=(-Xclang -plugin-arg-tile-compiler -Xclang "header=$h"); done
  fi
  local parse=("$CLANG" -fsyntax-only "${lang[@]}" -w -DAMP_TILE_COMPILER_PASS=1 "${keep[@]}" "-fplugin=$so")
  # The precompiled <amp.h> (host parses; its flags without the -iquote
  # folders, which differ from source to source and do not reach <amp.h>).
  local pch="" pchflags=() i
  if [ "${lang[0]}" = -x ] && [ "${lang[1]}" = c++ ]; then
    for ((i = 0; i < ${#keep[@]}; i++)); do
      if [ "${keep[i]}" = -iquote ]; then i=$((i + 1)); continue; fi
      case "${keep[i]}" in -iquote?*) continue ;; esac
      pchflags+=("${keep[i]}")
    done
    pch="$(pch_for "$src" -fopenmp -DAMP_TILE_COMPILER_PASS=1 "${pchflags[@]}")"
  fi
  local withpch=("${parse[@]}")
  [ -n "$pch" ] && withpch=("${parse[@]}" -include-pch "$pch")
  local arg=(-Xclang -plugin-arg-tile-compiler -Xclang)
  # Kernels the launcher takes back to fibers (AMP_TILE_FIBERS: FILE:LINE:COL
  # a line), after their compiled form failed to compile.
  local k
  while IFS= read -r k; do [ -n "$k" ] && parse+=("${arg[@]}" "fibers=$k"); done <<<"${AMP_TILE_FIBERS:-}"
  # First pass: kernels compiled or refused; a kernel that hands its
  # tiled_index to a function waiting on the barrier gets that call inlined
  # (its body marked /*amp_ht_inlined:...*/). Its notes are held back.
  local notes1
  notes1="$(mktemp)"
  if ! "${withpch[@]}" "${arg[@]}" "out=$out" "${report[@]}" "${hdrs[@]}" "$src" 2>"$notes1"; then
    if [ -z "$pch" ] || ! "${parse[@]}" "${arg[@]}" "out=$out" "${report[@]}" "${hdrs[@]}" "$src" 2>"$notes1"; then
      cat "$notes1" >&2; rm -f "$notes1"; return 1
    fi
    rm -f "$pch"
    pch="" withpch=("${parse[@]}")
  fi
  # The second parse reads the first's copies of the project headers (their
  # kernels inlined too): the overlay's folders before the originals.
  local ov=() d
  if [ ${#hdrs[@]} -gt 0 ] && [ -d "$AMP_TILE_OVERLAY" ]; then
    for d in $(cd "$AMP_TILE_OVERLAY" && find . -type d | sed 's|^\.||'); do
      [ -n "$d" ] && ov+=(-iquote "$AMP_TILE_OVERLAY$d")
    done
    # The overlay mirrors real paths (an -I folder written with `..` names
    # the same folder).
    for a in "${keep[@]}"; do
      case "$a" in -I?*) d="$(realpath -m -- "${a#-I}")"; [ -d "$AMP_TILE_OVERLAY$d" ] && ov+=("-I$AMP_TILE_OVERLAY$d") ;; esac
    done
  fi
  if [ -s "$out" ] && { grep -q '/\*amp_ht_inlined:' "$out" ||
                         { [ ${#ov[@]} -gt 0 ] && grep -rqs '/\*amp_ht_inlined:' "$AMP_TILE_OVERLAY"; }; }; then
    # Second pass, on the first's output: the inlined kernels analysed and
    # split (headers were written by the first pass). Should it fail, the
    # first pass again without inlining: those kernels keep fibers.
    # Its input names the original (#line 1), its "" includes resolve as the source's.
    local in2="$out.pass2.in.cpp" esc
    if head -c 8 "$out" | grep -q '^#line 1 '; then cp "$out" "$in2"; else
      esc="$(printf '%s' "$src" | sed 's/\\/\\\\/g; s/"/\\"/g')"
      { printf '#line 1 "%s"\n' "$esc"; cat "$out"; } >"$in2"
    fi
    pass2() { # PARSE-COMMAND...
      "${@:1:1}" "${ov[@]}" "${@:2}" -iquote "$(dirname "$src")" "${arg[@]}" "out=$out.pass2" "${arg[@]}" pass=2 \
        "${report[@]}" "${hdrs[@]}" "$in2" 2>"$notes1.2" && [ -s "$out.pass2" ]
    }
    if pass2 "${withpch[@]}" || { [ -n "$pch" ] && pass2 "${parse[@]}"; }; then
      cat "$notes1" "$notes1.2" >&2
      mv "$out.pass2" "$out"
    else
      echo "tile_compiler: the parse of the inlined kernels failed; kernels with barriers in called functions keep fibers" >&2
      sed 's/^/tile_compiler:   /' "$notes1.2" | grep -v 'note: amp host tiles' | head -5 >&2
      rm -f "$out.pass2"
      "${parse[@]}" "${arg[@]}" "out=$out" "${arg[@]}" inline=0 "${report[@]}" "${hdrs[@]}" "$src" || { rm -f "$notes1" "$notes1.2"; return 1; }
    fi
    rm -f "$notes1.2" "$in2"
  else
    cat "$notes1" >&2
  fi
  rm -f "$notes1"
  [ -s "$out" ]
}

case "${1:-}" in
  plugin) plugin ;;
  rewrite) shift; rewrite "$@" ;;
  *) sed -n '2,17p' "$0" >&2; exit 2 ;;
esac
