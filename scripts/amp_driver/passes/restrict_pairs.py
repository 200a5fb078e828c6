"""Source rewrite for restrict(cpu)/restrict(amp) overload pairs.

C++ AMP lets a function be overloaded on its restriction alone:

    int f(int x) restrict(cpu) { ... }     // called from CPU code
    int f(int x) restrict(amp) { ... }     // called from kernels

No library can express that: `restrict(...)` is a macro after the parameter
list, so GCC sees the same function defined twice, and Clang-CUDA refuses a
__host__ __device__ function overloading a __host__ one. This rewrite turns
each such group into what both compilers accept, keeping every body unchanged:

    int f__amp_cpu(int x) restrict(cpu) { ... }
    int f__amp_amp(int x) restrict(amp) { ... }
    int f(int x) restrict(cpu, amp)
    { AMP_RESTRICT_PAIR(f__amp_cpu(..x..), f__amp_amp(..x..)) }

AMP_RESTRICT_PAIR (amp_compat/detail/restrict.h) calls the amp version in GPU
code and inside kernels on the host accelerators, the cpu version elsewhere.
Unnamed parameters get names; default arguments stay on the first declaration.

Groups are found per (class, name) over all files given together, so a member
declared in a header and defined out of class in a .cpp is renamed in both.
Also rewritten, as MSVC-era code needs it: `restrict` used as an identifier
(`restrict(x)` that is not a restriction specifier) and dynamic exception
specifications (`throw(int)`, removed in C++17; `throw()` -> `noexcept`), in
the sources and in -D values.
A declaration without a restriction is restrict(cpu) and pairs with a
restrict(amp) one; amp.h's __GPU_ONLY / __GPU / __CPU_ONLY spellings are read
as the restrictions they name. Conversion operators (`operator T()`) are
renamed to members returning T, with an `operator T()` dispatcher. Constructor
pairs defined in the class become one constructor choosing inside
(merge_constructors); the device pass sees the amp constructor alone.
Not handled (left unchanged; see migration_guide.md): destructors, constructor
pairs defined out of class, templated conversion operators, pairs whose two
versions return different types, restrictions written through other macros.

Usage: python3 -m amp_driver rewrite [--in-place] [--report] [--out-dir DIR] FILE...
  prints the rewritten text of a single FILE, or rewrites in place, or writes
  DIR/<basename>; --report lists what was rewritten. The compiler launcher
  (launcher.py) runs this pass with the others on every compile.
"""
import os
import re
import sys
from pathlib import Path

from collections import namedtuple

from ..cpp_lexer import join_splices, mask, match_back, match_fwd, tokens  # the C++ lexing: comments, literals, splices
from .. import pp_conditionals  # which #if/#else groups the compile keeps
from ..job import macro_args, restriction_macros

# A file as the passes read it: its path, its masked text (comments, literals
# and dropped #if groups blanked) and its raw text with the dropped groups
# blanked (same positions).
FileView = namedtuple("FileView", "path mask kept")

IDENT = re.compile(r"[A-Za-z_]\w*")
KEYWORD_TYPES = {"int", "float", "double", "char", "bool", "void", "long", "short", "unsigned", "signed",
                 "wchar_t", "char16_t", "char32_t", "auto"}
NOT_TYPE_END = {"const", "volatile", "struct", "class", "enum", "union", "typename", "register"}
CPU, AMP = "cpu", "amp"


def skip_ws_back(m, i):
    while i >= 0 and m[i].isspace():
        i -= 1
    return i


def scopes(m):
    """For every '{' position: (kind, name) with kind in class/namespace/block."""
    info = {}
    for i, c in enumerate(m):
        if c == "{":
            k = max(m.rfind(";", 0, i), m.rfind("}", 0, i), m.rfind("{", 0, i))
            head = m[k + 1:i]
            mm = re.search(r"\b(class|struct|union)\s+(?:alignas\s*\([^)]*\)\s*)?([A-Za-z_]\w*)[^;(){}]*$", head)
            if mm:
                info[i] = ("class", mm.group(2))
            elif re.search(r"\bnamespace\b[^{;]*$", head) or re.search(r'extern\s*"C"\s*$', head):
                info[i] = ("namespace", "")
            else:
                info[i] = ("block", "")
    return info


class Decl:
    pass


def param_split(p):
    parts, depth, cur = [], 0, ""
    for c in p:
        if c in "(<[{":
            depth += 1
        elif c in ")>]}":
            depth -= 1
        if c == "," and depth == 0:
            parts.append(cur)
            cur = ""
        else:
            cur += c
    if cur.strip():
        parts.append(cur)
    return parts


def param_name(p):
    """(type text without name and default, name or None, default text or None)."""
    default = None
    depth = 0
    for i, c in enumerate(p):
        if c in "(<[{":
            depth += 1
        elif c in ")>]}":
            depth -= 1
        elif c == "=" and depth == 0:
            default = p[i + 1:].strip()
            p = p[:i]
            break
    s = p.rstrip()
    if s.endswith("]"):  # array parameter: int a[10]
        k = match_back(s, len(s) - 1, "[", "]")
        head, arr = s[:k].rstrip(), s[k:]
    else:
        head, arr = s, ""
    m = re.search(r"([A-Za-z_]\w*)\s*$", head)
    if m and m.group(1) not in KEYWORD_TYPES and m.group(1) not in NOT_TYPE_END:
        before = head[:m.start()].rstrip()
        prev = re.search(r"([A-Za-z_]\w*|[>*&]|::)\s*$", before)
        if prev and prev.group(1) != "::" and prev.group(1) not in NOT_TYPE_END:
            return (before + arr).strip(), m.group(1), default
    return s.strip(), None, default


# A restriction as written: restrict(...), or the spellings Microsoft's amp.h
# (and the conformance suite's amptest/restrict.h) define for it.
RESTRICTION_RE = re.compile(r"\brestrict\s*\(([^()]*)\)|\b(__GPU_ONLY|__GPU|__CPU_ONLY)\b")
MACRO_SPEC = {"__GPU_ONLY": {AMP}, "__GPU": {CPU, AMP}, "__CPU_ONLY": {CPU}}
NAME_RE = re.compile(r"(?:([A-Za-z_]\w*(?:\s*<[^<>;{}]*>)?)\s*::\s*)?"
                     r"(operator\s*(?:\(\s*\)|\[\s*\]|[-+*/%^&|~!=<>]+|new|delete)(?![\w])"
                     r"|operator\s+[A-Za-z_][\w\s:<>,*&]*?|~?[A-Za-z_]\w*)\s*$")


