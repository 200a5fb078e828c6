"""A precompiled prefix header for Clang: the user's own header that a
source includes first (`#include "stdafx.h"`, as Visual Studio projects do
with /Yu), parsed once per compiler and set of flags instead of in every
compile and every tile-compiler parse (an AMP Algorithms Library source:
its stdafx.h, <amp.h> and Google Test, 0.75 s of a 1.6 s parse).

Used where it gives the same program:
  * the compiler is Clang: the MSVC dialect's compile (passes/host_tiles.py
    decides) and the tile compiler's parse; not a CUDA compile (-x cuda),
    whose two passes would each need their own;
  * nothing but comments, blank lines, #line and #pragma once comes before
    the source's first `#include "NAME"`, and NAME resolves (the source's
    folder, then -iquote, then -I, as the compile searches) to a file of
    the user's, not to one of the launcher's per-compile copies;
  * no header the precompiled one was built from has a per-compile copy in
    this compile (a rewritten header of the same name in the overlay
    folders: it would be read instead);
  * a dependency file (-MD ...) lists the headers the precompiled one was
    built from (Clang adds them) and the source (the launcher's copies are
    named by their originals there: depfile.py).
The precompiled header holds what the compile reads before and including
NAME: the forced includes (-include) and NAME itself, built with the same
flags (the per-compile folders aside); Clang skips the source's text up to
and including the `#include "NAME"` (-pch-through-header, as clang-cl's
/Yu). The Windows include shims (-idirafter of a per-compile folder) are
part of the key by content and copied beside the header. Should a compile
with it fail, it runs again without, and that result counts: a header
refused as such (stale) is removed, and a source that passes only without
it never uses it again (decline(): a defect of Clang with delayed template
parsing). The --msvc fix-it rounds' parses use it too: one that fails with
it runs again without, whose errors (not those that defect gives) guide
their fix-its (tile_compiler.py).

Built under $AMP_BUILD_DIR/prefix-pch or ${XDG_CACHE_HOME:-~/.cache}/amp_compat/prefix-pch,
one folder per key, again when a header it holds changes. AMP_PREFIX_PCH=0:
never.
"""
import hashlib
import os
import re
import shutil
import subprocess
from pathlib import Path

from .job import SOURCE_EXT, include_dir, scan
from . import pch

# The launcher's per-compile folders (restrict/MSVC overlay copies, host-tile
# copies, Windows shims): their names change from compile to compile.
SCRATCH = re.compile(r"/amp_restrict_[^/]*(/|$)|/amp_tiles_[^/]*(/|$)|/amp\+\+win\.[^/]*(/|$)|"
                     r"\.(restrict|tiles|win)(/|$)")
FIRST_INCLUDE = re.compile(r'[ \t]*#[ \t]*include[ \t]*"([^"<>]+)"[ \t]*(//.*)?')
SKIPPED = re.compile(r"[ \t]*(//.*)?|[ \t]*#[ \t]*(line|pragma[ \t]+once)\b.*")
LINE_ONE = re.compile(r'#line 1 "((?:[^"\\]|\\.)*)"')
# Options that say nothing about what the header means (or name outputs).
DROP_VALUE = ("-o", "-MF", "-MT", "-MQ", "-x")
DROP = re.compile(r"-c|-S|-E|-fsyntax-only|-M|-MM|-MD|-MMD|-MP|-ferror-limit=.*|-fplugin=.*")
PCH_ERROR = re.compile(r"precompiled header|PCH file|AST file|pch-through-header|through header", re.I)


# Part of every header's key: a header built, or a source declined (decline()),
# by an earlier form of this module is not reused (2: templates instantiated
# in the header, Clang's trait keywords looked up after it).
KEY_VERSION = "2"


def enabled():
    return os.environ.get("AMP_PREFIX_PCH", "1") != "0"


def first_include(text):
    """NAME of the text's first `#include "NAME"` when only comments, blank
    lines, #line and #pragma once come before it; else None."""
    found = _first_include(text)
    return found[0] if found else None


LINE_DIRECTIVE = re.compile(r'[ \t]*#[ \t]*line[ \t]+(\d+)(?:[ \t]+("(?:[^"\\]|\\.)*"))?[ \t]*')


