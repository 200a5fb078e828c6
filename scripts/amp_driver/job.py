"""One compile, parsed once: the compiler, its arguments, and what they mean
to the source passes (the sources, the -I/-iquote folders, the output, the
-D definitions, and the build's modes: GPU, --windows-compat, --msvc,
checked). Every pass reads its mode from the Job, never from the compile
line.

Two ways in, one parser of the compile line:
* amp++ (driver.py) knows the modes from its own options and builds the
  compile line from the option table (options.py); it hands the Job over
  whole, modes included (Job.parse(..., modes=...)).
* The CMake launcher (restrict_launcher.sh, CMAKE_CXX_COMPILER_LAUNCHER)
  only has the compile line that CMake wrote from the amp_compat targets'
  flags; the modes are recognised there by the marks the option table says
  each mode puts on a compile line (options.MODE_MARKS).
"""
import os
import re

# What the compiler takes for a C++ source (the sources a pass may rewrite).
SOURCE_EXT = (".cpp", ".cc", ".cxx", ".c++", ".cu", ".C", ".cp", ".CPP")
# Options whose value is the next argument (so that value is not a source).
TAKES_VALUE = {"-o", "-I", "-D", "-U", "-L", "-l", "-x", "-include", "-imacros", "-isystem", "-iquote",
               "-idirafter", "-MF", "-MT", "-MQ", "-Xlinker", "-Xpreprocessor", "-Xassembler", "-u", "-T", "-z",
               "--param", "-aux-info", "-Xclang", "-Xarch_device", "-Xarch_host"}
DIR_OPTIONS = ("-iquote", "-isystem", "-idirafter", "-I")


def expand_response_files(args, depth=0):
    """args with each `@FILE` replaced by FILE's words, as GCC and Clang
    read a response file (whitespace between words; '' and "" group;
    a backslash takes the next character as it is; nested @FILEs expanded
    too; an @FILE that cannot be read stays as it is). The passes must
    see the sources and include folders a build writes there (CMake and
    make may put -I lists in one)."""
    out = []
    for a in args:
        if not a.startswith("@") or len(a) == 1 or depth > 16:
            out.append(a)
            continue
        try:
            with open(a[1:], errors="surrogateescape") as f:
                text = f.read()
        except OSError:
            out.append(a)
            continue
        out += expand_response_files(_response_words(text), depth + 1)
    return out


def _response_words(text):
    words, word, quote, k = [], None, None, 0
    while k < len(text):
        c = text[k]
        if c == "\\" and k + 1 < len(text):
            word = (word or "") + text[k + 1]
            k += 2
            continue
        if quote:
            if c == quote:
                quote = None
            else:
                word += c
        elif c in "'\"":
            quote, word = c, word or ""
        elif c.isspace():
            if word is not None:
                words.append(word)
            word = None
        else:
            word = (word or "") + c
        k += 1
    if word is not None:
        words.append(word)
    return words


def scan(args):
    """The one reading of a compile line's words: (index, option, value) for
    each option (value: the next argument, for the options of TAKES_VALUE;
    else None) and (index, None, argument) for each input."""
    i = 0
    while i < len(args):
        a = args[i]
        if a in TAKES_VALUE:
            yield i, a, args[i + 1] if i + 1 < len(args) else None
            i += 2
            continue
        yield (i, a, None) if a.startswith("-") else (i, None, a)
        i += 1


def macro_args(args):
    """(index of the word that holds it, "-D" or "-U", "NAME[=VALUE]") for
    each macro option of args, joined (-DX=1) or not (-D X=1), in order;
    scan's reading, so the value of another option (-o -DX.o) is none."""
    for i, opt, value in scan(args):
        if opt in ("-D", "-U"):
            if value is not None:
                yield i + 1, opt, value
        elif opt is not None and opt.startswith(("-D", "-U")) and len(opt) > 2:
            yield i, opt[:2], opt[2:]