# What ends just before a position (the searches anchored with `$`): their
# matches hold no ; { or }, so searching from just after the last of these
# finds the same match as from the start of the text, without reading the
# whole text before it at every declaration (Pattern.search's pos keeps the
# text before pos visible to \b). tail(m, end): that position.
QUALIFIER_END = re.compile(r"(const|volatile|mutable|noexcept|override|final|&&|&)\s*$")
THROW_END = re.compile(r"\b(throw|noexcept)\s*$")
STATEMENT_END = re.compile(r"\b(if|while|for|switch|catch)\s*$")
WORD_END = re.compile(r"([A-Za-z_]\w*)\s*$")


def tail(m, end):
    return max(m.rfind(";", 0, end), m.rfind("{", 0, end), m.rfind("}", 0, end)) + 1


def restriction_spec(r):
    """The set of restrictions a RESTRICTION_RE match names (direct3d is amp)."""
    if r.group(2):
        return set(MACRO_SPEC[r.group(2)])
    return {AMP if w == "direct3d" else w for w in re.findall(r"\w+", r.group(1))}


def skip_qualifiers(m, j):
    """Index after the cv/ref qualifiers, noexcept(...)/throw(...) and
    override/final that may follow a parameter list at m[j:]."""
    while j < len(m):
        k = j
        while k < len(m) and m[k].isspace():
            k += 1
        w = re.match(r"(const|volatile|mutable|override|final)\b|&&|&(?!&)", m[k:])
        if w:
            j = k + w.end()
            continue
        w = re.match(r"(noexcept|throw)\b\s*", m[k:])
        if w:
            j = k + w.end()
            if j < len(m) and m[j] == "(":
                j = match_fwd(m, j, "(", ")") + 1
            continue
        break
    return j


def skip_mem_initializers(m, j):
    """m[j] == ':' starts a constructor's mem-initializer list; returns
    (index of the body's '{', [(target start, target end, open, close)...]) or
    (-1, None) when it does not parse."""
    inits, i = [], j + 1
    while True:
        while i < len(m) and m[i].isspace():
            i += 1
        t0 = i
        while i < len(m) and (m[i].isalnum() or m[i] in "_:" or m[i].isspace() or m[i] == "<"):
            if m[i] == "<":
                k, depth = i, 0
                while k < len(m):
                    depth += m[k] == "<"
                    depth -= m[k] == ">"
                    if depth == 0:
                        break
                    k += 1
                i = k + 1
            else:
                i += 1
        if i >= len(m) or m[i] not in "({" or not m[t0:i].strip():
            return -1, None
        close = match_fwd(m, i, m[i], ")" if m[i] == "(" else "}")
        if close < 0:
            return -1, None
        inits.append((t0, t0 + len(m[t0:i].rstrip()), i, close))
        i = close + 1
        while i < len(m) and m[i].isspace():
            i += 1
        if i < len(m) and m[i] == ",":
            i += 1
            continue
        return (i, inits) if i < len(m) and m[i] == "{" else (-1, None)


def find_decls(text, m, other_amp_names=frozenset()):
    """The restricted function declarations of masked text m, and the
    unrestricted ones (restrict(cpu)) named like a restrict(amp) one of this
    file or of other_amp_names ((class, name) pairs declared restrict(amp) in
    the other files compiled together: a header may declare the amp version
    and an implementation file define the unrestricted one)."""
    info = scopes(m)
    decls = []
    restricted_at = {}
    for r in RESTRICTION_RE.finditer(m):
        spec = restriction_spec(r)
        if spec not in ({CPU}, {AMP}):
            continue
        i = skip_ws_back(m, r.start() - 1)
        # qualifiers between the parameter list and the restriction
        while i >= 0:
            word = QUALIFIER_END.search(m, tail(m, i + 1), i + 1)
            if word:
                i = skip_ws_back(m, word.start() - 1)
                continue
            if m[i] == ")":
                k = match_back(m, i, "(", ")")
                w = THROW_END.search(m, tail(m, k), k)
                if w:
                    i = skip_ws_back(m, w.start() - 1)
                    continue
            break
        if i < 0 or m[i] != ")":
            continue
        d = decl_at(text, m, info, i, CPU if spec == {CPU} else AMP, (r.start(), r.end()))
        if d:
            decls.append(d)
            restricted_at[d.p_close] = d
    # Declarations without a restriction are restrict(cpu): they pair with a
    # restrict(amp) declaration of the same name and scope.
    amp_names = {(d.cls, d.name) for d in decls if d.spec == AMP} | set(other_amp_names)
    for name in {n for _, n in amp_names}:
        if name.startswith("operator") and not re.match(r"operator[A-Za-z_]", name):
            pat = r"\boperator\s*" + re.escape(name[len("operator"):]) + r"\s*\("
        elif name.startswith("operator"):
            pat = r"\boperator\s+" + r"\s*".join(re.escape(t) for t in re.findall(r"\w+|\S", name[len("operator"):])) + r"\s*\("
        else:
            pat = r"(?<![.\w>])" + re.escape(name) + r"\s*\("
        for c in re.finditer(pat, m):
            p_open = c.end() - 1
            p_close = match_fwd(m, p_open, "(", ")")
            if p_close < 0 or p_close in restricted_at:
                continue
            j = skip_qualifiers(m, p_close + 1)
            while j < len(m) and m[j].isspace():
                j += 1
            if j >= len(m) or RESTRICTION_RE.match(m, j):
                continue
            if not (m[j] in "{;=" or m.startswith("->", j) or (m[j] == ":" and not m.startswith("::", j))):
                continue
            q = skip_qualifiers(m, p_close + 1)
            d = decl_at(text, m, info, p_close, CPU, (q, q), implicit=True)
            if d and (d.cls, d.name) in amp_names:
                decls.append(d)
    decls.sort(key=lambda d: d.start)
    return decls


