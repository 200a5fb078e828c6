#!/usr/bin/env bash
# Dependency setup for amp_compat: system packages and a patched Kokkos 3.4.01.
#
# Usage:
#   scripts/deps.sh host          # g++ build:   $BUILD/deps/kokkos-host
#   scripts/deps.sh cuda          # clang build: $BUILD/deps/kokkos-cuda-$AMP_CUDA_ARCH
#   scripts/deps.sh kokkos46 openmp|threads|cuda|hip
#                                 # Kokkos 4.6.01 (a user's Kokkos, for compatibility
#                                 # testing) from shared/deps/kokkos-4.6.01.tar.gz beside
#                                 # the repository: $BUILD/deps/kokkos46-<flavor>
#                                 # (Serial + OpenMP, Serial + Threads, CUDA + Serial +
#                                 # OpenMP for $AMP_CUDA_ARCH with clang, or HIP + Serial
#                                 # for $AMP_HIP_ARCH with hipcc: kokkos46-hip-<arch>);
#                                 # AMP_CXX_STD=20: configured for C++20, in
#                                 # kokkos46-<flavor>-cxx20 (the C++17 one stays);
#                                 # AMP_KOKKOS46_NO_DEPRECATED=1: without Kokkos
#                                 # 4's deprecated code, as Kokkos 5 is (suffix
#                                 # -nodeprecated)
#   scripts/deps.sh hip           # the AMD GPU build's toolchain (Debian's ROCm 5.2.3:
#                                 # hipcc, libamdhip64-dev, rocm-device-libs) and
#                                 # Kokkos 4.6.01 for HIP (the HIP build needs Kokkos 4.6)
#   scripts/deps.sh packages      # the system packages of `host` only
#   scripts/deps.sh corpora       # what the users' code bases of tests/corpora/ link
#                                 # besides amp_compat (Bolt: Boost's libraries, GoogleTest)
#   scripts/deps.sh tbb-tsan      # oneTBB (Debian's onetbb source package) built with
#                                 # -fsanitize=thread: $BUILD/deps/tbb-tsan, for the
#                                 # opt-in PPL ThreadSanitizer tests (AMP_TSAN_TESTS)
#   scripts/deps.sh msvc          # host + clang-22 and its OpenMP runtime (./amp c++ --msvc)
#   scripts/deps.sh checker       # clang-22 and its C++ headers, then the restrict(amp)
#                                 # checker plugin (tools/amp_check; ./amp c++ --amp-check)
#   scripts/deps.sh smoke host    # build (and run) scripts/kokkos-smoke against it
#   scripts/deps.sh smoke cuda    # build it, check the CUDA runtime is static,
#                                 # run it only if a GPU is visible
#
# Environment:
#   AMP_BUILD_DIR   root of the build tree (default: <repo>/build)
#   AMP_CUDA_ARCH   GPU architecture for `cuda` (default: sm_90)
#   AMP_CUDA_PATH   CUDA toolkit (default: /usr/local/cuda)
#   AMP_CUDA_CXX    clang used as CUDA compiler (default: clang++-22)
#   AMP_HIP_ARCH    AMD GPU architecture for `hip` (default: gfx90a)
#   AMP_HIP_CXX     HIP compiler (default: hipcc, Debian's ROCm 5.2.3 over clang-15)
#   AMP_KOKKOS46_TARBALL  Kokkos 4.6.01 source (default: shared/deps/ next to
#                   the repository or next to its parent directory)
#   AMP_CXX_STD     C++ standard of the `kokkos46` builds (17, the default, or 20).
#                   Kokkos takes the standard it was configured with as part of
#                   its configuration (KokkosCore_config.h: KOKKOS_ENABLE_CXX17 or
#                   _CXX20 select code paths of View, mdspan and the algorithms),
#                   so code built in C++20 is meant to use a Kokkos configured
#                   for C++20; that is also the only configuration Kokkos 5 has.
#                   The embedded Kokkos 3.4.01 builds stay C++17.
#   AMP_KOKKOS46_NO_DEPRECATED  1: the `kokkos46` builds without Kokkos 4's
#                   deprecated code (Kokkos_ENABLE_DEPRECATED_CODE_4=OFF, Kokkos
#                   5's default), in kokkos46-<flavor>[-cxx20]-nodeprecated.
#
# Every step is idempotent: packages are installed only when missing, the
# Kokkos source is downloaded, verified, extracted and patched once, and each
# Kokkos install is rebuilt only when its stamp (patch set, compiler, options)
# changes.  Kokkos' source is packages/kokkos of Debian's trilinos 13.2.0
# source package (Kokkos 3.4.01); the patches in cmake/patches/ adapt it to
# clang 22 + CUDA 13 (see the header of each patch).
set -euo pipefail

REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="${AMP_BUILD_DIR:-$REPO/build}"
DEPS="$BUILD/deps"
PATCH_DIR="$REPO/cmake/patches"
SHA_FILE="$REPO/cmake/kokkos-sha256.txt" # also the oneTBB source of `tbb-tsan`
SMOKE_SRC="$REPO/scripts/kokkos-smoke"

