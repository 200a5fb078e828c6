"""Source edits for GPU compiles (Clang CUDA/HIP), applied by the compiler
launcher (amp_driver/launcher.py) to the sources and project headers of a GPU
compile. Line breaks stay where they were, so diagnostics keep their lines.

1. Each call of parallel_for_each placed inside a lambda.
Clang refuses, when a kernel is emitted for the GPU, a lambda that captures a
host variable by reference if the function enclosing the lambda is a host
function, which rules out AMP's `[&]` and `[=, &a]` kernels. The check does
not apply when the enclosing function is itself a lambda, so every call is
placed inside one (amp_compat/detail/parallel_for_each.h):

    Q::parallel_for_each(ARGS)
 -> ::Concurrency::amp_parallel_for_each_scope([&]() { Q::parallel_for_each(ARGS); })

Both are void expressions, so the replacement is valid wherever the call is
(a statement, `return`, a macro argument). The call keeps its qualification
(`concurrency::`, `_details::`, none), so a library's own function of that name
is called as before; its declarations (`void parallel_for_each(...)`,
`using concurrency::parallel_for_each;`) and member calls (`x.parallel_for_each`)
are left alone. The launcher defines AMP_PARALLEL_FOR_EACH_SCOPED, which keeps
parallel_for_each.h from defining the function-like macro that does the same
for GPU builds without the launcher.

2. tile_static variables of class type kept unconstructed.
AMP does not run the constructors and destructors of tile_static variables
(Microsoft's reference, "tile_static Keyword"); CUDA refuses a __shared__
variable whose type has a non-empty constructor. A declaration whose type is
not a built-in one gets union storage with empty constructor and destructor:

    tile_static pair<int, int> buf[256];
 -> tile_static ::Concurrency::detail::tile_static_storage<pair<int, int>[256]> amp_ts_buf; auto& buf = amp_ts_buf.value;

3. `norm` after `using namespace concurrency::graphics;`.
Clang's CUDA headers (and HIP's) declare a global function `norm(int, const
double*)`, which the host build does not have; with the using-directive an
unqualified `norm` (the short-vector scalar type: `norm x(0.5f);`,
`texture<norm, 2>`, `norm(0.25f) + unorm(1.5f)`) then names both it and
Concurrency::graphics::norm, and the GPU compile stops on the ambiguity. In a
file with that using-directive, each unqualified `norm` is written
`::Concurrency::graphics::norm`, the class the host build finds. A file that
declares something of its own named `norm` (`float norm = ...`, `double
norm(...)`) is left alone.

4. `mutable restrict(...)` on a lambda (a mutable kernel).
Clang takes no GNU attribute (`__host__ __device__`, what restrict(amp)
becomes) right after `mutable`: "expected body of lambda expression". It
takes them before it (nvcc would not: -Wcuda-compat, which amp++ silences), so
the two swap places: `[=](index<1> i) mutable restrict(amp) {`
 -> `[=](index<1> i) restrict(amp) mutable {`. Same lambda, same line.

All the edits read the masked text (cpp_lexer.mask: comments, literals and
directives blanked), so a name in a comment, a string or a #define is never
touched; constructs inside a macro's replacement list are not edited.
"""
import re

from ..cpp_lexer import match_fwd

NAME = "parallel_for_each"
SCOPE = "::Concurrency::amp_parallel_for_each_scope([&]() { "
CLOSE = "; })"
_CALL = re.compile(r"\b" + NAME + r"\b")
HINT = re.compile(r"\b(?:parallel_for_each|tile_static|norm|mutable)\b")  # a quick test: may this file need an edit?
# Identifiers after which a name starts an expression, not a declaration.
_EXPR_KEYWORDS = {"return", "else", "do", "co_await", "co_return", "throw", "case"}
_TYPE_KEYWORDS = {"void", "auto", "bool", "int", "char", "long", "short", "unsigned", "signed", "float",
                  "double", "static", "inline", "extern", "friend", "constexpr", "virtual", "typename"}


def _skip_ws_back(m, i):
    while i >= 0 and m[i].isspace():
        i -= 1
    return i


def _ident_back(m, j):
    """m[j] ends an identifier: (start, spelling)."""
    k = j
    while k >= 0 and (m[k].isalnum() or m[k] == "_"):
        k -= 1
    return k + 1, m[k + 1:j + 1]