def decl_at(text, m, info, p_close, spec, restrict_span, implicit=False):
    """The function declaration whose parameter list closes at m[p_close] and
    whose restriction (spec) is written at restrict_span (empty when implicit),
    or None when it is not one this rewrite handles."""
    p_open = match_back(m, p_close, "(", ")")
    nm = NAME_RE.search(m, tail(m, p_open), p_open)
    if not nm or nm.group(2).startswith("~") or nm.group(2) in ("operator",) or \
            re.match(r"(if|while|for|switch|return|sizeof|decltype|alignof|alignas|noexcept|throw|static_assert)$",
                     nm.group(2)):
        return None
    name = re.sub(r"\s+", "", nm.group(2))
    conv = re.match(r"operator\s+([A-Za-z_].*)$", nm.group(2), re.S)
    if conv and re.match(r"(new|delete)\b", conv.group(1)):
        conv = None
    qual = nm.group(1)
    # what follows: ';' (declaration), '{' (definition), ':' (mem-initializers);
    # a trailing return type and '= default' etc. are skipped
    j = restrict_span[1]
    inits = None
    while j < len(m) and m[j] not in ";{,)":
        if m[j] == ":" and m.startswith("::", j):
            j += 2
            continue
        if m[j] == ":":
            body, inits = skip_mem_initializers(m, j)
            if body < 0:
                return None
            j = body
            break
        if m[j] == "(":
            j = match_fwd(m, j, "(", ")")
            if j < 0:
                return None
        j += 1
    if j >= len(m) or m[j] not in ";{":
        return None
    end = j if m[j] == ";" else match_fwd(m, j, "{", "}")
    if end < 0:
        return None
    # start of the declaration: after the previous ; { } at this level, or an access specifier
    k = max(m.rfind(";", 0, nm.start()), m.rfind("{", 0, nm.start()), m.rfind("}", 0, nm.start()))
    start = k + 1
    acc = re.match(r"\s*(?:(?:public|private|protected)\s*:\s*)*", m[start:nm.start()])
    start += acc.end()
    while start < nm.start() and m[start].isspace():
        start += 1
    head = m[start:nm.start()]
    if implicit and (re.search(r"[=()\[\]{}.]|->|\b(return|new|delete|throw|case|else|do|goto|co_return|"
                               r"co_yield|co_await)\b", head)):
        return None  # an expression, not a declaration
    # the enclosing '{' of the declaration
    depth, sp = 0, None
    for q in range(nm.start() - 1, -1, -1):
        if m[q] == "}":
            depth += 1
        elif m[q] == "{":
            if depth == 0:
                sp = q
                break
            depth -= 1
    kind, cls = info.get(sp, ("namespace", "")) if sp is not None else ("namespace", "")
    if kind == "block":
        if implicit:
            return None  # a call statement
        cls = f"@{sp}"  # a local scope: its own group
    if qual:
        cls = re.sub(r"\s*<.*", "", qual)
        kind = "qualified"
    is_ctor = name == cls or (qual is not None and name == re.sub(r"\s*<.*", "", qual))
    if inits is not None and not is_ctor:
        return None
    if implicit and not is_ctor and not conv and not head.strip():
        return None  # no return type: a call or a macro invocation
    params = param_split(text[p_open + 1:p_close])
    parsed = [param_name(p) for p in params]
    if len(parsed) == 1 and parsed[0][0] == "void" and parsed[0][1] is None:
        parsed = []
    d = Decl()
    d.spec = spec
    d.name, d.name_span, d.cls, d.kind = name, (nm.start(2), nm.end(2)), cls, kind
    d.name_text = text[nm.start(2):nm.end(2)]
    d.qual_start = nm.start(1) if qual else None
    d.conv_type = conv.group(1).strip() if conv else None
    d.is_ctor, d.inits, d.head, d.scope_brace = is_ctor, inits, head, sp
    d.start, d.p_open, d.p_close, d.restrict_span, d.end = start, p_open, p_close, restrict_span, end
    d.body = j if m[j] == "{" else None
    d.is_def = m[j] == "{"
    d.params = parsed
    d.sig = tuple(re.sub(r"\s+", " ", t) for t, _, _ in parsed) + \
        (re.sub(r"\s+", " ", m[p_close + 1:restrict_span[0]].strip()),)
    return d


SPEC_RE = re.compile(r"\s*\(\s*(?:cpu|amp|direct3d|auto)(?:\s*,\s*(?:cpu|amp|direct3d|auto))*\s*\)")
RESTRICT_IDENT = "amp_restrict_identifier"
SPEC_DEF_RE = re.compile(r"^[ \t]*#[ \t]*define[ \t]+([A-Za-z_]\w*)[ \t]+(?:cpu|amp|direct3d|auto)"
                         r"(?:[ \t]*,[ \t]*(?:cpu|amp|direct3d|auto))*[ \t]*(?://.*)?$", re.M)


def identifier_edits(m, spec_macros=frozenset()):
    """MSVC's `restrict` is a contextual keyword: `restrict(x)` with anything but
    restriction specifiers is a call or an initialiser of something named
    restrict. Where a file has such a use (the macro would swallow it), every
    `restrict` that is not a restriction specifier is renamed, consistently."""
    uses = []
    for r in re.finditer(r"\brestrict\b", m):
        if SPEC_RE.match(m, r.end()):
            continue
        # restrict(NAME) with NAME defined on the command line as restriction
        # specifiers (-DAMP_RESTRICTION=cpu,amp: the conformance suite's
        # definition sets) is a specifier, not an identifier.
        a = re.match(r"\s*\(\s*(\w+)\s*\)", m[r.end():r.end() + 200])
        if a and a.group(1) in spec_macros:
            continue
        uses.append(r)
    if not any(re.match(r"\s*\(", m[u.end():]) for u in uses):
        return []
    return [(u.start(), u.end(), RESTRICT_IDENT) for u in uses]


THROW_SPEC_RE = re.compile(r"(?:\)|\bconst|\bvolatile|&)\s*(throw\s*\()")


def throw_spec_edits(m):
    """Dynamic exception specifications (`throw(int)`), removed from C++17 and
    an error in GCC/Clang's C++17 mode; MSVC never enforced them. `throw()`
    becomes `noexcept` (what it meant to MSVC), `throw(T...)` is dropped."""
    edits = []
    for r in THROW_SPEC_RE.finditer(m):
        if m[r.start()] == ")":  # not after a statement's condition: `if (x) throw (e);`
            k = match_back(m, r.start(), "(", ")")
            if k < 0 or STATEMENT_END.search(m, tail(m, k), k):
                continue
        open_p = r.end(1) - 1
        close_p = match_fwd(m, open_p, "(", ")")
        if close_p < 0:
            continue
        inner = m[open_p + 1:close_p].strip()
        edits.append((r.start(1), close_p + 1, "noexcept" if not inner else ""))
    return edits


def throw_spec_define(value):
    """The same for a -D value that is a whole exception specification."""
    m = re.fullmatch(r"\s*throw\s*\(([^()]*)\)\s*", value)
    if not m:
        return value
    return "noexcept" if not m.group(1).strip() else ""


def safe_name(name, side, op_ids):
    if name.startswith("operator"):
        if name not in op_ids:
            op_ids[name] = f"amp_pair_operator{len(op_ids)}"
        base = op_ids[name]
    else:
        base = name
    return f"{base}__amp_{side}"