CUDA_ARCH="${AMP_CUDA_ARCH:-sm_90}"
CUDA_PATH="${AMP_CUDA_PATH:-/usr/local/cuda}"
HIP_ARCH="${AMP_HIP_ARCH:-gfx90a}"
# hipcc asks rocm_agent_enumerator for a default target when it is given none
# (no AMD GPU here: a Python traceback on every call); name the one we build for.
export HCC_AMDGPU_TARGET="${HCC_AMDGPU_TARGET:-$HIP_ARCH}"
# The GPU compilers (AMP_CUDA_CXX, AMP_HIP_CXX): those of the driver package's
# one table of compilers (scripts/amp_driver/options.py), read by the steps
# that build with them (main).
CUDA_CXX="" HIP_CXX=""
gpu_cxx() { "$REPO/scripts/amp_driver.sh" compiler --gpu="$1"; }

SRC_PKG=trilinos
ORIG_TARBALL=trilinos_13.2.0.orig.tar.gz
DOWNLOAD_DIR="$DEPS/download"
KOKKOS_SRC="$DEPS/kokkos-src"
HOST_PREFIX="$DEPS/kokkos-host"

# The backends list (scripts/amp_driver/backends.txt, read by its one reader,
# scripts/amp_driver/backends.py): `backends ARGS...` prints a column of the
# matching rows (--kind host|gpu, --embedded, --name NAME, --field COLUMN).
backends() { python3 -S "$REPO/scripts/amp_driver/backends.py" "$@"; }
# The Kokkos options of the backends given by `backends` ARGS (their devices),
# Serial first: the order in which the stamps of existing installs were
# taken, so that reading the list rebuilds no Kokkos.
kokkos_device_options() {
  backends "$@" --field device | awk '$0 == "SERIAL" { print "-DKokkos_ENABLE_SERIAL=ON"; next }
                                      { rest = rest "-DKokkos_ENABLE_" $0 "=ON\n" } END { printf "%s", rest }'
}
SRC_LIST=/etc/apt/sources.list.d/amp-compat-src.sources

# libtbb-dev: oneTBB, under the PPL companions (amp_compat/compat/ppl.h).
HOST_PACKAGES=(cmake g++ make patch libgtest-dev googletest libboost-context-dev libtbb-dev)
# libomp-22-dev: clang's OpenMP runtime (Kokkos_ENABLE_OPENMP=ON with clang).
CUDA_PACKAGES=(clang-22 libomp-22-dev)
# The MSVC-dialect mode compiles host code with clang-22 as well.
MSVC_PACKAGES=(clang-22 libomp-22-dev)
# The AMD GPU build (HIP): Debian's ROCm 5.2.3. hipcc drives clang-15 with the
# matching device libraries; Clang 22 cannot use them (it asks for ROCm 6.3's
# ABI-6 device libraries, and 5.2's ockl leaves __atomic_work_item_fence
# undefined under it), so hipcc is the HIP compiler.
HIP_PACKAGES=(hipcc libamdhip64-dev rocm-device-libs)
# The restrict(amp) checker and the tile compiler: Clang plugins, built against
# Clang's C++ headers. libomp-22-dev: their parses read Kokkos' OpenMP headers,
# which include omp.h from Clang's own directory (without it every tiled kernel
# of a host OpenMP build kept fibers: "the Clang parse failed: 'omp.h' file not found").
CHECKER_PACKAGES=(clang-22 libclang-22-dev llvm-22-dev libomp-22-dev)
# tests/corpora/: AMD's Bolt links Boost thread, date_time, chrono, program_options
# and system (its CMake files' find_package(Boost ...)) and GoogleTest.
CORPORA_PACKAGES=(libgtest-dev libboost-dev libboost-thread-dev libboost-date-time-dev
                  libboost-chrono-dev libboost-program-options-dev libboost-system-dev)

JOBS="$(nproc 2>/dev/null || echo 2)"

log() { echo "[deps] $*"; }
# Status lines ("already there"): silent under AMP_DEPS_QUIET=1, so that
# callers such as amp++ print something only when work is actually done.
note() { [ "${AMP_DEPS_QUIET:-0}" = 1 ] || log "$@"; }
die() {
  echo "[deps] ERROR: $*" >&2
  exit 1
}

usage() {
  sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "${BASH_SOURCE[0]}"
  exit "${1:-0}"
}

is_root() { [ "$(id -u)" -eq 0 ]; }

# ---------------------------------------------------------------------------
# 1. System packages
# ---------------------------------------------------------------------------
APT_UPDATED=0
apt_update() {
  if [ "$APT_UPDATED" -eq 0 ]; then
    log "apt-get update"
    apt-get update -q >/dev/null || die "apt-get update failed"
    APT_UPDATED=1
  fi
}

pkg_installed() {
  # `dpkg -s` also succeeds for removed packages whose config files remain,
  # so look at the status itself.
  local status
  status="$(dpkg-query -W -f='${db:Status-Abbrev}' "$1" 2>/dev/null)" || return 1
  [ "${status:0:2}" = "ii" ]
}

ensure_packages() {
  local missing=() p
  for p in "$@"; do
    pkg_installed "$p" || missing+=("$p")
  done
  if [ "${#missing[@]}" -eq 0 ]; then
    note "system packages present: $*"
    return
  fi
  if ! is_root; then
    die "missing system packages: ${missing[*]}
       install them as root with:
         apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y -q ${missing[*]}"
  fi
  apt_update
  log "installing: ${missing[*]}"
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${missing[@]}" \
    || die "apt-get install ${missing[*]} failed"
}

