"""The compiler launcher: `python3 -m amp_driver launch COMPILER ARGS...`
(scripts/restrict_launcher.sh, CMake's CMAKE_CXX_COMPILER_LAUNCHER) or, in
process, amp++ (driver.py) with the Job it built. Compiles as
`COMPILER ARGS...`, with the source passes (passes/) applied first to copies
of the sources and the project headers they include (through "" and the
-I/-iquote folders, not amp_compat's or Kokkos'). A compile that no pass
applies to (each pass's applies(job): its mode, then a cheap scan of the
text) runs the compiler unchanged; the copies are kept beside the -o output
when the build writes dependency files, else in a temporary folder, each
starting with a #line naming its original.

A rewritten source that fails to compile is compiled as written; if that
succeeds its result stands, with a warning naming the pass (rewrite_failed).
"""
import os
import re
import shutil
import sys
import tempfile
from pathlib import Path

from .cpp_lexer import SPLICE
from .job import Job, macro_args
from .passes import host_tiles
from . import depfile, includes

# The cheap scan of the restrict pass: a pair, `restrict` as an identifier or
# a dynamic exception specification may be there.
PAIR_HINT = re.compile(r"(?:\)|\bconst|\bvolatile|&)\s*throw\s*\(|\brestrict\s*\(\s*(cpu|amp|direct3d)\s*\)|"
                       r"\brestrict\s*\(\s*(?!(cpu|amp|direct3d|auto)\s*[,)])")
# What the restrict pass's placement check can be about (restrict_pairs.check_placement).
RESTRICT_WORD = re.compile(r"restrict|__GPU|throw")
# A template parameter of an integral type other than int (the rank deduction
# warning, passes/msvc.py; the same as passes/windows.RANK_HINT).
RANK_HINT = re.compile(r"\btemplate\s*<[^;{]*\b(?:unsigned|size_t|long|short)\b")
ROOT = Path(__file__).resolve().parents[2]


def _project_dir(d):
    d = os.path.abspath(d)
    return not (d.startswith(str(ROOT / "amp_compat")) or os.path.exists(os.path.join(d, "Kokkos_Core.hpp"))
                or os.path.exists(os.path.join(d, "amp.h"))
                or d.startswith("/usr/"))


def closure(job):
    """The project files the sources reach (the sources first), who includes
    whom by a relative "" include, and the text of each file read:
    (files, rel_includers, texts)."""
    inc_dirs_p = [d for d in job.dirs["-I"] if _project_dir(d)]
    quote_dirs_p = [d for d in job.dirs["-iquote"] if _project_dir(d)]
    rel_includers = {}

    def follow(f, kind, name):
        cands = ([os.path.dirname(f)] if kind == '"' else []) + (quote_dirs_p if kind == '"' else []) + inc_dirs_p
        for d in cands:
            c = os.path.normpath(os.path.join(d, name))
            if os.path.isfile(c):
                if kind == '"' and d == os.path.dirname(f):
                    rel_includers.setdefault(c, set()).add(f)
                return [c]
        # A Windows spelling (`..\\X.h`, another letter case), found as the Windows pass finds it.
        from .passes import windows
        for d in cands:
            found = windows.resolve_ci(d, name)
            if len(found) == 1:
                c = os.path.normpath(found[0])
                if kind == '"' and d == os.path.dirname(f):
                    # Clang in the MSVC dialect reads `\` as `/` and finds it beside
                    # the includer: a rewritten copy must be reached the same way.
                    rel_includers.setdefault(c, set()).add(f)
                return [c]
        return []
    files, texts = includes.walk(job.source_paths, follow)
    return files, rel_includers, texts


def text_passes_apply(job):
    """Whether any text pass has something to do in this compile (the
    restrict pass by its cheap scan, the others by their applies(job))."""
    if job.msvc or job.any_text(PAIR_HINT):
        return True
    from .passes import source_passes
    return any(ps.applies(job) for ps in source_passes(job))


def launch(argv, modes=None, may_exec=True):
    """argv: COMPILER ARGS...; modes: the Job's modes when the caller knows
    them (amp++), else read from the compile line; may_exec: this process
    may become the compiler (off in amp++, which reads the compiler's
    errors). The exit status."""
    return run(Job.parse(argv[0], argv[1:], modes, may_exec=may_exec))