def _read_files(paths, env):
    """(texts, masks, kept, decls) of paths, as rewrite_files reads them."""
    texts = {p: join_splices(Path(p).read_text(errors="replace")) for p in paths}
    for p in paths:
        APPLIED.pop(p, None)
    masks = {p: pp_conditionals.blank_inactive(t, mask(t), env) for p, t in texts.items()}
    # The raw text with the dropped groups blanked (same positions), for the
    # passes that read the text itself (passes/msvc.py).
    kept = {p: pp_conditionals.blank_inactive(t, t, env) for p, t in texts.items()}
    decls = {p: find_decls(texts[p], masks[p]) for p in paths}
    amp_names = {(d.cls, d.name) for ds in decls.values() for d in ds if d.spec == AMP}
    for p in paths:  # unrestricted declarations pairing with another file's restrict(amp) one
        own = {(d.cls, d.name) for d in decls[p] if d.spec == AMP}
        if amp_names - own:
            decls[p] = find_decls(texts[p], masks[p], amp_names)
    return texts, masks, kept, decls


def rewrite_files(paths, job=None, extra_edits=None, env=None, memo=None):
    """The rewritten text of each of paths that a pass edits, and the report
    (one line per edit kind). The restrict pass's own edits (pairs,
    `restrict` as an identifier, exception specifications) always apply; the
    other source passes (passes/__init__.py: Windows spellings, MSVC
    dialect, GPU edits, checked build) apply when job's modes ask for them
    (their applies(job)). job: the compile (job.Job; None: no mode);
    env: what the compile defines (pp_conditionals.Env; default: nothing
    known), so that code in a conditional group the compile certainly drops
    is no code for any pass here (pp_conditionals.blank_inactive);
    extra_edits: path -> more edits (the fix-its the launcher applies under
    --msvc); memo: a dict the caller keeps across calls on the same paths,
    job and env that differ in extra_edits only (the launcher's --msvc
    rounds): the files are read, masked and searched for declarations once."""
    from . import source_passes as passes_of
    source_passes = passes_of(job) if job is not None else []
    spec_macros = restriction_macros(job.args) if job is not None else set()
    # Splices in code are joined first, so that a name or a restriction that a
    # backslash-newline splits is seen whole (a file left unchanged is not
    # written out, so it keeps them).
    if memo is not None and memo.get("paths") == list(paths):
        texts, masks, kept, decls = memo["texts"], memo["masks"], memo["kept"], memo["decls"]
    else:
        texts, masks, kept, decls = _read_files(paths, env)
        if memo is not None:
            memo.update(paths=list(paths), texts=texts, masks=masks, kept=kept, decls=decls)
    # Restriction lists defined in the files too (`#define R cpu, amp`, then
    # `restrict(R)`): a specifier, not `restrict` as an identifier.
    spec_macros = set(spec_macros) | {n for t in texts.values() for n in SPEC_DEF_RE.findall(t)}
    # groups with at least one cpu/amp pair of the same signature
    sides = {}
    for p, ds in decls.items():
        for d in ds:
            sides.setdefault((d.cls, d.name, d.sig), set()).add(d.spec)
    paired = {(c, n) for (c, n, s), v in sides.items() if v == {CPU, AMP}}
    # A namespace-level group spread over several files (the amp version
    # declared in a header, the cpu one defined in an implementation file):
    # its dispatcher is defined once, in the last file holding a definition
    # of the group; the other files declare it.
    home, defined = {}, {}
    for p in paths:
        for d in decls[p]:
            if (d.cls, d.name) in paired and d.kind == "namespace":
                key = (d.cls, d.name, d.sig)
                if d.is_def or key not in home:
                    home[key] = p
            if d.is_def:
                defined.setdefault((d.cls, d.name, d.sig), set()).add(d.spec)
    # A side declared but defined nowhere while the other is defined here (a
    # header declaring `f() restrict(amp)` whose implementation file defines
    # `f()` only): MSVC had two overloads and only the defined one was ever
    # called, so the dispatcher calls that one on both sides.
    def callee_side(key, side):
        d = defined.get(key, set())
        return side if side in d or not d else next(iter(d))
    op_ids = {}
    report, out = [], {}
    for p in paths:
        text, ds = texts[p], [d for d in decls[p] if (d.cls, d.name) in paired]
        edits = identifier_edits(masks[p], spec_macros)  # (pos, end, replacement)
        if edits:
            report.append(f"{Path(p).name}: `restrict` used as an identifier -> {RESTRICT_IDENT}")
        te = throw_spec_edits(masks[p])
        if te:
            report.append(f"{Path(p).name}: {len(te)} dynamic exception specification(s) -> noexcept / none")
            # a `restrict` named inside a dropped specification (`throw(restrict)`) goes with it
            edits = [e for e in edits if not any(s <= e[0] < t for s, t, _ in te)] + te
        if job is not None and job.defines.get("AMP_CHECK_PASS", "0") != "0":
            from .gpu import mutable_edits  # Clang takes no attribute after a lambda's `mutable`
            me = mutable_edits(masks[p])
            if me:
                report.append(f"{Path(p).name}: {len(me)} lambda(s) `mutable restrict(...)` -> "
                              "`restrict(...) mutable` (the checker's parse)")
                edits += me
        for ps in source_passes:  # the other passes' edits of this file, in order (passes/__init__.py)
            es, rs = ps.file_edits(job, FileView(p, masks[p], kept[p]), edits, extra_edits or {})
            report += rs
            edits += es
        if not ds and not edits:
            continue
        ctors = [d for d in ds if d.is_ctor]
        ds = [d for d in ds if not d.is_ctor]
        for key in dict.fromkeys((d.cls, d.sig) for d in ctors):
            group = [d for d in ctors if (d.cls, d.sig) == key]
            merged = merge_constructors(text, p, group, edits)
            if merged:
                report.append(f"{Path(p).name}: constructor {key[0]}({', '.join(t for t, _, _ in group[0].params)}) "
                              f"restrict(cpu)/restrict(amp) pair -> one constructor selecting by context")
        # dispatchers: per (cls, name, sig) in this file's unqualified declarations
        by_sig = {}
        for d in ds:
            if d.kind != "qualified":
                by_sig.setdefault((d.cls, d.name, d.sig), []).append(d)
        for d in ds:
            new_name = safe_name(d.name, d.spec, op_ids)
            if d.conv_type:  # operator T() -> T amp_pair_operatorN__amp_side()
                lo = d.qual_start if d.qual_start is not None else d.name_span[0]
                qual = text[lo:d.name_span[0]] if d.qual_start is not None else ""
                edits.append((lo, d.name_span[1], f"{d.conv_type} {qual}{new_name}"))
                for e in re.finditer(r"\bexplicit\b", masks[p][d.start:lo]):
                    edits.append((d.start + e.start(), d.start + e.end(), ""))
            else:
                edits.append((d.name_span[0], d.name_span[1], new_name))
        group_last = {}
        for d in ds:
            if d.kind != "qualified":
                group_last[(d.cls, d.name)] = d  # dispatchers go after the group's last declaration
        for key, group in by_sig.items():
            cls, name, sig = key
            first, last = group[0], group_last[(cls, name)]
            names = [n or f"amp_pair_arg{i}" for i, (_, n, _) in enumerate(first.params)]
            params_decl = [declare(t, names[i], None) for i, (t, n, dflt) in enumerate(first.params)]
            params_with_dflt = []
            for i, (t, n, dflt) in enumerate(first.params):
                dd = next((dx.params[i][2] for dx in group if dx.params[i][2]), None)
                params_with_dflt.append(declare(t, names[i], dd))
            head = one_line(text[group[-1].start:group[-1].name_span[0]])
            tail = re.sub(r"\s+", " ", text[group[-1].p_close + 1:group[-1].restrict_span[0]])
            if last.kind == "namespace" and not re.search(r"\b(inline|static|template)\b", head):
                head = "inline " + head
            fwd = ", ".join(f"static_cast<decltype({n})&&>({n})" for n in names)
            call = lambda side: f"{safe_name(first.name, callee_side(key, side), op_ids)}({fwd})"
            body = f"{{ AMP_RESTRICT_PAIR({call(CPU)}, {call(AMP)}) }}"
            name = first.name_text  # as written: `operator T` keeps its space
            spec = dispatcher_spec(sides[key])
            if last.kind == "namespace" and home.get(key, p) != p:
                proto = f" {head}{name}({', '.join(params_with_dflt)}){tail}{spec};"
                edits.append((last.end + 1, last.end + 1, proto))
                continue
            if first is not last and last.kind == "namespace":
                proto = f" {head}{name}({', '.join(params_with_dflt)}){tail}{spec};"
                edits.append((first.end + 1, first.end + 1, proto))
                definition = f" {head}{name}({', '.join(params_decl)}){tail}{spec} {body}"
            else:
                definition = f" {head}{name}({', '.join(params_with_dflt)}){tail}{spec} {body}"
            edits.append((last.end + 1, last.end + 1, definition))
            what = (f"{Path(p).name}: {cls + '::' if cls and not cls.startswith('@') else ''}{name}"
                    f"({', '.join(t for t, _, _ in first.params)}) ")
            report.append(what + ("restrict(cpu)/restrict(amp) pair -> one restrict(cpu, amp) function selecting "
                                  "by context" if sides[key] == {CPU, AMP} else
                                  f"{spec} (renamed with its name's pair; the dispatcher keeps its restriction)"))
        for d in ds:
            if d.kind == "qualified":
                report.append(f"{Path(p).name}: out-of-class {d.cls}::{d.name} restrict({d.spec}) renamed to "
                              f"{safe_name(d.name, d.spec, op_ids)} (its pair is declared in the class)")
        edits.sort(key=lambda e: (e[0], e[1]), reverse=True)
        APPLIED[p] = list(edits)
        for s, e, rep in edits:
            text = text[:s] + rep + text[e:]
        out[p] = text
    return out, report


