"""The host-tiles pass: tiled kernels with a barrier compiled for the host
accelerators instead of run on fibers. Just before the compile, each source
that holds such a kernel is replaced by its copy rewritten by the tile
compiler (tile_compiler.py: a Clang 22 plugin, tools/tile_compiler), and so
the project headers (which may be the launcher's own rewritten copies:
restrict pairs, GPU edits). A copy starts with #line 1 "<original>"
(diagnostics and __FILE__ name the original) and its folder's "..." includes
resolve as before (-iquote <original folder>).

Nothing is rewritten (the kernels keep fibers) when:
  * AMP_TILE_COMPILER=off, or the job is no host C++ compile nor Clang CUDA
    compile (HIP, -E, -fsyntax-only, -M/-MM only, another -x language), or
    a checked build (every work-item runs the checks),
  * neither a source nor a project header it includes mentions `.barrier.wait`
    (or hands `.barrier` on, or waits through a `tile_barrier`),
  * clang++-22 or Clang's C++ headers are missing (GCC-only builds), or the
    Clang parse of the source fails: the source is then compiled unchanged.
AMP_HOST_TILES_REPORT=1 at build time prints a note per tiled kernel (compiled,
or why it keeps fibers); at run time it prints the path each kernel takes.

Kernels in project headers are rewritten too: their copies go to an overlay
folder whose mirrored folders come first in the include paths. Should that
compile fail (e.g. a header reached both as the copy and, from another
original header, as the original), the source is compiled again with the
original headers (their kernels keep fibers).
"""
import collections
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from .. import depfile
from ..job import include_dirs

NAME = "host tiles (passes/host_tiles.py, tools/tile_compiler)"
BARRIER_RE = re.compile(r"\.\s*barrier\s*\.\s*wait")
# A barrier handed on (`f(sh, t.barrier)`), or waited on through a
# `tile_barrier` parameter or variable (`b.wait()`).
HANDED_BARRIER_RE = re.compile(r"\.\s*barrier\s*[,)]")
TILE_BARRIER_RE = re.compile(r"\btile_barrier\b")
WAIT_RE = re.compile(r"\.\s*wait\w*\s*\(")


def mentions_barrier(text):
    """The text may hold a kernel with a barrier, or a helper that waits."""
    return (BARRIER_RE.search(text) is not None or HANDED_BARRIER_RE.search(text) is not None
            or (TILE_BARRIER_RE.search(text) is not None and WAIT_RE.search(text) is not None))
NOTE = "note: amp host tiles:"


def enabled(job):
    """A host C++ compile, or a Clang CUDA compile (whose host pass runs the
    kernels on the host accelerators of a GPU build), not checked. HIP
    compiles (hipcc, a ROCm Clang the plugin is not built for) keep fibers."""
    if os.environ.get("AMP_TILE_COMPILER", "") in ("off", "0"):
        return False
    if job.checked or job.gpu == "hip" or job.preprocess_only or job.syntax_only:
        return False
    allowed = ("c++", "none") + (("cuda",) if job.gpu == "cuda" else ())
    return all(lang in allowed for lang in job.langs)


# A function object's operator() declared taking a tiled_index (its class's
# header gets the compiled form's declaration when the operator is defined
# in another file).
TILED_OPERATOR_RE = re.compile(r"operator\s*\(\s*\)\s*\([^)]*tiled_index")


def _has_barrier(path):
    try:
        return mentions_barrier(Path(path).read_text(errors="surrogateescape"))
    except OSError:
        return False


def _may_hold_kernel(path):
    """A kernel, or a function object's class whose operator() may be one."""
    try:
        text = Path(path).read_text(errors="surrogateescape")
    except OSError:
        return False
    return mentions_barrier(text) or TILED_OPERATOR_RE.search(text) is not None


