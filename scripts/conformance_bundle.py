#!/usr/bin/env python3
"""Packs what `./amp conformance SUITE --gpu --build-only` built into a bundle
that runs on a GPU machine with no toolchain there.

Usage: conformance_bundle.py OUT BUNDLE [--part-mib N]
  OUT     the runner's output folder (results.json, t/*/set*/test.out)
  BUNDLE  the folder to write (replaced):
    manifest.tsv   one line per test and definition set: test, kind, set,
                   folder, state (`run`: its binary is in a part; else the
                   build's verdict, pass or fail) and the build's reason
    part-NN.tar.xz the stripped test binaries, each part under N MiB
                   (default 60) and usable alone
    lib/           the runtimes the binaries load that GPU machines lack
                   (Clang's libomp, oneTBB)
    run.sh         runs every binary of the parts present by the suite's
                   rules (exit 0 pass, 2 skip, anything else fail; 60 s each,
                   AMP_TEST_TIMEOUT), writes results/runs.tsv and
                   results/summary.txt (runtime and negative tests, pass
                   counts, and every failure with its reason)
A test passes when every definition set passes (HCC's and Microsoft's rule);
its build verdicts travel in the manifest, so the summary covers the negative
and compile-only tests too.
"""
import argparse
import json
import lzma
import re
import shutil
import subprocess
import sys
import tarfile
from pathlib import Path