# path -> every edit (original coordinates) that made the last rewritten copy
# of that file, all passes together: what the launcher maps a compiler
# diagnostic's line:col in the copy back through (msvc.original_offset).
APPLIED = {}


def dispatcher_spec(sides):
    """The restriction of a dispatcher: `restrict(cpu, amp)` for a pair; an
    overload of a paired name that has one side only (`int f(float)
    restrict(amp)` beside the pair `f()`) is renamed with the group, and its
    dispatcher keeps that one restriction, so that a call from the other
    context stays the error MSVC reports (C3930/C3931, said by the
    restrict(amp) checker) instead of reaching the other side's version."""
    return "restrict(cpu, amp)" if sides == {CPU, AMP} else f"restrict({next(iter(sides))})"


def one_line(code):
    """code's tokens on one line, comments dropped, so that text inserted
    mid-line leaves the later lines' numbers alone; code holding a directive
    is returned as it is."""
    toks = tokens(code)
    if any(t.kind == "directive" for t in toks):
        return code
    out, end = [], None
    for t in toks:
        if t.kind in ("comment", "splice"):
            continue
        if end is not None and t.start != end:
            out.append(" ")  # tokens apart in the source stay apart (one space)
        out.append(code[t.start:t.end])
        end = t.end
    return "".join(out) + " "


def line_of(text, pos):
    return text.count("\n", 0, pos) + 1


def take_edits(text, edits, lo, hi):
    """text[lo:hi] with the edits that fall inside it applied: a region copied
    elsewhere keeps the rewrite's other changes."""
    inner = sorted((e for e in edits if lo <= e[0] and e[1] <= hi), reverse=True)
    piece = text[lo:hi]
    for s, t, rep in inner:
        piece = piece[:s - lo] + rep + piece[t - lo:]
    return piece