def applies(job):
    """The job's mode allows it (enabled) and its sources or project headers
    hold a barrier (the cheap scan: no Clang parse for the others)."""
    return bool(job.sources) and enabled(job) and any(_has_barrier(f) for f in job.source_paths + list(job.headers))


def exec_or_call(job):
    """The compile of job as written (no text pass applied): exec'd (or run,
    when job.may_exec is off) when no kernel is for this pass, else compiled
    through it; the exit status."""
    if not applies(job):
        if job.may_exec and not depfile.needed(job):
            os.execvp(job.compiler, [job.compiler] + job.args)
        rc = subprocess.run([job.compiler] + job.args).returncode
        if rc == 0:
            depfile.restore(job)
        return rc
    return run(job)[0]


ERROR_RE = re.compile(r"^(.+?):(\d+):(?:\d+:)? (?:fatal )?error: (.*)$")


def _first_errors(stderr):
    """[(file, line, message)] of the compiler's errors, in order."""
    return [(os.path.realpath(m.group(1)), int(m.group(2)), m.group(3))
            for m in map(ERROR_RE.match, stderr.splitlines()) if m]


def _blamed(kernels, errors):
    """The compiled kernels (census entries) whose source lines hold one of
    the errors; all compiled kernels when no error falls inside one (an
    error in the text of an inlined callee, say), those that forward their
    tiled_index to a function object last (their own text is a call)."""
    compiled = [k for k in kernels if k.compiled]
    hit = [k for k in compiled if any(f == k.file and k.line <= ln <= k.end for f, ln, _ in errors)]
    return hit or [k for k in compiled if k.counted] or compiled


def run(job, args=None, sources=None, headers=None, capture=False, probe=False):
    """Compiles job (or args, the job's compile line as the launcher extended
    it, with the sources at the indices sources, reaching the project
    headers headers: the launcher's copies where it made some) with the tiled
    kernels rewritten; (exit status, the compiler's stderr when capture, else
    "" with stderr passed through).

    The tile compiler must never break a build: when the rewritten source
    does not compile, the kernels the errors point into are taken back to
    fibers (rewritten again without them) and, should that fail too, the
    source is compiled as it came. Either way one warning per kernel names
    it and the first error; the user's own errors (the source as it came
    fails as well) are reported as the compiler gives them.

    probe: should the tile compiler's parse of a source fail, nothing is
    compiled and (None, the parse's errors) is returned (the launcher's
    --msvc rounds read Clang's errors there instead of a compile's)."""
    args = job.args if args is None else args
    sources = job.sources if sources is None else list(sources)
    headers = job.headers if headers is None else headers
    compiler = job.compiler
    forced = {}
    attempt = 0
    kernels = []
    while enabled(job):
        tiled, cleanup, without_headers, kernels, parse_errors = _rewrite(job, args, sources, headers, forced,
                                                                          probe)
        if probe and parse_errors:
            cleanup()
            return None, parse_errors
        try:
            if tiled is args:
                break
            tries = [tiled] + ([without_headers] if without_headers is not None else [])
            for a in tries:
                r = _compile(job, [compiler] + a)
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
    r = _compile(job, [compiler] + list(args))
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


def _compile(job, cmd):
    """Runs the compile cmd, its stderr captured; an MSVC-dialect compile
    (Clang) with the user's prefix header precompiled where that gives the
    same program (prefix_pch.py: stdafx.h, as Visual Studio builds it).
    The dependency files of a compile that succeeded name the user's files
    (depfile.py)."""
    if job.msvc and not job.gpu:
        from .. import prefix_pch
        r = prefix_pch.run(cmd, stderr=subprocess.PIPE)
    else:
        r = subprocess.run(cmd, stderr=subprocess.PIPE)
    if r.returncode == 0:
        depfile.restore(job)
    return r


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
    # The compiled form's own check (tools/tile_compiler/conditionals.h): a
    # conditional decided otherwise by the compiler than by the tile
    # compiler's parse, which is not a defect.
    defect = "" if why.startswith('#error "amp_compat: ') else " (a defect of the tile compiler: please report it)"
    print(f"{key}: warning: amp host tiles: the compiled form of this tiled kernel did not compile ({why}); "
          f"the kernel keeps fibers{defect}", file=sys.stderr)