def _call_start(m, p):
    """p starts the name: the start of its qualification (`a::b::name`,
    `::name`), or -1 when the name is a member (`.`/`->`) or declared (a
    type or `using` before it)."""
    start = p
    while True:
        j = _skip_ws_back(m, start - 1)
        if not (j >= 1 and m[j] == ":" and m[j - 1] == ":"):
            break
        k = _skip_ws_back(m, j - 2)
        if k >= 0 and (m[k].isalnum() or m[k] == "_"):
            s, word = _ident_back(m, k)
            if word == "template":  # X::template name<...>: rare; left alone
                return -1
            if word not in _EXPR_KEYWORDS and word not in _TYPE_KEYWORDS:
                start = s  # a namespace or class name
                continue
        elif k >= 0 and m[k] == ">":  # Outer<T>::name: a dependent qualifier; left alone
            return -1
        start = j - 1  # a leading `::`
        break
    j = _skip_ws_back(m, start - 1)
    if j < 0:
        return start
    c = m[j]
    if c.isalnum() or c == "_":
        _, word = _ident_back(m, j)
        return start if word in _EXPR_KEYWORDS else -1  # `void parallel_for_each(`, `using ...`
    if c in ".>*&~":
        return -1  # x.parallel_for_each, p->..., template<...> / T* / T& declarations, destructors
    return start


def spans(m):
    """(start, end) of every call of parallel_for_each in the
    masked text m, in order, none inside another."""
    out, last_end = [], -1
    for hit in _CALL.finditer(m):
        p = hit.start()
        if p < last_end:
            continue  # inside a call already wrapped (a call in another's arguments)
        start = _call_start(m, p)
        if start < 0:
            continue
        k = hit.end()
        while k < len(m) and m[k].isspace():
            k += 1
        if k < len(m) and m[k] == "<":  # explicit tile sizes: parallel_for_each<16, 16>(...)
            k = match_fwd(m, k, "<", ">")
            if k < 0:
                continue
            k += 1
            while k < len(m) and m[k].isspace():
                k += 1
        if k >= len(m) or m[k] != "(":
            continue  # &parallel_for_each, a name without a call
        close = match_fwd(m, k, "(", ")")
        if close < 0:
            continue
        out.append((start, close + 1))
        last_end = close + 1
    return out


_TILE_STATIC = re.compile(r"\btile_static\b")
_BUILTIN = {"int", "float", "double", "char", "short", "long", "unsigned", "signed", "bool", "wchar_t",
            "char16_t", "char32_t", "char8_t", "const", "volatile", "__int64", "__int32", "__int16", "__int8"}
_DECLARATOR = re.compile(r"\s*([A-Za-z_]\w*)\s*((?:\[[^\[\];]*\]\s*)*)$")
STORAGE = "::Concurrency::detail::tile_static_storage"


def _tile_static_decls(m):
    """(start, end, type text, name, dims) of each `tile_static T name[...];`
    declaration of one declarator without initializer (dims: "" or "[A][B]")."""
    for hit in _TILE_STATIC.finditer(m):
        semi = m.find(";", hit.end())
        if semi < 0:
            continue
        decl = m[hit.end():semi]
        # The array bounds are constant expressions (A * B, sizeof(T) * 2):
        # only the text outside them tells an initializer or a pointer.
        outside = _without_bounds(decl)
        if any(c in outside for c in "={}()*&,") and not _only_template_commas(outside):
            continue  # an initializer (AMP refuses it), several declarators, pointers: left as written
        d = _DECLARATOR.search(decl)
        if not d:
            continue
        type_text = " ".join(decl[:d.start()].split())
        dims = re.sub(r"\]\s+\[", "][", " ".join(d.group(2).split()))
        yield hit.start(), semi + 1, type_text, d.group(1), dims


def tile_static_edits(m):
    """(start, end, replacement) turning each `tile_static T name[...];` of a
    class (or dependent) type T into union storage plus a reference; the
    replacement is built from m, so it holds no comment (the declaration is
    one statement without literals)."""
    out = []
    for start, end, type_text, name, dims in _tile_static_decls(m):
        words = re.findall(r"[A-Za-z_]\w*", type_text)
        if not type_text or (words and all(w in _BUILTIN for w in words) and not re.search(r"[<:]", type_text)):
            continue  # a built-in type: no constructor to skip
        rep = (f"tile_static {STORAGE}<{type_text}{dims}> amp_ts_{name}; "
               f"auto& {name} = amp_ts_{name}.value;")
        out.append((start, end, rep))
    return out


CHECKED_STORAGE = "::Concurrency::detail::guarded_tile_static"
CHECKED_HINT = _TILE_STATIC