def run(job):
    compiler = job.compiler
    if job.windows or job.msvc:
        # Windows spellings and `void main`: a new compile line, of the same modes.
        from .passes import windows
        args = windows.prepare(job)
        if args is not job.args:
            job = Job.parse(compiler, args, job.modes(), may_exec=job.may_exec)
    args = job.args
    files, rel_includers, texts = closure(job)
    # The restrict pass reads only a compile that names a restriction, an
    # exception specification or a macro of one (a -D value).
    restricts = any(RESTRICT_WORD.search(t) for t in texts.values()) or \
        any(kind == "-D" and RESTRICT_WORD.search(t) for _, kind, t in macro_args(args))
    if restricts:
        from .passes import restrict_pairs
        for k, kind, t in list(macro_args(args)):  # -D[ ]NAME=throw(int): the same rewrite as in the sources
            if kind == "-D" and "=" in t and "throw" in t:
                name, _, value = t.partition("=")
                args[k] = args[k][:len(args[k]) - len(t)] + f"{name}={restrict_pairs.throw_spec_define(value)}"
        placement = restrict_pairs.check_placement(texts, args, bool(job.gpu))
        if placement:
            sys.stderr.write("\n".join(placement) + "\n")
            return 1
    sources = set(job.source_paths)
    job.headers = [f for f in files if f not in sources]
    as_written = list(args)  # the fallback: no source pass, amp.h's own parallel_for_each macro on GPUs
    if job.gpu:
        # GPU compiles: parallel_for_each calls are wrapped by the GPU pass,
        # so amp.h does not define its macro for that.
        args.append("-DAMP_PARALLEL_FOR_EACH_SCOPED=1")
    job.texts = {f: SPLICE.sub("", t) for f, t in texts.items()}
    if not job.windows and not job.msvc:  # no rank rewrite without them: say where a specialization never matches
        ranked = {f: t for f, t in job.texts.items() if RANK_HINT.search(t)}
        if ranked:
            from .passes import msvc
            for w in msvc.unsigned_rank_warnings(ranked):
                sys.stderr.write(w + "\n")
    if not text_passes_apply(job):
        return _unchanged(job, as_written)
    from .passes import restrict_pairs
    from . import pp_conditionals
    fixes = {}  # --msvc: path -> edits from Clang's fix-its (msvc.fixit_edits)
    inc_dirs_p = [d for d in job.dirs["-I"] if _project_dir(d)]
    env = pp_conditionals.Env.from_args(args, bool(job.gpu))

    def failed(rc, err, report):
        return rewrite_failed(rc, err, report, as_written, job)
    memo = {}  # the files read and searched once for all rounds
    for attempt in range(4):
        rewritten, report = restrict_pairs.rewrite_files(files, job=job, extra_edits=fixes, env=env, memo=memo)
        if not rewritten and not job.msvc:
            return _unchanged(job, as_written)
        # --msvc rounds before the last: should the tile compiler's parse fail,
        # its errors (Clang's, in the same dialect) stand for the compile's,
        # which is not run; a round costs one parse instead of a failing
        # parse and a failing compile.
        probe = job.msvc and attempt < 3
        rc, err = compile_rewritten(job, args, inc_dirs_p, rel_includers, rewritten, capture=True, probe=probe)
        if not job.msvc:
            if rc != 0:
                return failed(rc, err, report)
            sys.stderr.write(err)
            return rc
        grew = rc != 0 and msvc_fixes_grew(err, files, fixes, job)
        if rc is None and not grew:  # nothing the pass can add: the compile itself says what holds
            rc, err = compile_rewritten(job, args, inc_dirs_p, rel_includers, rewritten, capture=True)
            grew = rc != 0 and msvc_fixes_grew(err, files, fixes, job)
        if not grew or attempt == 3:
            if rc != 0:
                return failed(rc, err, report)
            sys.stderr.write(err)
            return rc
    return 1


def msvc_fixes_grew(err, files, fixes, job):
    """MSVC-isms that only instantiation shows (a missing typename/template,
    msvc.FIXABLE): the edits Clang's errors err point to, added to fixes
    (path -> edits); whether there are new ones (another round)."""
    from .passes import msvc
    texts = {f: Path(f).read_text(errors="replace") for f in files if os.path.isfile(f)}
    from .passes.restrict_pairs import APPLIED  # every pass's edits of the copies compiled

    def edits_of(f):
        return APPLIED.get(f) or msvc.msvc_edits(texts[f], f) + sorted(fixes.get(f, ()))
    new = msvc.fixit_edits(err, texts, edits_of, win=job.windows)
    grew = False
    for f, es in new.items():
        if not es <= fixes.get(f, set()):
            fixes.setdefault(f, set()).update(es)
            grew = True
    return grew


def _unchanged(job, args):
    """The compile as written (the -D values' rewrites aside), through the
    host-tiles pass when it applies."""
    job.args = args
    return host_tiles.exec_or_call(job)


