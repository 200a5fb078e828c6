#!/usr/bin/env bash
# atomics_ptx.sh AMPXX SOURCE [--require-kokkos]: the device code of SOURCE
# (atomics_ptx.cpp), compiled by `amp++ --gpu` to PTX; atomics_ptx.py then
# compares, operation by operation, the atomic instructions of CUDA's
# intrinsics, of Kokkos' atomic functions and of AMP's (amp_compat's must be
# the native ones). No GPU needed.
set -u
ampxx=$1 src=$2
shift 2
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
"$ampxx" --gpu --cuda-device-only -S "$src" -o "$tmp/atomics.ptx" || { echo "FAIL: compile"; exit 1; }
python3 "$here/atomics_ptx.py" "$tmp/atomics.ptx" "$@"