RUN_SH = r'''#!/usr/bin/env bash
# Runs the conformance bundle (scripts/conformance_bundle.py): every test binary
# of the parts present, by the suite's rules. AMP_DEFAULT_ACCELERATOR defaults
# to the GPU (cuda); AMP_TEST_TIMEOUT (60 s) bounds each run.
set -u
cd "$(dirname "$0")"
B="$PWD"
export LD_LIBRARY_PATH="$B/lib:${LD_LIBRARY_PATH:-}"
export AMP_DEFAULT_ACCELERATOR="${AMP_DEFAULT_ACCELERATOR:-cuda}"
limit="${AMP_TEST_TIMEOUT:-60}"
mkdir -p results work
: > results/runs.tsv
for p in part-*.tar.xz; do
  [ -f "$p" ] || continue
  tar -xJf "$p" -C work || { echo "cannot unpack $p"; exit 1; }
done
while IFS=$'\t' read -r test kind set dir state reason; do
  [ "$state" = run ] || continue
  exe="$B/work/$dir/set$set/test.out"
  if [ ! -x "$exe" ]; then printf '%s\t%s\tmissing\n' "$test" "$set" >> results/runs.tsv; continue; fi
  rd="$B/results/logs/$dir/set$set"; mkdir -p "$rd"
  (cd "$rd" && timeout "$limit" "$exe" > run.log 2>&1); rc=$?
  printf '%s\t%s\t%s\n' "$test" "$set" "$rc" >> results/runs.tsv
done < manifest.tsv
awk -F'\t' '
  FNR == NR { rc[$1 SUBSEP $2] = $3; next }
  BEGIN { rank["pass"] = 0; rank["skip"] = 1; rank["notrun"] = 2; rank["fail"] = 3 }
  {
    t = $1; st = $5
    if (st == "run") {
      k = t SUBSEP $3
      if (!(k in rc)) st = "notrun"
      else if (rc[k] == 0) st = "pass"
      else if (rc[k] == 2) st = "skip"
      else if (rc[k] == 124) { st = "fail"; why[t] = "run: timed out" }
      else if (rc[k] == "missing") st = "notrun"
      else { st = "fail"; why[t] = "run: exit code " rc[k] }
    } else if (st == "fail") why[t] = $6
    kinds[t] = $2
    if (!(t in res) || rank[st] > rank[res[t]]) res[t] = st
  }
  END {
    for (t in res) {
      neg = kinds[t] == "negative"
      n[neg]++; c[neg, res[t]]++
      if (res[t] == "fail") printf "FAIL\t%s\t%s\n", t, why[t] > "results/failures.tsv"
    }
    printf "runtime and compile-only tests: %d pass, %d skip, %d fail, %d not run (parts absent), of %d\n", c[0,"pass"], c[0,"skip"], c[0,"fail"], c[0,"notrun"], n[0]
    printf "negative tests (judged at build): %d pass of %d\n", c[1,"pass"], n[1]
  }' results/runs.tsv manifest.tsv | tee results/summary.txt
[ -f results/failures.tsv ] && sort results/failures.tsv >> results/summary.txt
echo "results in $B/results (summary.txt, runs.tsv, logs/)"
'''


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("out")
    ap.add_argument("bundle")
    ap.add_argument("--part-mib", type=int, default=60)
    args = ap.parse_args()
    out, bundle = Path(args.out), Path(args.bundle)
    res = json.loads((out / "results.json").read_text())
    if res.get("toolchain") != "cuda":
        sys.exit(f"{out}: not a --gpu build (toolchain {res.get('toolchain')})")
    if bundle.exists():
        shutil.rmtree(bundle)
    (bundle / "lib").mkdir(parents=True)
    rows, binaries = [], []
    for r in res["results"]:
        slug = re.sub(r"[^A-Za-z0-9_.-]", "_", r["test"])  # the runner's Test.slug()
        for s in r["sets"]:
            exe = out / "t" / slug / f"set{s['set']}" / "test.out"
            if s.get("status") == "built" and exe.is_file():
                rows.append((r["test"], r["kind"], s["set"], slug, "run", ""))
                binaries.append((slug, s["set"], exe))
            else:
                st = s.get("status", "fail")
                rows.append((r["test"], r["kind"], s["set"], slug, "pass" if st == "pass" else "fail",
                             s.get("reason", "").replace("\t", " ").replace("\n", " ")[:300]))
    (bundle / "manifest.tsv").write_text("".join("\t".join(str(c) for c in row) + "\n" for row in rows))
    # The runtimes: what ldd finds beside the binaries or in the system that
    # GPU machines do not have as a rule.
    libs = set()
    for _, _, exe in binaries[:1]:
        ldd = subprocess.run(["ldd", str(exe)], capture_output=True, text=True).stdout
        for line in ldd.splitlines():
            parts = line.split()
            if len(parts) >= 3 and parts[2].startswith("/") and ("libomp" in parts[0] or "libtbb" in parts[0]):
                libs.add((parts[0], parts[2]))
    for name, path in sorted(libs):
        shutil.copy2(Path(path).resolve(), bundle / "lib" / name)
    # Parts: stripped binaries, xz-compressed together (they share most of
    # their code); a part is closed when the next binary could take it past
    # the limit, judged by the compressed size of the first one alone (an
    # upper bound of what a binary adds to a solid archive).
    stage = bundle / ".stage"
    limit = args.part_mib * 1024 * 1024
    part, per, size_one = [], None, None
    parts = []
    for slug, k, exe in binaries:
        dst = stage / slug / f"set{k}" / "test.out"
        dst.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(exe, dst)
        subprocess.run(["strip", str(dst)], check=False)
        if size_one is None:
            size_one = len(lzma.compress(dst.read_bytes(), preset=6))
            per = max(1, int(limit * 0.9) // size_one)
        part.append(f"{slug}/set{k}/test.out")
        if len(part) == per:
            parts.append(part)
            part = []
    if part:
        parts.append(part)
    for i, names in enumerate(parts, 1):
        p = bundle / f"part-{i:02d}.tar.xz"
        with tarfile.open(p, "w:xz", preset=6) as tar:
            for n in names:
                tar.add(stage / n, arcname=n)
        if p.stat().st_size > limit:
            sys.exit(f"{p}: {p.stat().st_size} bytes, over --part-mib {args.part_mib}")
    shutil.rmtree(stage, ignore_errors=True)
    run = bundle / "run.sh"
    run.write_text(RUN_SH)
    run.chmod(0o755)
    total = sum(f.stat().st_size for f in bundle.rglob("*") if f.is_file())
    print(f"[conformance] bundle {bundle}: {len(binaries)} test binaries in {len(parts)} part(s), "
          f"{len(rows)} definition sets in manifest.tsv, {total / 1048576:.1f} MiB in all; on the GPU machine: "
          f"{bundle.name}/run.sh")


if __name__ == "__main__":
    main()
