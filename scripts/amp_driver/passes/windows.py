"""Windows habits of a compile, answered by the compiler launcher.

Used by amp_driver/launcher.py (scripts/restrict_launcher.sh): prepare()
takes the compile job (job.Job) and returns its arguments, extended, before anything
else looks at the sources. Nothing happens unless the compile is a Windows one:

* --windows-compat (the compile force-includes compat/crt_compat.h, as amp++
  and the amp_compat_windows CMake target do):
  #include names spelled the Windows way -- another letter case than the
  file's ("timer.h" for Timer.h), backslashes ("..\\Scan\\Scan.h",
  <wrl\\client.h>) -- that name no file as spelled but name exactly one file
  when `\\` is read as `/` and case is ignored, are answered with a shim: a
  file named exactly as spelled, in a per-build folder added with -idirafter
  (so it is only consulted when nothing else matches), that includes the real
  file by its absolute path. The user's files are never modified. The search
  follows the compiler's: for "..." the includer's folder, then -iquote, -I,
  -isystem and -idirafter folders; for <...> the same without the first two.
  Two files that differ only in case (Timer.h and timer.h for "TIMER.H"),
  or one spelling meaning two files from two includers, make the shim an
  #error naming both: the compile fails only if that include is reached.
  System folders are not searched case-insensitively.

* --windows-compat or --msvc (compat/msvc/msvc_dialect.h): `void main(`,
  `void wmain(` and `void _tmain(` at the start of a line of a source file
  become `int ...(`, and `return;` in that function's body `return 0;`
  (falling off the end of main returns 0). The source is compiled from a
  rewritten copy that starts with #line 1 "<original path>", so diagnostics
  and __FILE__ name the original; its folder is added with -iquote so its
  "..." includes resolve as before.

* --windows-compat: a source that defines `wmain` itself (Visual Studio
  enters it through wmainCRTStartup, with or without _UNICODE and
  <tchar.h>) gets compat/detail/wmain_entry.h force-included: the weak
  main() that converts argv and calls wmain.

* --windows-compat: `__declspec(align(N)) struct S {...}` (the attribute
  before the class key, which GCC would ignore with a warning) becomes
  `struct __declspec(align(N)) S {...}` (declspec_edits), as MSVC meant it.

* --windows-compat: MSVC's `std::exception(const char*)` constructor
  (`throw std::exception("bad size");`, `: std::exception(msg)` in a
  derived class) does not exist in libstdc++. exception_edits() finds those
  constructions in the project's own files (restrict_pairs.rewrite_files
  applies them to copies, as it does its other edits) and names
  ::amp_compat_crt::msvc_exception instead (compat/detail/msvc_exception.h:
  derived from std::exception, what() returns the message, as MSVC's does),
  also where a class names std::exception as its base, so that its
  mem-initializer `std::exception(msg)` names a direct base. `catch
  (std::exception& e)` and everything else that names the type stays as
  written, except a handler that catches std::exception by value
  (`catch (std::exception e)`), which catches by reference instead, so that
  e.what() is still the thrower's message (MSVC's std::exception carries it;
  libstdc++'s would be a sliced copy saying "std::exception"). Unqualified
  `exception` is read the same way only in a file that says `using
  namespace std;` and declares no `exception` of its own. Not covered: a
  std::exception variable copied from another (`std::exception c = e;`),
  which keeps libstdc++'s what().

The per-build folder is $AMP_WIN_DIR when set (amp++ sets and removes it),
else the output file's path plus ".win" (CMake: beside the object file).
"""
import os
import re
import sys
from pathlib import Path

from ..cpp_lexer import mask, match_fwd  # comments and literals as the compiler reads them
from ..job import forced_includes
from .. import depfile, includes

VOID_MAIN_RE = re.compile(r"^([ \t]*)void([ \t]+(?:__cdecl[ \t]+)?(?:main|wmain|_tmain)[ \t]*\()", re.M)
# a definition of wmain at the start of a line (after fix_void_main: int)
WMAIN_DEF_RE = re.compile(r"^[ \t]*int[ \t]+(?:__cdecl[ \t]+)?wmain[ \t]*\([^;{}]*\)\s*\{", re.M)
SYSTEM_PREFIXES = ("/usr/", "/lib/", "/opt/")