# ---------------------------------------------------------------------------
# 2. Kokkos source: download, verify, extract, patch
# ---------------------------------------------------------------------------
expected_sha() {
  awk -v f="$ORIG_TARBALL" '$2 == f { print $1 }' "$SHA_FILE"
}

patch_set_hash() {
  # Hash of the patch file names and contents (sorted, as they are applied).
  local f
  {
    for f in "$PATCH_DIR"/*.patch; do
      [ -e "$f" ] || continue
      basename "$f"
      cat "$f"
    done
  } | sha256sum | cut -c1-16
}

have_deb_src() {
  # Is any deb-src entry configured (one-line or deb822 format)?
  grep -Eqs '^[[:space:]]*deb-src[[:space:]]' /etc/apt/sources.list /etc/apt/sources.list.d/*.list \
    || grep -Eqs '^[[:space:]]*Types:.*deb-src' /etc/apt/sources.list.d/*.sources
}

add_deb_src() {
  is_root || die "apt-get source cannot find '${1:-$SRC_PKG}' (no deb-src entry); as root, add one:
       printf 'Types: deb-src\\nURIs: http://deb.debian.org/debian\\nSuites: bookworm\\nComponents: main\\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\\n' > $SRC_LIST && apt-get update"
  log "adding deb-src entry $SRC_LIST"
  cat >"$SRC_LIST" <<'EOF'
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: bookworm
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
}

# download_source [<package[=version]> <file>]: apt-get source --download-only
# of a Debian source package into $DOWNLOAD_DIR, unless <file> (one of the
# files it fetches) is already there.  Default: trilinos' orig tarball.
download_source() {
  local pkg="${1:-$SRC_PKG}" file="${2:-$ORIG_TARBALL}"
  local tarball="$DOWNLOAD_DIR/$file"
  if [ -f "$tarball" ]; then
    log "source cached: $tarball"
    return
  fi
  mkdir -p "$DOWNLOAD_DIR"
  log "downloading $pkg source package (apt-get source --download-only)"
  if ! (cd "$DOWNLOAD_DIR" && apt-get source -q --download-only "$pkg"); then
    # Either no deb-src entry, or its index was never fetched.
    if [ ! -f "$SRC_LIST" ] && ! have_deb_src; then
      add_deb_src "$pkg"
    fi
    is_root || die "apt-get source $pkg failed; as root run apt-get update (deb-src index) and retry"
    APT_UPDATED=0
    apt_update
    (cd "$DOWNLOAD_DIR" && apt-get source -q --download-only "$pkg") \
      || die "apt-get source --download-only $pkg failed"
  fi
  [ -f "$tarball" ] || die "apt-get source did not produce $tarball"
}

# sha_check <file in $DOWNLOAD_DIR>: its sha256 must be the one in $SHA_FILE.
sha_check() {
  local f="$1" want got
  want="$(awk -v f="$f" '$2 == f { print $1 }' "$SHA_FILE")"
  [ -n "$want" ] || die "no sha256 for $f in $SHA_FILE"
  got="$(sha256sum "$DOWNLOAD_DIR/$f" | cut -d' ' -f1)"
  [ "$got" = "$want" ] \
    || die "sha256 mismatch for $DOWNLOAD_DIR/$f: expected $want, got $got; refusing to build from it (delete it to download again)"
  log "sha256 ok: $f"
}

verify_source() {
  local tarball="$DOWNLOAD_DIR/$ORIG_TARBALL" want got
  want="$(expected_sha)"
  [ -n "$want" ] || die "no sha256 for $ORIG_TARBALL in $SHA_FILE"
  got="$(sha256sum "$tarball" | cut -d' ' -f1)"
  if [ "$got" != "$want" ]; then
    echo "[deps] ERROR: ********************************************************" >&2
    echo "[deps] ERROR: sha256 mismatch for $tarball" >&2
    echo "[deps] ERROR:   expected $want" >&2
    echo "[deps] ERROR:   got      $got" >&2
    echo "[deps] ERROR: refusing to build from it; delete the file to download again." >&2
    echo "[deps] ERROR: ********************************************************" >&2
    exit 1
  fi
  log "sha256 ok: $ORIG_TARBALL"
}

ensure_kokkos_source() {
  local stamp_want stamp_file="$KOKKOS_SRC/.amp-compat-patched"
  stamp_want="$(expected_sha)-$(patch_set_hash)"
  if [ -f "$stamp_file" ] && [ "$(cat "$stamp_file")" = "$stamp_want" ]; then
    note "kokkos source ready: $KOKKOS_SRC"
    return
  fi
  download_source
  verify_source

  local tmp="$KOKKOS_SRC.tmp" p
  rm -rf "$tmp" "$KOKKOS_SRC"
  mkdir -p "$tmp"
  log "extracting packages/kokkos from $ORIG_TARBALL"
  # -C must precede the member pattern (GNU tar applies it positionally).
  tar -xzf "$DOWNLOAD_DIR/$ORIG_TARBALL" -C "$tmp" --strip-components=3 \
    --wildcards '*/packages/kokkos/*'
  if [ ! -f "$tmp/CMakeLists.txt" ] || [ ! -d "$tmp/core/src" ]; then
    die "extraction did not produce a Kokkos tree in $tmp"
  fi
  grep -q '3.4.01' "$tmp/master_history.txt" || log "warning: master_history.txt does not mention 3.4.01"

  for p in "$PATCH_DIR"/*.patch; do
    [ -e "$p" ] || continue
    log "applying $(basename "$p")"
    patch -d "$tmp" -p1 --forward --batch --quiet <"$p" \
      || die "patch $(basename "$p") failed to apply"
  done
  echo "$stamp_want" >"$tmp/.amp-compat-patched"
  mv "$tmp" "$KOKKOS_SRC"
  log "kokkos source ready: $KOKKOS_SRC"
}

# ---------------------------------------------------------------------------
# 3./4. Kokkos builds
# ---------------------------------------------------------------------------
kokkos_config_file() {
  # Prints the installed KokkosConfig.cmake of prefix $1 (lib or lib64).
  local f
  for f in "$1"/lib*/cmake/Kokkos/KokkosConfig.cmake; do
    [ -f "$f" ] && { echo "$f"; return 0; }
  done
  return 1
}

# build_kokkos <name> <prefix> <stamp-extra> <cmake args...>   (Kokkos 3.4.01)
build_kokkos() {
  local name="$1" prefix="$2" extra="$3"
  shift 3
  local stamp_want
  stamp_want="$(printf '%s\n' "$(expected_sha)" "$(patch_set_hash)" "$extra" "$@" | sha256sum | cut -c1-16)"
  kokkos_up_to_date "$name" "$prefix" "$stamp_want" && return
  ensure_kokkos_source
  build_kokkos_from "$KOKKOS_SRC" "$name" "$prefix" "$stamp_want" "$@"
}

kokkos_up_to_date() { # name prefix stamp
  if kokkos_config_file "$2" >/dev/null && [ -f "$2/.amp-compat-stamp" ] \
    && [ "$(cat "$2/.amp-compat-stamp")" = "$3" ]; then
    note "kokkos $1 up to date: $2"
    return 0
  fi
  return 1
}

# build_kokkos_from <source> <name> <prefix> <stamp> <cmake args...>
# The C++ standard is $KOKKOS_CXX_STD (17 unless a caller sets it; part of the
# caller's stamp).
KOKKOS_CXX_STD=17
build_kokkos_from() {
  local src="$1" name="$2" prefix="$3" stamp_want="$4"
  shift 4
  local bdir="$DEPS/build-$name" stamp_file="$prefix/.amp-compat-stamp"

  rm -rf "$bdir" "$prefix"
  mkdir -p "$bdir"
  log "configuring kokkos $name (log: $bdir/configure.log)"
  local t0=$SECONDS
  if ! cmake -S "$src" -B "$bdir" \
    -DCMAKE_INSTALL_PREFIX="$prefix" \
    -DCMAKE_INSTALL_LIBDIR=lib \
    -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_CXX_STANDARD="$KOKKOS_CXX_STD" \
    -DCMAKE_CXX_EXTENSIONS=OFF \
    -DBUILD_SHARED_LIBS=OFF \
    -DCMAKE_POSITION_INDEPENDENT_CODE=ON \
    -DKokkos_ENABLE_TESTS=OFF \
    -DKokkos_ENABLE_EXAMPLES=OFF \
    -DKokkos_ENABLE_BENCHMARKS=OFF \
    "$@" >"$bdir/configure.log" 2>&1; then
    tail -n 40 "$bdir/configure.log" >&2
    die "cmake configure of kokkos $name failed (see $bdir/configure.log)"
  fi
  log "building kokkos $name with -j$JOBS (log: $bdir/build.log)"
  if ! cmake --build "$bdir" -j "$JOBS" >"$bdir/build.log" 2>&1; then
    grep -E 'error|Error' "$bdir/build.log" | head -n 40 >&2 || true
    die "build of kokkos $name failed (see $bdir/build.log)"
  fi
  cmake --install "$bdir" >"$bdir/install.log" 2>&1 \
    || die "install of kokkos $name failed (see $bdir/install.log)"
  kokkos_config_file "$prefix" >/dev/null || die "no KokkosConfig.cmake under $prefix"
  echo "$stamp_want" >"$stamp_file"
  log "kokkos $name built and installed in $((SECONDS - t0)) s: $prefix"
}

do_host() {
  ensure_packages "${HOST_PACKAGES[@]}"
  # The embedded host backends of the backends list.
  local devices
  mapfile -t devices < <(kokkos_device_options --kind host --embedded)
  [ ${#devices[@]} -gt 0 ] || die "no embedded host backend in scripts/amp_driver/backends.txt"
  build_kokkos host "$HOST_PREFIX" "$(g++ --version | head -n 1)" \
    -DCMAKE_CXX_COMPILER=g++ \
    "${devices[@]}"
  note "host Kokkos prefix: $HOST_PREFIX  ($(kokkos_config_file "$HOST_PREFIX"))"
}

cuda_arch_option() {
  case "$1" in
    sm_75) echo TURING75 ;;
    sm_80) echo AMPERE80 ;;
    sm_86) echo AMPERE86 ;;
    sm_89) echo ADA89 ;;    # added by 0001-cuda-arch-ada89-hopper90.patch
    sm_90) echo HOPPER90 ;; # added by 0001-cuda-arch-ada89-hopper90.patch
    *) return 1 ;;
  esac
}

