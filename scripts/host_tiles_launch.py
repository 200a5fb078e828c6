#!/usr/bin/env python3
"""Host tiles compiled instead of fibers, as a step of the compiler launcher.

Used by the driver's host-tiles pass (scripts/amp_driver/passes/host_tiles.py) just before
it runs the compiler: run(compiler, args, sources, out, headers) compiles
with each source that holds a tiled kernel with a barrier replaced by its copy
rewritten by the tile compiler (scripts/tile_compiler.sh, a Clang 22 plugin:
tools/tile_compiler), and so for the project headers (which may be the
launcher's own rewritten copies: restrict pairs, GPU edits). The copy starts with
#line 1 "<original>" (diagnostics and __FILE__ name the original) and its
folder's "..." includes resolve as before (-iquote <original folder>).

Nothing is rewritten (the kernels keep fibers) when:
  * AMP_TILE_COMPILER=off, or the compile is not a host C++ compile (CUDA,
    -E, -fsyntax-only, -M/-MM only),
  * neither a source nor a project header it includes mentions `.barrier.wait`,
  * clang++-22 or Clang's C++ headers are missing (GCC-only builds), or the
    Clang parse of the source fails: the source is then compiled unchanged.
AMP_HOST_TILES_REPORT=1 at build time prints a note per tiled kernel (compiled,
or why it keeps fibers); at run time it prints the path each kernel takes.

Kernels in project headers (the ones restrict_rewrite.launch finds: reached
through "" and the project's -I/-iquote folders, not amp_compat's or
Kokkos') are rewritten too: their copies go to an overlay folder whose
mirrored folders come first in the include paths. Should that compile fail
(e.g. a header reached both as the copy and, from another original header,
as the original), the source is compiled again with the original headers
(their kernels keep fibers).
"""
import collections
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

BARRIER_RE = re.compile(r"\.\s*barrier\s*\.\s*wait")
SCRIPT = Path(__file__).resolve().parent / "tile_compiler.sh"


def _c_string(s):
    return s.replace("\\", "\\\\").replace('"', '\\"')


def enabled(args):
    """A host C++ compile, or a Clang CUDA compile (whose host pass runs the
    kernels on the host accelerators of a GPU build). HIP compiles (hipcc, a
    ROCm Clang the plugin is not built for) keep fibers."""
    if os.environ.get("AMP_TILE_COMPILER", "") in ("off", "0"):
        return False
    if any(a in ("-E", "-fsyntax-only", "-M", "-MM", "--cuda-device-only") or a.startswith("--offload-arch")
           for a in args):
        return False
    cuda = any(a.startswith("--cuda-gpu-arch") for a in args)
    allowed = ("c++", "cuda") if cuda else ("c++",)
    for i, a in enumerate(args):
        if a == "-x" and i + 1 < len(args) and args[i + 1] not in allowed + ("none",):
            return False
        if a.startswith("-x") and len(a) > 2 and a[2:] not in allowed + ("none",):
            return False
    return True


def _has_barrier(path):
    try:
        return BARRIER_RE.search(Path(path).read_text(errors="surrogateescape")) is not None
    except OSError:
        return False


def wanted(args, sources, headers=()):
    """Whether anything may be rewritten (else the compile runs unchanged)."""
    return bool(sources) and enabled(args) and any(_has_barrier(f) for f in [args[k] for k in sources] + list(headers))


def call(compiler, args, sources, out, headers=()):
    """Compiles with the tiled kernels of the sources and of the project
    headers rewritten; the exit status."""
    return run(compiler, args, sources, out, headers)[0]


ERROR_RE = re.compile(r"^(.+?):(\d+):(?:\d+:)? (?:fatal )?error: (.*)$")


def _first_errors(stderr):
    """[(file, line, message)] of the compiler's errors, in order."""
    return [(os.path.realpath(m.group(1)), int(m.group(2)), m.group(3))
            for m in map(ERROR_RE.match, stderr.splitlines()) if m]


def _blamed(kernels, errors):
    """The compiled kernels (census entries) whose source lines hold one of
    the errors; all compiled kernels when no error falls inside one (an
    error in the text of an inlined callee, say)."""
    compiled = [k for k in kernels if k.compiled]
    hit = [k for k in compiled if any(f == k.file and k.line <= ln <= k.end for f, ln, _ in errors)]
    return hit or compiled