def resolve_ci(base, name):
    """The files `name` names under `base` with `\\` read as `/` and letter
    case ignored: [] (none), [path] or several (ambiguous)."""
    parts = [p for p in name.replace("\\", "/").split("/") if p not in ("", ".")]
    found = [base]
    for k, part in enumerate(parts):
        last = k == len(parts) - 1
        nxt = []
        for cur in found:
            if part == "..":
                nxt.append(os.path.dirname(cur))
                continue
            exact = os.path.join(cur, part)
            if os.path.isfile(exact) if last else os.path.isdir(exact):
                nxt.append(exact)
                continue
            try:
                entries = os.listdir(cur)
            except OSError:
                continue
            for e in entries:
                p = os.path.join(cur, e)
                if e.lower() == part.lower() and (os.path.isfile(p) if last else os.path.isdir(p)):
                    nxt.append(p)
        found = nxt
        if not found:
            return []
    return sorted(set(os.path.normpath(f) for f in found))


def _library_roots(dirs):
    """Folders whose headers are not walked: -isystem ones (Kokkos), amp_compat's
    own (a folder holding amp.h, with compat/ below it) and Kokkos'."""
    roots = list(dirs["-isystem"])
    for d in dirs["-I"] + dirs["-idirafter"]:
        if os.path.isfile(os.path.join(d, "amp.h")) or os.path.isfile(os.path.join(d, "Kokkos_Core.hpp")):
            roots.append(d)
    return [r.rstrip("/") + "/" for r in roots]


def _user_file(path, roots):
    return not path.startswith(SYSTEM_PREFIXES) and not any(path.startswith(r) for r in roots)


def include_shims(src_paths, dirs):
    """{spelling: (kind, [targets], [includers])} for includes that need a shim;
    the closure walk follows the files they resolve to."""
    shims = {}
    roots = _library_roots(dirs)

    def follow(f, kind, name):
        name = name.strip()
        order = ([os.path.dirname(f)] + dirs["-iquote"] if kind == '"' else []) \
            + dirs["-I"] + dirs["-isystem"] + dirs["-idirafter"]
        exact = next((os.path.join(d, name) for d in order if os.path.isfile(os.path.join(d, name))), None)
        if exact:
            return [os.path.normpath(exact)] if _user_file(exact, roots) and "\\" not in name else []
        for d in order:
            targets = resolve_ci(d, name)
            if targets:
                entry = shims.setdefault(name, (kind, [], []))
                for t in targets:
                    if t not in entry[1]:
                        entry[1].append(t)
                entry[2].append(f)
                return [targets[0]] if len(targets) == 1 and _user_file(targets[0], roots) else []
        return []
    includes.walk(src_paths, follow)
    return shims


def _c_string(s):
    return s.replace("\\", "\\\\").replace('"', '\\"')


SHIM_NOTE = "the Windows spelling of this file (amp_compat --windows-compat)"  # each shim's first line


def shim_target(path):
    """The file a shim of write_shims includes (its absolute path); None for
    any other file."""
    try:
        lines = Path(path).read_text(errors="replace").splitlines()
    except OSError:
        return None
    m = re.fullmatch(r'#include "((?:[^"\\]|\\.)*)"', lines[1]) if len(lines) >= 2 else None
    if not m or SHIM_NOTE not in lines[0]:
        return None
    return re.sub(r"\\(.)", r"\1", m.group(1))


def redirect_shims(folder, dest, copy_of):
    """The shims under `folder` (an -idirafter folder of write_shims) copied
    to dest, each including copy_of(its target) instead of its target where
    that is a file; returns the folder to use instead of `folder` (dest's
    counterpart), or None when no shim is redirected. The host tile
    compiler's rewritten copies of project headers are reached so: a shim
    names the original by its absolute path."""
    root = folder
    while os.path.basename(root) == "u":  # write_shims' levels for `..` in a spelling
        root = os.path.dirname(root)
    depfile.copies(dest, root)
    redirected = False
    for d, _, files in os.walk(root):
        for f in files:
            src = os.path.join(d, f)
            target = shim_target(src)
            copy = copy_of(target) if target else None
            out = Path(dest, os.path.relpath(src, root))
            out.parent.mkdir(parents=True, exist_ok=True)
            text = Path(src).read_text(errors="replace")
            if copy and os.path.isfile(copy):
                text = text.replace(f'#include "{_c_string(target)}"', f'#include "{_c_string(copy)}"')
                redirected = True
            out.write_text(text)
    return os.path.normpath(os.path.join(dest, os.path.relpath(folder, root))) if redirected else None


