#!/usr/bin/env python3
"""contraction.py OFF/bench.json ON/bench.json: what floating-point contraction
costs. OFF is the default build (-ffp-contract=off: identical results on every
accelerator), ON the same benchmarks built with --fast-math (AMP_FAST_MATH).
Prints a Markdown table, one row per kernel and version present in both runs:
median ms off, on, and off/on (above 1: contraction off is slower)."""
import json
import sys


def rows(path):
    with open(path, encoding="utf-8") as f:
        return {(r["name"], r["version"]): r["median_ms"] for r in json.load(f)}


def table(off, on):
    lines = ["| kernel | version | contraction off (ms) | on, --fast-math (ms) | off/on |",
             "| --- | --- | ---: | ---: | ---: |"]
    for key in off:
        if key in on and on[key] > 0:
            lines.append("| %s | %s | %.4f | %.4f | %.3f |" % (key[0], key[1], off[key], on[key], off[key] / on[key]))
    return "\n".join(lines)


def main(argv):
    if len(argv) != 3:
        sys.stderr.write(__doc__)
        return 2
    print(table(rows(argv[1]), rows(argv[2])))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