def merge_constructors(text, path, group, edits):
    """A restrict(cpu)/restrict(amp) constructor pair (both defined in the class)
    becomes one constructor: a constructor cannot be renamed, so the choice is
    made inside it. Each member or base named in either mem-initializer list is
    initialised from `AMP_RESTRICT_IN_AMP ? amp initialiser : cpu initialiser`
    (one named in one list only is value-initialised on the other side), and the
    body runs the amp or the cpu body. The device pass sees the amp constructor
    alone, unchanged. Returns False (leaving both as written: a compile error,
    as before) for what it cannot merge: declarations without bodies, delegating
    constructors, templates, parameters named differently in the two versions."""
    if len(group) != 2 or {d.spec for d in group} != {CPU, AMP}:
        return False
    cpu = next(d for d in group if d.spec == CPU)
    amp = next(d for d in group if d.spec == AMP)
    if any(d.kind != "class" or d.body is None or re.search(r"\btemplate\b", d.head) for d in group):
        return False
    names = []
    for i, ((_, nc, _), (_, na, _)) in enumerate(zip(cpu.params, amp.params)):
        if nc and na and nc != na:
            return False
        names.append(nc or na or f"amp_pair_arg{i}")
    m = mask(text)
    if any(re.sub(r"\s+", "", text[t0:t1]) == d.cls for d in group for t0, t1, _, _ in d.inits or []):
        return False  # delegating constructor
    inits = {}  # target -> {side: (open, args text)}
    for d in group:
        for t0, t1, o, c in d.inits or []:
            target = re.sub(r"\s+", "", text[t0:t1])
            inits.setdefault(target, {})[d.spec] = (text[o], take_edits(text, edits, o + 1, c))
    cls_brace = cpu.scope_brace
    # base classes: named in the class head's base clause
    head_start = max(m.rfind(";", 0, cls_brace), m.rfind("}", 0, cls_brace), m.rfind("{", 0, cls_brace)) + 1
    class_head = m[head_start:cls_brace]
    base_clause = class_head.split(":", 1)[1] if re.search(r"[^:]:[^:]", class_head) else ""
    parts = []
    for target, sides in inits.items():
        if sides.get(CPU) == sides.get(AMP):
            o, args = sides[CPU]
            parts.append(f"{target}{o}{args}{'}' if o == '{' else ')'}")
            continue
        is_base = bool(re.search(r"(?<![\w:])" + re.escape(target.split("<")[0]) + r"\b", base_clause))
        ty = target if is_base else f"decltype({target})"

        def value(side):
            if side not in sides:
                return f"{ty}()"
            o, args = sides[side]
            return f"{ty}({args})" if o == "(" else f"{ty}{{{args}}}"
        parts.append(f"{target}(AMP_RESTRICT_IN_AMP ? {value(AMP)} : {value(CPU)})")
    params = ", ".join(declare(t, names[i], next((d.params[i][2] for d in (cpu, amp) if d.params[i][2]), None))
                       for i, (t, _, _) in enumerate(cpu.params))
    tail = re.sub(r"\s+", " ", text[cpu.p_close + 1:cpu.restrict_span[0]])
    head = text[cpu.start:cpu.name_span[0]]
    f = path.replace("\\", "/")
    first, last = sorted(group, key=lambda d: d.start)
    # the pieces, taken before the originals are blanked out
    amp_text = take_edits(text, edits, amp.start, amp.end + 1)
    amp_body = take_edits(text, edits, amp.body, amp.end + 1)
    cpu_body = take_edits(text, edits, cpu.body, cpu.end + 1)
    for d in group:  # the originals: blanked, newlines kept (edits inside them were copied above)
        edits[:] = [e for e in edits if not (d.start <= e[0] and e[1] <= d.end + 1)]
        edits.append((d.start, d.end + 1, re.sub(r"[^\n]", " ", text[d.start:d.end + 1])))
    host = (f"{head}{cpu.name_text}({params}){tail}restrict(cpu, amp)"
            f"{' : ' + ', '.join(parts) if parts else ''} {{\n"
            f"#line {line_of(text, amp.body)} \"{f}\"\n"
            f"if (AMP_RESTRICT_IN_AMP) {amp_body} else\n"
            f"#line {line_of(text, cpu.body)} \"{f}\"\n"
            f"{cpu_body} }}")
    # The device pass compiles the amp constructor alone (the cpu body may call
    # host-only code), with the members and bases that only the cpu list names
    # value-initialised, as the merged constructor does: left out, a member
    # would be uninitialised in kernels only.
    extra = [t for t, sides in inits.items() if AMP not in sides]
    if extra:
        amp_head = amp_text[:len(amp_text) - len(amp_body)].rstrip()
        sep = ", " if amp.inits else " : "
        amp_text = f"{amp_head}{sep}{', '.join(t + '()' for t in extra)} {amp_body}"
    block = (f"\n#if AMP_DEVICE_PASS\n#line {line_of(text, amp.start)} \"{f}\"\n{amp_text}\n#else\n{host}\n#endif\n"
             f"#line {line_of(text, last.end)} \"{f}\"\n")
    edits.append((last.end + 1, last.end + 1, block))
    return True


def declare(type_text, name, default):
    """Parameter declaration from its type text and a name: arrays and function
    pointers keep the name in the declarator position."""
    t = type_text.strip()
    m = re.search(r"(\[[^\]]*\])+$", t)
    if m:
        s = f"{t[:m.start()].rstrip()} {name}{m.group(0)}"
    elif re.search(r"\(\s*[*&]\s*\)", t):
        s = re.sub(r"\(\s*([*&])\s*\)", rf"(\1{name})", t, count=1)
    else:
        s = f"{t} {name}"
    return s + (f" = {default}" if default else "")


# ---- where a restriction specifier may be written
# C++ AMP's grammar (spec 2.1) puts the restriction-specifier in a function or
# lambda declarator, after the parameter list and its cv/ref qualifiers (and a
# lambda's `mutable`), before the exception specification, a trailing return
# type and the body:
#     int f(int x) const & restrict(amp) noexcept -> int { ... }
# Anywhere else MSVC rejects it (C2146, C2065, C3646, C4430, C3409...). The
# macro the library defines for `restrict` cannot see where it is written, so
# the launcher checks the placement in the sources and project headers it
# reads. The spellings checked: restrict(...) with restrictions, amp.h's
# __GPU / __GPU_ONLY, and object-like macros defined (in those files or with
# -D) as one of these. A neighbouring identifier that names a macro (defined in
# those files or with -D, or spelled in capitals as macros are) is not judged:
# its expansion is not known here.
RESTRICTION_TOKEN = r"\brestrict\s*\(\s*(?:cpu|amp|direct3d|auto)(?:\s*,\s*(?:cpu|amp|direct3d|auto))*\s*\)"
ALIAS_DEF_RE = re.compile(r"^[ \t]*#[ \t]*define[ \t]+([A-Za-z_]\w*)[ \t]+(" + RESTRICTION_TOKEN[2:] +
                          r"|__GPU_ONLY|__GPU)[ \t]*(?://.*)?$", re.M)
DEFINE_RE = re.compile(r"^[ \t]*#[ \t]*define[ \t]+([A-Za-z_]\w*)", re.M)
PLACEMENT_NEXT_OK = {"{", ";", ":", "->", ")", "=", ">", ",", "[", "throw", "noexcept", "override", "final", "try",
                     "restrict", "__attribute__", "__declspec"}
QUALIFIERS = {"const", "volatile", "mutable", "&", "&&"}


def _prev_token(m, i):
    j = i - 1
    while j >= 0 and m[j].isspace():
        j -= 1
    if j < 0:
        return None, -1
    if m[j].isalnum() or m[j] == "_":
        k = j
        while k >= 0 and (m[k].isalnum() or m[k] == "_"):
            k -= 1
        return m[k + 1:j + 1], k + 1
    if m[j] == "&" and j > 0 and m[j - 1] == "&":
        return "&&", j - 1
    return m[j], j


NEXT_TOKEN_RE = re.compile(r"\s*(->|::|&&|[A-Za-z_]\w*|\d[\w.']*|\S)")


def _next_token(m, i):
    t = NEXT_TOKEN_RE.match(m, i)
    return t.group(1) if t else None


