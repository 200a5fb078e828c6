#!/usr/bin/env bash
# host_contract_check.sh AMPXX: host code compiled by amp++ for an FMA target
# (-march=x86-64-v3) has no fused multiply-add in every host mode (g++ with
# -std=c++17 and with a user's -std=gnu++17, where GCC would contract by
# default; --msvc, Clang in GNU++17), and has them with --fast-math, so the
# first checks are not vacuous. x86-64 only.
set -u
ampxx=$1
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
printf 'float f(float a, float b, float c) { return a * b + c; }\ndouble g(double a, double b, double c) { return a * b + c; }\n' >"$tmp/fma.cpp"
fail=0
check() { # want(0|some) driver-args...
  local want=$1; shift
  "$ampxx" "$@" -march=x86-64-v3 -S "$tmp/fma.cpp" -o "$tmp/o.s" || { echo "FAIL: amp++ $*"; fail=1; return; }
  local n; n=$(grep -c vfmadd "$tmp/o.s")
  echo "amp++ $*: $n vfmadd"
  if [ "$want" = 0 ]; then [ "$n" -eq 0 ] || fail=1; else [ "$n" -gt 0 ] || fail=1; fi
}
check 0
check 0 -std=gnu++17
check 0 --msvc
check some --fast-math
check some --msvc --fast-math
[ $fail -eq 0 ] && echo ok || echo FAIL
exit $fail