def write_shims(shims, work):
    """Writes the shims under work/inc/...; returns the folder for -idirafter."""
    depth = max([n.replace("\\", "/").split("/").count("..") for n in shims] + [0])
    root = os.path.join(work, "inc")
    base = os.path.join(root, *(["u"] * depth))
    depfile.shims(root)
    for name, (kind, targets, includers) in shims.items():
        dst = os.path.normpath(os.path.join(base, name))
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        spelled = f'{kind}{name}{">" if kind == "<" else chr(34)}'
        if len(targets) == 1:
            body = (f"// {spelled}: {SHIM_NOTE}\n"
                    f'#include "{_c_string(targets[0])}"\n')
        else:
            body = (f'#error "amp_compat: #include {_c_string(spelled)} names several files when case and '
                    f'backslashes are ignored: {_c_string(" and ".join(targets))} (included from '
                    f'{_c_string(", ".join(sorted(set(includers))))}); spell it as the file is named"\n')
        Path(dst).write_text(body)
    return base


def fix_void_main(text):
    """`void main(...) {...}` -> `int main(...) {...}` with `return;` -> `return 0;`
    in its body; None when the text has no such definition. The scan reads
    the text as the compiler does (cpp_lexer.mask: comments, literals and
    directives blanked), so a `void main(` or a bracket in a comment or a
    literal is never taken for code."""
    code = mask(text)
    m = VOID_MAIN_RE.search(code)
    if not m:
        return None
    p_open = m.end() - 1
    p_close = match_fwd(code, p_open, "(", ")")
    brace = -1 if p_close < 0 else p_close + 1
    while 0 <= brace < len(code) and code[brace] in " \t\r\n":
        brace += 1
    if brace < 0 or brace >= len(code) or code[brace] != "{":
        return None  # a declaration only, or something this rewrite does not understand
    end = match_fwd(code, brace, "{", "}")
    if end < 0:
        return None
    out, last = [], brace
    for r in re.finditer(r"(?<![A-Za-z0-9_])return(\s*);", code[brace:end]):
        out += [text[last:brace + r.start()], "return 0;"]
        last = brace + r.end()
    out.append(text[last:end])
    return text[:m.start()] + m.group(1) + "int" + m.group(2) + text[m.end():brace] + "".join(out) + text[end:]


# `__declspec(align(16)) struct V {...}`: MSVC aligns the class; GCC reads an
# attribute before the class key as the (absent) declarator's and only warns
# that it ignores it. The __declspec goes after the class key, where it
# applies to the class (crt_extras.h maps it to alignas there).
_DECLSPEC_BEFORE_CLASS = re.compile(
    r"(__declspec\s*\(\s*align\s*\(\s*[^()]+\)\s*\))(\s*)(struct|class|union)(\s+)(?=[A-Za-z_]\w*\s*(?:final\s*)?[:{])")
# `__declspec(thread)`: MSVC's thread-local storage. crt_extras.h maps it to
# thread_local where the compiler does not know __declspec (GCC), but Clang
# knows __declspec on Linux targets (CUDA compiles) and ignores `thread` there
# with a warning: a variable each thread must have its own would be shared.
# Spelled thread_local in the source, it means the same to every compiler.
_DECLSPEC_THREAD = re.compile(r"__declspec\s*\(\s*thread\s*\)")
DECLSPEC_HINT = re.compile(r"__declspec\s*\(\s*(?:align|thread)")


def declspec_edits(m):
    """Edits of the masked text m moving `__declspec(align(N))` from before a
    class key of a class definition to after it, and spelling
    `__declspec(thread)` as `thread_local` (see above)."""
    edits = []
    for r in _DECLSPEC_BEFORE_CLASS.finditer(m):
        edits.append((r.start(1), r.end(4), f"{r.group(3)} {r.group(1)} "))
    for r in _DECLSPEC_THREAD.finditer(m):
        edits.append((r.start(), r.end(), "thread_local"))
    return edits


