"""The host tile compiler's parse (tools/tile_compiler, a Clang 22 plugin,
built by plugins.py): rewrite() parses a source with clang++-22, the plugin
loaded, and writes the source with its tiled kernels rewritten. Called by the
host-tiles pass (passes/host_tiles.py) with the compile's flags and mode;
`python3 -m amp_driver tile-compiler SRC OUT FLAG...` runs it alone (the
analysis tests, tests/host_tiles/check_analysis.py).

Two parses when a kernel of the source calls a function that waits on its
barrier: the first inlines such calls (marking them /*amp_ht_inlined:...*/),
the second (pass=2, on the first's output) analyses those kernels; should the
second fail, the first runs again without inlining (those kernels keep
fibers; tools/tile_compiler/README.md).

Environment: AMP_CHECK_CLANG names another clang++ (as for amp_check);
AMP_TILE_PCH=0: no precompiled <amp.h> for the parse (below).
"""
import hashlib
import os
import re
import shutil
import subprocess
from pathlib import Path

from .job import include_dir, parse_flags, scan
from .options import GCC_LENIENCE

# The compile flags the parse keeps: job.parse_flags, the same rule as the
# restrict(amp) check's parse (with cuda: the host side of a Clang CUDA
# compile; the rewritten copy then goes through both passes, and the device
# pass never instantiates the per-tile form).
# The language of a parse of a Clang CUDA compile: its host side.
CUDA_HOST = ["-x", "cuda", "--cuda-host-only", "-Wno-unknown-cuda-version"]
INLINED = "/*amp_ht_inlined:"
NOTE = "note: amp host tiles"


def clang():
    from .options import parse_clang
    return parse_clang(os.environ)


# ---- a precompiled <amp.h> for the parse ----------------------------------
# Half of a parse is <amp.h> and Kokkos (tile_averages: 1.1 s of CPU, 0.5 s
# with it). Used where the source includes nothing before <amp.h> but
# standard headers (so that <amp.h> read first parses the same; `#include
# <amp.h>` again is then skipped by its guard); built once per set of flags
# into the user's build or cache folder. A parse that fails with it runs
# again without it (a stale or refused precompiled header never costs a
# kernel its compiled form).
AMP_INCLUDE = re.compile(r'[ \t]*#[ \t]*include[ \t]*[<"]amp\.h[>"]')
SKIPPED = re.compile(r"[ \t]*(//.*)?|[ \t]*#[ \t]*(line|pragma[ \t]+once)\b.*|"
                     r"[ \t]*#[ \t]*include[ \t]*<[a-z_]+>[ \t]*(//.*)?")


def amp_first(text):
    """Whether only comments, blank lines, #line, #pragma once and
    <standard> includes come before the text's #include <amp.h> / "amp.h"."""
    in_comment = False
    for line in text.splitlines():
        if AMP_INCLUDE.match(line):
            return True
        if in_comment:
            in_comment = "*/" not in line
            continue
        if SKIPPED.fullmatch(line):
            continue
        if re.match(r"[ \t]*/\*", line):
            in_comment = "*/" not in line
            continue
        return False
    return False