cuda_prefix() { echo "$DEPS/kokkos-cuda-$CUDA_ARCH"; }

# AMD GPU architectures of the HIP build (Kokkos 4.6's Kokkos_ARCH_AMD_* names)
# that ROCm 5.2's clang-15 compiles for.
HIP_ARCHS="gfx906 gfx908 gfx90a gfx1030 gfx1100"
hip_arch_option() {
  case "$1" in
    gfx906) echo AMD_GFX906 ;;
    gfx908) echo AMD_GFX908 ;;
    gfx90a) echo AMD_GFX90A ;;
    gfx1030) echo AMD_GFX1030 ;;
    gfx1100) echo AMD_GFX1100 ;;
    *) return 1 ;;
  esac
}
hip_prefix() { echo "$DEPS/kokkos46-hip-$HIP_ARCH"; }

check_cuda_toolkit() {
  local f
  for f in include/cuda_runtime.h bin/ptxas bin/fatbinary nvvm/libdevice; do
    [ -e "$CUDA_PATH/$f" ] || die "CUDA toolkit not usable: $CUDA_PATH/$f missing (set AMP_CUDA_PATH)"
  done
  compgen -G "$CUDA_PATH/lib*/libcudart_static.a" >/dev/null \
    || die "no libcudart_static.a under $CUDA_PATH/lib*"
}