# A pointer or reference to a function declared with a restriction that
# includes amp (`int (*p)(int) restrict(amp)`, `(int (&)(int) __GPU)f`,
# `int (C::*pm)(int) __GPU_ONLY`): MSVC refuses it wherever it is written
# (C3939); restrict(cpu) alone is allowed there.
FUNCTION_POINTER_GROUP_RE = re.compile(r"\(\s*(?:[A-Za-z_][\w\s:<>,]*::\s*)?[*&]")


def spec_has_amp(spelled):
    """Whether a restriction specifier as spelled (spaces dropped) names amp."""
    if spelled in ("__GPU", "__GPU_ONLY"):
        return True
    return spelled.startswith("restrict(") and bool(re.search(r"\b(amp|direct3d|auto)\b", spelled))


def function_pointer_declarator(m, po):
    """Whether the parameter list opening at po follows a parenthesised
    pointer or reference declarator: `(*p)(`, `(&)(`, `(C::*pm)(`."""
    prev, pj = _prev_token(m, po)
    if prev != ")":
        return False
    o = match_back(m, pj, "(", ")")
    return o >= 0 and FUNCTION_POINTER_GROUP_RE.match(m, o) is not None


def placement_errors(text, m, aliases, macros):
    """(position, message) for each restriction specifier of masked text m
    written where C++ AMP's grammar does not allow one."""
    names = ["__GPU_ONLY", "__GPU"] + sorted(aliases)
    spec_re = re.compile(RESTRICTION_TOKEN + r"|\b(?:" + "|".join(map(re.escape, names)) + r")\b")

    def macro_like(tok):
        return tok in macros or (re.fullmatch(r"[A-Z_][A-Z0-9_]*", tok) is not None and len(tok) > 1)

    errors = []
    for r in spec_re.finditer(m):
        spelled = re.sub(r"\s+", "", r.group(0))
        where = "a restriction specifier (" + spelled + ")"
        prev, pj = _prev_token(m, r.start())
        nxt = _next_token(m, r.end())
        if prev == ")":
            po = match_back(m, pj, "(", ")")
            if po >= 0 and spec_has_amp(spelled) and function_pointer_declarator(m, po):
                errors.append((r.start(), f"{where} on a pointer or reference to a function: pointers "
                                          "to functions, pointers to member functions and references to functions "
                                          "cannot be amp-restricted (amp code cannot call through them) [C++ AMP C3939]"))
                continue
            word = WORD_END.search(m, tail(m, po), po) if po >= 0 else None
            if word and word.group(1) in ("throw", "noexcept"):
                errors.append((r.start(), f"{where} must come before the exception specification "
                                          f"({word.group(1)}(...)), not after it"))
                continue
            if word and word.group(1) in ("restrict", "__attribute__", "__declspec", "decltype", "alignas"):
                pass
            elif po >= 0 and m[po + 1:pj].strip().startswith("("):
                errors.append((r.start(), f"{where} follows a parenthesised expression, not a parameter list: "
                                          "it can only end a function declarator"))
                continue
        elif prev in QUALIFIERS or (prev and (prev[0].isalpha() or prev[0] == "_") and macro_like(prev)):
            pass
        else:
            what = "the start of the file" if prev is None else f"`{prev}`"
            errors.append((r.start(), f"{where} cannot follow {what}: it belongs after the parameter list of a "
                                      "function or lambda declarator (and its cv/ref qualifiers)"))
            continue
        if nxt == "throw" and spec_has_amp(spelled):
            errors.append((r.start(), f"{where}: an amp-restricted function cannot have an exception "
                                      "specification (throw(...), throw() included) [C++ AMP C3581]"))
            continue
        if nxt is None or nxt in PLACEMENT_NEXT_OK or nxt in names:
            continue
        if nxt in QUALIFIERS:
            errors.append((r.start(), f"`{nxt}` must come before {where} (the order is: parameter list, "
                                      "cv/ref qualifiers and `mutable`, restriction specifier, exception specification)"))
        elif (nxt[0].isalpha() or nxt[0] == "_") and not macro_like(nxt):
            errors.append((r.start(), f"{where} cannot be followed by `{nxt}`: it ends a function or lambda "
                                      "declarator (what may follow: an exception specification, a trailing return "
                                      "type, the body, `;`, `=`, `:`)"))
    return errors


def placement_error_spans(m, aliases, macros):
    """placement_errors as (position, message, lo, hi): [lo, hi) spans the
    tokens around the specifier that the error was decided on."""
    out = []
    for pos, msg in placement_errors(None, m, aliases, macros):
        _, lo = _prev_token(m, pos)
        r = re.compile(RESTRICTION_TOKEN + r"|\w+").match(m, pos)
        end = r.end() if r else pos + 1
        nm = NEXT_TOKEN_RE.match(m, end)
        out.append((pos, msg, max(lo, 0), nm.end() if nm else len(m)))
    return out


# ---- restriction specifiers that do not exist
# `int f() restrict(hello)`: MSVC's C3936. Where restrict(...) follows a
# function declarator (its parameter list's `)`, not an if/while/for/switch/
# catch condition, or a cv/ref qualifier) every word must be cpu, amp,
# direct3d or auto, or a macro (the conformance suite's -DRESTRICTION=...);
# else the renaming of `restrict` as an identifier would take it, and a
# compiler that accepts the annotation would let it through.
SPEC_POSITION_RE = re.compile(r"(\)|\bconst|\bvolatile|&|\bmutable)\s*restrict\s*\(([^()]*)\)")


def unknown_specifier_errors(m, known_macros):
    """(position, message) of each restriction specifier list in masked text
    m that names something other than cpu, amp, direct3d, auto or a macro."""
    out = []
    for r in SPEC_POSITION_RE.finditer(m):
        if r.group(1) == ")":
            # A parameter list: after a name, `]` (a lambda) or `>`; not a
            # statement's condition nor a cast (`(int) restrict(v)` calls a
            # function named restrict).
            k = match_back(m, r.start(1), "(", ")")
            if k < 0 or STATEMENT_END.search(m, tail(m, k), k):
                continue
            before = re.search(r"(\w+|[\]>])\s*$", m[max(0, k - 80):k])
            if not before or before.group(1) in ("return", "case", "throw", "sizeof", "co_return", "else", "do"):
                continue
        words = [w.strip() for w in r.group(2).split(",")]
        bad = [w for w in words if w not in ("cpu", "amp", "direct3d", "auto") and w not in known_macros]
        if bad and all(re.fullmatch(r"[A-Za-z_]\w*", w) for w in words):
            out.append((r.start(2), f"'{bad[0]}': unrecognized restriction specifier (cpu, amp, direct3d and auto "
                                    f"are the restrictions; MSVC's C3936)"))
    return out