def line_kept(text, after=()):
    """text with a #line after its first `#include "NAME"` that restates where
    the lines after it come from, when a #line comes before it (Clang skips
    the text up to the include, #line included: the launcher's copies start
    with `#line 1 "<original>"`); the text itself when there is none; None
    when it cannot say (a #line it does not read). after: lines to put
    between the include and that #line (only where a #line comes before the
    include: the lines after keep their numbers and file name)."""
    found = _first_include(text)
    if not found:
        return None
    at = found[1]
    lines = text.split("\n")
    number, name, seen = None, None, False
    for k in range(at):
        if re.match(r"[ \t]*#[ \t]*line\b", lines[k]):
            m = LINE_DIRECTIVE.fullmatch(lines[k].rstrip("\r"))
            if not m:
                return None
            number, name, seen = int(m.group(1)), m.group(2) or name, True
        elif number is not None:
            number += 1
    if not seen:
        return text
    # The include's own line number, then the next line's.
    nxt = number + 1 if number is not None else at + 2
    directive = f"#line {nxt}" + (f" {name}" if name else "")
    return "\n".join(lines[:at + 1] + list(after) + [directive] + lines[at + 1:])


# Clang's type-trait keywords (Clang 22's TokenKinds.def) that a library may
# also declare as class templates, as libstdc++ does (`std::__is_pointer<T>`):
# Clang then takes the name back as an identifier ("reverts" it). Under
# -fdelayed-template-parsing (the MSVC dialect) a function template's body
# kept unparsed in the precompiled header is parsed in the compile, where the
# revert is restored only for names the compile's own text looks up: until
# then `__is_pointer<_ValueType1>::__value` in std::equal's helper reads as
# the trait ("expected '('"), and every source calling std::equal on vectors
# failed with the header (the AMP Algorithms Library's scan and testtools
# tests: compiled without it, 1.5-2.5x the compiler's time). A macro whose
# body names them, defined and undefined right after the header's include,
# makes the compile look each one up; it expands nowhere.
TRAIT_KEYWORDS = (
    "__array_extent __array_rank __has_nothrow_assign __has_nothrow_constructor __has_nothrow_copy "
    "__has_nothrow_move_assign __has_trivial_assign __has_trivial_constructor __has_trivial_copy "
    "__has_trivial_destructor __has_trivial_move_assign __has_trivial_move_constructor "
    "__has_unique_object_representations __has_virtual_destructor __is_abstract __is_aggregate "
    "__is_arithmetic __is_array __is_assignable __is_base_of __is_bitwise_cloneable __is_bounded_array "
    "__is_class __is_complete_type __is_compound __is_const __is_constructible __is_convertible "
    "__is_convertible_to __is_destructible __is_empty __is_enum __is_final __is_floating_point "
    "__is_function __is_fundamental __is_integral __is_interface_class __is_layout_compatible __is_literal "
    "__is_lvalue_expr __is_lvalue_reference __is_member_function_pointer __is_member_object_pointer "
    "__is_member_pointer __is_nothrow_assignable __is_nothrow_constructible __is_nothrow_convertible "
    "__is_nothrow_destructible __is_object __is_pod __is_pointer __is_pointer_interconvertible_base_of "
    "__is_polymorphic __is_reference __is_rvalue_expr __is_rvalue_reference __is_same __is_scalar "
    "__is_scoped_enum __is_sealed __is_signed __is_standard_layout __is_trivial __is_trivially_assignable "
    "__is_trivially_constructible __is_trivially_copyable __is_trivially_destructible "
    "__is_trivially_equality_comparable __is_trivially_relocatable __is_unbounded_array __is_union "
    "__is_unsigned __is_void __is_volatile __reference_binds_to_temporary "
    "__reference_constructs_from_temporary __reference_converts_from_temporary")
TRAITS_SEEN = [f"#define __amp_compat_traits_seen {TRAIT_KEYWORDS}", "#undef __amp_compat_traits_seen"]


def _delayed(args):
    return any(o == "-fdelayed-template-parsing" for _, o, _ in scan(args))


def _first_include(text):
    """(NAME, its line index) of first_include's include, or None."""
    in_comment = False
    for at, line in enumerate(text.split("\n")):
        line = line.rstrip("\r")
        if in_comment:
            in_comment = "*/" not in line
            if in_comment or not SKIPPED.fullmatch(line.split("*/", 1)[1]):
                if not in_comment:
                    return None
            continue
        m = FIRST_INCLUDE.fullmatch(line)
        if m:
            return m.group(1), at
        if SKIPPED.fullmatch(line):
            continue
        if re.match(r"[ \t]*/\*", line):
            in_comment = "*/" not in line
            if not in_comment and not SKIPPED.fullmatch(line.split("*/", 1)[1]):
                return None
            continue
        return None
    return None


def _dirs(args, option):
    found = (include_dir(o, v) for _, o, v in scan(args) if o)
    return [f[1] for f in found if f and f[0] == option]


