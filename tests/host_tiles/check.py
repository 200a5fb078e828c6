#!/usr/bin/env python3
"""check.py PROGRAM SOURCE...: the compiled host tile path against fibers.

Runs PROGRAM (built from SOURCE through the compiler launcher) with
AMP_HOST_TILES=compiled and AMP_HOST_TILES=fibers:
  * the two outputs (stdout) must be identical, byte for byte;
  * the run-time report (AMP_HOST_TILES_REPORT=1) of the compiled run must
    match the `// expect:` comments of the SOURCEs (the program's file and
    the headers with kernels it includes; kernels are told apart by file
    name and line): `compiled`, `fibers: TEXT`
    (TEXT part of the reason) or `unwrapped` (the kernel has no report line);
  * in the fibers run every kernel reports fibers;
  * the compiled path in its baseline copy (AMP_HOST_TILES_ISA=baseline)
    and in the widest copy the CPU has (AMP_HOST_TILES_ISA=x86-64-v4, capped
    at the CPU's; by default each kernel's copy is chosen by timing) prints
    the same output, and the baseline run reports `compiled (baseline)`; a
    value that names no instruction set stops the program with exit
    status 2.
Exit 77 (skipped) when no kernel reports anything: the build had no tile
compiler (no clang++-22 / Clang headers: GCC-only builds keep fibers).
"""
import os
import re
import subprocess
import sys

prog, sources = sys.argv[1], sys.argv[2:]


def run(mode, isa=None):
    env = dict(os.environ, AMP_HOST_TILES=mode, AMP_HOST_TILES_REPORT="1")
    env.pop("AMP_HOST_TILES_ISA", None)
    if isa:
        env["AMP_HOST_TILES_ISA"] = isa
    r = subprocess.run([prog], env=env, capture_output=True, timeout=120)
    if r.returncode != 0:
        sys.exit(f"{prog} with AMP_HOST_TILES={mode} failed ({r.returncode}):\n{r.stderr.decode(errors='replace')}")
    report = {}
    for line in r.stderr.decode(errors="replace").splitlines():
        m = re.match(r"amp_compat: host tiles: kernel at (.*):(\d+): (compiled|fibers)(?: \((.*)\))?$", line)
        if m:
            report[(os.path.basename(m.group(1)), int(m.group(2)))] = (m.group(3), m.group(4) or "")
        m = re.match(r"amp_compat: host tiles: kernel at (.*):(\d+): runs in (\S+) \(timed", line)
        if m:
            chosen[(os.path.basename(m.group(1)), int(m.group(2)))] = m.group(3)
    return r.stdout, report


chosen = {}  # kernel -> the copy its first tiles' timing chose (default runs)


out_c, rep_c = run("compiled")
if not rep_c:
    print("no kernel reported a host tile path: this build has no tile compiler (skipped)")
    sys.exit(77)
out_f, rep_f = run("fibers")
out_b, rep_b = run("compiled", "baseline")
out_w, rep_w = run("compiled", "x86-64-v4")
errors = []
if out_c != out_f:
    errors.append("outputs differ:\n--- compiled\n" + out_c.decode() + "--- fibers\n" + out_f.decode())
if out_b != out_c:
    errors.append("outputs differ:\n--- compiled\n" + out_c.decode() + "--- compiled, baseline\n" + out_b.decode())
if out_w != out_c:
    errors.append("outputs differ:\n--- compiled\n" + out_c.decode() + "--- compiled, widest\n" + out_w.decode())
# Where the copy is chosen by timing, every compiled kernel that ran at least
# the six timed tiles says which copy won (kernels of fewer tiles never decide).
for n, got in rep_c.items():
    if got[0] == "compiled" and got[1].endswith(", timed") and n in chosen:
        if chosen[n] not in ("baseline", got[1].split(" or ")[1].split(",")[0]):
            errors.append(f"{n[0]}:{n[1]}: timing chose {chosen[n]}, not one of {got[1]}")
for n, got in rep_b.items():
    if got[0] == "compiled" and got[1] not in ("baseline", "baseline, its only copy"):
        errors.append(f"{n[0]}:{n[1]}: AMP_HOST_TILES_ISA=baseline reports compiled ({got[1]})")
bad = subprocess.run([prog], env=dict(os.environ, AMP_HOST_TILES_ISA="avx9"), capture_output=True, timeout=120)
if bad.returncode != 2 or b"AMP_HOST_TILES_ISA=avx9" not in bad.stderr:
    errors.append(f"AMP_HOST_TILES_ISA=avx9: expected exit 2 and a message naming it, got {bad.returncode}: "
                  + bad.stderr.decode(errors="replace")[-300:])
expect = {}
for source in sources:
    for n, line in enumerate(open(source, encoding="utf-8"), 1):
        # (`compiled hoisted=N` and the other counts are the build's notes', check_analysis.py)
        # (`forwards`: a launcher's kernel handing its tiled_index to a
        # compiled function object: compiled at run time, no census entry.)
        m = re.search(r"// expect: (compiled(?: \w+=\w+)*|forwards|unwrapped|fibers: (.*))$", line.rstrip())
        if m:
            want = m.group(1)
            expect[(os.path.basename(source), n)] = "compiled" if want.startswith(("compiled", "forwards")) else want
for n, want in sorted(expect.items()):
    got = rep_c.get(n)
    if want == "unwrapped":
        if got:
            errors.append(f"{n[0]}:{n[1]}: expected no report, got {got}")
    elif want == "compiled":
        if not got or got[0] != "compiled":
            errors.append(f"{n[0]}:{n[1]}: expected compiled, got {got}")
    else:
        part = want[len("fibers: "):]
        if not got or got[0] != "fibers" or part not in got[1]:
            errors.append(f"{n[0]}:{n[1]}: expected fibers ({part}), got {got}")
for n in rep_c:
    if n not in expect:
        errors.append(f"{n[0]}:{n[1]}: a kernel reported {rep_c[n]} has no `// expect:` comment")
for n, got in rep_f.items():
    if got[0] != "fibers":
        errors.append(f"{n[0]}:{n[1]}: AMP_HOST_TILES=fibers still reports {got}")
if set(rep_f) != set(rep_c):
    errors.append(f"the fibers run reported kernels {sorted(rep_f)}, the compiled run {sorted(rep_c)}")
if errors:
    sys.exit("\n".join(errors))
print(f"{len(rep_c)} kernels: {sum(1 for g in rep_c.values() if g[0] == 'compiled')} compiled, "
      f"{sum(1 for g in rep_c.values() if g[0] == 'fibers')} on fibers; outputs identical "
      f"(compiled, baseline copy, widest copy, fibers); copy chosen by timing: "
      f"{sum(1 for c in chosen.values() if c != 'baseline')} wide, {sum(1 for c in chosen.values() if c == 'baseline')} baseline")