# ---- floating literals out of range in restrict(amp) code
# C++ AMP (spec 2.4.3.1, literals): in restrict(amp) code a floating literal
# whose value exceeds the range of its type (float with an f suffix, double
# without) makes the program ill-formed (MSVC: C2177, constant too big), where
# C++ rounds it to the largest value or to infinity. As MSVC does, the value is
# taken rounded to double: a float literal above FLT_MAX is refused, a double
# literal only when it rounds to infinity (1.7976931348623158e+308, which
# rounds to DBL_MAX, is accepted). Checked in
# the bodies that follow an amp restriction (restrict(amp), restrict(cpu, amp),
# __GPU, __GPU_ONLY and macros defined as one of them).
FLOAT_LITERAL_RE = re.compile(r"(?<![\w.'])((?:\d+\.\d*|\.\d+)(?:[eE][+-]?\d+)?|\d+[eE][+-]?\d+)([fFlL]?)(?![\w.])")
FLT_MAX_EXACT = (2 - 2 ** -23) * 2.0 ** 127
DBL_MAX_EXACT = (2 - 2 ** -52) * 2.0 ** 1023


def amp_bodies(m, aliases):
    """(start, end) of the bodies of functions and lambdas whose restriction
    includes amp, in masked text m (nested ones included in their parent's)."""
    names = ["__GPU_ONLY", "__GPU"] + sorted(aliases)
    spec_re = re.compile(r"\brestrict\s*\(([^()]*)\)|\b(" + "|".join(map(re.escape, names)) + r")\b")
    bodies = []
    for r in spec_re.finditer(m):
        if r.group(1) is not None and "amp" not in re.findall(r"\w+", r.group(1)):
            continue
        j = r.end()
        while j < len(m) and m[j] not in ";{}":
            if m[j] == ":" and not m.startswith("::", j) and not m.startswith("::", j - 1):
                j, _ = skip_mem_initializers(m, j)
                break
            if m[j] == "(":
                j = match_fwd(m, j, "(", ")")
                if j < 0:
                    break
            j += 1
        if 0 <= j < len(m) and m[j] == "{":
            end = match_fwd(m, j, "{", "}")
            if end > 0 and not any(s <= j and end <= e for s, e in bodies):
                bodies.append((j, end))
    return bodies


def literal_errors(m, aliases):
    errors = []
    for s, e in amp_bodies(m, aliases):
        for lit in FLOAT_LITERAL_RE.finditer(m, s, e):
            suffix = lit.group(2).lower()
            if suffix == "l":
                continue
            limit, ty = (FLT_MAX_EXACT, "float") if suffix == "f" else (DBL_MAX_EXACT, "double")
            if float(lit.group(1)) > limit:  # the value rounded to double (inf past DBL_MAX)
                errors.append((lit.start(), f"floating literal {lit.group(0)} exceeds the range of {ty} "
                                            "(in restrict(amp) code an out-of-range literal is an error)"))
    return errors


def check_placement(files, args, gpu=False):
    """GCC-style diagnostics for misplaced restriction specifiers and for
    out-of-range floating literals in restrict(amp) code, in files (paths,
    or {path: text} of files already read)."""
    if isinstance(files, dict):
        texts = dict(files)
    else:
        texts = {}
        for f in files:
            try:
                texts[f] = Path(f).read_text(errors="replace")
            except OSError:
                pass
    aliases, macros = set(), set()
    for t in texts.values():
        aliases.update(a for a, _ in ALIAS_DEF_RE.findall(t))
        macros.update(DEFINE_RE.findall(t))
    for _, kind, text in macro_args(args):
        if kind == "-D":
            name, _, value = text.partition("=")
            macros.add(name)
            if re.fullmatch(RESTRICTION_TOKEN[2:] + r"|__GPU_ONLY|__GPU", value.strip()):
                aliases.add(name)
    macros -= aliases
    quick = re.compile(r"\brestrict\b|__GPU" + "".join("|\\b" + re.escape(a) + "\\b" for a in aliases))
    out = []
    env = None
    for f, t in texts.items():
        if not quick.search(t):
            continue
        m = mask(t)
        # The text the compile keeps: a conditional group it certainly drops
        # is blanked; an error decided on text of a group nobody can decide
        # here (a macro from a header) is left to the compiler.
        segs = []
        if pp_conditionals.has_conditionals(t):
            env = env or pp_conditionals.Env.from_args(args, gpu)
            segs = pp_conditionals.segments(t, env)
            m = pp_conditionals.blank_inactive(t, m, env)
        found = [(pos, msg) for pos, msg, lo, hi in placement_error_spans(m, aliases, macros)
                 if not (segs and pp_conditionals.undecided_between(segs, lo, hi))]
        found += [(pos, msg) for pos, msg in literal_errors(m, aliases)
                  if not (segs and pp_conditionals.state_at(segs, pos) is None)]
        found += [(pos, msg) for pos, msg in unknown_specifier_errors(m, aliases | macros)
                  if not (segs and pp_conditionals.state_at(segs, pos) is None)]
        for pos, msg in sorted(found):
            line = t.count("\n", 0, pos) + 1
            col = pos - (t.rfind("\n", 0, pos) + 1) + 1
            out.append(f"{f}:{line}:{col}: error: C++ AMP: {msg}")
    return out


def main(argv):
    """python3 -m amp_driver rewrite ...: the pass alone on the given files."""
    in_place = "--in-place" in argv
    want_report = "--report" in argv
    out_dir = None
    if "--out-dir" in argv:
        k = argv.index("--out-dir")
        if k + 1 == len(argv) or not os.path.isdir(argv[k + 1]):
            sys.stderr.write("rewrite: error: --out-dir needs an existing folder\n")
            return 2
        out_dir = Path(argv[k + 1])
    files = [a for i, a in enumerate(argv) if not a.startswith("--") and (i == 0 or argv[i - 1] != "--out-dir")]
    missing = [f for f in files if not os.path.isfile(f)]
    if missing or not files:
        sys.stderr.write(f"rewrite: error: no such file: {', '.join(missing)}\n" if missing else
                         "usage: python3 -m amp_driver rewrite [--in-place] [--report] [--out-dir DIR] FILE...\n")
        return 2
    rewritten, report = rewrite_files(files)
    for p, t in rewritten.items():
        if in_place:
            Path(p).write_text(t)
        elif out_dir:
            (out_dir / Path(p).name).write_text(t)
    if not in_place and not out_dir and len(files) == 1:
        sys.stdout.write(rewritten.get(files[0], Path(files[0]).read_text()))
    if want_report:
        print("\n".join(report))
    return 0