# counted: a census entry. A kernel that only hands its tiled_index to a
# function object ("forwards") is not (that function object's entry says
# whether it runs compiled), but its rewritten text, like a compiled one's,
# may be taken back to fibers.
Kernel = collections.namedtuple("Kernel", "file line col end compiled why counted", defaults=(True,))
Kernel.key = property(lambda k: f"{k.file}:{k.line}:{k.col}")
NOTE_RE = re.compile(r"^(.+?):(\d+):(\d+): note: amp host tiles: tiled kernel (compiled|keeps fibers|forwards)(?:: )?"
                     r"(.*?)(?: \[lines (\d+)-(\d+)\])?$")


def _kernels(notes):
    """The census entries of the plugin's notes."""
    out = []
    for m in map(NOTE_RE.match, notes):
        if m:
            why = m.group(5).strip()
            if why.startswith("(") and why.endswith(")"):
                why = why[1:-1]
            out.append(Kernel(os.path.realpath(m.group(1)), int(m.group(2)), int(m.group(3)),
                              int(m.group(7) or m.group(2)), m.group(4) != "keeps fibers",
                              ("forwards " if m.group(4) == "forwards" else "") + why, m.group(4) != "forwards"))
    return out


def _census_out(kernels):
    """Appends the census (one line a kernel: FILE:LINE:COL<TAB>compiled or
    fibers<TAB>detail) to $AMP_TILES_CENSUS, which `amp++ --tiles-report`
    and `./amp build` read."""
    path = os.environ.get("AMP_TILES_CENSUS", "")
    kernels = [k for k in kernels if k.counted]
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


def _rewrite(job, args, sources, headers, forced, probe=False):
    """(new_args, cleanup, the same without the rewritten headers or None,
    the census of the kernels, the errors of the parses that failed). Kernels
    named in forced (FILE:LINE:COL -> why) keep fibers. probe: the parse
    reports every error (no limit): the launcher's --msvc rounds read them
    all at once."""
    from .. import tile_compiler
    nothing = (args, lambda: None, None, [], "")
    project = [os.path.realpath(h) for h in headers]
    headers = [h for h in project if _may_hold_kernel(h)]
    todo = []
    for k in sources:
        try:
            text = Path(args[k]).read_text(errors="surrogateescape")
        except OSError:
            continue
        if headers or mentions_barrier(text):
            todo.append((k, text))
    if not todo:
        return nothing
    # Dependency files name the originals, not these copies (depfile.py).
    work = tempfile.mkdtemp(prefix="amp_tiles_")
    depfile.copies(work + "/out")
    depfile.copies(work + "/headers")
    new_args, extra = list(args), []
    overlay = work + "/headers"
    show = os.environ.get("AMP_HOST_TILES_REPORT", "0") not in ("", "0")
    kernels, parse_errors = [], ""
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
        # Notes always (the census, and the kernels' lines for the fallback);
        # shown only under AMP_HOST_TILES_REPORT=1.
        ok, messages = tile_compiler.rewrite(str(dst_in), str(dst), flags, cuda=job.gpu == "cuda", report=True,
                                             headers=headers, overlay=overlay, fibers=list(forced), project=project,
                                             all_errors=probe)
        lines = messages.splitlines()
        notes = [ln for ln in lines if "note: amp host tiles:" in ln]
        tool = [ln for ln in lines if ln.startswith("tile_compiler:")]
        if ok:
            kernels += [kk._replace(why=forced[kk.key]) if kk.key in forced else kk for kk in _kernels(notes)]
        else:
            # Why nothing was compiled: the tool is missing, or the parse failed.
            why = tool[:1] or [_parse_failure(messages)]
            notes = [f"{src}: note: amp host tiles: every tiled kernel keeps fibers: {why[0]}"]
            kernels.append(Kernel(src, 0, 0, 0, False, "every tiled kernel keeps fibers: " + why[0]))
            parse_errors += "".join(ln + "\n" for ln in lines if NOTE not in ln and not ln.startswith("tile_compiler:"))
        if show:
            # The tile compiler's own messages (a failed parse of the inlined
            # text and its first errors), then the census notes.
            print("\n".join(tool + [re.sub(r" \[lines \d+-\d+\]$", "", n) for n in notes]), file=sys.stderr)
        if ok and dst.is_file():
            new_args[k] = str(dst)
            extra += ["-iquote", os.path.dirname(src)]
    cleanup = lambda: shutil.rmtree(work, ignore_errors=True)
    tile_compiler.mirror_project(overlay, project)
    hdr_extra = _header_folders(job, args, overlay, project, [args[k] for k, _ in todo])
    if not extra and not hdr_extra:  # nothing rewritten: the compile as it came, once
        cleanup()
        return args, lambda: None, None, kernels, parse_errors
    if not hdr_extra:
        return extra + new_args, cleanup, None, kernels, parse_errors
    with_copies = _shims_to_copies(new_args, overlay, work + "/winshims")
    return hdr_extra + extra + with_copies, cleanup, extra + new_args, kernels, parse_errors


