#!/usr/bin/env bash
# AMD's Bolt, C++ AMP edition (a user's code base, never copied here): its
# Google Test programs built unchanged with ./amp c++ and run.
#
#   bolt.sh build OUT_DIR [--gpu|--checked] [NAME...]
#                                            compile Bolt's runtime (bolt/amp/*.cpp,
#                                            bolt/statisticalTimer.cpp, test/amp/common)
#                                            once into OUT_DIR/lib, then each test program
#                                            test/amp/NAME/ (default: all) into OUT_DIR/NAME,
#                                            linked against those objects; each program's
#                                            compile CPU time is added to OUT_DIR/times.txt
#   bolt.sh time-build BUILD_DIR             tests/corpora/bolt_algorithms_time.cpp (Bolt's
#                                            sort, stable_sort, inclusive_scan_by_key
#                                            timed) against BUILD_DIR's runtime objects
#   bolt.sh relink OUT_DIR [--gpu|--checked]
#                                            link OUT_DIR's programs again (their objects
#                                            as built) with this checkout's
#                                            bolt_result_marks.cpp, which every build links:
#                                            with AMP_RESULT_LOG set, each test's kernel
#                                            results between "test NAME"/"end NAME OUTCOME"
#   bolt.sh run BINARY [ARGS...]             run one program on AMP_DEFAULT_ACCELERATOR;
#                                            print pass/fail counts
#   bolt.sh test OUT_DIR                     build AMP_BOLT_PROGRAMS (default: a subset
#                                            that fits a few minutes) and run each on
#                                            serial and openmp (CTest corpus.bolt)
#   bolt.sh bundle BUNDLE_DIR BUILD_DIR      a directory to carry to a GPU machine: the
#                                            programs of BUILD_DIR (`build BUILD_DIR --gpu`),
#                                            stripped, the shared libraries they need that a
#                                            bare machine lacks (Boost, GoogleTest, libomp),
#                                            Bolt's radix-sort race in programs of ours
#                                            (bolt_radix_race.cpp, .cu), packed with xz,
#                                            and run.sh (bolt_gpu_run.sh: every program
#                                            on cuda, openmp and serial, the long ones
#                                            split into processes run on every core at
#                                            once, within about 8 minutes; run.sh
#                                            RESULTS_DIR; run.sh diff RESULTS_DIR: the
#                                            differential, host against GPU, test by test)
#
# Built as its CMake files build it on Linux (bolt/amp/, test/amp/): the
# include directories include/, test/amp/ and test/amp/common/, the generated
# bolt/BoltVersion.h (1.2.0, as configure_file writes it), -D_VARIADIC_MAX=10
# and -DAMP_TESTS, Debian's Boost (thread, date_time, chrono, program_options,
# system) and GoogleTest; scripts/deps.sh corpora installs those. No
# --windows-compat: the corpus is HCC's Linux port.
#
# The corpus is ../shared/corpora/bolt beside the checkout, or
# $AMP_CORPORA_DIR/bolt; without it the script exits 77 (CTest: skipped).
# "run" passes when every test passes except
#  - GoogleTestVerification.*: GoogleTest 1.10+ reports each parameterised suite
#    that is never instantiated; Bolt (2016) predates that check. Counted apart.
#  - AMP_CORPUS_KNOWN_FAILURES (an extended regex of test names), each printed.
set -uo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
CORPUS="${AMP_CORPORA_DIR:-$ROOT/../shared/corpora}/bolt"
SKIP=77
# The CTest subset: a few minutes of compiling on 2 cores (README.md).
DEFAULT_SUBSET="ReduceTest CopyTest TransformTest"
die() { echo "bolt: $*" >&2; exit 1; }

have_corpus() {
  [ -f "$CORPUS/include/bolt/amp/bolt.h" ] && return 0
  echo "bolt: no corpus at $CORPUS (set AMP_CORPORA_DIR): skipped"
  exit $SKIP
}

