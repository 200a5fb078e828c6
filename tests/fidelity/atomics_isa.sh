#!/usr/bin/env bash
# atomics_isa.sh AMPXX SOURCE cuda|hip [ARCH] [--require-kokkos]: the device
# code of SOURCE (atomics_isa.cpp) compiled by amp++ (CUDA: PTX; HIP: the
# AMDGCN assembly for ARCH, default gfx90a); atomics_ptx.py /
# atomics_amdgcn.py then compare, operation by operation, the instructions of
# the GPU language's atomic intrinsics, of Kokkos' atomic functions and of
# AMP's (amp_compat's must be the native ones). No GPU needed.
set -u
ampxx=$1 src=$2 kind=$3
shift 3
arch=gfx90a
if [ $# -gt 0 ] && [ "${1#--}" = "$1" ]; then arch=$1; shift; fi
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
case "$kind" in
  cuda)
    "$ampxx" --gpu=cuda --cuda-device-only -S "$src" -o "$tmp/atomics.ptx" || { echo "FAIL: compile"; exit 1; }
    python3 "$here/atomics_ptx.py" "$tmp/atomics.ptx" "$@" ;;
  hip)
    "$ampxx" --gpu=hip --arch="$arch" --cuda-device-only -S "$src" -o "$tmp/atomics.s" || { echo "FAIL: compile"; exit 1; }
    python3 "$here/atomics_amdgcn.py" "$tmp/atomics.s" "$@" ;;
  *) echo "usage: $0 AMPXX SOURCE cuda|hip [ARCH] [--require-kokkos]"; exit 2 ;;
esac