def checked_tile_static_edits(m, file_name):
    """Checked host builds (AMP_CHECKED=1, amp_compat/detail/checked.h): each
    tile_static array, of any element type, becomes guarded storage (guard
    zones before and after it, verified at barriers) plus a reference, on the
    same line; the storage knows the array's name, file_name and line."""
    out = []
    for start, end, type_text, name, dims in _tile_static_decls(m):
        if not dims or not type_text:
            continue  # a scalar cannot be indexed out of range
        line = m.count("\n", 0, start) + 1
        label = file_name.replace("\\", "/").replace('"', "")
        rep = (f"tile_static {CHECKED_STORAGE}<{type_text}{dims}> amp_ts_{name}(\"{name}\", \"{label}\", {line}); "
               f"auto& {name} = amp_ts_{name}.use();")
        out.append((start, end, rep))
    return out


def _without_bounds(decl):
    """decl with the contents of its [...] groups removed (`T buf[A * B]` ->
    `T buf[]`)."""
    return re.sub(r"\[[^\[\];]*\]", "[]", decl)


def _only_template_commas(decl):
    """decl's commas and parentheses all sit inside <...> (pair<int, int>)."""
    depth = 0
    for c in decl:
        if c == "<":
            depth += 1
        elif c == ">":
            depth -= 1
        elif c in "={}()*&," and depth == 0:
            return False
    return True


GRAPHICS_USING = re.compile(r"\busing\s+namespace\s+(?:(?:::\s*)?(?:concurrency|Concurrency)\s*::\s*)?graphics\s*;")
OWN_NORM = re.compile(r"(?:\b(?:float|double|int|auto|unsigned|long|short|char|bool|void|const)|[*&>])\s*norm\s*(?:[=;,)\[{]|\()")
NORM_CLASS = "::Concurrency::graphics::norm"


def norm_edits(m):
    """Edit 3: unqualified `norm` -> ::Concurrency::graphics::norm in a file
    with a using-directive for concurrency::graphics (see above)."""
    if not GRAPHICS_USING.search(m) or OWN_NORM.search(m):
        return []
    out = []
    for r in re.finditer(r"(?<![\w$])norm(?![\w$])", m):
        if re.search(r"(?:::|\.|->|~)\s*$", m[max(0, r.start() - 8):r.start()]):
            continue
        out.append((r.start(), r.end(), NORM_CLASS))
    return out


_MUTABLE_RESTRICT = re.compile(r"\bmutable(\s+)(?:restrict\s*\(|(?:__GPU_ONLY|__GPU|__CPU_ONLY)\b)")


def mutable_edits(m):
    """Edit 4: `mutable restrict(X)` -> `restrict(X) mutable` (newlines kept);
    also amp.h's spellings (`mutable __GPU`). The checker's parse needs it
    too (restrict_pairs.rewrite_files), where restrict(X) is an attribute."""
    out = []
    for r in _MUTABLE_RESTRICT.finditer(m):
        close = match_fwd(m, r.end() - 1, "(", ")") if m[r.end() - 1] == "(" else r.end() - 1
        if close < 0:
            continue
        spec = m[r.start() + len("mutable") + len(r.group(1)):close + 1]
        out.append((r.start(), close + 1, spec + " mutable" + "\n" * r.group(1).count("\n")))
    return out


def edits(m):
    """(start, end, replacement) for every edit above, none overlapping
    another (a call is wrapped by two insertions, so that the tile_static
    declarations of its kernel are edited in place); m = mask(text)."""
    calls = [(s, s, SCOPE) for s, _ in spans(m)] + [(e, e, CLOSE) for _, e in spans(m)]
    return sorted(calls + tile_static_edits(m) + norm_edits(m) + mutable_edits(m))


def apply(text, m):
    """text with every edit applied."""
    for s, e, r in sorted(edits(m), reverse=True):
        text = text[:s] + r + text[e:]
    return text


# ---- the pass (passes/__init__.py)
NAME = "GPU edits (--gpu; passes/gpu.py)"
REPORT_KEYS = ("GPU:",)


def mode_applies(job):
    return bool(job.gpu)


def applies(job):
    """A GPU compile and a file that names parallel_for_each, tile_static,
    norm or mutable (the cheap scan)."""
    return bool(job.gpu) and job.any_text(HINT)


def file_edits(job, f, prior, extra):
    """(edits, report lines) of file f (a FileView)."""
    ge = edits(f.mask)
    if not ge:
        return [], []
    from pathlib import Path
    return ge, [f"{Path(f.path).name}: GPU: {sum(r == CLOSE for _, _, r in ge)} parallel_for_each "
                f"call(s) placed in a lambda, {sum(r.startswith('tile_static') for _, _, r in ge)} "
                f"tile_static declaration(s) of class type kept unconstructed"]
