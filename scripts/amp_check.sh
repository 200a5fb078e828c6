#!/usr/bin/env bash
# The restrict(amp) rule checker (tools/amp_check/amp_check.cpp, a Clang plugin).
#
#   amp_check.sh plugin     build the plugin if needed; print its path
#   amp_check.sh flags      the flags that add the check to a clang++ host parse
#                           (with `-fsyntax-only` it checks and generates nothing)
#
# Needs Clang 22's C++ headers (Debian: libclang-22-dev; scripts/deps.sh checker
# installs it). AMP_CHECK_CLANG names another clang++ (its llvm-config must be
# beside it as llvm-config, or found as llvm-config-<major>).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="${AMP_BUILD_DIR:-$ROOT/build}/amp_check"
CLANG="${AMP_CHECK_CLANG:-clang++-22}"
SRC="$ROOT/tools/amp_check/amp_check.cpp"

llvm_config() {
  local dir major
  dir="$(dirname "$(readlink -f "$(command -v "$CLANG")")")"
  if [ -x "$dir/llvm-config" ]; then echo "$dir/llvm-config"; return; fi
  major="$("$CLANG" -dumpversion | cut -d. -f1)"
  command -v "llvm-config-$major"
}

plugin() {
  command -v "$CLANG" >/dev/null || { echo "amp_check: $CLANG not found" >&2; exit 3; }
  local so="$BUILD/amp_check.so" cfg
  if [ ! -f "$so" ] || [ "$SRC" -nt "$so" ]; then
    cfg="$(llvm_config)" || { echo "amp_check: no llvm-config for $CLANG" >&2; exit 3; }
    [ -f "$("$cfg" --includedir)/clang/AST/ASTConsumer.h" ] \
      || { echo "amp_check: Clang's C++ headers are missing (Debian: libclang-$("$CLANG" -dumpversion | cut -d. -f1)-dev)" >&2; exit 3; }
    mkdir -p "$BUILD"
    echo "amp_check: building the plugin" >&2
    # The plugin runs inside clang, which provides every Clang/LLVM symbol.
    "$CLANG" $("$cfg" --cxxflags) -fPIC -shared -O1 "$SRC" -o "$so.tmp.$$"
    mv "$so.tmp.$$" "$so"
  fi
  echo "$so"
}

case "${1:-}" in
  plugin) plugin ;;
  flags)
    so="$(plugin)"
    printf '%s\n' -DAMP_CHECK_PASS=1 "-fplugin=$so" -Xclang -plugin-arg-amp-check -Xclang "lib=$ROOT/amp_compat/" ;;
  *) sed -n '2,10p' "$0" >&2; exit 2 ;;
esac