def prefix_header(src, args):
    """(NAME, its real path) of the user's header that src includes first,
    as the compile args (with src among them) would find it; None when
    there is none or it is a per-compile copy."""
    try:
        text = Path(src).read_text(errors="surrogateescape")
    except OSError:
        return None
    name = first_include(text)
    if not name or name.startswith("/"):
        return None
    for d in [os.path.dirname(os.path.abspath(src))] + _dirs(args, "-iquote") + _dirs(args, "-I"):
        p = os.path.join(d, name.replace("\\", "/"))
        if os.path.isfile(p):
            p = os.path.realpath(p)
            return None if SCRATCH.search(p) else (name, p)
    return None


def _key_flags(args, skip):
    """(the flags the header is built with: args less the inputs, outputs and
    what only concerns diagnostics or plugins; the per-compile folders
    dropped; the shim folders, -idirafter per-compile ones)."""
    flags, shims, dropped = [], [], []
    items = list(scan(args))
    k = 0
    while k < len(items):
        i, o, v = items[k]
        k += 1
        if o is None or i in skip or o in DROP_VALUE or DROP.fullmatch(o):
            continue
        if o == "-Xclang" and (v or "").startswith("-plugin-arg"):
            k += 1  # its value, the next -Xclang
            continue
        if o == "-Xclang" and (v or "").startswith(("-pch-through-header", "-include-pch")):
            continue
        if o == "-include-pch":
            continue
        d = include_dir(o, v)
        if d and SCRATCH.search(d[1] + "/"):
            (shims if d[0] == "-idirafter" else dropped).append(d[1])
            continue
        flags += [o] + ([v] if v is not None else [])
    return flags, shims, dropped


def _tree(folder):
    """{relative path: bytes} of the files under folder."""
    out = {}
    for d, _, files in os.walk(folder):
        for f in files:
            p = os.path.join(d, f)
            try:
                out[os.path.relpath(p, folder)] = Path(p).read_bytes()
            except OSError:
                pass
    return out


def cache_root():
    return os.environ.get("AMP_BUILD_DIR") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.join(os.environ.get("HOME") or "/tmp", ".cache"), "amp_compat")


def for_compile(compiler, args, src_index):
    """(the words to add to compiler args (the compile of the source at
    args[src_index]) for the precompiled prefix header, built if missing;
    the source to compile instead, or None): ([], None) when it does not
    apply or cannot be built. The source is replaced where a #line comes
    before its first include (line_kept): by a copy of the same name (the
    object's names of static initializers come from it) in a folder of its
    own below the source's, whose "" includes then search the source's
    folder first (-iquote; the words say so); only in the launcher's
    per-compile folders."""
    src = args[src_index]
    try:
        text = Path(src).read_text(errors="surrogateescape")
    except OSError:
        return [], None
    if _only_prefix(text):  # the header's own source (stdafx.cpp): nothing to gain
        return [], None
    words = _for_compile(compiler, args, src_index)
    if not words or _declined(words, text):
        return [], None
    kept = line_kept(text, TRAITS_SEEN if _delayed(args) else ())
    if kept is None:
        return [], None
    if kept is text:
        return words, None
    if not SCRATCH.search(os.path.dirname(os.path.abspath(src)) + "/"):
        return [], None
    here = os.path.dirname(os.path.abspath(src))
    alt = os.path.join(here, ".prefix", os.path.basename(src))
    os.makedirs(os.path.dirname(alt), exist_ok=True)
    Path(alt).write_text(kept, errors="surrogateescape")
    return words + ["-iquote", here], alt


def _only_prefix(text):
    """Whether nothing but comments and blank lines follows the first include."""
    found = _first_include(text)
    if not found:
        return False
    rest = "\n".join(text.split("\n")[found[1] + 1:])
    rest = re.sub(r"/\*.*?\*/|//[^\n]*", "", rest, flags=re.S)
    return not rest.strip()


def _source_key(text):
    """The source a compile is of: the original a launcher's copy names
    (#line 1), else its text."""
    m = LINE_ONE.match(text)
    return hashlib.sha1((m.group(1) if m else text).encode(errors="surrogateescape")).hexdigest()[:16]


def _declined(words, text):
    """Whether this source's compile failed with the header where it passed
    without (declined(), below): it then never uses it."""
    try:
        return _source_key(text) in Path(words[1]).with_name("declined").read_text().split()
    except OSError:
        return False


def decline(words, src_text):
    """Records that the source compiles without the header but not with it.
    Clang 22 misreads libstdc++'s templates named like its type traits
    (`__is_pointer<T>`) in a function template body that
    -fdelayed-template-parsing (the MSVC dialect) keeps unparsed in the
    precompiled header: `std::equal` on vectors fails with "expected '('"
    when its body is first parsed in the source's compile."""
    try:
        with open(Path(words[1]).with_name("declined"), "a") as f:
            f.write(_source_key(src_text) + "\n")
    except OSError:
        pass