MSVC_EXCEPTION = "::amp_compat_crt::msvc_exception"
_STD_EXC = r"(?:::\s*)?\bstd\s*::\s*exception\b"
# `std::exception` then `(` and something other than `)`: a construction with
# a message (an expression, or a mem-initializer of a derived class).
_STD_EXC_CALL = re.compile(_STD_EXC + r"(?=\s*\(\s*[^\s)])")
# `std::exception e("...")`: a variable constructed from a string literal.
_STD_EXC_VAR = re.compile(_STD_EXC + r'(?=\s+[A-Za-z_]\w*\s*[({]\s*(?:L|u8|u|U)?")')
# a base specifier: `public std::exception`, `struct E : std::exception`
_STD_EXC_BASE = re.compile(r"(?:\b(?:public|protected|private)\s+(?:virtual\s+)?|"
                           r"\b(?:class|struct)\s+[A-Za-z_]\w*\s*(?:final\s*)?:\s*)(" + _STD_EXC + ")")
_USING_STD = re.compile(r"\busing\s+namespace\s+(?:::\s*)?std\s*;")
_OWN_EXC = re.compile(r"\b(?:class|struct|union|typedef|using)\s+exception\b|\bexception\s*=")
_UNQ_EXC_CALL = re.compile(r"(?:\bthrow|\breturn|[=(,:?])\s*\b(exception)(?=\s*\(\s*[^\s)])")
_UNQ_EXC_BASE = re.compile(r"(?:\b(?:public|protected|private)\s+(?:virtual\s+)?|"
                           r"\b(?:class|struct)\s+[A-Za-z_]\w*\s*(?:final\s*)?:\s*)(exception)\b(?!\s*::)")
# a handler that catches by value: `catch (std::exception e)`
_CATCH_BY_VALUE = re.compile(r"\bcatch\s*\(\s*(?:const\s+)?(?:(?:::\s*)?std\s*::\s*)?exception(\s+)[A-Za-z_]\w*\s*\)")
EXCEPTION_HINT = re.compile(r"\bexception\s*[({]|\bcatch\s*\(|\bexception\s+[A-Za-z_]\w*\s*[({]|"
                            r"(?:public|protected|private|:)\s*(?:virtual\s+)?(?:::\s*)?(?:std\s*::\s*)?exception\b")


def exception_edits(m):
    """Edits (start, end, text) of the masked text m (cpp_lexer.mask) that make
    MSVC's std::exception(const char*) constructions name msvc_exception
    (see the module comment). A `::` or `.` before an unqualified
    `exception` (a member, another namespace's class) is never touched."""
    spans = {}
    for r in _STD_EXC_CALL.finditer(m):
        spans[r.start()] = r.end()
    for r in _STD_EXC_VAR.finditer(m):
        spans[r.start()] = r.end()
    for r in _STD_EXC_BASE.finditer(m):
        spans[r.start(1)] = r.end(1)
    using_std = _USING_STD.search(m) and not _OWN_EXC.search(m)
    refs = []
    for r in _CATCH_BY_VALUE.finditer(m):
        if using_std or re.search(r"std\s*::\s*exception\s+\w+\s*\)$", r.group(0)):
            refs.append((r.start(1), r.start(1), "&"))
    if using_std:
        for rx in (_UNQ_EXC_CALL, _UNQ_EXC_BASE):
            for r in rx.finditer(m):
                s = r.start(1)
                if re.search(r"(?:::|\.|->|~)\s*$", m[:s]):
                    continue
                if not any(a <= s < b for a, b in spans.items()):
                    spans[s] = r.end(1)
    return sorted([(a, b, MSVC_EXCEPTION) for a, b in spans.items()] + refs)


def prepare(job):
    """The compiler arguments with the Windows answers added (see the module
    comment); job.args itself when the compile is not a Windows one."""
    args = job.args
    win, msvc = job.windows, job.msvc
    if not (win or msvc):
        return args
    dirs, sources, out = job.dirs, job.sources, job.out
    work = os.environ.get("AMP_WIN_DIR") or os.path.abspath((out or "a.out") + ".win")
    new_args, extra = list(args), []
    for k in sources:
        src = os.path.abspath(args[k])
        try:
            text = Path(src).read_text(errors="surrogateescape")
        except OSError:
            continue
        fixed = fix_void_main(text)
        if fixed is None:
            continue
        dst = Path(work + "/main" + src)
        depfile.copies(work + "/main")
        dst.parent.mkdir(parents=True, exist_ok=True)
        dst.write_text(f'#line 1 "{_c_string(src)}"\n' + fixed, errors="surrogateescape")
        new_args[k] = str(dst)
        extra += ["-iquote", os.path.dirname(src)]
    if win:
        # A source that defines wmain (not through <tchar.h>'s _tmain): its
        # entry point, as Visual Studio's wmainCRTStartup (detail/wmain_entry.h).
        compat = next((os.path.dirname(f) for f in forced_includes(args)
                       if f.replace("\\", "/").endswith("compat/crt_compat.h")), None)
        for k in sources:
            try:
                text = Path(new_args[k]).read_text(errors="surrogateescape")
            except OSError:
                continue
            if compat and WMAIN_DEF_RE.search(mask(text)):
                extra += ["-include", os.path.join(compat, "detail", "wmain_entry.h")]
                break
        shims = include_shims([os.path.abspath(args[k]) for k in sources], dirs)
        if shims:
            new_args += ["-idirafter", write_shims(shims, work)]
    return extra + new_args


