#!/usr/bin/env bash
# run_samples.sh SAMPLES_DIR [BACKEND...]: runs every sample listed in
# SAMPLES_DIR/samples.list on each backend (default: every one this machine
# has) and each kernel path (AMP_SAMPLE_PATHS, default "auto portable native":
# AMP_KERNEL_PATH of the runs), and prints one line per run and a summary.
set -u
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
dir=$1; shift
backends=("$@")
read -r -a paths <<<"${AMP_SAMPLE_PATHS:-auto portable native}"
if [ ${#backends[@]} -eq 0 ]; then
  backends=(serial)
  # The build's host backends (samples/CMakeLists.txt writes them).
  if [ -f "$dir/backends.txt" ]; then read -r -a backends <"$dir/backends.txt"; fi
  if command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >/dev/null 2>&1; then backends=(cuda "${backends[@]}"); fi
fi
pass=0 fail=0
while read -r name expected; do
  [ -n "$name" ] || continue
  exe="$dir/$(basename "$name")"
  for b in "${backends[@]}"; do
    for p in "${paths[@]}"; do
      if AMP_DEFAULT_ACCELERATOR=$b AMP_KERNEL_PATH=$p OMP_NUM_THREADS=${OMP_NUM_THREADS:-2} \
        "$here/check_output.sh" "$exe" "$expected" 2>"$dir/.last_err"; then
        printf '  ok    %-34s %-7s %s\n' "$name" "$b" "$p"; pass=$((pass + 1))
      else
        printf '  FAIL  %-34s %-7s %s\n' "$name" "$b" "$p"; sed 's/^/        /' "$dir/.last_err" | head -40; fail=$((fail + 1))
      fi
    done
  done
done < "$dir/samples.list"
echo "samples: $pass passed, $fail failed"
[ $fail -eq 0 ]
