#!/usr/bin/env python3
"""Combines GPU benchmark runs built at different device optimisation levels.

    combine.py DEFAULT.json OTHER.json... -o combined.json [--markdown]

DEFAULT.json comes from amp_bench_gpu (device code at -O2, amp_compat's
setting); the others from builds at other levels (amp_bench_gpu_o3). The AMP
figure of a kernel is taken from DEFAULT, as users of amp_compat get it; each
hand-written version (kokkos, kokkos-team, cuda) and each roof from the run in
which it was fastest, so AMP is compared with the baselines at their best
level. The AMP time of every other run is kept as version "amp@<file tag>".
Prints a Markdown table: times, the ratios amp/kokkos and amp/cuda, and the
percentage of the roof (copy bandwidth or cuBLAS SGEMM).
"""
import argparse
import json
import os
import sys

BASELINES = ("kokkos", "kokkos-team", "cuda")


def load(path):
    try:
        with open(path) as f:
            recs = json.load(f)
    except (OSError, ValueError) as e:
        sys.exit(f"combine.py: {path}: {e}")
    if not isinstance(recs, list):
        sys.exit(f"combine.py: {path}: expected a JSON array of records")
    return recs


def tag_of(path):
    return os.path.basename(os.path.dirname(os.path.abspath(path))) or path


def rate(r):
    return r.get("gbps", r.get("gflops"))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("default")
    ap.add_argument("others", nargs="*")
    ap.add_argument("-o", "--out", required=True)
    args = ap.parse_args()

    out, order = {}, []
    for r in load(args.default):
        key = (r["name"], r["version"])
        out[key] = dict(r, build=tag_of(args.default))
        order.append(key)
    for path in args.others:
        tag = tag_of(path)
        for r in load(path):
            key = (r["name"], r["version"])
            if r["version"] == "amp":
                k2 = (r["name"], "amp@" + tag)
                out[k2] = dict(r, version="amp@" + tag, build=tag)
                order.append(k2)
                continue
            better = key not in out or (
                (r["name"].endswith("roof") and (rate(r) or 0) > (rate(out[key]) or 0))
                or (not r["name"].endswith("roof") and r["median_ms"] < out[key]["median_ms"]))
            if key not in out:
                order.append(key)
            if better:
                out[key] = dict(r, build=tag)
    recs = [out[k] for k in order]
    with open(args.out, "w") as f:
        json.dump(recs, f, indent=1)

    def get(name, version):
        return out.get((name, version))

    def best_roof(prefix):
        roofs = [r for r in recs if r["name"] == prefix and rate(r)]
        return max(roofs, key=rate) if roofs else None

    print("| kernel | amp | kokkos | cuda | amp/kokkos | amp/cuda | % of roof |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for r in recs:
        if r["version"] != "amp":
            continue
        name = r["name"]
        ks = [x for x in (get(name, "kokkos"), get(name, "kokkos-team")) if x]
        k = min(ks, key=lambda x: x["median_ms"]) if ks else None
        c = get(name, "cuda")
        unit = "GB/s" if "gbps" in r else ("GFLOP/s" if "gflops" in r else "")

        def cell(x):
            if not x:
                return ""
            t = f"{x['median_ms']:.4g} ms" if unit else f"{x['median_ms'] * 1e3:.4g} us"
            tags = []
            if rate(x):
                tags.append(f"{rate(x):.0f} {unit}")
            if x is not r and x.get("version") == "kokkos-team":
                tags.append("team")
            if x is not r and x.get("build") != r.get("build"):
                tags.append(x["build"])
            return t + (f" ({', '.join(tags)})" if tags else "")

        roof = best_roof("matmul-roof-float" if name.startswith("matmul") else "copy-roof")
        pct = ""
        if roof and rate(r) and not name.startswith(("launch", "transfer", "tile-barriers", "barrier")):
            pct = f"{100 * rate(r) / rate(roof):.1f}"
        ak = f"{r['median_ms'] / k['median_ms']:.3f}" if k else ""
        ac = f"{r['median_ms'] / c['median_ms']:.3f}" if c else ""
        print(f"| {name} | {cell(r)} | {cell(k)} | {cell(c)} | {ak} | {ac} | {pct} |")


if __name__ == "__main__":
    main()
