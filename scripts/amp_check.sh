#!/usr/bin/env bash
# The restrict(amp) rule checker (tools/amp_check/amp_check.cpp, a Clang plugin).
#
#   amp_check.sh plugin     build the plugin if needed; print its path
#   amp_check.sh flags      the flags that add the check to a clang++ host parse
#                           (with `-fsyntax-only` it checks and generates nothing)
#
# The plugin is built by the driver package's one plugin builder
# (scripts/amp_driver/plugins.py: Clang 22's C++ headers needed; AMP_CHECK_CLANG
# names another clang++).
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
case "${1:-}" in
  plugin) exec "$HERE/amp_driver.sh" plugin amp_check ;;
  flags) exec "$HERE/amp_driver.sh" check-flags ;;  # plugins.check_flags: the one list of them
  *) sed -n '2,10p' "$0" >&2; exit 2 ;;
esac