# What Bolt's CMake files give the compiler and the linker.
bolt_flags() {
  local gen=$1
  FLAGS=(-D_VARIADIC_MAX=10 -DAMP_TESTS -I"$CORPUS/include" -I"$gen/include"
         -I"$CORPUS/test/amp" -I"$CORPUS/test/amp/common")
  LIBS=(-lgtest -lboost_thread -lboost_date_time -lboost_chrono -lboost_program_options
        -lboost_system -pthread)
}

# bolt/BoltVersion.h, as Bolt's top-level configure_file writes it.
gen_version() {
  local gen=$1
  mkdir -p "$gen/include/bolt"
  sed 's/@Bolt_VERSION_MAJOR@/1/; s/@Bolt_VERSION_MINOR@/2/; s/@Bolt_VERSION_PATCH@/0/' \
    "$CORPUS/include/bolt/BoltVersion.h.in" >"$gen/include/bolt/BoltVersion.h.tmp"
  cmp -s "$gen/include/bolt/BoltVersion.h.tmp" "$gen/include/bolt/BoltVersion.h" \
    && rm "$gen/include/bolt/BoltVersion.h.tmp" \
    || mv "$gen/include/bolt/BoltVersion.h.tmp" "$gen/include/bolt/BoltVersion.h"
}

# compile SRC OBJ LOG: prints the compile's CPU seconds (user + sys, children).
compile() {
  local src=$1 obj=$2 log=$3 t
  rm -f "$obj"
  /usr/bin/time -o "$log.time" -f '%U %S' "$ROOT/amp" c++ "${GPU[@]}" "${FLAGS[@]}" -c "$src" -o "$obj" 2>"$log" \
    && [ -s "$obj" ] || return 1
  awk 'END { printf "%.1f", $1 + $2 }' "$log.time"
}

program_source() {
  local d="$CORPUS/test/amp/$1" s
  for s in "$d"/*.cpp; do [ -f "$s" ] && { echo "$s"; return 0; }; done
  return 1
}

all_programs() {
  local d
  for d in "$CORPUS"/test/amp/*/; do
    d=$(basename "$d")
    [ "$d" = common ] && continue
    program_source "$d" >/dev/null && echo "$d"
  done
}

# Ours, linked into every program: the result log's test marks
# (bolt_result_marks.cpp: with AMP_RESULT_LOG set, each test's kernel results
# between "test NAME" and "end NAME OUTCOME", as the project's test driver
# writes them; nothing without it).
compile_marks() {
  local out=$1 o="$1/lib/bolt_result_marks.o"
  compile "$ROOT/tests/corpora/bolt_result_marks.cpp" "$o" "$o.log" >/dev/null \
    || { grep -m5 error "$o.log"; die "compile of bolt_result_marks.cpp failed (log: $o.log)"; }
}