def _for_compile(compiler, args, src_index):
    if not enabled() or \
            any(o and (o in ("-M", "-MM", "-E") or o.startswith("-include-pch") or
                       (o == "-x" and v not in ("c++", None)))
                for _, o, v in scan(args)):
        return []
    hdr = prefix_header(args[src_index], args)
    if not hdr:
        return []
    name, path = hdr
    flags, shims, dropped = _key_flags(args, {src_index})
    trees = [_tree(s) for s in shims]
    try:
        real = shutil.which(compiler) or compiler
        stamp = f"{os.path.realpath(real)} {os.path.getmtime(os.path.realpath(real))}"
    except OSError:
        return []
    h = hashlib.sha1("\n".join([KEY_VERSION, stamp, path] + flags).encode())
    for t in trees:
        for rel in sorted(t):
            h.update(f"\n{rel}\n".encode() + t[rel])
    d = Path(cache_root()) / "prefix-pch" / h.hexdigest()[:16]
    if not _fresh(d) and not _build(compiler, flags, trees, path, d):
        return []
    if _shadowed(d, dropped):
        return []
    return ["-include-pch", str(d / "prefix.pch"), "-Xclang", f"-pch-through-header={path}"]


def _deps(d):
    text = (d / "deps.d").read_text()
    return [w.replace("\\ ", " ") for w in re.split(r"(?<!\\)\s+", text.replace("\\\n", " ").strip())[1:]]


def _fresh(d):
    """Whether d's header exists and is newer than every file it was built from."""
    try:
        built = (d / "prefix.pch").stat().st_mtime
        deps = _deps(d)
    except OSError:
        return False
    for w in deps:
        try:
            if os.path.getmtime(w) > built:
                return False
        except OSError:
            return False
    return True


def _shadowed(d, dropped):
    """Whether a per-compile folder of this compile holds a file named as one
    the header was built from (a rewritten copy the compile would read)."""
    if not dropped:
        return False
    try:
        names = {os.path.basename(w) for w in _deps(d)}
    except OSError:
        return True
    for folder in dropped:
        for _, _, files in os.walk(folder):
            if names.intersection(files):
                return True
    return False


def _build(compiler, flags, trees, path, d):
    def make():
        extra = []
        for n, t in enumerate(trees):  # the shims, by content (part of the key)
            root = d / f"shims{n}"
            for rel, body in t.items():
                p = root / rel
                if not p.is_file() or p.read_bytes() != body:
                    p.parent.mkdir(parents=True, exist_ok=True)
                    p.write_bytes(body)
            extra += ["-idirafter", str(root)]
        return pch.build_header([compiler] + flags + extra + ["-fpch-instantiate-templates"], path, d / "prefix.pch",
                                d / "deps.d")
    return pch.under_lock(d, _fresh, make)


def refused(words, stderr):
    """Whether a compile given words (for_compile's) failed on the header
    itself (stderr: its errors); the header is then removed."""
    if not words or not PCH_ERROR.search(stderr):
        return False
    Path(words[1]).unlink(missing_ok=True)
    return True


def run(cmd, **kw):
    """subprocess.run(cmd, **kw) (cmd: a Clang compile of one source, its
    stderr captured) with the precompiled prefix header where it applies;
    should that fail, the compile without it is what counts (a refused
    header is removed; a source that passes only without it is declined)."""
    srcs = [i for i, o, v in scan(cmd[1:]) if o is None and v.endswith(SOURCE_EXT)]
    words, alt = for_compile(cmd[0], cmd[1:], srcs[0]) if len(srcs) == 1 else ([], None)
    if not words:
        return subprocess.run(cmd, **kw)
    args = list(cmd[1:])
    if alt:
        args[srcs[0]] = alt
    deps = any(o and o.startswith("-M") for _, o, _ in scan(args))  # its dependency file names the copy: kept
    try:
        r = subprocess.run(cmd[:1] + words + args, **kw)
    finally:
        if alt and not deps:
            Path(alt).unlink(missing_ok=True)
    if r.returncode == 0:
        return r
    err = r.stderr if isinstance(r.stderr, str) else (r.stderr or b"").decode(errors="replace")
    refused(words, err)
    r2 = subprocess.run(cmd, **kw)
    if r2.returncode == 0:
        decline(words, Path(cmd[1:][srcs[0]]).read_text(errors="surrogateescape"))
    return r2
