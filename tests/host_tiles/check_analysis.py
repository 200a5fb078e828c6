#!/usr/bin/env python3
"""check_analysis.py SOURCE FLAG...: runs the tile compiler (`scripts/amp_driver.sh
tile-compiler`, with AMP_HOST_TILES_REPORT=1) on SOURCE with the compile FLAGs and
checks its note for every kernel against the `// expect:` comment on the
kernel's line: `compiled`, or `fibers: TEXT` (TEXT part of the reason);
`compiled ivdep=N` also checks how many of its region loops the compiler
marked `#pragma GCC ivdep` (work-items proven independent), `hoisted=N` how
many uniform element reads it reads once per tile, `copies=baseline|wide`
whether it is built in the baseline copy only or also in the wider
instruction-set copies (tools/tile_compiler/vector_width.cpp), `kept=N` how
many values it keeps per work-item (the rest are tile-level or recomputed);
any of them, in any order.
Also checks that the rewritten source is produced. Exit 77 (skipped) when the
tile compiler cannot be built here (no clang++-22 / Clang headers)."""
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

root = Path(__file__).resolve().parents[2]
source, flags = sys.argv[1], sys.argv[2:]
driver = root / "scripts" / "amp_driver.sh"
if subprocess.run([str(driver), "plugin", "tile_compiler"], capture_output=True).returncode != 0:
    print("the tile compiler is not available here (skipped)")
    sys.exit(77)
with tempfile.TemporaryDirectory() as tmp:
    out = os.path.join(tmp, "out.cpp")
    r = subprocess.run([str(driver), "tile-compiler", source, out] + flags, capture_output=True, text=True,
                       env=dict(os.environ, AMP_HOST_TILES_REPORT="1"))
    if r.returncode != 0:
        sys.exit(f"the tile compiler failed on {source}:\n{r.stderr}")
    notes = {}
    ivdeps = {}
    hoists = {}
    copies = {}
    kept = {}
    for line in r.stderr.splitlines():
        m = re.match(r".*:(\d+):\d+: note: amp host tiles: tiled kernel (compiled|keeps fibers: (.*?))(?: \(\d+ barrier.*)?$",
                     line)
        if m:
            notes[int(m.group(1))] = ("compiled", "") if m.group(2) == "compiled" else ("fibers", m.group(3))
            iv = re.search(r", (\d+) region loop\(s\) marked ivdep", line)
            ivdeps[int(m.group(1))] = int(iv.group(1)) if iv else 0
            ho = re.search(r", (\d+) uniform read\(s\) hoisted", line)
            hoists[int(m.group(1))] = int(ho.group(1)) if ho else 0
            copies[int(m.group(1))] = "baseline" if ", baseline copy only" in line else "wide"
            kv = re.search(r"\((?:\d+ barrier\(s\), )?(\d+) value\(s\) kept per work-item", line)
            kept[int(m.group(1))] = int(kv.group(1)) if kv else 0
errors = []
expect = {}
for n, line in enumerate(open(source, encoding="utf-8"), 1):
    m = re.search(r"// expect: (compiled(?: \w+=\w+)*|fibers: (.*))$", line.rstrip())
    if m:
        expect[n] = m.group(1)
for n, want in sorted(expect.items()):
    got = notes.get(n)
    if want.startswith("compiled"):
        if got != ("compiled", ""):
            errors.append(f"line {n}: expected compiled, got {got}")
        else:
            counts = dict(kv.split("=") for kv in want.split()[1:])
            if "ivdep" in counts and ivdeps.get(n) != int(counts["ivdep"]):
                errors.append(f"line {n}: expected {counts['ivdep']} region loop(s) marked ivdep, got {ivdeps.get(n)}")
            if "hoisted" in counts and hoists.get(n) != int(counts["hoisted"]):
                errors.append(f"line {n}: expected {counts['hoisted']} uniform read(s) hoisted, got {hoists.get(n)}")
            if "kept" in counts and kept.get(n) != int(counts["kept"]):
                errors.append(f"line {n}: expected {counts['kept']} value(s) kept per work-item, got {kept.get(n)}")
            if "copies" in counts and copies.get(n) != counts["copies"]:
                errors.append(f"line {n}: expected copies={counts['copies']}, got copies={copies.get(n)}")
    else:
        part = want[len("fibers: "):]
        if not got or got[0] != "fibers" or part not in got[1]:
            errors.append(f"line {n}: expected fibers ({part}), got {got}")
for n in notes:
    if n not in expect:
        errors.append(f"line {n}: a kernel noted {notes[n]} has no `// expect:` comment")
if errors:
    sys.exit("\n".join(errors))
print(f"{len(expect)} kernels as expected")