do_cuda() {
  local arch_opt
  arch_opt="$(cuda_arch_option "$CUDA_ARCH")" \
    || die "unsupported AMP_CUDA_ARCH=$CUDA_ARCH (supported: sm_75 sm_80 sm_86 sm_89 sm_90)"
  check_cuda_toolkit
  # The host package set too, so that `cuda` alone sets up a machine.
  ensure_packages "${HOST_PACKAGES[@]}" "${CUDA_PACKAGES[@]}"
  command -v "$CUDA_CXX" >/dev/null || die "$CUDA_CXX not found (set AMP_CUDA_CXX)"
  local cudart_version
  cudart_version="$(sed -n 's/^#define CUDART_VERSION[[:space:]]*\([0-9]*\).*/\1/p' "$CUDA_PATH/include/cuda_runtime_api.h")"
  local prefix
  prefix="$(cuda_prefix)"
  build_kokkos "cuda-$CUDA_ARCH" "$prefix" "$("$CUDA_CXX" --version | head -n 1) cudart=$cudart_version" \
    -DCMAKE_CXX_COMPILER="$CUDA_CXX" \
    -DCMAKE_CXX_FLAGS=-Wno-unknown-cuda-version \
    -DKokkos_ENABLE_CUDA=ON \
    -DKokkos_ENABLE_SERIAL=ON \
    -DKokkos_ENABLE_OPENMP=ON \
    -DKokkos_ENABLE_CUDA_LAMBDA=ON \
    -DKokkos_ARCH_"$arch_opt"=ON \
    -DKokkos_CUDA_DIR="$CUDA_PATH" \
    -DCUDAToolkit_ROOT="$CUDA_PATH" \
    -DKokkos_CUDA_STATIC_RUNTIME=ON
  note "CUDA Kokkos prefix ($CUDA_ARCH): $prefix  ($(kokkos_config_file "$prefix"))"
}

# ---------------------------------------------------------------------------
# Kokkos 4.6.01: stands in for a user's own Kokkos (not patched, not the default)
# ---------------------------------------------------------------------------
K46_TARBALL_NAME=kokkos-4.6.01.tar.gz
K46_PATCH_DIR="$REPO/cmake/patches-kokkos46"
k46_tarball() {
  local c
  for c in "${AMP_KOKKOS46_TARBALL:-}" "$REPO/../shared/deps/$K46_TARBALL_NAME" \
    "$REPO/../../shared/deps/$K46_TARBALL_NAME"; do
    [ -n "$c" ] && [ -f "$c" ] && { echo "$c"; return 0; }
  done
  die "no $K46_TARBALL_NAME (looked in ../shared/deps and ../../shared/deps; set AMP_KOKKOS46_TARBALL)"
}

