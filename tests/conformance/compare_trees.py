#!/usr/bin/env python3
"""Compares a run of Microsoft's tree as shipped with HCC's port on the same
tests.

Usage: compare_trees.py MS_RESULTS HCC_RESULTS
  MS_RESULTS   results.json of `./amp conformance ../shared/ms-amp-conformance`
  HCC_RESULTS  results.json of `./amp conformance ../shared/amp-conformance`,
               or a results-host.tsv of this folder (test, kind, status, reason)

Tests are matched by their folder relative to Tests/ (the port keeps
Microsoft's layout: 1,184 of Microsoft's 1,191 folders are in the port, the 7
others are Microsoft's only). Only tests that ran in both are compared (a
run cut by --time-limit is a sample: the runner starts tests in a fixed
pseudo-random order). A skip (exit code 2) is not a pass. Prints the counts
(both pass, Microsoft's only, HCC's only, neither) per kind and every test
that passes in one tree only, with the other tree's reason.
"""
import json
import sys
from pathlib import Path


def load(p):
    p = Path(p)
    if p.suffix == ".json":
        return {r["test"]: (r["kind"], r["status"], r.get("reason", "")) for r in json.loads(p.read_text())["results"]}
    out = {}
    for line in p.read_text().splitlines():
        if line.startswith("#") or not line.strip():
            continue
        f = line.split("\t")
        out[f[0]] = (f[1], f[2], f[3] if len(f) > 3 else "")
    return out


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    ms, hcc = load(sys.argv[1]), load(sys.argv[2])
    common = sorted(set(ms) & set(hcc))
    only_ms_tree = sorted(set(ms) - set(hcc))
    print(f"Microsoft's tree: {len(ms)} tests ran; HCC's port: {len(hcc)}; compared (in both): {len(common)}")
    rows = {}
    for t in common:
        kind = ms[t][0] if ms[t][0] != "compile-only" else "runtime"
        kind = "negative" if kind == "negative" else "runtime/compile-only"
        a, b = ms[t][1] == "pass", hcc[t][1] == "pass"
        key = "both" if a and b else "ms_only" if a else "hcc_only" if b else "neither"
        rows.setdefault(kind, {}).setdefault(key, []).append(t)
    tot_ms = tot_hcc = 0
    for kind in sorted(rows):
        r = rows[kind]
        n = sum(len(v) for v in r.values())
        pm = len(r.get("both", [])) + len(r.get("ms_only", []))
        ph = len(r.get("both", [])) + len(r.get("hcc_only", []))
        tot_ms, tot_hcc = tot_ms + pm, tot_hcc + ph
        print(f"  {kind:22} {n:4} tests: Microsoft's tree passes {pm}, HCC's port {ph} "
              f"(both {len(r.get('both', []))}, Microsoft's only {len(r.get('ms_only', []))}, "
              f"HCC's only {len(r.get('hcc_only', []))}, neither {len(r.get('neither', []))})")
    print(f"  {'all':22} {len(common):4} tests: Microsoft's tree passes {tot_ms}, HCC's port {tot_hcc}")
    for kind in sorted(rows):
        for t in rows[kind].get("ms_only", []):
            print(f"  passes in Microsoft's tree only: {t}  (port: {hcc[t][1]}: {hcc[t][2][:160]})")
        for t in rows[kind].get("hcc_only", []):
            print(f"  passes in HCC's port only: {t}  (Microsoft's: {ms[t][1]}: {ms[t][2][:160]})")
    if only_ms_tree:
        print(f"  Microsoft's only (not in the port): "
              + ", ".join(f"{t} {ms[t][1]}" for t in only_ms_tree))


if __name__ == "__main__":
    main()
