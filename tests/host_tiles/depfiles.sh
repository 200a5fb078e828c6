#!/usr/bin/env bash
# depfiles.sh AMPXX OUTDIR DIR [FLAG...]: compiles DIR/main.cpp (its tiled
# kernels in DIR's headers, which the launcher's passes copy: rewritten
# kernels, Windows spellings' shims) with -MD, as CMake and make builds do.
# The dependency file must name the user's files, not the launcher's
# per-compile copies: every file it names exists after the compile, none is
# in a per-compile folder, each header of DIR is there by its own path (an
# edit of it rebuilds the object), and nothing is left beside the object.
# Both -MD and -MMD (the latter leaves system headers out: the user's
# headers reached through a Windows spelling's shim must stay in).
# Exit 77 when the tile compiler is not available (no clang++-22).
set -euo pipefail
ampxx=$1 out=$2 dir=$3
shift 3
fail=0
for dep in -MD -MMD; do
rm -rf "$out" && mkdir -p "$out/obj"
notes=$(AMP_HOST_TILES_REPORT=1 "$ampxx" "$@" $dep -MF "$out/obj/main.d" -c "$dir/main.cpp" -o "$out/obj/main.o" 2>&1) || {
  echo "$notes"; echo "FAIL: the build failed ($dep)"; exit 1; }
grep -q "amp host tiles: .*compiled" <<<"$notes" || { echo "the tile compiler is not available here (skipped)"; exit 77; }
deps=$(python3 - "$out/obj/main.d" "$(dirname "$0")/../../scripts" <<'PY'
import sys
sys.path.insert(0, sys.argv[2])
from amp_driver import depfile
for targets, deps in depfile.parse(open(sys.argv[1]).read()):
    for d in deps:
        print(d)
PY
)
while IFS= read -r d; do
  [ -e "$d" ] || { echo "FAIL ($dep): the dependency file names $d, which does not exist"; fail=1; }
  case "$d" in */amp_tiles_*|*/amp_restrict_*|*/amp++win.*|*.o.tiles/*|*.o.restrict/*)
    echo "FAIL ($dep): the dependency file names a per-compile copy: $d"; fail=1 ;; esac
done <<<"$deps"
while IFS= read -r h; do
  real=$(realpath "$h")
  grep -qxF "$real" <<<"$deps" || { echo "FAIL ($dep): $h is not in the dependency file"; fail=1; }
done < <(find "$dir" -name '*.h' -o -name main.cpp)
leftover=$(ls "$out/obj" | grep -v '^main\.[od]$' || true)
[ -z "$leftover" ] || { echo "FAIL ($dep): left beside the object: $leftover"; fail=1; }
[ $fail = 0 ] || { grep -v '^ /usr/' "$out/obj/main.d"; exit 1; }
echo "ok ($dep): $(wc -l <<<"$deps") dependencies, all the user's files"
done