def run(compiler, args, sources, out, headers=(), capture=False):
    """call(), returning (exit status, the compiler's stderr when capture,
    else "" with stderr passed through).

    The tile compiler must never break a build: when the rewritten source
    does not compile, the kernels the errors point into are taken back to
    fibers (rewritten again without them) and, should that fail too, the
    source is compiled as it came. Either way one warning per kernel names
    it and the first error; the user's own errors (the source as it came
    fails as well) are reported as the compiler gives them."""
    forced = {}
    attempt = 0
    while True:
        tiled, cleanup, without_headers, kernels = _rewrite(args, sources, out, headers, forced)
        try:
            if tiled is args:
                break
            tries = [tiled] + ([without_headers] if without_headers is not None else [])
            for a in tries:
                r = subprocess.run([compiler] + a, stderr=subprocess.PIPE)
                if r.returncode == 0:
                    for key, why in forced.items():
                        _warn(key, why)
                    _census_out(kernels)
                    return _passed(r.stderr, capture)
            errors = _first_errors(r.stderr.decode(errors="replace"))
        finally:
            cleanup()
        blamed = [k for k in _blamed(kernels, errors) if k.key not in forced]
        attempt += 1
        if not blamed or attempt > 3:
            break
        why = errors[0][2] if errors else "the compiler reported no location"
        for k in blamed:
            forced[k.key] = why
    # The source as it came (every kernel of it on fibers).
    r = subprocess.run([compiler] + list(args), stderr=subprocess.PIPE)
    if r.returncode != 0:
        return _failed(r, capture)
    for k in kernels:
        if k.compiled and k.key not in forced:
            forced[k.key] = "its source was compiled as it came after the compiled forms of its kernels failed"
    for key, why in forced.items():
        _warn(key, why)
    _census_out([k._replace(compiled=False, why="its compiled form did not compile") if k.compiled else k
                 for k in kernels])
    return _passed(r.stderr, capture)


def _passed(stderr, capture):
    if capture:
        return 0, stderr.decode(errors="replace")
    sys.stderr.buffer.write(stderr)
    return 0, ""


def _failed(r, capture):
    if capture:
        return r.returncode, r.stderr.decode(errors="replace")
    sys.stderr.buffer.write(r.stderr)
    return r.returncode, ""


def _warn(key, why):
    print(f"{key}: warning: amp host tiles: the compiled form of this tiled kernel did not compile ({why}); "
          "the kernel keeps fibers (a defect of the tile compiler: please report it)", file=sys.stderr)


Kernel = collections.namedtuple("Kernel", "file line col end compiled why")
Kernel.key = property(lambda k: f"{k.file}:{k.line}:{k.col}")
NOTE_RE = re.compile(r"^(.+?):(\d+):(\d+): note: amp host tiles: tiled kernel (compiled|keeps fibers)(?:: )?(.*?)"
                     r"(?: \[lines (\d+)-(\d+)\])?$")


def _kernels(notes):
    """The census entries of the plugin's notes."""
    out = []
    for m in map(NOTE_RE.match, notes):
        if m:
            why = m.group(5).strip()
            if why.startswith("(") and why.endswith(")"):
                why = why[1:-1]
            out.append(Kernel(os.path.realpath(m.group(1)), int(m.group(2)), int(m.group(3)),
                              int(m.group(7) or m.group(2)), m.group(4) == "compiled", why))
    return out


def _census_out(kernels):
    """Appends the census (one line a kernel: FILE:LINE:COL<TAB>compiled or
    fibers<TAB>detail) to $AMP_TILES_CENSUS, which `amp++ --tiles-report`
    and `./amp build` read."""
    path = os.environ.get("AMP_TILES_CENSUS", "")
    if not path or not kernels:
        return
    with open(path, "a") as f:
        for k in kernels:
            f.write(f"{k.key}\t{'compiled' if k.compiled else 'fibers'}\t{k.why}\n")


def _parse_failure(stderr):
    """Why the Clang parse failed, with its first error (file:line: text)."""
    errors = _first_errors(stderr)
    if not errors:
        return "the Clang parse failed"
    f, line, msg = errors[0]
    return f"the Clang parse failed: {os.path.basename(f)}:{line}: {msg}"


