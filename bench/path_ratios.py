#!/usr/bin/env python3
"""Portable against native kernel path, from two runs of one benchmark binary.

    path_ratios.py NATIVE.json PORTABLE.json [--auto AUTO.json]

NATIVE.json / PORTABLE.json: bench.json of runs with AMP_KERNEL_PATH=native and
=portable (the same binary, machine and options). Prints a Markdown table: the
AMP time on each path, the ratio portable/native (> 1: the portable path is
slower), and the portable path's ratios against the hand-written Kokkos and
CUDA versions of the same run (the faster of kokkos / kokkos-team). With
--auto, the AMP time of an AMP_KERNEL_PATH=auto run too, and its ratio to the
faster of the two paths.
"""
import argparse
import json
import sys


def load(path):
    try:
        with open(path) as f:
            recs = json.load(f)
    except (OSError, ValueError) as e:
        sys.exit(f"path_ratios.py: {path}: {e}")
    by = {}
    for r in recs:
        by.setdefault(r["name"], {})[r["version"]] = r["median_ms"]
    return by


def fmt(ms):
    return f"{ms * 1000:.4g} us" if ms < 0.1 else f"{ms:.4g} ms"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("native")
    ap.add_argument("portable")
    ap.add_argument("--auto")
    a = ap.parse_args()
    nat, por = load(a.native), load(a.portable)
    aut = load(a.auto) if a.auto else None
    head = "| kernel | native | portable | portable/native | portable/kokkos | portable/cuda |"
    sep = "|---|---:|---:|---:|---:|---:|"
    if aut:
        head += " auto | auto/best |"
        sep += "---:|---:|"
    print(head)
    print(sep)
    for name, v in nat.items():
        if "amp" not in v or name not in por or "amp" not in por[name]:
            continue
        n, p = v["amp"], por[name]["amp"]
        ks = [por[name][k] for k in ("kokkos", "kokkos-team") if k in por[name]]
        cu = por[name].get("cuda")
        row = f"| {name} | {fmt(n)} | {fmt(p)} | {p / n:.3f} | "
        row += (f"{p / min(ks):.3f}" if ks else "") + " | " + (f"{p / cu:.3f}" if cu else "") + " |"
        if aut:
            t = aut.get(name, {}).get("amp")
            row += (f" {fmt(t)} | {t / min(n, p):.3f} |" if t else " | |")
        print(row)


if __name__ == "__main__":
    main()