def joined_output(opt):
    """Whether opt is -oFILE (the output joined to its option, as in a
    Makefile's `-o$@`), not one of Clang's -obj... or -offload... options."""
    return opt.startswith("-o") and len(opt) > 2 and not opt.startswith(("-obj", "-offload"))


def include_dir(opt, value):
    """(option, absolute folder) when scan's (opt, value) names an include
    folder (-I DIR, -IDIR, -iquote DIR...), else None."""
    if opt in DIR_OPTIONS:
        return (opt, os.path.abspath(value)) if value is not None else None
    for d in DIR_OPTIONS:
        if opt.startswith(d) and len(opt) > len(d) and not (d == "-I" and opt.startswith("-I-")):
            return d, os.path.abspath(opt[len(d):])
    return None


def include_dirs(args, option):
    """The folders option (-I, -iquote, ...) names in args, in order."""
    found = (include_dir(o, v) for _, o, v in scan(args) if o)
    return [folder for f in found if f and f[0] == option for folder in f[1:]]


# The compile flags that decide what a source means to a Clang parse beside
# the compile (the host tile compiler's, tile_compiler.rewrite; the
# restrict(amp) check's, driver.amp_check), by parse_flags: the others
# (codegen, warnings, GCC's own options, outputs, inputs) are dropped, as
# Clang would reject or ignore them and they change nothing the parse sees.
# Kept: what the source means (-I -D -U -include -imacros -isystem -iquote
# -idirafter -std); Microsoft mode (--msvc compiles, amp_compat/compat/msvc/
# flags.txt: the same dialect, or the parse fails on what that mode accepts);
# what changes the language the parse must accept (diagnostics that are
# errors by default and the build turns off, -Wno-c++11-narrowing under
# --msvc; char and wchar_t types, exceptions, RTTI).
PARSE_KEEP_VALUE = ("-I", "-D", "-U", "-include", "-imacros", "-isystem", "-iquote", "-idirafter")
PARSE_KEEP = re.compile(r"-(I|D|U|isystem|iquote|idirafter|imacros).+|-include(?!-).+|-std=.*|-fms-.*|"
                        r"-f(no-)?delayed-template-parsing|-Wno-.*|-f.*char8_t|-f(un)?signed-char|-fshort-wchar|"
                        r"-fno-exceptions|-fno-rtti")
# A CUDA compile (Clang's): its host side is parsed, as the CUDA compile's
# host pass sees it.
PARSE_KEEP_CUDA = re.compile(r"--cuda-(gpu-arch|path)=.*")


def parse_flags(args, cuda=False):
    """The words of args (a compile line; its inputs dropped) that a Clang
    parse of its sources keeps (PARSE_KEEP...), in order; cuda: a Clang CUDA
    compile's too."""
    keep = []
    for _, opt, value in scan(args):
        if opt in PARSE_KEEP_VALUE and value is not None:
            keep += [opt, value]
        elif opt and (PARSE_KEEP.fullmatch(opt) or (cuda and PARSE_KEEP_CUDA.fullmatch(opt))):
            keep.append(opt)
    return keep


def forced_includes(args):
    """The files an -include option of args names, in order."""
    for i, a in enumerate(args):
        if a == "-include" and i + 1 < len(args):
            yield args[i + 1]
        elif a.startswith("-include") and len(a) > 8 and not a.startswith("-include-"):
            yield a[8:]


def forced_include(opt, value):
    """The FILE of a -include option of scan's reading (-include FILE or
    -includeFILE; not Clang's -include-pch), else None."""
    if opt == "-include":
        return value
    if opt and opt.startswith("-include") and len(opt) > 8 and not opt.startswith("-include-"):
        return opt[8:]
    return None


def replace_includes(args, which, by):
    """args with the -include options (-include FILE, -includeFILE) whose
    FILE which(FILE) accepts replaced: the first by the words of by (a
    precompiled header's option, say), the others removed."""
    out, placed = [], False
    for _, opt, value in scan(args):
        forced = forced_include(opt, value)
        if forced is not None and which(forced):
            out += [] if placed else list(by)
            placed = True
        else:
            out += [w for w in (opt, value) if w is not None]
    return out