# The pass that wrote each kind of rewrite_files' report line (its own words).
def pass_of(line):
    from .passes import source_passes
    for ps in source_passes():
        if any(key in line for key in ps.REPORT_KEYS):
            return ps.NAME
    if "used as an identifier" in line:
        return "`restrict` as an identifier (passes/restrict_pairs.py)"
    if "dynamic exception specification" in line:
        return "exception specifications (passes/restrict_pairs.py)"
    return "restrict(cpu)/restrict(amp) pairs (passes/restrict_pairs.py)"


def rewrite_failed(rc, err, report, as_written, job):
    """A compile of the rewritten sources failed (its stderr: err). The
    sources are compiled as written (AMP_LAUNCHER_FALLBACK=0: not): should
    that succeed, its result stands and a warning names the passes whose text
    failed; else the rewritten compile's errors are shown, with a note naming
    the passes that edited the text the errors are about. Returns the exit
    status."""
    passes = list(dict.fromkeys(pass_of(r) for r in report))
    edits = "".join(f"  {pass_of(r)}: {r}\n" for r in report)
    if os.environ.get("AMP_LAUNCHER_FALLBACK", "1") != "0" and not job.preprocess_only:
        rc0, err0 = host_tiles.run(job, as_written, capture=True)
        if rc0 == 0:
            sys.stderr.write(err0)
            first = next((ln for ln in err.splitlines() if " error: " in ln or ln.startswith("error:")), "")
            sys.stderr.write(f"amp++: warning: the text of the launcher's source passes did not compile "
                             f"({'; '.join(passes)}); compiled as written instead, which the compiler accepts"
                             + (f". First error of the rewritten text: {first}" if first else "") + "\n"
                             + "amp++: note: what the passes changed:\n" + edits)
            return 0
    sys.stderr.write(err)
    if passes:
        sys.stderr.write("amp++: note: the errors above are in the text of the launcher's source passes "
                         "(line numbers are the original's); what they changed:\n" + edits)
    return rc


def compile_rewritten(job, args, inc_dirs_p, rel_includers, rewritten, capture=False, probe=False):
    """Compiles args (job's compile line, as the launcher extended it) with
    the rewritten files in an overlay folder; returns (exit status, stderr
    text when capture, else ""). The tiled kernels of job's sources and
    project headers go to the host-tiles pass (the overlay copies where
    there are some); probe: (None, its errors) when its parse fails."""
    sources = job.sources
    mirror = set(rewritten)
    changed = True
    while changed:  # a file reaching a mirrored one through its own folder is mirrored too
        changed = False
        for f in list(mirror):
            for inc in rel_includers.get(f, ()):
                if inc not in mirror:
                    mirror.add(inc)
                    changed = True
    # Dependency files name the originals, not these copies (depfile.py).
    tmp = tempfile.mkdtemp(prefix="amp_restrict_")
    overlay = Path(tmp)
    depfile.copies(tmp)
    for f in mirror:
        dst = Path(str(overlay) + f)
        dst.parent.mkdir(parents=True, exist_ok=True)
        body = rewritten.get(f) or Path(f).read_text(errors="replace")
        if body.startswith("\ufeff"):  # a UTF-8 byte order mark is only allowed first, not after #line
            body = body[1:]
        dst.write_text(f'#line 1 "{f}"\n' + body)
    new_args = list(args)
    for k in sources:
        f = os.path.abspath(args[k])
        if f in mirror:
            new_args[k] = str(overlay) + f
    # "" includes: a rewritten copy's folder first, then the original's (for
    # its unrewritten neighbours); the original first would let a file that
    # is also reached through -I be included twice (original and copy), and a
    # "" include through -I from another folder find the original (test
    # restrict.quoted_include). <> includes: the copies' -I folders first.
    extra = []
    folders = list(dict.fromkeys(os.path.dirname(f) for f in sorted(mirror)))
    for d in folders:
        extra += ["-iquote", str(overlay) + d]
    for d in folders:
        extra += ["-iquote", d]
    for d in inc_dirs_p:
        if any(f.startswith(d + "/") for f in mirror):
            extra.append("-I" + str(overlay) + d)
    # Sources move by len(extra) positions; tiled kernels are compiled last,
    # those of the project headers too (the copies here for mirrored ones).
    final = extra + new_args
    seen = [str(overlay) + f if f in mirror else f for f in job.headers]
    try:
        return host_tiles.run(job, final, [k + len(extra) for k in sources], seen, capture, probe=probe)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
