#!/usr/bin/env bash
# gpu_bundle.sh [DIR]: builds the CUDA build (no GPU needed) and gathers what a
# GPU machine needs into DIR (default gpu-bundle/): stripped samples with their
# expected outputs, the test suite, the benchmarks (GPU, and the host build's
# in host/ with its OpenMP and C++ runtimes, to measure CPU scaling on the GPU
# machine's cores), libomp (Clang's OpenMP runtime, absent on typical GPU
# machines) and run.sh. On the GPU machine:
#   cd DIR && ./run.sh          samples + tests on the GPU and the host,
#                               compute-sanitizer memcheck and racecheck on the
#                               samples, the differential check (GPU against the
#                               host, scripts/differential.sh), then the
#                               benchmarks, with contraction off and on, and
#                               the host pricers (compiled tiles against fibers)
#   cd DIR && ./run.sh fidelity only the differential check and the contraction
#                               benchmarks (results/differential, results/contraction)
# run.sh's parts can be skipped: AMP_SAMPLES=0 AMP_TESTS=0 AMP_CORPUS=0 AMP_SANITIZER=0
# AMP_DIFFERENTIAL=0 AMP_BENCH=0 AMP_CONTRACTION_BENCH=0 AMP_HOST_BENCH=0.
#
# gpu_bundle.sh [DIR] --hip (or AMP_GPU=hip): the same for an AMD GPU machine
# from the HIP build (hipcc, Kokkos 4.6.01 HIP, AMP_HIP_ARCH, default gfx90a;
# default DIR gpu-bundle-hip/): samples, the test suite, device errors, the
# fidelity checks, the differential check (hip against serial) and the GPU
# benchmarks (AMP against Kokkos; the hand-written baselines are CUDA's). The
# HIP runtime of the build machine (Debian's ROCm 5.2.3) travels in
# hip-runtime/, used only where the GPU machine has no libamdhip64.so.5.
# These binaries were compiled without an AMD GPU and have never run on one.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# The accelerators run.sh runs on (OUT/backends.env, which it sources), from
# the backends list (scripts/amp_driver/backends.txt): GPU, the GPU backend of
# build kind $1; HOST_BACKENDS, the host accelerators of that build's Kokkos
# ($2); HOST, the default one (the first); SEQUENTIAL, the one-thread
# reference (Kokkos Serial's).
backends_env() { # BUILD-KIND HOST-BACKENDS
  local list="$ROOT/scripts/amp_driver.sh"
  { echo "GPU=$("$list" backends --kind gpu --build "$1")"
    echo "HOST_BACKENDS=\"$2\""
    echo "HOST=${2%% *}"
    echo "SEQUENTIAL=$("$list" backends --kind host --device SERIAL)"; } >"$OUT/backends.env"
}
# ---- the AMD GPU bundle (--hip) ------------------------------------------------
hip_bundle() {
  local arch="${AMP_HIP_ARCH:-gfx90a}" B
  if [ "${AMP_BUNDLE_BUILD:-1}" = 0 ]; then B="${AMP_BUILD_DIR:-$ROOT/build}/hip-$arch"
  else B="$(AMP_GPU=hip "$ROOT/amp" _build hip amp_tests amp_samples amp_bench_gpu amp_bench_gpu_fast \
    amp_device_errors amp_tools_kernel_names amp_kernel_name_tool amp_first_kernel_off_main fidelity_checks \
    fidelity_checks_fast)"; fi
  rm -rf "$OUT"; mkdir -p "$OUT/samples" "$OUT/expected" "$OUT/hip-runtime"
  local name expected f lib
  while read -r name expected; do
    [ -n "$name" ] || continue
    cp "$B/samples/$(basename "$name")" "$OUT/samples/"
    cp "$expected" "$OUT/expected/"
    echo "$(basename "$name")" >> "$OUT/samples.list"
  done < "$B/samples/samples.list"
  for f in tests/amp_tests tests/amp_device_errors tests/amp_tools_kernel_names tests/libamp_kernel_name_tool.so \
    tests/amp_first_kernel_off_main tests/fidelity_checks tests/fidelity_checks_fast bench/amp_bench_gpu \
    bench/amp_bench_gpu_fast; do
    [ -f "$B/$f" ] && cp "$B/$f" "$OUT/"
  done
  cp "$ROOT/scripts/differential.sh" "$ROOT/tests/fidelity/differential_exclusions.txt" "$ROOT/bench/contraction.py" \
    "$ROOT/bench/plot.py" "$OUT/"
  strip "$OUT"/samples/* "$OUT"/amp_tests "$OUT"/amp_device_errors "$OUT"/amp_bench_* "$OUT"/fidelity_checks* 2>/dev/null || true
  # The HIP runtime and what it loads that a ROCm machine has anyway; oneTBB
  # (the PPL companions of the legacy samples) is absent on GPU machines.
  for lib in libamdhip64.so.5 libhsa-runtime64.so.1 libhsakmt.so.1 libamd_comgr.so.2; do
    f="$(ldconfig -p | awk -v l="$lib" '$1 == l {print $NF; exit}')"
    [ -n "$f" ] && cp -L "$f" "$OUT/hip-runtime/"
  done
  for f in "$OUT"/samples/* "$OUT"/amp_tests; do ldd "$f" 2>/dev/null; done | awk '/libtbb/ {print $3}' | sort -u |
    while read -r lib; do [ -f "$lib" ] && cp -L "$lib" "$OUT/"; done
  # The HIP Kokkos' host backend is Serial's (scripts/deps.sh).
  backends_env hip "$("$ROOT/scripts/amp_driver.sh" backends --kind host --device SERIAL)"
  cat > "$OUT/run.sh" <<'RUN'
#!/usr/bin/env bash
# Runs the AMD GPU bundle: samples and tests on the GPU (hip) and on the host
# accelerator (serial, the HIP Kokkos' host backend), device errors, the
# fidelity checks, the differential check (hip against serial), then the
# benchmarks with contraction off and on. Parts can be skipped: AMP_SAMPLES=0
# AMP_TESTS=0 AMP_DIFFERENTIAL=0 AMP_BENCH=0. Built without an AMD GPU: this
# is the first place these binaries run on one.
cd "$(dirname "$0")"
. ./backends.env  # GPU, SEQUENTIAL: the accelerators, from the backends list
# The machine's own ROCm runtime first; the bundled one (Debian's 5.2.3) only
# where there is none.
export LD_LIBRARY_PATH="$PWD:${LD_LIBRARY_PATH:-}"
if ! ldconfig -p 2>/dev/null | grep -q 'libamdhip64\.so\.5 '; then
  export LD_LIBRARY_PATH="$PWD/hip-runtime:$LD_LIBRARY_PATH"
  echo "using the bundled HIP runtime (hip-runtime/)"
fi
pass=0 fail=0
check() { # name cmd...
  local name=$1; shift
  if "$@" >/tmp/amp_run.out 2>/tmp/amp_run.err; then pass=$((pass + 1)); echo "  ok    $name"
  else fail=$((fail + 1)); echo "  FAIL  $name"; tail -n 20 /tmp/amp_run.out /tmp/amp_run.err | sed 's/^/        /'; fi
}
same_output() { # exe expected
  "$1" </dev/null >/tmp/amp_sample.out && cmp -s /tmp/amp_sample.out "$2" || { diff /tmp/amp_sample.out "$2" | head; return 1; }
}
command -v rocminfo >/dev/null 2>&1 && rocminfo | grep -E '^\s+Name:\s+gfx' | sort -u
if [ "${AMP_SAMPLES:-1}" = 1 ]; then
  echo "== samples"
  for b in $GPU $SEQUENTIAL; do
    for p in auto portable native; do
      while read -r s; do check "$s ($b, $p path)" env AMP_DEFAULT_ACCELERATOR=$b AMP_KERNEL_PATH=$p bash -c "$(declare -f same_output); same_output samples/$s expected/$s.expected"; done < samples.list
    done
  done
fi
if [ "${AMP_TESTS:-1}" = 1 ]; then
  echo "== tests"
  for b in $GPU $SEQUENTIAL; do
    for p in auto portable native; do
      check "amp_tests ($b, $p path)" env AMP_DEFAULT_ACCELERATOR=$b AMP_KERNEL_PATH=$p ./amp_tests --gtest_brief=1
    done
  done
  check "device errors become exceptions" ./amp_device_errors
  [ -x ./amp_first_kernel_off_main ] && check "first kernel from a worker thread ($GPU)" \
    env AMP_DEFAULT_ACCELERATOR=$GPU ./amp_first_kernel_off_main
  check "Kokkos Tools see AMP kernels ($GPU)" env AMP_DEFAULT_ACCELERATOR=$GPU \
    KOKKOS_TOOLS_LIBS=$PWD/libamp_kernel_name_tool.so ./amp_tools_kernel_names
  check "fidelity checks ($GPU)" env AMP_DEFAULT_ACCELERATOR=$GPU ./fidelity_checks
fi
if [ "${AMP_DIFFERENTIAL:-1}" = 1 ]; then
  echo "== differential: $GPU and $SEQUENTIAL, outputs compared byte for byte"
  if DIFF_ACCELERATORS="$GPU $SEQUENTIAL" DIFF_OUT="${AMP_BENCH_OUT:-results}/differential" ./differential.sh; then
    pass=$((pass + 1)); echo "  ok    differential check"
  else
    fail=$((fail + 1)); echo "  FAIL  differential check (${AMP_BENCH_OUT:-results}/differential)"
  fi
fi
if [ "${AMP_BENCH:-1}" = 1 ] && [ -x ./amp_bench_gpu ]; then
  out="${AMP_BENCH_OUT:-results}"
  echo "== benchmarks (AMP against Kokkos on the AMD GPU)"
  ./amp_bench_gpu --out "$out/gpu" ${AMP_BENCH_ARGS:-} || fail=$((fail + 1))
  if [ -x ./amp_bench_gpu_fast ]; then
    echo "== benchmarks: contraction off (default) and on (--fast-math)"
    mkdir -p "$out/contraction"
    for v in off on; do
      exe=./amp_bench_gpu; [ $v = on ] && exe=./amp_bench_gpu_fast
      $exe --out "$out/contraction/$v" --only matmul,reduce,tiles,texture ${AMP_BENCH_ARGS:-} \
        >"$out/contraction.$v.log" 2>&1 || { fail=$((fail + 1)); tail -n 5 "$out/contraction.$v.log"; }
    done
    command -v python3 >/dev/null 2>&1 && python3 contraction.py "$out/contraction/off/bench.json" \
      "$out/contraction/on/bench.json" | tee "$out/contraction.md"
  fi
fi
echo "hip bundle: $pass passed, $fail failed"
[ $fail -eq 0 ]
RUN
  chmod +x "$OUT/run.sh"
  du -sh "$OUT"
}

KIND="${AMP_GPU:-cuda}" OUT=""
for a in "$@"; do
  case "$a" in
    --hip) KIND=hip ;;
    --cuda) KIND=cuda ;;
    -*) echo "gpu_bundle.sh: unknown option $a (DIR, --hip, --cuda)" >&2; exit 2 ;;
    *) OUT="$a" ;;
  esac
done
if [ "$KIND" = hip ]; then
  OUT="${OUT:-$ROOT/gpu-bundle-hip}"
  hip_bundle
  exit 0
fi
OUT="${OUT:-$ROOT/gpu-bundle}"
# AMP_BUNDLE_BUILD=0: bundle what the CUDA build tree has now (e.g. after
# `./amp _build cuda amp_tests amp_samples amp_bench_gpu ...`) instead of
# building every target first.
[ "${AMP_BUNDLE_BUILD:-1}" = 0 ] || AMP_GPU=cuda "$ROOT/amp" gpu-build
ARCH="${AMP_CUDA_ARCH:-sm_90}"
B="${AMP_BUILD_DIR:-$ROOT/build}/cuda-$ARCH"
rm -rf "$OUT"; mkdir -p "$OUT/samples" "$OUT/expected"
while read -r name expected; do
  [ -n "$name" ] || continue
  cp "$B/samples/$(basename "$name")" "$OUT/samples/"
  cp "$expected" "$OUT/expected/"
  echo "$(basename "$name")" >> "$OUT/samples.list"
done < "$B/samples/samples.list"
cp "$B/tests/amp_tests" "$B/tests/amp_device_errors" "$B/tests/amp_tools_kernel_names" \
  "$B/tests/libamp_kernel_name_tool.so" "$OUT/"
[ -x "$B/tests/amp_first_kernel_off_main" ] && cp "$B/tests/amp_first_kernel_off_main" "$OUT/"
# The Windows-environment tests (built with --windows-compat): Direct3D's
# out-of-range rule in GPU kernels among them.
[ -x "$B/tests/compat/compat_windows_tests" ] && cp "$B/tests/compat/compat_windows_tests" "$OUT/"
# The host tile compiler's kernels (tests/host_tiles) built for the GPU: in a
# CUDA build the host accelerators run tiled kernels compiled too; check.py
# compares that path with fibers and the kernels' expected paths.
if [ -x "$B/tests/amp_host_tiles_kernels" ]; then
  mkdir -p "$OUT/host_tiles"
  cp "$B/tests/amp_host_tiles_kernels" "$ROOT/tests/host_tiles/check.py" "$ROOT/tests/host_tiles/kernels.cpp" \
    "$ROOT/tests/host_tiles/header_kernels.h" "$OUT/host_tiles/"
  # Real code's habits, the same way (not overrun.cpp: a GPU build gives
  # fibers' tile_static no slack, tools/tile_compiler/README.md).
  [ -x "$B/tests/amp_host_tiles_habits" ] && cp "$B/tests/amp_host_tiles_habits" "$ROOT/tests/host_tiles/habits.cpp" \
    "$OUT/host_tiles/"
fi
# The result log's record of host reads (tests/host_views/read_log.cpp): the
# same reads, with the same bytes, on the GPU as on the host.
[ -x "$B/tests/amp_host_views_read_log" ] && cp "$B/tests/amp_host_views_read_log" \
  "$ROOT/tests/host_views/read_log_test.sh" "$OUT/"
# The MSVC-dialect GPU program of CTest compat.msvc_gpu, where that test ran.
[ -x "$B/tests/compat/compat_msvc_gpu" ] && cp "$B/tests/compat/compat_msvc_gpu" "$OUT/"
# Results across accelerators: the self-checking programs (default flags and,
# as the control, contraction on), the differential check and its exclusions.
for f in fidelity_checks fidelity_checks_fast; do [ -x "$B/tests/$f" ] && cp "$B/tests/$f" "$OUT/"; done
cp "$ROOT/scripts/differential.sh" "$ROOT/tests/fidelity/differential_exclusions.txt" "$ROOT/bench/contraction.py" "$OUT/"
for f in "$B"/bench/amp_bench_*; do [ -x "$f" ] && cp "$f" "$OUT/"; done
# The host benchmark (g++, libgomp): its runtimes travel along in host/,
# with the host build of the real-shape barrier program (binomial_options:
# host tiles compiled against fibers on every core, bench/RESULTS.md).
# (AMP_BUNDLE_HOST_BENCH=0 leaves them out.)
if [ "${AMP_BUNDLE_HOST_BENCH:-1}" = 1 ]; then
  HBD="$("$ROOT/amp" _build host amp_bench_host binomial_options binomial_macro)"
  HB="$HBD/bench/amp_bench_host"
  mkdir -p "$OUT/host"
  cp "$HB" "$OUT/host/"
  cp "$HBD/samples/binomial_options" "$HBD/samples/binomial_macro" "$OUT/host/"
  for lib in libgomp.so.1 libstdc++.so.6 libgcc_s.so.1; do
    p=$(ldd "$HB" | awk -v l="$lib" '$1 == l {print $3}')
    [ -n "$p" ] && cp "$p" "$OUT/host/"
  done
fi
# A user's code base built for the GPU (AMP_BUNDLE_CORPUS=DIR, the output of
# `tests/corpora/ampalgorithms.sh build DIR --gpu`): its Google Test program
# and the script that runs it and judges the result.
if [ -n "${AMP_BUNDLE_CORPUS:-}" ] && [ -x "$AMP_BUNDLE_CORPUS/amp_algorithms" ]; then
  mkdir -p "$OUT/corpus"
  cp -L "$AMP_BUNDLE_CORPUS/amp_algorithms" "$OUT/corpus/"
  cp "$ROOT/tests/corpora/ampalgorithms.sh" "$OUT/corpus/"
  strip "$OUT/corpus/amp_algorithms" 2>/dev/null || true
fi
cp "$ROOT/bench/plot.py" "$ROOT/bench/combine.py" "$ROOT/bench/path_ratios.py" "$OUT/"
strip "$OUT"/host/amp_bench_host "$OUT"/host/binomial_options "$OUT"/host/binomial_macro 2>/dev/null || true
strip "$OUT"/samples/* "$OUT"/amp_tests "$OUT"/amp_device_errors "$OUT"/amp_bench_* "$OUT"/fidelity_checks* \
  "$OUT"/compat_windows_tests 2>/dev/null || true
omp=$(ldd "$OUT/amp_tests" | awk '/libomp/ {print $3}')
[ -n "$omp" ] && cp "$omp" "$OUT/" && cp "$omp" "$OUT/samples/"
# oneTBB (the PPL companions of the legacy samples): absent on GPU machines.
for f in "$OUT"/samples/* "$OUT"/amp_tests; do ldd "$f" 2>/dev/null; done | awk '/libtbb/ {print $3}' | sort -u |
  while read -r lib; do [ -f "$lib" ] && cp -L "$lib" "$OUT/"; done
# The CUDA Kokkos' host accelerators: those of the embedded host Kokkos.
backends_env cuda "$("$ROOT/scripts/amp_driver.sh" backends --kind host --embedded | tr '\n' ' ' | sed 's/ $//')"
cat > "$OUT/run.sh" <<'RUN'
#!/usr/bin/env bash
# Runs the GPU bundle: samples and tests on the GPU (cuda) and on the host
# accelerator (openmp), then compute-sanitizer on every sample (GPU).
cd "$(dirname "$0")"
export LD_LIBRARY_PATH="$PWD:${LD_LIBRARY_PATH:-}" OMP_PROC_BIND=false
. ./backends.env  # GPU, HOST_BACKENDS, HOST, SEQUENTIAL: the accelerators, from the backends list
host_backends=$HOST_BACKENDS
pass=0 fail=0
check() { # name cmd...
  local name=$1; shift
  if "$@" >/tmp/amp_run.out 2>/tmp/amp_run.err; then pass=$((pass + 1)); echo "  ok    $name"
  else fail=$((fail + 1)); echo "  FAIL  $name"; tail -n 20 /tmp/amp_run.out /tmp/amp_run.err | sed 's/^/        /'; fi
}
same_output() { # exe expected
  "$1" </dev/null >/tmp/amp_sample.out && cmp -s /tmp/amp_sample.out "$2" || { diff /tmp/amp_sample.out "$2" | head; return 1; }
}
nvidia-smi -L || true
if [ "${1:-}" = fidelity ]; then
  # Only the differential check and the contraction benchmarks.
  AMP_SAMPLES=0 AMP_TESTS=0 AMP_SANITIZER=0 AMP_BENCH=0
fi
if [ "${AMP_SAMPLES:-1}" = 1 ]; then
echo "== samples"
for b in $GPU $HOST; do
  for p in auto portable native; do
    while read -r s; do check "$s ($b, $p path)" env AMP_DEFAULT_ACCELERATOR=$b AMP_KERNEL_PATH=$p bash -c "$(declare -f same_output); same_output samples/$s expected/$s.expected"; done < samples.list
  done
done
# The host accelerator with its tiles on fibers (above: compiled, the default).
while read -r s; do check "$s ($HOST, host tiles on fibers)" env AMP_DEFAULT_ACCELERATOR=$HOST AMP_HOST_TILES=fibers bash -c "$(declare -f same_output); same_output samples/$s expected/$s.expected"; done < samples.list
fi
if [ "${AMP_TESTS:-1}" = 1 ]; then
echo "== tests"
# With two or more GPUs the suite also runs with the second one as default
# (the TwoGpus tests skip with fewer); each on every kernel path.
gpus=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU' || true)
backends="$GPU $host_backends"; [ "${gpus:-0}" -ge 2 ] && backends="$GPU ${GPU}1 $host_backends"
for b in $backends; do
  for p in auto portable native; do
    check "amp_tests ($b, $p path)" env AMP_DEFAULT_ACCELERATOR=$b AMP_KERNEL_PATH=$p ./amp_tests --gtest_brief=1
  done
done
check "device errors become exceptions" ./amp_device_errors
if [ -x ./compat_windows_tests ]; then
  for b in $GPU $HOST; do
    check "compat_windows_tests ($b)" env AMP_DEFAULT_ACCELERATOR=$b ./compat_windows_tests --gtest_brief=1
  done
fi
# Host tiles of the GPU build: compiled (the default) against fibers.
check "amp_tests ($HOST, host tiles on fibers)" env AMP_DEFAULT_ACCELERATOR=$HOST AMP_HOST_TILES=fibers ./amp_tests --gtest_brief=1
if [ -x host_tiles/amp_host_tiles_kernels ] && command -v python3 >/dev/null; then
  for b in $host_backends; do
    check "host tiles compiled = fibers ($b)" env AMP_DEFAULT_ACCELERATOR=$b python3 host_tiles/check.py \
      host_tiles/amp_host_tiles_kernels host_tiles/kernels.cpp host_tiles/header_kernels.h
    [ -x host_tiles/amp_host_tiles_habits ] && check "host tiles of real code's habits compiled = fibers ($b)" \
      env AMP_DEFAULT_ACCELERATOR=$b python3 host_tiles/check.py host_tiles/amp_host_tiles_habits host_tiles/habits.cpp
  done
fi
[ -x ./amp_host_views_read_log ] && check "result log: the host's reads of kernel results ($GPU, $HOST)" \
  ./read_log_test.sh ./amp_host_views_read_log $GPU $HOST $HOST@copy
[ -x ./compat_msvc_gpu ] && check "MSVC-dialect GPU program ($GPU)" env AMP_DEFAULT_ACCELERATOR=$GPU ./compat_msvc_gpu
[ -x ./amp_first_kernel_off_main ] && check "first kernel from a worker thread ($GPU)" \
  env AMP_DEFAULT_ACCELERATOR=$GPU ./amp_first_kernel_off_main
for b in $GPU $HOST; do
  check "Kokkos Tools see AMP kernels ($b)" env AMP_DEFAULT_ACCELERATOR=$b KOKKOS_TOOLS_LIBS=$PWD/libamp_kernel_name_tool.so \
    KOKKOS_PROFILE_LIBRARY=$PWD/libamp_kernel_name_tool.so ./amp_tools_kernel_names
done
cat /tmp/amp_run.out
fi
if [ "${AMP_CORPUS:-1}" = 1 ] && [ -x corpus/amp_algorithms ]; then
  # Microsoft's AMP Algorithms Library's suite, built unchanged from its .sln
  # (ampalgorithms.sh judges: the Direct3D-scan tests must fail with
  # amp_compat's message, everything else must pass).
  echo "== corpus: AMP Algorithms Library"
  for b in $GPU $SEQUENTIAL; do
    check "amp_algorithms suite ($b)" env AMP_DEFAULT_ACCELERATOR=$b corpus/ampalgorithms.sh run corpus/amp_algorithms
    grep -E '^(ampalgorithms|  )' /tmp/amp_run.out | head -n 12 | sed 's/^/        /'
  done
fi
if [ "${AMP_SANITIZER:-1}" = 1 ] && { command -v compute-sanitizer >/dev/null 2>&1 || [ -x /usr/local/cuda/bin/compute-sanitizer ]; }; then
  CS=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
  echo "== compute-sanitizer"
  for tool in memcheck racecheck; do
    while read -r s; do
      check "$tool $s" bash -c "$CS --tool $tool --error-exitcode 3 samples/$s </dev/null"
    done < samples.list
  done
fi
if [ "${AMP_DIFFERENTIAL:-1}" = 1 ]; then
  # Every sample, the self-checking programs and the test suite's kernel
  # results on cuda against the host accelerators (README.md, "Results across
  # accelerators"); precise_math's bit-identical counts as a table.
  echo "== differential: $GPU, $HOST and $SEQUENTIAL, outputs compared byte for byte"
  # openmp@fibers: the host accelerator with its tiles on fibers, against the
  # reference (serial, tiles compiled): the two host tile paths compared too.
  if DIFF_ACCELERATORS="${DIFF_ACCELERATORS:-$GPU $HOST $HOST@fibers $SEQUENTIAL}" \
     DIFF_OUT="${AMP_BENCH_OUT:-results}/differential" OMP_NUM_THREADS="${OMP_NUM_THREADS:-8}" ./differential.sh; then
    pass=$((pass + 1)); echo "  ok    differential check"
  else
    fail=$((fail + 1)); echo "  FAIL  differential check (${AMP_BENCH_OUT:-results}/differential)"
  fi
fi
if [ "${AMP_CONTRACTION_BENCH:-1}" = 1 ] && [ -x ./amp_bench_gpu ] && [ -x ./amp_bench_gpu_fast ]; then
  # The kernels contraction affects, built without (default) and with
  # --fast-math, one after the other in one run (bench/RESULTS.md, "Contraction").
  out="${AMP_BENCH_OUT:-results}/contraction"
  echo "== benchmarks: contraction off (default) and on (--fast-math)"
  mkdir -p "$out"
  for v in off on; do
    exe=./amp_bench_gpu; [ $v = on ] && exe=./amp_bench_gpu_fast
    LD_LIBRARY_PATH="$PWD:/usr/local/cuda/lib64:$LD_LIBRARY_PATH" $exe --out "$out/$v" --only matmul,reduce,tiles,texture \
      ${AMP_BENCH_ARGS:-} >"$out.$v.log" 2>&1 || { fail=$((fail + 1)); tail -n 5 "$out.$v.log"; }
  done
  command -v python3 >/dev/null 2>&1 && python3 contraction.py "$out/off/bench.json" "$out/on/bench.json" | tee "$out.md"
fi
if [ "${AMP_BENCH:-1}" = 1 ] && [ -x ./amp_bench_gpu ]; then
  echo "== benchmarks"
  out="${AMP_BENCH_OUT:-results}"
  LD_LIBRARY_PATH="$PWD:/usr/local/cuda/lib64:$LD_LIBRARY_PATH" ./amp_bench_gpu --out "$out/gpu" ${AMP_BENCH_ARGS:-} \
    || fail=$((fail + 1))
  # The kernel paths forced one after the other (bench/path_ratios.py compares them).
  for p in native portable; do
    echo "== benchmarks, AMP_KERNEL_PATH=$p"
    AMP_KERNEL_PATH=$p LD_LIBRARY_PATH="$PWD:/usr/local/cuda/lib64:$LD_LIBRARY_PATH" ./amp_bench_gpu \
      --out "$out/gpu-$p" --only launch,matmul,reduce,transpose,tiles ${AMP_BENCH_ARGS:-} || fail=$((fail + 1))
  done
  command -v python3 >/dev/null 2>&1 && python3 path_ratios.py "$out/gpu-native/bench.json" \
    "$out/gpu-portable/bench.json" --auto "$out/gpu/bench.json" | tee "$out/paths.md"
  # The same sources with device code at Clang's -O3 (nvcc's default level),
  # for the hand-written baselines at their best (bench/combine.py).
  if [ -x ./amp_bench_gpu_o3 ]; then
    echo "== benchmarks, device code at -O3"
    LD_LIBRARY_PATH="$PWD:/usr/local/cuda/lib64:$LD_LIBRARY_PATH" ./amp_bench_gpu_o3 --out "$out/gpu-o3" \
      ${AMP_BENCH_ARGS:-} || fail=$((fail + 1))
  fi
  if [ "${AMP_HOST_BENCH:-1}" = 1 ] && [ -x host/amp_bench_host ]; then
    # OpenMP on every core against one thread with AMP on the Serial accelerator.
    cores=$(nproc)
    echo "== host benchmarks: OpenMP, $cores threads"
    LD_LIBRARY_PATH="$PWD/host" OMP_NUM_THREADS=$cores OMP_PROC_BIND=spread OMP_PLACES=cores \
      host/amp_bench_host --out "$out/host-$cores" ${AMP_BENCH_ARGS:-} || fail=$((fail + 1))
    echo "== host benchmarks: Serial (AMP direct3d\\ref, Kokkos OpenMP with 1 thread)"
    LD_LIBRARY_PATH="$PWD/host" OMP_NUM_THREADS=1 AMP_DEFAULT_ACCELERATOR=$SEQUENTIAL \
      host/amp_bench_host --out "$out/host-serial" ${AMP_BENCH_ARGS:-} || fail=$((fail + 1))
  fi
  if command -v python3 >/dev/null 2>&1; then
    for d in "$out"/*/; do [ -f "$d/bench.json" ] && python3 plot.py "$d/bench.json" -o "$d/ratios.png" >/dev/null; done
  fi
fi
# The pricers of issue 32's measure (bench/RESULTS.md): host tiles compiled
# against fibers on every core, 1024 options x 2048 steps, runs 2-3 timed,
# the two paths alternated twice (their process-to-process spread is large).
if [ "${AMP_HOST_BENCH:-1}" = 1 ] && [ -x host/binomial_macro ]; then
  echo "== host tiles: pricers, OpenMP $(nproc) threads"
  for round in 1 2; do
    for m in compiled fibers; do
      for p in binomial_macro binomial_options; do
        echo "-- $p $m (round $round)"
        LD_LIBRARY_PATH="$PWD/host" AMP_HOST_TILES=$m host/$p 1024 2048 3 2>&1 | grep -E "timing|sum of prices|CPU's" \
          || fail=$((fail + 1))
      done
    done
  done
fi
echo "gpu bundle: $pass passed, $fail failed"
[ $fail -eq 0 ]
RUN
chmod +x "$OUT/run.sh"
du -sh "$OUT"