class Job:
    """compiler; args: the compile line after the compiler (the passes may
    extend a copy); gpu: "", "cuda" or "hip"; windows (--windows-compat),
    msvc (--msvc), checked (--checked, a host build); sources: indices into
    args of the C++ sources that exist; out: the -o file; dirs: -iquote /
    -isystem / -idirafter / -I -> [absolute folders]; defines: -DNAME[=VALUE]
    -> VALUE ("1" when none); preprocess_only: -E, -M, -MM; syntax_only:
    -fsyntax-only, --cuda-device-only (no host object); writes_depfiles: -MD,
    -MMD, -MF (the dependency files name every file the compile reads: the
    passes' copies are replaced by their originals there, depfile.py); langs: the -x values,
    in order; texts: path ->
    text of the files the passes read (launcher.closure); headers: the
    project headers the sources reach; may_exec: the launcher may become the
    compiler (exec) when no pass applies."""

    def __init__(self, compiler, args, may_exec=True):
        self.compiler, self.args, self.may_exec = compiler, args, may_exec
        self.gpu, self.windows, self.msvc, self.checked = "", False, False, False
        self.sources, self.out, self.dirs, self.defines = [], None, {}, {}
        self.preprocess_only = self.syntax_only = self.writes_depfiles = False
        self.langs = []
        self.texts, self.headers = {}, []

    @classmethod
    def parse(cls, compiler, args, modes=None, may_exec=True):
        """The Job of `compiler args`; modes (a dict gpu/windows/msvc/checked)
        when the caller knows them (amp++), else read from the marks of the
        option table (options.modes_of)."""
        job = cls(compiler, expand_response_files(list(args)), may_exec=may_exec)
        if modes is None:
            from .options import modes_of
            modes = modes_of(job.args)
        job.gpu = modes.get("gpu", "") or ""
        job.windows = bool(modes.get("windows"))
        job.msvc = bool(modes.get("msvc"))
        job.checked = bool(modes.get("checked")) and not job.gpu
        job.dirs = {o: [] for o in DIR_OPTIONS}
        for i, opt, value in scan(job.args):
            if opt is None:
                if value.endswith(SOURCE_EXT) and os.path.isfile(value):
                    job.sources.append(i)
                continue
            folder = include_dir(opt, value)
            if folder:
                job.dirs[folder[0]].append(folder[1])
            elif opt in ("-E", "-M", "-MM"):
                job.preprocess_only = True
            elif opt in ("-fsyntax-only", "--cuda-device-only"):
                job.syntax_only = True
            elif opt in ("-MD", "-MMD") or opt.startswith("-MF"):
                job.writes_depfiles = True
            elif opt.startswith("-x") and (value is not None or len(opt) > 2):
                job.langs.append(value if opt == "-x" else opt[2:])
            elif opt == "-o" and value is not None:
                job.out = value
            elif joined_output(opt):
                job.out = opt[2:]
        for _, kind, text in macro_args(job.args):
            if kind == "-D":
                name, eq, v = text.partition("=")
                job.defines[name] = v if eq else "1"
        return job

    @property
    def source_paths(self):
        return [os.path.abspath(self.args[k]) for k in self.sources]

    def modes(self):
        return {"gpu": self.gpu, "windows": self.windows, "msvc": self.msvc, "checked": self.checked}

    def any_text(self, regex):
        """Whether a file the passes read matches regex (the cheap scan)."""
        return any(regex.search(t) for t in self.texts.values())


def restriction_macros(args):
    """-DNAME=cpu,amp (restriction specifiers defined on the command line)."""
    out = set()
    for _, kind, text in macro_args(args):
        d = re.fullmatch(r"(\w+)=((?:cpu|amp|direct3d|auto)(?:\s*,\s*(?:cpu|amp|direct3d|auto))*)", text)
        if d and kind == "-D":
            out.add(d.group(1))
    return out
