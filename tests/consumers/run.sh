#!/usr/bin/env bash
# Builds and runs the consumer projects: the three ways a user's build takes
# amp_compat in. Each builds a tiled AMP program and runs it.
#
#   tests/consumers/run.sh [WORKDIR]         install (./amp install) into WORKDIR/prefix,
#                                            then find_package, make, subdirectory, and
#                                            amp-vs import of a Visual Studio solution
#   tests/consumers/run.sh --deb [WORKDIR]   ./amp package; check its dependencies with
#                                            apt-get -s; dpkg -x into WORKDIR/root; then
#                                            find_package and make against WORKDIR/root/usr
#   tests/consumers/run.sh --gpu [WORKDIR]   ./amp install --gpu; find_package (clang++-22,
#                                            AMP_COMPAT_GPU=ON) and make (amp++ --gpu);
#                                            the programs run only where a GPU is visible
#
# WORKDIR defaults to build/consumers (resp. build/consumers-deb, -gpu).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
HERE="$ROOT/tests/consumers"
export AMP_BUILD_DIR="${AMP_BUILD_DIR:-$ROOT/build}"
JOBS="${AMP_JOBS:-2}"
DEB=0 GPU=0 suffix=""
case "${1:-}" in
  --deb) DEB=1 suffix=-deb; shift ;;
  --gpu) GPU=1 suffix=-gpu; shift ;;
esac
WORK="${1:-$AMP_BUILD_DIR/consumers$suffix}"
say() { echo "[consumers] $*" >&2; }
fail() { echo "[consumers] FAILED: $*" >&2; exit 1; }
# Host kernels on 2 threads: CI machines are small and shared.
export OMP_NUM_THREADS="${OMP_NUM_THREADS:-2}" OMP_PROC_BIND="${OMP_PROC_BIND:-false}"

rm -rf "$WORK"; mkdir -p "$WORK"
# The checkout's driver, once its dependencies are set up, prints only flags.
"$ROOT/amp" c++ --cflags >"$WORK/cflags.txt" 2>"$WORK/cflags.err" || fail "./amp c++ --cflags"
[ ! -s "$WORK/cflags.err" ] || { cat "$WORK/cflags.err" >&2; fail "./amp c++ --cflags wrote to stderr"; }
grep -q -- "-include $ROOT/amp_compat/amp_prelude.h" "$WORK/cflags.txt" || fail "--cflags lacks the prelude"

if [ $DEB = 1 ]; then
  deb="$("$ROOT/amp" package)"
  say "package: $deb"
  dpkg-deb --info "$deb" | sed -n '/Package:/,$p' >&2
  if [ "$(id -u)" = 0 ]; then
    # Would apt-get install pull in everything it needs? (simulated: -s)
    apt-get install -s "$deb" >"$WORK/apt-simulate.log" 2>&1 \
      || { cat "$WORK/apt-simulate.log" >&2; fail "apt-get install -s $deb"; }
    say "apt-get install -s: dependencies resolve"
  fi
  dpkg -x "$deb" "$WORK/root"
  prefix="$WORK/root/usr"
else
  prefix="$WORK/prefix"
  "$ROOT/amp" install "$prefix" $([ $GPU = 1 ] && echo --gpu) >/dev/null 2>"$WORK/install.log" || { cat "$WORK/install.log" >&2; fail "./amp install"; }
fi
# GPU: Clang as the CUDA compiler; programs run where a GPU is visible.
cmake_gpu=() make_gpu=() run=run
if [ $GPU = 1 ]; then
  cmake_gpu=(-DCMAKE_CXX_COMPILER=clang++-22 -DAMP_COMPAT_GPU=ON)
  make_gpu=(AMPXX="$prefix/bin/amp++ --gpu" HOSTCXX=clang++-22)
  if ! [ -e /dev/nvidia0 ]; then
    say "no GPU visible: the GPU consumers are built, not run"; run=skip
  fi
fi
run() { "$@"; }
skip() { say "not run: $*"; }

libdir="$(dirname "$(find "$prefix" -path '*/cmake/amp_compat/amp_compatConfig.cmake' | head -n 1)")"
[ -n "$libdir" ] || fail "no amp_compatConfig.cmake under $prefix"
pcdir="$(dirname "$(find "$prefix" -name amp_compat.pc | head -n 1)")"

# 1. find_package against the installed tree (nothing else on CMAKE_PREFIX_PATH:
#    Kokkos comes through the package config).
say "find_package: configure + build"
cmake -S "$HERE/find_package" -B "$WORK/find_package" -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_PREFIX_PATH="$prefix" "${cmake_gpu[@]}" >"$WORK/find_package.log" 2>&1 \
  || { cat "$WORK/find_package.log" >&2; fail "find_package configure"; }
grep 'amp_compat 0' "$WORK/find_package.log" >&2 || true
cmake --build "$WORK/find_package" -j "$JOBS" >>"$WORK/find_package.log" 2>&1 \
  || { cat "$WORK/find_package.log" >&2; fail "find_package build"; }