def _shims_to_copies(args, overlay, dest):
    """args with each -idirafter folder of --windows-compat's include shims
    (passes/windows.py) replaced by a copy whose shims include the rewritten
    copies of the project headers (overlay + real path) where there are
    some: a shim names the original by its absolute path, which the
    overlay's folders ahead of it cannot redirect, so a header reached by
    a Windows spelling would compile with its kernels unwrapped (on fibers,
    the census saying compiled)."""
    from .windows import redirect_shims
    copy_of = lambda t: overlay + os.path.realpath(t)
    out, k = [], 0
    while k < len(args):
        a = args[k]
        if not a.startswith("-idirafter"):
            out.append(a)
            k += 1
            continue
        step = 2 if a == "-idirafter" else 1
        folder = a[len("-idirafter"):] or (args[k + 1] if k + 1 < len(args) else "")
        new = redirect_shims(folder, f"{dest}/{k}", copy_of) if folder and os.path.isdir(folder) else None
        out += ["-idirafter", new] if new else args[k:k + step]
        k += step
    return out


def _header_folders(job, args, overlay, headers, srcs):
    """The include folders of the rewritten headers (none written: []):
    their mirrored folders first ("" and <> includes), then their original
    folders (for their unrewritten neighbours)."""
    written = sorted(h for h in headers if os.path.isfile(overlay + h))
    if not written:
        return []
    folders = list(dict.fromkeys(os.path.dirname(h) for h in written))
    inc = [os.path.realpath(d) for d in include_dirs(args, "-I")]  # the launcher's folders too
    # "" includes that name a subfolder ("sub/k.h") search the includer's
    # folder: the sources' folders are mirrored too.
    src_dirs = [os.path.dirname(os.path.realpath(s)) for s in srcs]
    quote = folders + [d for d in dict.fromkeys(src_dirs) if d not in folders
                       and any(h.startswith(d + "/") for h in written)]
    out = [x for d in quote for x in ("-iquote", overlay + d)]
    out += [x for d in folders for x in ("-iquote", d)]
    out += ["-I" + overlay + d for d in dict.fromkeys(inc) if any(h.startswith(d + "/") for h in written)]
    return out


def _c_string(s):
    return s.replace("\\", "\\\\").replace('"', '\\"')


def print_census(path, out=sys.stdout):
    """The census file as a user reads it: one line a kernel, then a
    summary (`amp++ --tiles-report`, `./amp build`,
    `python3 -m amp_driver tiles-census FILE`)."""
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