# link_program OUT NAME: OUT/obj/NAME.o with Bolt's runtime objects and ours.
link_program() {
  local out=$1 n=$2 libobjs=() s
  for s in "$CORPUS"/bolt/amp/*.cpp "$CORPUS/bolt/statisticalTimer.cpp" "$CORPUS"/test/amp/common/*.cpp; do
    libobjs+=("$out/lib/$(basename "$s" .cpp).o")
  done
  "$ROOT/amp" c++ "${GPU[@]}" "$out/obj/$n.o" "${libobjs[@]}" "$out/lib/bolt_result_marks.o" -o "$out/$n" "${LIBS[@]}" \
    2>"$out/obj/$n.link.log"
}

cmd_build() {
  local out=${1:?usage: bolt.sh build OUT_DIR [--gpu|--checked] [NAME...]}; shift
  GPU=()
  case "${1:-}" in --gpu | --checked) GPU=("$1"); shift ;; esac
  have_corpus
  AMP_DEPS_QUIET=1 "$ROOT/scripts/deps.sh" corpora || die "scripts/deps.sh corpora failed"
  mkdir -p "$out/lib" || die "cannot create $out"
  out="$(cd "$out" && pwd)"
  gen_version "$out/gen"
  bolt_flags "$out/gen"
  local names=("$@") t0=$SECONDS s o t
  [ ${#names[@]} -gt 0 ] || mapfile -t names < <(all_programs)
  # Bolt's runtime library (ampBolt.Runtime) and the tests' common source,
  # once per build (a few seconds; always, so that they match the programs'
  # amp_compat).
  for s in "$CORPUS"/bolt/amp/*.cpp "$CORPUS/bolt/statisticalTimer.cpp" "$CORPUS"/test/amp/common/*.cpp; do
    o="$out/lib/$(basename "$s" .cpp).o"
    t=$(compile "$s" "$o" "$o.log") || { grep -m5 error "$o.log"; die "compile of $s failed (log: $o.log)"; }
  done
  compile_marks "$out"
  local failed=() n
  for n in "${names[@]}"; do
    s=$(program_source "$n") || die "no test program $n in $CORPUS/test/amp"
    mkdir -p "$out/obj"
    if t=$(compile "$s" "$out/obj/$n.o" "$out/obj/$n.log"); then
      if link_program "$out" "$n"; then
        echo "$n ${t}s" >>"$out/times.txt"
        echo "  built $n (compile ${t} s CPU)"
        continue
      fi
      echo "  FAILED to link $n:"; grep -m5 -E 'error|undefined' "$out/obj/$n.link.log"
    else
      echo "  FAILED $n:"; grep -m5 "error" "$out/obj/$n.log"
    fi
    echo "$n FAILED" >>"$out/times.txt"
    failed+=("$n")
  done
  echo "bolt: built $(( ${#names[@]} - ${#failed[@]} )) of ${#names[@]} programs in $((SECONDS - t0)) s${GPU:+ (${GPU[0]})}"
  [ ${#failed[@]} -eq 0 ] || die "failed: ${failed[*]} (logs: $out/obj/)"
}

# relink OUT [--gpu|--checked]: the programs of an earlier build linked again
# with ours (bolt_result_marks.o compiled anew), their objects and Bolt's
# runtime objects as they are (no recompiling: minutes instead of an hour
# with --gpu; the programs keep the amp_compat headers they were compiled with).
cmd_relink() {
  local out=${1:?usage: bolt.sh relink OUT_DIR [--gpu|--checked]}; shift
  GPU=()
  case "${1:-}" in --gpu | --checked) GPU=("$1"); shift ;; esac
  have_corpus
  [ -d "$out/obj" ] && [ -d "$out/lib" ] || die "no build in $out"
  out="$(cd "$out" && pwd)"
  bolt_flags "$out/gen"
  compile_marks "$out"
  local o n count=0
  for o in "$out"/obj/*.o; do
    n=$(basename "$o" .o)
    link_program "$out" "$n" || { grep -m5 -E 'error|undefined' "$out/obj/$n.link.log"; die "link of $n failed"; }
    count=$((count + 1))
  done
  echo "bolt: relinked $count programs in $out${GPU:+ (${GPU[0]})}"
}

cmd_run() {
  local bin=${1:?usage: bolt.sh run BINARY [ARGS...]}; shift
  [ -x "$bin" ] || die "no program $bin"
  local log rc=0; log="$(mktemp)"
  timeout "${AMP_BOLT_TIMEOUT:-1800}" "$bin" "$@" >"$log" 2>&1 || rc=$?
  local passed failed verif unexpected known="" accept="${AMP_CORPUS_KNOWN_FAILURES:-}"
  passed=$(grep -c '^\[       OK \]' "$log")
  failed=$(grep '^\[  FAILED  \] [A-Za-z_].*\.' "$log" | grep -v ' listed below' \
           | sed 's/^\[  FAILED  \] \([^ ,]*\).*/\1/' | sort -u)
  verif=$(echo "$failed" | grep -c '^GoogleTestVerification\.')
  unexpected=$(echo "$failed" | grep -v '^GoogleTestVerification\.' | grep . || true)
  if [ -n "$accept" ] && [ -n "$unexpected" ]; then
    known=$(echo "$unexpected" | grep -E "$accept" || true)
    unexpected=$(echo "$unexpected" | grep -vE "$accept" || true)
  fi
  local nfail=0
  [ -n "$unexpected" ] && nfail=$(echo "$unexpected" | wc -l)
  echo "bolt $(basename "$bin") on ${AMP_DEFAULT_ACCELERATOR:-the default accelerator}: $passed passed," \
       "$nfail failed, $(echo "$known" | grep -c .) known failures," \
       "$verif GoogleTestVerification (uninstantiated suites, GoogleTest 1.10+)"
  [ -n "$known" ] && echo "  known failures accepted (AMP_CORPUS_KNOWN_FAILURES):" $known
  local ok=1
  [ $rc -gt 1 ] && { echo "bolt: $(basename "$bin") exited with $rc (crash or timeout)"; ok=0; }
  [ -n "$unexpected" ] && { echo "bolt: unexpected failures:" $unexpected; ok=0; }
  [ "$passed" -eq 0 ] && ok=0
  [ $ok = 1 ] || tail -n 30 "$log"
  rm -f "$log"
  [ $ok = 1 ]
}