$run "$WORK/find_package/tiled_app" || fail "find_package: tiled_app"
# Host tiles: with the plugin installed (built where clang++-22 and Clang's
# headers are), the package's launcher compiles the tiled kernel (no fibers).
if [ $GPU = 0 ] && [ -f "$prefix/share/amp_compat/tile_compiler/tile_compiler.so" ]; then
  AMP_HOST_TILES_REPORT=1 "$WORK/find_package/tiled_app" 2>&1 >/dev/null | grep -q "host tiles: kernel at .*: compiled" \
    || fail "find_package: the installed tile compiler did not compile tiled_app's kernel (AMP_HOST_TILES_REPORT=1)"
  say "find_package: tiled kernel compiled by the installed tile compiler"
fi

# 2. a Makefile project with the installed amp++ as CXX; one object is built
#    by g++ with pkg-config's flags, the dlopen loader is linked with --libs.
say "make: CXX=$prefix/bin/amp++"
mkdir -p "$WORK/make"
pcflags="$(PKG_CONFIG_PATH="$pcdir" pkg-config --cflags amp_compat)" || fail "pkg-config --cflags amp_compat"
# (pkg-config describes the host build; the GPU build takes amp++ --gpu --cflags.)
[ $GPU = 1 ] && pcflags="$("$prefix/bin/amp++" --gpu --cflags)"
(cd "$WORK/make" && make -s -j "$JOBS" -f "$HERE/make/Makefile" AMPXX="$prefix/bin/amp++" \
  AMP_CFLAGS="$pcflags" "${make_gpu[@]}" all >"$WORK/make.log" 2>&1) || { cat "$WORK/make.log" >&2; fail "make"; }
if [ -s "$WORK/make.log" ]; then
  cat "$WORK/make.log" >&2; fail "make printed something (amp++ must be silent on success)"
fi
(cd "$WORK/make" && $run ./app && $run ./loader && AMP_DEFAULT_ACCELERATOR=serial $run ./app) || fail "make: app / loader"

# 3. add_subdirectory of this checkout (Kokkos' prefix given by hand).
if [ $DEB = 0 ] && [ $GPU = 0 ]; then
  say "add_subdirectory: configure + build"
  # The project copied (its header is touched below, not the checkout's).
  rm -rf "$WORK/subsrc" && mkdir -p "$WORK/subsrc" && cp -r "$HERE/subdirectory" "$HERE/common" "$WORK/subsrc/"
  cmake -S "$WORK/subsrc/subdirectory" -B "$WORK/subdirectory" -DCMAKE_BUILD_TYPE=Release \
    -DAMP_COMPAT_SOURCE_DIR="$ROOT" -DCMAKE_PREFIX_PATH="$AMP_BUILD_DIR/deps/kokkos-host" \
    >"$WORK/subdirectory.log" 2>&1 || { cat "$WORK/subdirectory.log" >&2; fail "subdirectory configure"; }
  cmake --build "$WORK/subdirectory" -j "$JOBS" >>"$WORK/subdirectory.log" 2>&1 \
    || { cat "$WORK/subdirectory.log" >&2; fail "subdirectory build"; }
  "$WORK/subdirectory/tiled_app" || fail "subdirectory: tiled_app"
  if command -v clang++-22 >/dev/null; then
    AMP_HOST_TILES_REPORT=1 "$WORK/subdirectory/tiled_app" 2>&1 >/dev/null | grep -q "host tiles: kernel at .*: compiled" \
      || fail "subdirectory: tiled_app's kernel was not compiled by the tile compiler (AMP_HOST_TILES_REPORT=1)"
  fi
  # An edit of the kernel's header rebuilds the object: the dependency
  # files name the user's header, not the launcher's copy of it (depfile.py).
  obj=$(find "$WORK/subdirectory" -name 'tiled_app.cpp.o' | head -n 1)
  before=$(stat -c %.9Y "$obj")
  sleep 1 && touch "$WORK/subsrc/common/tiled_matmul.h"
  cmake --build "$WORK/subdirectory" -j "$JOBS" >>"$WORK/subdirectory.log" 2>&1 \
    || { cat "$WORK/subdirectory.log" >&2; fail "subdirectory rebuild"; }
  [ "$(stat -c %.9Y "$obj")" != "$before" ] \
    || fail "subdirectory: an edit of tiled_matmul.h did not rebuild tiled_app.cpp.o"
fi
# 4. a Visual Studio solution moved to CMake: the installed `amp-vs import`
#    writes a CMakeLists.txt on find_package(amp_compat) (MSVC dialect: Clang).
if [ $GPU = 0 ]; then
  say "import: amp-vs import tests/vsproj/fixture/Fixture.sln, configure + build"
  "$prefix/bin/amp-vs" import "$ROOT/tests/vsproj/fixture/Fixture.sln" --out "$WORK/vs-import" >"$WORK/vs-import.log" 2>&1 \
    || { cat "$WORK/vs-import.log" >&2; fail "amp-vs import"; }
  cmake -S "$WORK/vs-import" -B "$WORK/vs-import/build" -DCMAKE_CXX_COMPILER=clang++-22 \
    -DCMAKE_PREFIX_PATH="$prefix" >>"$WORK/vs-import.log" 2>&1 || { cat "$WORK/vs-import.log" >&2; fail "import configure"; }
  cmake --build "$WORK/vs-import/build" -j "$JOBS" >>"$WORK/vs-import.log" 2>&1 \
    || { cat "$WORK/vs-import.log" >&2; fail "import build"; }
  "$WORK/vs-import/build/bin/fixture_app" || fail "import: fixture_app"
fi
say "all consumers built and ran"
