#!/bin/sh
# Regenerates samples/{seeds,ports}/<name>.expected from the plain C++ (no AMP)
# reference programs samples/reference/<name>_ref.cpp.
# Usage: samples/reference/generate_expected.sh [CXX]   (default: g++)
# Each reference program is built with assertions enabled; a failed
# cross-check (e.g. against a value the document states) aborts the script.
set -eu
CXX=${1:-g++}
here=$(cd "$(dirname "$0")" && pwd)
samples=$(dirname "$here")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for ref in "$here"/*_ref.cpp; do
    name=$(basename "$ref" _ref.cpp)
    if [ -f "$samples/seeds/$name.cpp" ]; then dir=seeds
    elif [ -f "$samples/ports/$name.cpp" ]; then dir=ports
    else echo "no sample for $ref" >&2; exit 1
    fi
    "$CXX" -std=c++17 -O2 -Wall -Wextra -Werror -UNDEBUG -o "$tmp/$name" "$ref" -lm
    "$tmp/$name" < /dev/null > "$samples/$dir/$name.expected"
    echo "$dir/$name.expected"
done
