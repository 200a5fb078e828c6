#!/usr/bin/env bash
# hip_ir_check.sh AMPXX SOURCE ARCH: the AMD GPU code of SOURCE
# (fidelity_checks.cpp), compiled by `amp++ --gpu=hip` to the device pass's
# LLVM IR, must have no contractible floating-point operation (an fmul/fadd
# with a `contract` or `fast` flag, or llvm.fmuladd: what Clang's contraction
# produces; the llvm.fma calls of the device library's correctly rounded sqrt
# and division are explicit, not contraction), no division or
# square root with reduced accuracy (!fpmath) and no float denormal flushing
# (denormal-fp-math-f32 = preserve-sign) by default, and must have
# contractible operations with --fast-math (so the first check is not
# vacuous). The IR, not the ISA: on AMD GPUs a correctly rounded division is
# itself a sequence of FMAs. No GPU needed.
set -u
ampxx=$1 src=$2 arch=${3:-gfx90a}
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
fail=0
"$ampxx" --gpu=hip --arch="$arch" --cuda-device-only -S -emit-llvm "$src" -o "$tmp/default.ll" \
  || { echo "FAIL: compile (default)"; exit 1; }
"$ampxx" --gpu=hip --arch="$arch" --fast-math --cuda-device-only -S -emit-llvm "$src" -o "$tmp/fast.ll" \
  || { echo "FAIL: compile (--fast-math)"; exit 1; }
contracted='= f(mul|add|sub|neg)( [a-z]+)* (contract|fast) |@llvm\.fmuladd'
for pat in "$contracted" '!fpmath' '"denormal-fp-math-f32"="preserve-sign'; do
  n=$(grep -Ec "$pat" "$tmp/default.ll")
  echo "default: $n lines matching $pat"
  [ "$n" -eq 0 ] || fail=1
done
n=$(grep -Ec "$contracted" "$tmp/fast.ll")
echo "--fast-math: $n contractible operations"
[ "$n" -gt 0 ] || fail=1
[ $fail -eq 0 ] && echo "ok" || echo "FAIL"
exit $fail