cmd_test() {
  local out=${1:?usage: bolt.sh test OUT_DIR}
  have_corpus
  local names=(${AMP_BOLT_PROGRAMS:-$DEFAULT_SUBSET}) rc=0 n acc
  cmd_build "$out" "${names[@]}" || return 1
  for n in "${names[@]}"; do
    for acc in ${AMP_CORPUS_ACCELERATORS:-serial openmp}; do
      AMP_DEFAULT_ACCELERATOR=$acc OMP_NUM_THREADS=${OMP_NUM_THREADS:-2} cmd_run "$out/$n" || rc=1
    done
  done
  return $rc
}

# Shared libraries a program needs that a bare GPU machine lacks: all but the
# C library's own and the CUDA driver (the CUDA runtime and the C++ runtime
# are linked statically by --gpu).
bundle_libs() {
  ldd "$@" 2>/dev/null | awk '$2 == "=>" && $3 ~ /^\// {print $1, $3}' | sort -u | while read -r name path; do
    case "$name" in
      libc.so* | libm.so* | libdl.so* | librt.so* | libpthread.so* | ld-linux* | libcuda.so* | linux-vdso*) ;;
      *) cp -L "$path" "$BUNDLE/lib/$name" ;;
    esac
  done
}

cmd_bundle() {
  local bundle=${1:?usage: bolt.sh bundle BUNDLE_DIR BUILD_DIR} build=${2:?usage: bolt.sh bundle BUNDLE_DIR BUILD_DIR}
  have_corpus
  [ -d "$build" ] || die "no build directory $build (bolt.sh build $build --gpu)"
  rm -rf "$bundle" && mkdir -p "$bundle/bin" "$bundle/lib" || die "cannot create $bundle"
  BUNDLE="$(cd "$bundle" && pwd)"
  # The cheapest programs first (host run times, README.md): the order of
  # summary.md (run.sh starts the costliest work first whatever the order).
  local order="PairTest MergeTest CopyTest CountTest PermutationIteratorTest GatherTest InnerProductTest ScatterTest
    TransformScanTest device_vector ReduceByKeyTest GenerateTest MinElementTest MaxElementTest TransformReduceTest
    ReduceTest FillTest BinarySearchTest TransformTest ScanByKeyTest ScanTest SortTest StableSortTest SortByKeyTest
    StableSortByKeyTest" n missing=()
  local all seen=" "; all=" $(all_programs | tr '\n' ' ') "
  for n in $order $(all_programs); do
    [[ "$all" == *" $n "* && "$seen" != *" $n "* ]] || continue
    seen="$seen$n "
    if [ -x "$build/$n" ]; then
      cp "$build/$n" "$BUNDLE/bin/" && strip "$BUNDLE/bin/$n" && echo "$n" >>"$BUNDLE/programs.txt"
    else
      missing+=("$n")
    fi
  done
  # Bolt's radix-sort race in programs of ours: C++ AMP through amp_compat,
  # and hand-written CUDA (Clang, the CUDA compiler of --gpu builds).
  "$ROOT/amp" c++ --gpu -O2 "$ROOT/tests/corpora/bolt_radix_race.cpp" -o "$BUNDLE/bin/bolt_radix_race" \
    || die "bolt_radix_race.cpp does not build with --gpu"
  local cuda="${AMP_CUDA_PATH:-/usr/local/cuda}"
  "${AMP_CUDA_CLANG:-clang++-22}" -O2 -x cuda --cuda-gpu-arch="${AMP_CUDA_ARCH:-sm_90}" --cuda-path="$cuda" \
    -Wno-unknown-cuda-version "$ROOT/tests/corpora/bolt_radix_race.cu" -L"$cuda/lib64" -lcudart_static -ldl -lrt \
    -pthread -o "$BUNDLE/bin/bolt_radix_race_cuda" || die "bolt_radix_race.cu does not build"
  rm -f "$BUNDLE"/bin/*.so* # the driver's copy of libomp beside its output: lib/ has it
  strip "$BUNDLE/bin/bolt_radix_race" "$BUNDLE/bin/bolt_radix_race_cuda"
  bundle_libs "$BUNDLE"/bin/*
  cp "$ROOT/tests/corpora/bolt_gpu_run.sh" "$BUNDLE/run.sh"
  cp "$ROOT/scripts/differential.sh" "$BUNDLE/differential.sh" # run.sh diff compares with it
  # Packed (xz: about a fifth of the size; run.sh unpacks it), so that the
  # whole corpus fits the 64 MiB a GPU machine's working copy may carry.
  local unpacked; unpacked=$(du -sb "$BUNDLE/bin" "$BUNDLE/lib" | awk '{s += $1} END {print s}')
  tar -C "$BUNDLE" -cf - bin lib | xz -T"${AMP_JOBS:-1}" -9 >"$BUNDLE/payload.tar.xz" || die "packing failed"
  rm -rf "$BUNDLE/bin" "$BUNDLE/lib"
  local bytes; bytes=$(du -sb "$BUNDLE" | cut -f1)
  echo "bolt: bundle $BUNDLE: $(wc -l <"$BUNDLE/programs.txt") programs, $((bytes / 1048576)) MiB" \
       "($((unpacked / 1048576)) MiB unpacked)"
  [ ${#missing[@]} -eq 0 ] || echo "bolt: not in $build (not built with --gpu?): ${missing[*]}"
  [ "$bytes" -le $((64 * 1048576)) ] || die "the bundle exceeds 64 MiB ($((bytes / 1048576)) MiB)"
}

# bolt_algorithms_time.cpp (Bolt's sort, stable_sort and inclusive_scan_by_key
# timed by a program of ours) built against a host build's runtime objects.
cmd_time_build() {
  local out=${1:?usage: bolt.sh time-build BUILD_DIR (a host build: bolt.sh build BUILD_DIR NAME)}
  have_corpus
  [ -f "$out/lib/bolt.o" ] || die "no Bolt runtime objects in $out/lib (bolt.sh build $out SortTest first)"
  bolt_flags "$out/gen"
  "$ROOT/amp" c++ -O2 "${FLAGS[@]}" "$ROOT/tests/corpora/bolt_algorithms_time.cpp" "$out/lib/bolt.o" \
    "$out/lib/control.o" "${LIBS[@]}" -o "$out/bolt_algorithms_time" || die "bolt_algorithms_time.cpp does not build"
  echo "bolt: built $out/bolt_algorithms_time"
}

case "${1:-}" in
  bundle) shift; cmd_bundle "$@" ;;
  time-build) shift; cmd_time_build "$@" ;;
  build) shift; (cmd_build "$@") ;;
  relink) shift; (cmd_relink "$@") ;;
  run) shift; cmd_run "$@" ;;
  test) shift; cmd_test "$@" ;;
  *) sed -n '2,51p' "$0" | sed 's/^# \{0,1\}//'; exit 2 ;;
esac