def _rewrite(args, sources, out, headers, forced=None):
    """(new_args, cleanup, the same without the rewritten headers or None,
    the census of the kernels). Kernels named in forced (FILE:LINE:COL ->
    why) keep fibers."""
    nothing = (args, lambda: None, None, [])
    if not sources or not enabled(args):
        return nothing
    headers = [os.path.realpath(h) for h in headers if _has_barrier(h)]
    todo = []
    for k in sources:
        try:
            text = Path(args[k]).read_text(errors="surrogateescape")
        except OSError:
            continue
        if headers or BARRIER_RE.search(text):
            todo.append((k, text))
    if not todo:
        return nothing
    keep_beside = out and any(a in ("-MD", "-MMD") or a.startswith("-MF") for a in args)
    work = os.path.abspath(out) + ".tiles" if keep_beside else tempfile.mkdtemp(prefix="amp_tiles_")
    new_args, extra = list(args), []
    overlay = work + "/headers"
    env = dict(os.environ)
    if headers:
        env.update(AMP_TILE_HEADERS=":".join(headers), AMP_TILE_OVERLAY=overlay)
    # Notes always (the census, and the kernels' lines for the fallback);
    # shown only under AMP_HOST_TILES_REPORT=1.
    env["AMP_HOST_TILES_REPORT"] = "1"
    env["AMP_TILE_FIBERS"] = "\n".join(forced or ())
    show = os.environ.get("AMP_HOST_TILES_REPORT", "0") not in ("", "0")
    kernels = []
    for k, text in todo:
        src = os.path.abspath(args[k])
        dst_in = Path(work + "/in" + src)
        dst = Path(work + "/out" + src)
        dst_in.parent.mkdir(parents=True, exist_ok=True)
        dst.parent.mkdir(parents=True, exist_ok=True)
        if not text.startswith("#line 1 "):
            text = f'#line 1 "{_c_string(src)}"\n' + text
        dst_in.write_text(text, errors="surrogateescape")
        flags = ["-iquote", os.path.dirname(src)] + [a for i, a in enumerate(args) if i not in sources]
        r = subprocess.run(["bash", str(SCRIPT), "rewrite", str(dst_in), str(dst)] + flags,
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=env)
        notes = [ln for ln in r.stderr.splitlines() if "note: amp host tiles:" in ln]
        kernels += [kk._replace(why=forced[kk.key]) if forced and kk.key in forced else kk for kk in _kernels(notes)]
        if r.returncode != 0:
            # Why nothing was compiled: the tool is missing, or the parse failed.
            why = [ln for ln in r.stderr.splitlines() if ln.startswith("tile_compiler:")] or [_parse_failure(r.stderr)]
            notes = [f"{src}: note: amp host tiles: every tiled kernel keeps fibers: {why[0]}"]
            kernels.append(Kernel(src, 0, 0, 0, False, "every tiled kernel keeps fibers: " + why[0]))
        if show:
            # The tile compiler's own messages (a failed parse of the inlined
            # text and its first errors), then the census notes.
            tool = [ln for ln in r.stderr.splitlines() if ln.startswith("tile_compiler:")]
            print("\n".join(tool + [re.sub(r" \[lines \d+-\d+\]$", "", n) for n in notes]), file=sys.stderr)
        if r.returncode == 0 and dst.is_file():
            new_args[k] = str(dst)
            extra += ["-iquote", os.path.dirname(src)]
    # Rewritten headers: their mirrored folders first ("" and <> includes),
    # then their original folders (for their unrewritten neighbours).
    written = sorted(h for h in headers if os.path.isfile(overlay + h))
    hdr_extra = []
    if written:
        folders = list(dict.fromkeys(os.path.dirname(h) for h in written))
        inc = [os.path.realpath(a[2:] if a != "-I" else args[i + 1]) for i, a in enumerate(args)
               if a.startswith("-I") and (a != "-I" or i + 1 < len(args))]
        # "" includes that name a subfolder ("sub/k.h") search the includer's
        # folder: the sources' folders are mirrored too.
        src_dirs = [os.path.dirname(os.path.realpath(args[k])) for k, _ in todo]
        quote = folders + [d for d in dict.fromkeys(src_dirs) if d not in folders
                           and any(h.startswith(d + "/") for h in written)]
        hdr_extra += [x for d in quote for x in ("-iquote", overlay + d)]
        hdr_extra += [x for d in folders for x in ("-iquote", d)]
        hdr_extra += ["-I" + overlay + d for d in dict.fromkeys(inc) if any(h.startswith(d + "/") for h in written)]
    cleanup = (lambda: None) if keep_beside else (lambda: shutil.rmtree(work, ignore_errors=True))
    if not written:
        return extra + new_args, cleanup, None, kernels
    return hdr_extra + extra + new_args, cleanup, extra + new_args, kernels


def print_census(path, out=sys.stdout):
    """The census file as a user reads it: one line a kernel, then a
    summary (`amp++ --tiles-report`, `./amp build`)."""
    rows = {}
    try:
        for ln in Path(path).read_text().splitlines():
            key, _, rest = ln.partition("\t")
            status, _, why = rest.partition("\t")
            rows[key] = (status, why)  # the last word on a kernel (a retry) wins
    except OSError:
        pass
    for key, (status, why) in sorted(rows.items()):
        print(f"{key}: amp host tiles: {status}" + (f" ({why})" if why else ""), file=out)
    n = len(rows)
    c = sum(1 for s, _ in rows.values() if s == "compiled")
    print(f"amp host tiles: {n} tiled kernel(s) with barriers, {c} compiled, {n - c} on fibers", file=out)
    return n, c


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--census":
        print_census(sys.argv[2])
        sys.exit(0)
    sys.exit("usage: host_tiles_launch.py --census FILE")
