#!/usr/bin/env python3
"""Host tiles compiled instead of fibers, as a step of the compiler launcher.

Used by restrict_rewrite.py --launch (scripts/restrict_launcher.sh) just before
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


def run(compiler, args, sources, out, headers=(), capture=False):
    """call(), returning (exit status, the compiler's stderr when capture,
    else "" with stderr passed through)."""
    tiled, cleanup, without_headers = _rewrite(args, sources, out, headers)

    def compile_(a):
        if not capture:
            return subprocess.call([compiler] + a), ""
        r = subprocess.run([compiler] + a, stderr=subprocess.PIPE)
        return r.returncode, r.stderr.decode(errors="replace")
    try:
        if without_headers is None:
            return compile_(tiled)
        r = subprocess.run([compiler] + tiled, stderr=subprocess.PIPE)
        if r.returncode == 0:
            if not capture:
                sys.stderr.buffer.write(r.stderr)
                return 0, ""
            return 0, r.stderr.decode(errors="replace")
        return compile_(without_headers)
    finally:
        cleanup()


def _rewrite(args, sources, out, headers):
    """(new_args, cleanup, the same without the rewritten headers or None)."""
    nothing = (args, lambda: None, None)
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
        if os.environ.get("AMP_HOST_TILES_REPORT", "0") not in ("", "0") and r.returncode != 0:
            # Why nothing was compiled: the tool is missing, or the parse failed.
            why = [ln for ln in r.stderr.splitlines() if ln.startswith("tile_compiler:")] or ["the Clang parse failed"]
            notes.append(f"{src}: note: amp host tiles: every tiled kernel keeps fibers: {why[0]}")
        if notes:
            print("\n".join(notes), file=sys.stderr)
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
        return extra + new_args, cleanup, None
    return hdr_extra + extra + new_args, cleanup, extra + new_args