do_kokkos46() {
  local flavor="${1:-}" tarball want got src="$DEPS/kokkos46-src" cxx=g++ opts=()
  case "$flavor" in
    cuda)
      local arch_opt
      arch_opt="$(cuda_arch_option "$CUDA_ARCH")" || die "unsupported AMP_CUDA_ARCH=$CUDA_ARCH"
      check_cuda_toolkit
      cxx="$CUDA_CXX"
      opts=(-DCMAKE_CXX_FLAGS=-Wno-unknown-cuda-version -DKokkos_ENABLE_CUDA=ON -DKokkos_ENABLE_SERIAL=ON
        -DKokkos_ENABLE_OPENMP=ON -DKokkos_ARCH_"$arch_opt"=ON -DKokkos_CUDA_DIR="$CUDA_PATH"
        -DCUDAToolkit_ROOT="$CUDA_PATH" -DKokkos_ENABLE_IMPL_CUDA_MALLOC_ASYNC=OFF)
      flavor="cuda-$CUDA_ARCH"
      ;;
    hip)
      local hip_opt
      hip_opt="$(hip_arch_option "$HIP_ARCH")" || die "unsupported AMP_HIP_ARCH=$HIP_ARCH (supported: $HIP_ARCHS)"
      cxx="$HIP_CXX"
      # Serial is the host backend: hipcc's clang-15 would need its own OpenMP runtime.
      # rocThrust (a TPL Kokkos looks for by default) is not part of Debian's ROCm.
      opts=(-DKokkos_ENABLE_HIP=ON -DKokkos_ENABLE_SERIAL=ON -DKokkos_ARCH_"$hip_opt"=ON -DKokkos_ENABLE_ROCTHRUST=OFF)
      flavor="hip-$HIP_ARCH"
      ;;
    *)
      # A host backend of the list (other than serial): Serial and its device.
      [ -n "$flavor" ] && [ "$flavor" != serial ] && [ -n "$(backends --kind host --name "$flavor")" ] || usage 2
      mapfile -t opts < <(kokkos_device_options --kind host --name serial; kokkos_device_options --name "$flavor")
      ;;
  esac
  case "$flavor" in
    hip-*) ensure_packages "${HOST_PACKAGES[@]}" "${HIP_PACKAGES[@]}" ;;
    cuda-*) ensure_packages "${HOST_PACKAGES[@]}" "${CUDA_PACKAGES[@]}" ;;
    *) ensure_packages "${HOST_PACKAGES[@]}" ;;
  esac
  # AMP_CXX_STD=20: a Kokkos configured for C++20, beside the C++17 one.
  local std="${AMP_CXX_STD:-17}"
  case "$std" in
    17) ;;
    20) flavor="$flavor-cxx20" ;;
    *) die "AMP_CXX_STD=$std: Kokkos 4.6 builds are C++17 or C++20" ;;
  esac
  # AMP_KOKKOS46_NO_DEPRECATED=1: without the code Kokkos 4 deprecated
  # (Kokkos_ENABLE_DEPRECATED_CODE_4=OFF), as Kokkos 5 is configured by default
  # (5.2 and 5.3 delete that code): what builds against it uses nothing Kokkos 5
  # lacks for that reason (migration_guide.md, "Kokkos 5").
  if [ "${AMP_KOKKOS46_NO_DEPRECATED:-0}" = 1 ]; then
    flavor="$flavor-nodeprecated"
    opts+=(-DKokkos_ENABLE_DEPRECATED_CODE_4=OFF)
  fi
  want="$(awk -v f="$K46_TARBALL_NAME" '$2 == f { print $1 }' "$SHA_FILE")"
  local prefix="$DEPS/kokkos46-$flavor" stamp
  # C++17 adds nothing to the stamp, so that existing C++17 installs stay valid.
  local std_stamp=(); [ "$std" = 17 ] || std_stamp=("cxx=$std")
  stamp="$(printf '%s\n' "$want" "$(PATCH_DIR="$K46_PATCH_DIR" patch_set_hash)" "$("$cxx" --version | head -n 1)" "${opts[@]}" "${std_stamp[@]}" | sha256sum | cut -c1-16)"
  kokkos_up_to_date "4.6.01 $flavor" "$prefix" "$stamp" && return
  tarball="$(k46_tarball)"
  got="$(sha256sum "$tarball" | cut -d' ' -f1)"
  [ -n "$want" ] && [ "$got" = "$want" ] \
    || die "sha256 mismatch for $tarball: expected ${want:-<none in $SHA_FILE>}, got $got; refusing to build from it"
  log "sha256 ok: $K46_TARBALL_NAME"
  # The source is patched for CUDA 13 (cmake/patches-kokkos46/; guarded by
  # CUDART_VERSION, so the host flavours compile the same code as upstream).
  local mark; mark="$want-$(PATCH_DIR="$K46_PATCH_DIR" patch_set_hash)"
  if [ ! -f "$src/.amp-compat-sha" ] || [ "$(cat "$src/.amp-compat-sha")" != "$mark" ]; then
    rm -rf "$src.tmp" "$src"
    mkdir -p "$src.tmp"
    tar -xzf "$tarball" -C "$src.tmp"
    # The release archive may or may not wrap the tree in one directory.
    if [ ! -f "$src.tmp/CMakeLists.txt" ]; then
      local top
      top="$(find "$src.tmp" -mindepth 2 -maxdepth 2 -name CMakeLists.txt | head -n 1)"
      [ -n "$top" ] || die "no Kokkos tree in $tarball"
      mv "$(dirname "$top")" "$src.tree" && rm -rf "$src.tmp" && mv "$src.tree" "$src.tmp"
    fi
    [ -d "$src.tmp/core/src" ] || die "no Kokkos tree in $tarball"
    for p in "$K46_PATCH_DIR"/*.patch; do
      [ -f "$p" ] || continue
      log "applying $(basename "$p") (Kokkos 4.6.01)"
      patch -d "$src.tmp" -p1 --forward --batch --quiet <"$p" || die "patch $(basename "$p") failed to apply"
    done
    echo "$mark" >"$src.tmp/.amp-compat-sha"
    mv "$src.tmp" "$src"
  fi
  KOKKOS_CXX_STD="$std" build_kokkos_from "$src" "kokkos46-$flavor" "$prefix" "$stamp" -DCMAKE_CXX_COMPILER="$cxx" "${opts[@]}"
}

# ---------------------------------------------------------------------------
# tbb-tsan: oneTBB built with -fsanitize=thread, for the PPL TSan tests
# ---------------------------------------------------------------------------
# Debian's libtbb.so is not instrumented, so ThreadSanitizer cannot see the
# happens-before edges of oneTBB's own hand-offs (task spawn/steal, waits,
# concurrent containers) and reports them as races.  This builds the same
# oneTBB (Debian's source package, at the version of the installed
# libtbb-dev, with Debian's patches) with TBB_SANITIZE=thread into
# $TBB_TSAN_PREFIX.  Only libtbb is built: no tests, no tbbmalloc (libtbb
# then allocates with malloc, which TSan intercepts; it only loads a
# libtbbmalloc from its own directory), no tbbbind (hwloc).
TBB_TSAN_PKG_VERSION=2021.8.0-2+deb12u1
TBB_TSAN_ORIG=onetbb_2021.8.0.orig.tar.xz
TBB_TSAN_DEBIAN=onetbb_${TBB_TSAN_PKG_VERSION}.debian.tar.xz
TBB_TSAN_SRC="$DEPS/tbb-tsan-src"
TBB_TSAN_PREFIX="$DEPS/tbb-tsan"
# At most two compile jobs: this is a side build, run beside other work.
TBB_TSAN_JOBS=$((JOBS < 2 ? JOBS : 2))

do_tbb_tsan() {
  ensure_packages "${HOST_PACKAGES[@]}"
  local installed
  installed="$(dpkg-query -W -f='${Version}' libtbb-dev 2>/dev/null || true)"
  [ "$installed" = "$TBB_TSAN_PKG_VERSION" ] \
    || log "warning: libtbb-dev is ${installed:-not installed}, the TSan build is $TBB_TSAN_PKG_VERSION"
  local opts=(
    -DCMAKE_C_COMPILER=gcc -DCMAKE_CXX_COMPILER=g++
    -DCMAKE_BUILD_TYPE=RelWithDebInfo # -O2 -g: stacks with lines in reports
    -DTBB_SANITIZE=thread
    -DTBB_TEST=OFF -DTBB_EXAMPLES=OFF -DTBB4PY_BUILD=OFF
    -DTBBMALLOC_BUILD=OFF -DTBB_DISABLE_HWLOC_AUTOMATIC_SEARCH=ON
    # GCC warns (-Wtsan) that TSan does not model atomic_thread_fence;
    # TBB_STRICT would make that warning an error.
    -DTBB_STRICT=OFF)
  local stamp stamp_file="$TBB_TSAN_PREFIX/.amp-compat-stamp"
  stamp="$(printf '%s\n' "$(awk -v a="$TBB_TSAN_ORIG" -v b="$TBB_TSAN_DEBIAN" '$2 == a || $2 == b' "$SHA_FILE")" \
    "$(g++ --version | head -n 1)" "${opts[@]}" | sha256sum | cut -c1-16)"
  if [ -f "$stamp_file" ] && [ "$(cat "$stamp_file")" = "$stamp" ] \
    && compgen -G "$TBB_TSAN_PREFIX/lib/libtbb.so*" >/dev/null; then
    note "oneTBB (TSan) up to date: $TBB_TSAN_PREFIX"
    return
  fi
  # apt-get source also fetches the .dsc; both tarballs are checked here.
  download_source "onetbb=$TBB_TSAN_PKG_VERSION" "$TBB_TSAN_DEBIAN"
  [ -f "$DOWNLOAD_DIR/$TBB_TSAN_ORIG" ] || die "apt-get source did not produce $DOWNLOAD_DIR/$TBB_TSAN_ORIG"
  sha_check "$TBB_TSAN_ORIG"
  sha_check "$TBB_TSAN_DEBIAN"

  local tmp="$TBB_TSAN_SRC.tmp" p
  rm -rf "$tmp" "$TBB_TSAN_SRC"
  mkdir -p "$tmp"
  tar -xJf "$DOWNLOAD_DIR/$TBB_TSAN_ORIG" -C "$tmp" --strip-components=1
  tar -xJf "$DOWNLOAD_DIR/$TBB_TSAN_DEBIAN" -C "$tmp"
  if [ ! -f "$tmp/CMakeLists.txt" ] || [ ! -f "$tmp/debian/patches/series" ]; then
    die "no oneTBB tree in $tmp"
  fi
  # Debian's patches, in the order of its series file (as dpkg-source applies them).
  while read -r p; do
    case "$p" in '' | '#'*) continue ;; esac
    patch -d "$tmp" -p1 --forward --batch --quiet <"$tmp/debian/patches/$p" \
      || die "Debian patch $p failed to apply"
  done <"$tmp/debian/patches/series"
  mv "$tmp" "$TBB_TSAN_SRC"

  local bdir="$DEPS/build-tbb-tsan" t0=$SECONDS
  rm -rf "$bdir" "$TBB_TSAN_PREFIX"
  mkdir -p "$bdir"
  log "configuring oneTBB (TSan) (log: $bdir/configure.log)"
  cmake -S "$TBB_TSAN_SRC" -B "$bdir" -DCMAKE_INSTALL_PREFIX="$TBB_TSAN_PREFIX" \
    -DCMAKE_INSTALL_LIBDIR=lib "${opts[@]}" >"$bdir/configure.log" 2>&1 \
    || { tail -n 40 "$bdir/configure.log" >&2; die "cmake configure of oneTBB (TSan) failed"; }
  log "building oneTBB (TSan) with -j$TBB_TSAN_JOBS (log: $bdir/build.log)"
  cmake --build "$bdir" -j "$TBB_TSAN_JOBS" >"$bdir/build.log" 2>&1 \
    || { grep -E 'error|Error' "$bdir/build.log" | head -n 40 >&2; die "build of oneTBB (TSan) failed (see $bdir/build.log)"; }
  cmake --install "$bdir" >"$bdir/install.log" 2>&1 \
    || die "install of oneTBB (TSan) failed (see $bdir/install.log)"
  compgen -G "$TBB_TSAN_PREFIX/lib/libtbb.so*" >/dev/null || die "no libtbb.so under $TBB_TSAN_PREFIX/lib"
  echo "$stamp" >"$stamp_file"
  log "oneTBB (TSan) built and installed in $((SECONDS - t0)) s: $TBB_TSAN_PREFIX"
}

# ---------------------------------------------------------------------------
# smoke: build scripts/kokkos-smoke against an install
# ---------------------------------------------------------------------------
gpu_visible() {
  [ -e /dev/nvidia0 ] || { command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >/dev/null 2>&1; }
}

do_smoke() {
  local flavor="${1:-}" prefix cxx bdir
  case "$flavor" in
    host)
      do_host
      prefix="$HOST_PREFIX"
      cxx=g++
      ;;
    cuda)
      do_cuda
      prefix="$(cuda_prefix)"
      cxx="$CUDA_CXX"
      ;;
    *) usage 2 ;;
  esac
  bdir="$DEPS/smoke-$flavor"
  [ "$flavor" = cuda ] && bdir="$DEPS/smoke-cuda-$CUDA_ARCH"
  rm -rf "$bdir"
  log "building kokkos-smoke ($flavor) in $bdir"
  cmake -S "$SMOKE_SRC" -B "$bdir" -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_CXX_COMPILER="$cxx" -DCMAKE_PREFIX_PATH="$prefix" >"$bdir.configure.log" 2>&1 \
    || { cat "$bdir.configure.log" >&2; die "configuring kokkos-smoke failed"; }
  cmake --build "$bdir" -j "$JOBS" >"$bdir.build.log" 2>&1 \
    || { cat "$bdir.build.log" >&2; die "building kokkos-smoke failed"; }
  local exe="$bdir/kokkos_smoke"
  log "built $exe"

  if [ "$flavor" = cuda ]; then
    if ldd "$exe" | grep -q 'libcudart\.so'; then
      ldd "$exe" >&2
      die "$exe links libcudart.so dynamically"
    fi
    log "ldd: no libcudart.so (CUDA runtime linked statically)"
    if gpu_visible; then
      log "running $exe"
      "$exe" || die "$exe failed"
    else
      log "no GPU visible: not running $exe"
    fi
  else
    log "running $exe"
    OMP_PROC_BIND="${OMP_PROC_BIND:-false}" "$exe" || die "$exe failed"
  fi
  log "smoke $flavor OK"
}

# ---------------------------------------------------------------------------
main() {
  [ $# -ge 1 ] || usage 2
  case "$1" in -h | --help | help) usage 0 ;; esac
  mkdir -p "$DEPS"
  # Serialise concurrent invocations (e.g. `host` and `cuda` in parallel).
  # Kokkos 4.6 builds take their own lock: they take minutes and nothing else waits for them.
  if [ "$1" = kokkos46 ] || [ "$1" = hip ]; then exec 9>"$DEPS/.deps46.lock"; else exec 9>"$DEPS/.deps.lock"; fi
  flock 9
  case "$1" in cuda | hip | kokkos46 | smoke) CUDA_CXX="$(gpu_cxx cuda)" HIP_CXX="$(gpu_cxx hip)" ;; esac

  case "$1" in
    host) do_host ;;
    msvc)
      do_host
      ensure_packages "${MSVC_PACKAGES[@]}"
      ;;
    cuda) do_cuda ;;
    hip)
      # Kokkos 3.4.01 has no HIP backend usable with this ROCm: Kokkos 4.6.01 it is,
      # the C++17 one with Kokkos' defaults (./amp's HIP build looks for it under
      # kokkos46-hip-<arch>).
      AMP_CXX_STD=17 AMP_KOKKOS46_NO_DEPRECATED=0 do_kokkos46 hip
      note "HIP Kokkos prefix ($HIP_ARCH): $(hip_prefix)"
      return 0 ;;
    smoke) do_smoke "${2:-}" ;;
    kokkos46) do_kokkos46 "${2:-}" ;;
    packages) ensure_packages "${HOST_PACKAGES[@]}"; return 0 ;;
    corpora) ensure_packages "${CORPORA_PACKAGES[@]}"; return 0 ;;
    checker)
      ensure_packages "${CHECKER_PACKAGES[@]}"
      AMP_BUILD_DIR="$BUILD" "$REPO/scripts/amp_check.sh" plugin >/dev/null || die "building the amp_check plugin failed"
      return 0 ;;
    tbb-tsan) do_tbb_tsan; return 0 ;;
    *) usage 2 ;;
  esac

  note "Kokkos install prefixes (CMAKE_PREFIX_PATH / Kokkos_ROOT):"
  note "  host:          $HOST_PREFIX$(kokkos_config_file "$HOST_PREFIX" >/dev/null || echo ' (not built)')"
  note "  cuda $CUDA_ARCH: $(cuda_prefix)$(kokkos_config_file "$(cuda_prefix)" >/dev/null || echo ' (not built)')"
}

main "$@"
