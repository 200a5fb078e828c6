#!/usr/bin/env python3
"""Host tiles compiled instead of fibers, as a step of the compiler launcher.

Used by restrict_rewrite.py --launch (scripts/restrict_launcher.sh) just before
it runs the compiler: rewrite(compiler, args, sources) returns the arguments
with each source that holds a tiled kernel with a barrier replaced by its copy
rewritten by the tile compiler (scripts/tile_compiler.sh, a Clang 22 plugin:
tools/tile_compiler), plus a cleanup function. The copy starts with
#line 1 "<original>" (diagnostics and __FILE__ name the original) and its
folder's "..." includes resolve as before (-iquote <original folder>).

Nothing is rewritten (the kernels keep fibers) when:
  * AMP_TILE_COMPILER=off, or the compile is not a host C++ compile (CUDA,
    -E, -fsyntax-only, -M/-MM only),
  * no source mentions `.barrier.wait`,
  * clang++-22 or Clang's C++ headers are missing (GCC-only builds), or the
    Clang parse of the source fails: the source is then compiled unchanged.
AMP_HOST_TILES_REPORT=1 at build time prints a note per tiled kernel (compiled,
or why it keeps fibers); at run time it prints the path each kernel takes.
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
    if os.environ.get("AMP_TILE_COMPILER", "") in ("off", "0"):
        return False
    if any(a in ("-E", "-fsyntax-only", "-M", "-MM") or a.startswith("--cuda-gpu-arch") for a in args):
        return False
    for i, a in enumerate(args):
        if a == "-x" and i + 1 < len(args) and args[i + 1] != "c++":
            return False
        if a.startswith("-x") and len(a) > 2 and a[2:] != "c++":
            return False
    return True


def rewrite(args, sources, out):
    """(new_args, cleanup): sources are indices into args."""
    nothing = (args, lambda: None)
    if not sources or not enabled(args):
        return nothing
    todo = []
    for k in sources:
        try:
            text = Path(args[k]).read_text(errors="surrogateescape")
        except OSError:
            continue
        if BARRIER_RE.search(text):
            todo.append((k, text))
    if not todo:
        return nothing
    keep_beside = out and any(a in ("-MD", "-MMD") or a.startswith("-MF") for a in args)
    work = os.path.abspath(out) + ".tiles" if keep_beside else tempfile.mkdtemp(prefix="amp_tiles_")
    new_args, extra = list(args), []
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
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
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
    if keep_beside:
        return extra + new_args, lambda: None
    return extra + new_args, lambda: shutil.rmtree(work, ignore_errors=True)