def pch_for(text, flags, cuda=False):
    """The path of a precompiled <amp.h> for a parse of text with flags
    (built if missing), or None (AMP_TILE_PCH=0, text includes something
    else first, or the header does not build). cuda: for the host side of a
    Clang CUDA compile (`-x cuda --cuda-host-only`; a tiled seed's parse 1.28
    -> 0.21 s)."""
    import fcntl
    if os.environ.get("AMP_TILE_PCH", "1") == "0" or not amp_first(text):
        return None
    cache = os.environ.get("AMP_BUILD_DIR") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.join(os.environ.get("HOME") or "/tmp", ".cache"), "amp_compat")
    folder = os.path.join(cache, "tile_compiler", "pch")
    try:
        os.makedirs(folder, exist_ok=True)
    except OSError:
        return None
    version = subprocess.run([clang(), "--version"], capture_output=True, text=True).stdout
    lang = CUDA_HOST if cuda else ["-x", "c++-header"]
    key = hashlib.sha1((version + "".join(f + "\n" for f in lang + flags)).encode()).hexdigest()[:16]
    pch = os.path.join(folder, key + ".pch")
    if not _nonempty(pch):
        hdr = os.path.join(folder, key + ".h")
        with open(os.path.join(folder, ".lock"), "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            if not _nonempty(pch):
                # Written once, under the lock: a precompiled header records
                # its source's time, and a rewrite by a parallel compile made
                # every parse with it fail (and delete it).
                if not os.path.isfile(hdr):
                    Path(hdr).write_text("#include <amp.h>\n")
                tmp = f"{pch}.tmp.{os.getpid()}"
                # Templates instantiated in the header (as the prefix header's):
                # a parse then instantiates only what its own text needs.
                # (A CUDA header: the driver would compile and link -x cuda;
                # -c and cc1's -emit-pch make it a precompiled header.)
                emit = ["-c", "-Xclang", "-emit-pch"] if cuda else []
                r = subprocess.run([clang()] + lang + ["-w", "-fpch-instantiate-templates"] + flags + emit +
                                   [hdr, "-o", tmp],
                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                if r.returncode == 0:
                    os.replace(tmp, pch)
                elif os.path.exists(tmp):
                    os.unlink(tmp)
    return pch if _nonempty(pch) else None


def _nonempty(path):
    return os.path.isfile(path) and os.path.getsize(path) > 0


# ---- the parse -------------------------------------------------------------
def _fixable(msgs):
    """Whether a failed parse's messages hold an error of a kind the MSVC
    pass's fix-it rounds read (msvc.fixable: a missing typename, a temporary
    for a non-const reference, a property compared with !=, ...)."""
    from .passes import msvc
    return msvc.fixable(msgs)


def rewrite(src, out, flags, cuda=False, report=False, headers=(), overlay=None, fibers=(), all_errors=False,
            project=()):
    """Parses src with the compile flags (no sources; parse_flags picks what
    the parse needs) and writes src with its tiled kernels rewritten to out.
    cuda: a Clang CUDA compile (its host side is parsed); report: a note per
    tiled kernel with a barrier ("note: amp host tiles: ..."); headers: the
    project headers whose kernels are rewritten too, each copy written to
    overlay/<its path>; project: every project header (mirrored beside
    those, mirror_project); fibers: kernels (FILE:LINE:COL) kept on fibers;
    all_errors: no limit on the errors reported (-ferror-limit=0: the --msvc
    fix-it rounds read every missing `typename` of a failed parse at once,
    where Clang's 20 are often one location's, once per instantiation).
    Returns (success: out written, the parse's messages: the plugin's notes
    and "tile_compiler: ..." lines). Unsuccessful: nothing usable (the
    caller compiles src unchanged: fibers)."""
    from . import plugins
    try:
        so = plugins.build("tile_compiler")
    except plugins.PluginError as e:
        return False, f"{e}\n"
    keep = parse_flags(flags, cuda)
    lang = CUDA_HOST if cuda else ["-x", "c++"]
    arg = lambda a: ["-Xclang", "-plugin-arg-tile-compiler", "-Xclang", a]  # noqa: E731
    # GCC_LENIENCE: what GCC takes with a warning and Clang refuses (options.py).
    base = [clang(), "-fsyntax-only"] + lang + ["-fopenmp", "-w"] + GCC_LENIENCE + ["-DAMP_TILE_COMPILER_PASS=1"] + \
        keep + \
        (["-ferror-limit=0"] if all_errors else []) + \
        [f"-fplugin={so}"] + [w for k in fibers if k for w in arg(f"fibers={k}")]
    opts = (arg("report=1") if report else []) + \
        ([w for a in [f"overlay={overlay}"] + [f"header={h}" for h in headers] for w in arg(a)]
         if headers and overlay else [])
    pch = None
    # The precompiled <amp.h>: its flags without the -iquote folders, which do
    # not reach <amp.h>, nor the launcher's per-compile folders (copies of the
    # user's -I folders, Windows shims: named anew by every compile, they made
    # every compile build a header of its own; should <amp.h> need one, the
    # header does not build and the parse goes without).
    from .prefix_pch import SCRATCH
    per_compile = lambda o, v: SCRATCH.search((include_dir(o, v) or ("", ""))[1] + "/")  # noqa: E731
    pflags = [w for _, o, v in scan(keep) if o != "-iquote" and not (o or "").startswith("-iquote")
              and not (o and per_compile(o, v)) for w in ([o, v] if v is not None else [o])]
    pch = pch_for(Path(src).read_text(errors="surrogateescape"), ["-fopenmp", "-DAMP_TILE_COMPILER_PASS=1"] + pflags,
                  cuda)
    with_pch = base + ["-include-pch", pch] if pch else base

    def parse(cmd, extra, source, prefix=False):
        if prefix and not pch and not cuda:
            # Else the user's own prefix header (stdafx.h) precompiled, where
            # it gives the same parse (prefix_pch.py); should the parse fail
            # with it, the parse without it counts. An --msvc round's parse
            # (all_errors) that fails with it on errors the MSVC pass fixes
            # (msvc.fixable: a missing typename/template, ...) is that round's
            # answer: they are the user's text's, in headers the prefix does
            # not hold, and the next round parses again (a parse without it
            # would give the same errors at twice the cost); only its other
            # failures (a defect of Clang with the header: prefix_pch.decline)
            # are parsed again without it.
            from . import prefix_pch
            args = cmd[1:] + extra + opts + [source]
            words, alt = prefix_pch.for_compile(cmd[0], args, len(args) - 1)
            if words:
                try:  # prefix off: one level
                    ok, msgs = parse(cmd[:1] + words + cmd[1:], extra, alt or source)
                finally:
                    if alt:
                        Path(alt).unlink(missing_ok=True)
                if ok:
                    return ok, msgs
                if prefix_pch.refused(words, msgs):
                    pass  # a stale header: removed
                elif all_errors and _fixable(msgs):
                    return ok, msgs
                ok2, msgs2 = parse(cmd, extra, source)
                if ok2:
                    prefix_pch.decline(words, Path(source).read_text(errors="surrogateescape"))
                return ok2, msgs2
        r = subprocess.run(cmd + extra + opts + [source], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        return r.returncode == 0, r.stderr.decode(errors="replace")
    # First pass: kernels compiled or refused; a kernel that hands its
    # tiled_index to a function waiting on the barrier gets that call inlined.
    ok, notes1 = parse(with_pch, arg(f"out={out}"), src, prefix=True)
    if not ok and pch:
        ok, notes1 = parse(base, arg(f"out={out}"), src)
        if ok:  # a stale or refused header: gone (a parallel parse may have removed it first)
            Path(pch).unlink(missing_ok=True)
            pch, with_pch = None, base
    if not ok:
        return False, notes1
    if headers and overlay:
        mirror_project(overlay, project)
    ov = _overlay_dirs(overlay, keep) if headers and overlay else []
    if not (_nonempty(out) and (INLINED in Path(out).read_text(errors="replace") or (ov and _inlined_in(overlay)))):
        return _nonempty(out), notes1
    return _second_pass(src, out, base, with_pch, pch, ov, arg, parse, notes1)


def _second_pass(src, out, base, with_pch, pch, ov, arg, parse, notes1):
    """The inlined kernels analysed and split, on the first pass's output
    (headers were written by the first pass); should it fail, the first pass
    again without inlining: those kernels keep fibers. Its input names the
    original (#line 1); its "" includes resolve as the source's; it reads the
    first's copies of the project headers (the overlay's folders first).
    The messages: both passes' notes, or those of the pass without
    inlining after the "tile_compiler:" lines that say why."""
    in2 = out + ".pass2.in.cpp"
    text = Path(out).read_text(errors="surrogateescape")
    if not text.startswith("#line 1 "):
        esc = src.replace("\\", "\\\\").replace('"', '\\"')
        text = f'#line 1 "{esc}"\n' + text
    Path(in2).write_text(text, errors="surrogateescape")
    out2 = out + ".pass2"
    try:
        extra = ["-iquote", os.path.dirname(src)] + arg(f"out={out2}") + arg("pass=2")
        for cmd in [with_pch] + ([base] if pch else []):
            ok, notes2 = parse(cmd[:1] + ov + cmd[1:], extra, in2, prefix=cmd is with_pch)
            if ok and _nonempty(out2):
                os.replace(out2, out)
                return True, notes1 + notes2
        msg = ["tile_compiler: the parse of the inlined kernels failed; kernels with barriers in called "
               "functions keep fibers"]
        msg += ["tile_compiler:   " + ln for ln in notes2.splitlines() if NOTE not in ln][:5]
        if os.path.exists(out2):
            os.unlink(out2)
        ok, notes = parse(base, arg(f"out={out}") + arg("inline=0"), src)
        return ok and _nonempty(out), "\n".join(msg) + "\n" + notes
    finally:
        if os.path.exists(in2):
            os.unlink(in2)


QUOTE_INCLUDE = re.compile(r'^[ \t]*#[ \t]*include[ \t]*"([^"]+)"', re.M)


def mirror_project(overlay, project):
    """Where project headers were rewritten into the overlay, the project
    headers joined to them by relative includes get a copy there too: a
    header that includes a rewritten one by a relative name (`#include
    "detail/gemm.h"`, `"../utility/r.h"`) finds it beside itself, in its own
    folder, before any include folder, so an includer outside the overlay
    reached the original (its kernels unwrapped, on fibers, while the census
    said compiled); and a copy's own relative includes (a functor's `"ops.h"`
    beside a rewritten kernel's header) must be found beside the copy. So
    every header joined to a rewritten one through such includes, either way,
    is copied. Every `#include "NAME"` of a header counts, NAME tried against
    every project folder (an MSVC-dialect compile also searches its includers'
    folders), backslashes as slashes, case ignored (--windows-compat's case
    shims); conditionals are not read (more copies, never fewer). A header
    joined to none (a prefix header of standard includes) stays the original:
    the precompiled prefix header (prefix_pch.py) then serves the second
    parse and the compile, which a copy would shadow."""
    rewritten = {h for h in project if os.path.isfile(overlay + h)}
    if not rewritten:
        return
    folders = {os.path.dirname(h) for h in project}
    key = lambda p: os.path.normpath(p).lower()  # noqa: E731
    by_key = {key(h): h for h in project}
    edges = {h: set() for h in project}  # the relative-include graph, both ways
    for h in project:
        try:
            names = QUOTE_INCLUDE.findall(Path(h).read_text(errors="replace"))
        except OSError:
            continue
        for n in names:
            for d in folders:
                g = by_key.get(key(os.path.join(d, n.replace("\\", "/"))))
                if g and g != h:
                    edges[h].add(g)
                    edges[g].add(h)
    joined, todo = set(rewritten), list(rewritten)
    while todo:
        for g in edges[todo.pop()] - joined:
            joined.add(g)
            todo.append(g)
    for h in joined - rewritten:
        if os.path.isfile(h):
            os.makedirs(os.path.dirname(overlay + h), exist_ok=True)
            shutil.copyfile(h, overlay + h)


def _overlay_dirs(overlay, keep):
    """The include folders of the overlay: each of its folders as -iquote,
    and its mirror of each -I folder (the overlay mirrors real paths: an -I
    folder written with `..` names the same folder)."""
    if not os.path.isdir(overlay):
        return []
    ov = []
    for d, _, _ in os.walk(overlay):
        if d != overlay:
            ov += ["-iquote", d]
    for _, o, _ in scan(keep):
        if o and o.startswith("-I") and len(o) > 2:
            d = overlay + os.path.realpath(o[2:])
            if os.path.isdir(d):
                ov.append("-I" + d)
    return ov


def _inlined_in(folder):
    for d, _, files in os.walk(folder):
        for f in files:
            try:
                if INLINED in Path(d, f).read_text(errors="replace"):
                    return True
            except OSError:
                pass
    return False


def main(argv):
    """tile-compiler SRC OUT FLAG...: rewrite() alone, its messages on
    stderr, its mode (CUDA) read from the flags as the launcher reads a
    compile line (job.Job); AMP_HOST_TILES_REPORT=1: the notes;
    AMP_TILE_HEADERS=H1:H2... with AMP_TILE_OVERLAY=DIR: the kernels of these
    project headers too; AMP_TILE_FIBERS: kernels (FILE:LINE:COL, one a
    line) kept on fibers. Exit status 0: OUT written."""
    import sys
    from .job import Job
    if len(argv) < 2:
        sys.stderr.write(main.__doc__ + "\n")
        return 2
    src, out, flags = argv[0], argv[1], argv[2:]
    if not os.path.isfile(src):
        sys.stderr.write(f"tile-compiler: error: no such file: {src}\n")
        return 2
    env = os.environ
    ok, notes = rewrite(src, out, flags, cuda=Job.parse(clang(), flags).gpu == "cuda",
                        report=env.get("AMP_HOST_TILES_REPORT", "0") not in ("", "0"),
                        headers=[h for h in env.get("AMP_TILE_HEADERS", "").split(":") if h],
                        overlay=env.get("AMP_TILE_OVERLAY") or None,
                        fibers=env.get("AMP_TILE_FIBERS", "").splitlines())
    sys.stderr.write(notes)
    return 0 if ok else 1