# ---- the pass (passes/__init__.py): the --windows-compat edits of the project's files
NAME = "Windows spellings (--windows-compat; passes/windows.py)"
REPORT_KEYS = ("std::exception(message)", "__declspec(align)", "MSVC rank deduction")
# a template parameter of an integral type other than int (for the rank
# deduction edit; msvc.non_int_rank_edits decides)
RANK_HINT = re.compile(r"\btemplate\s*<[^;{]*\b(?:unsigned|size_t|long|short)\b")


def mode_applies(job):
    return job.windows


def applies(job):
    """--windows-compat and a file with one of the habits this pass edits
    (the cheap scan: no parse for the others)."""
    return job.windows and job.any_text(_HINTS)


def file_edits(job, f, prior, extra):
    """(edits, report lines) of file f (a FileView), given the earlier passes' edits."""
    from . import msvc  # the rank deduction edit is the --msvc one
    name, out, report = Path(f.path).name, [], []
    xe = exception_edits(f.mask)
    if xe:
        report.append(f"{name}: {len(xe)} MSVC std::exception(message) construction(s) or base(s) -> {MSVC_EXCEPTION}")
        out += xe
    de = declspec_edits(f.mask)
    if de:
        report.append(f"{name}: {len(de)} __declspec(align) before a class key moved after it")
        out += de
    if not job.msvc:
        # An unsigned rank deduced from an AMP type's int one (`template
        # <class T, unsigned int Rank> f(const array_view<T, Rank>&)`, as
        # in the C++ AMP book): MSVC deduced it, GCC and Clang do not.
        # The same edit --msvc makes (msvc.non_int_rank_edits), here for
        # GCC too; it changes nothing a compiler accepted.
        re_ = msvc.non_int_rank_edits(msvc.blank_comments_and_strings(f.kept))
        re_ = [e for e in re_ if not any(s < e[1] and e[0] < t or s == e[0] for s, t, _ in prior + out)]
        if re_:
            report.append(f"{name}: MSVC rank deduction: {msvc.describe(re_)}")
            out += re_
    return out, report


# GCC: `F:L:C: fatal error: NAME: No such file or directory`;
# Clang: `F:L:C: fatal error: 'NAME' file not found`.
MISSING_RE = re.compile(r"^(.+?):\d+:\d+: fatal error: (?:'(.+)' file not found|(.+): No such file or directory)$", re.M)


def hint(errors):
    """For amp++: a note when a compile without --windows-compat failed on an
    include that --windows-compat would resolve; '' otherwise."""
    notes = []
    for m in MISSING_RE.finditer(errors):
        includer, name = m.group(1), m.group(2) or m.group(3)
        here = os.path.dirname(os.path.abspath(includer))
        # A file that exists under the exact spelling is no Windows spelling
        # (e.g. #include_next in a system header that failed for another reason).
        exact = os.path.normpath(os.path.join(here, name))
        found = [f for f in resolve_ci(here, name) if os.path.normpath(f) != exact]
        if "\\" in name or found:
            where = f" (the file is {found[0]})" if len(found) == 1 else ""
            notes.append(f'amp++: note: #include "{name}" in {includer} is spelled the Windows way '
                         f"(letter case or backslashes){where}; add --windows-compat, which resolves "
                         "such names without changing the files")
    return "\n".join(notes)


class _AnyOf:
    """regexes searched in turn (the cheap scan of applies())."""

    def __init__(self, *regexes):
        self.regexes = regexes

    def search(self, text):
        return any(r.search(text) for r in self.regexes)


_HINTS = _AnyOf(EXCEPTION_HINT, RANK_HINT, DECLSPEC_HINT)
