#!/usr/bin/env python3
"""Merges runs of `./amp conformance` into one results table.

Usage: merge_results.py TSV RUN...
  TSV  the table to update (test, kind, status, first error or exit status;
       one line a test, sorted; e.g. ms-results-host.tsv); its header line
       is kept, and created when the file does not exist
  RUN  a run's results.json or progress.jsonl (the runner appends one line a
       test to progress.jsonl as each test ends, so a run that was stopped
       still counts); later RUNs win over earlier ones and over the table

A whole tree run in chunks (`--time-limit` with `--resume`, or `--filter`
slices on several machines) becomes one table this way; compare_trees.py
reads it. Prints the counts per kind.
"""
import json
import re
import sys
from pathlib import Path


def read_run(p):
    p = Path(p)
    if p.suffix == ".jsonl":
        rows = [json.loads(line) for line in p.read_text().splitlines() if line.strip()]
    else:
        rows = json.loads(p.read_text())["results"]
    return {r["test"]: (r["kind"], r["status"], why(r)) for r in rows}


def why(r):
    """The reason, with the last line the failing program printed."""
    reason = r.get("reason", "")
    tail = next((s["output_tail"][-1] for s in r.get("sets", []) if s.get("status") == "fail" and s.get("output_tail")),
                "")
    # Paths as the suite names them (`Tests/...`), not as this machine does.
    return re.sub(r"/\S*?/(?=Tests/)", "", " ".join((reason + (": " + tail if tail else "")).split()))


def main(argv):
    if len(argv) < 2:
        sys.exit(__doc__)
    tsv = Path(argv[0])
    header, table = "# test\tkind\tstatus\tfirst error or exit status (./amp conformance)", {}
    if tsv.exists():
        for line in tsv.read_text().splitlines():
            if line.startswith("#"):
                header = line
            elif line.strip():
                f = line.split("\t")
                table[f[0]] = (f[1], f[2], f[3] if len(f) > 3 else "")
    for run in argv[1:]:
        table.update(read_run(run))
    tsv.write_text(header + "\n" + "".join(f"{t}\t{k}\t{s}\t{r}\n" for t, (k, s, r) in sorted(table.items())))
    kinds = {}
    for k, s, _ in table.values():
        kind = "negative" if k == "negative" else "runtime and compile-only"
        c = kinds.setdefault(kind, {"tests": 0, "pass": 0, "skip": 0, "fail": 0})
        c["tests"] += 1
        c[s if s in c else "fail"] += 1
    for kind, c in sorted(kinds.items()):
        print(f"{kind}: {c['pass']} of {c['tests']} pass ({c['skip']} skip, {c['fail']} fail)")
    print(f"all: {sum(c['pass'] for c in kinds.values())} of {len(table)} pass; written to {tsv}")


if __name__ == "__main__":
    main(sys.argv[1:])
