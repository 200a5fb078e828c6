#!/usr/bin/env python3
"""Differential test of the restrict-pair rewrite's lexer over large real
sources: Microsoft's C++ AMP conformance suite (../shared/amp-conformance/Tests)
and the user code bases in ../shared/corpora.

For every C++ file (.cpp .cxx .cc .h .hpp .inl) it checks:
 (a) identity: a file that spells (in the lexer's tokens) no restriction
     that can form a pair (restrict(cpu), restrict(amp), restrict(direct3d),
     __GPU_ONLY, __CPU_ONLY), no `restrict` used as an identifier and no
     dynamic exception specification must come out of the rewrite byte for byte
     (the launcher then compiles the original); a file the rewrite changes must
     say why in its report. A failure here fails the test.
 (b) the old line-based mask (kept below as the reference it replaced) and
     cpp_lexer.mask compared: the files where they differ, by what the new
     lexer reads at the first difference; and the files whose rewrite differs
     between the two. Reported, not failed: the differences are the fixes.
 (d) every file the rewrite changes for a pair, with one line of the
     literals Windows code is full of (L'(', u8'\\'', a raw string with quotes
     and parentheses, digit separators, comments with apostrophes) put before
     it, must be rewritten exactly as without it (#line numbers one more).
     The old mask's count is printed beside. A difference fails the test.
 (c) with --compile: the files the rewrite changes because of a pair are
     built (see compile_check): conformance tests through the suite's runner,
     which must still pass every one its pass list names; the others must
     compile. Slow (the runner builds its test library first, then seconds
     per test); for a run by hand.

Usage: corpus_diff.py [--shared DIR] [--sample N] [--compile] [-v]
  --sample N   check every Nth file only (CTest runs a sample: a few seconds)
Exit status: 0 passed, 1 failed, 77 skipped (no ../shared beside the
repository: the corpora are not part of it).
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
from amp_driver import cpp_lexer
from amp_driver.passes import restrict_pairs

EXTENSIONS = (".cpp", ".cxx", ".cc", ".h", ".hpp", ".inl")
PAIRABLE = {"cpu", "amp", "direct3d"}


def old_mask(text):
    """The mask the rewrite used before cpp_lexer (reference for (b)): lines
    starting with # blanked, a quote after a letter or digit taken for a digit
    separator, literals running to their closing quote across lines."""
    out = list(text)
    i, n = 0, len(text)
    line_start = True
    while i < n:
        c = text[i]
        if line_start and c in " \t":
            i += 1
            continue
        if line_start and c == "#":
            j = i
            while j < n and text[j] != "\n":
                j += 2 if text[j] == "\\" and j + 1 < n and text[j + 1] == "\n" else 1
            for k in range(i, j):
                if out[k] != "\n":
                    out[k] = " "
            i = j
            continue
        line_start = False
        if c == "\n":
            line_start = True
            i += 1
        elif text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            for k in range(i, j):
                out[k] = " "
            i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            for k in range(i, j):
                if out[k] != "\n":
                    out[k] = " "
            i = j
        elif c in "\"'":
            if c == "'" and i > 0 and text[i - 1].isalnum():
                i += 1
                continue
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            for k in range(i + 1, min(j, n)):
                out[k] = " "
            i = j + 1
        else:
            i += 1
    return "".join(out)


def may_change(text, toks):
    """Whether text spells, in code (tokens), what the rewrite changes: a
    restriction that can form a pair, `restrict` used as an identifier, or a
    dynamic exception specification."""
    code = [(t.kind, t.spelling if t.kind == "identifier" else text[t.start:t.end]) for t in toks
            if t.kind in ("identifier", "punct")]
    for i, (kind, s) in enumerate(code):
        if kind != "identifier":
            continue
        if s in ("__GPU_ONLY", "__CPU_ONLY"):
            return True
        words = []
        if s == "restrict" and i + 1 < len(code) and code[i + 1][1] == "(":
            for _, w in code[i + 2:]:
                if w == ")":
                    break
                words.append(w)
            if any(w in PAIRABLE for w in words):
                return True
        if s == "restrict" and (i + 1 >= len(code) or code[i + 1][1] != "(" or not words or not all(
                w in PAIRABLE | {"auto", ","} for w in words)):
            return True  # `restrict` as an identifier (renamed)
        if s == "throw" and i > 0 and code[i - 1][1] in (")", "const", "volatile", "&") \
                and i + 1 < len(code) and code[i + 1][1] == "(":
            return True
    return False


def first_difference(a, b):
    for i, (x, y) in enumerate(zip(a, b)):
        if x != y:
            return i
    return min(len(a), len(b))


def what_at(text, toks, pos):
    """What the new lexer reads at pos: the kind of the token there."""
    for t in toks:
        if t.start <= pos < max(t.end, t.start + 1):
            if t.kind == "literal":
                if t.spelling and t.spelling.endswith("R"):
                    return "raw string"
                if t.spelling:
                    return f"{t.spelling}-prefixed literal"
                return "literal" + (" (unclosed on its line)" if text[t.end - 1:t.end] not in "'\"" and
                                    not re.match(r"\w", text[t.end - 1:t.end]) else "")
            return t.kind
        if t.start > pos:
            break
    return "code" + (" after a splice" if "\\\n" in text[max(0, pos - 200):pos] else "")


def rewrite_with(texts, path, mask_fn, join):
    """rewrite_files on one file with the given mask (and splice joining)."""
    saved = restrict_pairs.mask, restrict_pairs.join_splices
    restrict_pairs.mask = mask_fn
    restrict_pairs.join_splices = join
    try:
        return restrict_pairs.rewrite_files([path])
    finally:
        restrict_pairs.mask, restrict_pairs.join_splices = saved


# One line of the literals legacy Windows code is full of, put before a file
# for (d): it holds no pair, so it must not change what the rewrite does.
PROBE = ("/* it's ( */ static const char* amp_probe_raw = R\"win(C:\\dir\\\"x\" ( ')win\";"
         " static const long amp_probe_big = 1'000'000; static const char amp_probe_u8 = u8'\\'';"
         " static const wchar_t amp_probe_open = L'(';\n")


def probe_rewrite(path, text, mask_fn, join):
    """(d): the rewrite of PROBE + text, compared with PROBE + the rewrite of
    text (its #line numbers one more, for the probe's line). True when equal."""
    with tempfile.TemporaryDirectory() as d:
        q = Path(d) / path.name
        q.write_text(text)
        plain, _ = rewrite_with(None, str(q), mask_fn, join)
        q.write_text(PROBE + text)
        probed, _ = rewrite_with(None, str(q), mask_fn, join)
    want = plain.get(str(q))
    if want is not None:
        want = PROBE + re.sub(r"^#line (\d+)", lambda m: f"#line {int(m.group(1)) + 1}", want, flags=re.M)
    return probed.get(str(q)) == want


def find_shared(arg):
    cands = [arg] if arg else [os.environ.get("AMP_SHARED_DIR"), ROOT / ".." / "shared", ROOT / ".." / ".." / "shared"]
    for c in cands:
        if c and (Path(c) / "amp-conformance" / "Tests").is_dir():
            return Path(c).resolve()
    return None


def compile_check(paths, shared, verbose):
    """Builds what the rewrite changed for a pair: the conformance tests through
    the suite's runner (./amp conformance, which compiles through the launcher,
    runs them and compares with tests/conformance/host-passlist.txt: a listed
    test must still pass), the other files through ./amp c++ -fsyntax-only
    --windows-compat --msvc (a header through a file including it). Returns
    the failures."""
    failures = []
    suite = shared / "amp-conformance"
    tests_dir = suite / "Tests"
    rels = sorted({str(p.parent.relative_to(tests_dir)) for p in paths if tests_dir in p.parents})
    if rels:
        out = Path(os.environ.get("AMP_BUILD_DIR", ROOT / "build")) / "lexer-conformance"
        cmd = [str(ROOT / "amp"), "conformance", str(suite), "--jobs", "1", "--out", str(out),
               "--filter", "^(" + "|".join(re.escape(r) for r in rels) + ")$",
               "--compare", str(ROOT / "tests" / "conformance" / "host-passlist.txt")]
        print("(c) " + " ".join(cmd), flush=True)
        r = subprocess.run(cmd, capture_output=not verbose, text=True)
        if not verbose:  # the runner's verdict: how many listed tests ran, how many regressed
            print("\n".join("(c) " + l for l in (r.stdout + r.stderr).splitlines()
                             if "compared with" in l or l.startswith("total")), flush=True)
        if r.returncode != 0:
            failures.append(f"conformance tests rewritten for a pair: ./amp conformance exit {r.returncode}"
                            + ("" if verbose else ": " + (r.stdout + r.stderr)[-2000:]))
    for p in paths:
        if tests_dir in p.parents:
            continue
        with tempfile.TemporaryDirectory() as d:
            src = p
            if p.suffix not in (".cpp", ".cxx", ".cc"):
                src = Path(d) / "includes_it.cpp"
                # through -I and <>, as the code bases include their headers
                src.write_text(f"#include <{p.name}>\n")
            cmd = [str(ROOT / "amp"), "c++", "--windows-compat", "--msvc", "-fsyntax-only", "-w",
                   f"-I{p.parent}", str(src)]
            r = subprocess.run(cmd, capture_output=True, text=True)
            err = [l for l in (r.stdout + r.stderr).splitlines() if "error" in l]
            print(f"(c) {p}: {'compiles' if r.returncode == 0 else 'does not compile'}", flush=True)
            if r.returncode != 0:
                failures.append(f"{p}: rewritten for a pair, does not compile: {err[:3]}")
    return failures


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--shared", help="the folder holding amp-conformance/ and corpora/ (default: ../shared)")
    ap.add_argument("--sample", type=int, default=1, help="check every Nth file only")
    ap.add_argument("--compile", action="store_true", help="build the files rewritten for a pair (slow)")
    ap.add_argument("-v", "--verbose", action="store_true")
    a = ap.parse_args()
    shared = find_shared(a.shared)
    if shared is None:
        print("skipped: no ../shared/amp-conformance beside the repository (set AMP_SHARED_DIR or --shared)")
        return 77
    roots = [shared / "amp-conformance" / "Tests", shared / "corpora"]
    files = sorted(p for r in roots if r.is_dir() for p in r.rglob("*") if p.suffix in EXTENSIONS and p.is_file())
    files = files[::max(1, a.sample)]
    t0 = time.time()
    failures = []
    stats = Counter()
    mask_diffs, why = [], Counter()
    rewrite_diffs, pair_files = [], []
    for p in files:
        text = p.read_text(errors="replace")
        stats["files"] += 1
        stats["bytes"] += len(text)
        toks = cpp_lexer.tokens(text)
        new_m = cpp_lexer.mask(text)
        if len(new_m) != len(text) or [i for i, c in enumerate(new_m) if c == "\n"] != \
                [i for i, c in enumerate(text) if c == "\n"]:
            failures.append(f"{p}: mask changed the length or the line breaks")
        # (b) masks
        old_m = old_mask(text)
        if old_m != new_m:
            pos = first_difference(old_m, new_m)
            w = what_at(text, toks, pos)
            why[w] += 1
            mask_diffs.append((p, text.count("\n", 0, pos) + 1, w))
        # (a) identity
        out, report = rewrite_with(None, str(p), cpp_lexer.mask, cpp_lexer.join_splices)
        changed = str(p) in out and out[str(p)] != text
        pairable = may_change(text, toks)
        stats["pairable" if pairable else "not pairable"] += 1
        if changed:
            stats["rewritten"] += 1
            if not pairable:
                failures.append(f"{p}: rewritten, but spells nothing the rewrite changes: {report}")
            if not report:
                failures.append(f"{p}: rewritten without a report")
            if any("pair" in r for r in report):
                pair_files.append(p)
        elif not pairable:
            stats["identity (not pairable)"] += 1
        # (b) rewrites with the old mask
        old_out, _ = rewrite_with(None, str(p), old_mask, lambda t: t)
        if old_out.get(str(p)) != out.get(str(p)):
            rewrite_diffs.append((p, str(p) in old_out, str(p) in out))
    took = time.time() - t0
    print(f"corpus: {shared} ({', '.join(r.name for r in roots)}), every {a.sample}th file" if a.sample > 1
          else f"corpus: {shared} (amp-conformance/Tests, corpora)")
    print(f"files: {stats['files']} ({stats['bytes'] / 1e6:.1f} MB) in {took:.1f}s; "
          f"spelling what the rewrite changes: {stats['pairable']}; rewritten: {stats['rewritten']} "
          f"({len(pair_files)} for a pair); identity where nothing can change: {stats['identity (not pairable)']} "
          f"of {stats['not pairable']}")
    print(f"(b) old and new mask differ in {len(mask_diffs)} files; at the first difference the new lexer reads:")
    for w, k in why.most_common():
        print(f"      {k:5d}  {w}")
    for p, line, w in mask_diffs[:40 if a.verbose else 8]:
        print(f"      {p.relative_to(shared)}:{line}: {w}")
    print(f"(b) the rewrite differs from the old mask's in {len(rewrite_diffs)} files")
    for p, was, now in rewrite_diffs[:50]:
        print(f"      {p.relative_to(shared)}: old {'rewritten' if was else 'unchanged'}, "
              f"new {'rewritten' if now else 'unchanged'}")
    # (d) the pair files with the probe line before them: same rewrite
    probe_fail, probe_old_fail = [], []
    for p in pair_files:
        text = p.read_text(errors="replace")
        if not probe_rewrite(p, text, cpp_lexer.mask, cpp_lexer.join_splices):
            probe_fail.append(p)
            failures.append(f"{p}: rewritten differently after a line of Windows-style literals")
        if not probe_rewrite(p, text, old_mask, lambda t: t):
            probe_old_fail.append(p)
    print(f"(d) {len(pair_files)} files rewritten for a pair, with a line of Windows-style literals before "
          f"them: rewritten the same way in {len(pair_files) - len(probe_fail)} (the old mask: "
          f"{len(pair_files) - len(probe_old_fail)})")
    if a.compile:
        failures += compile_check(pair_files, shared, a.verbose)
    for f in failures:
        print("FAIL " + f)
    print("FAILED" if failures else "passed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
