"""Source edits for MSVC-dialect code that no Clang flag accepts (--msvc).

Clang's Microsoft mode (amp_compat/compat/msvc/flags.txt) accepts most of
what MSVC's permissive parser did; these constructs it rejects, so the
compiler launcher (amp_driver/launcher.py) rewrites copies of the
project's own files (sources and the headers they include through "" and -I,
never amp_compat's, Kokkos' or the system's) when the command is an --msvc
compile. Each edit keeps the meaning MSVC gave the code:

  _MSC_VER / _MSC_FULL_VER   MSVC code tests them to pick its MSVC paths;
      defining them for the whole compile would send libstdc++, oneTBB and
      Kokkos to their Windows code, so in the project's files they are
      renamed AMP_MSVC_VER / AMP_MSVC_FULL_VER, which flags.txt defines
      (the version -fms-compatibility-version names).
  default template arguments on an out-of-class member definition
      (`template <class T, int P = 0> const int X<T, P>::size;`): MSVC
      ignored them (a definition cannot add defaults); they are dropped.
  a missing `template` before a dependent member template
      (`v.extent.tile<N>()` in a template): MSVC parsed templates only at
      instantiation, when the name is known; `template` is inserted where a
      member access `.name<...>(` or `->name<...>(` is followed by template
      arguments and a call.
  an unsigned template parameter deduced from an AMP class template's int
      parameter (`template <unsigned N> void f(tiled_index<N>)`): MSVC
      deduced it; here an int parameter is deduced and N follows as a
      defaulted parameter of its own type (non_int_rank_edits).
  assert(cond, "msg") (the extra macro arguments dropped, as MSVC's
      preprocessor does).
  an unqualified `type_info`: MSVC declares type_info in the global
      namespace as std::type_info; Clang's Microsoft mode declares an
      unrelated incomplete ::type_info instead, so the project's own uses
      name std::type_info (type_info_edits). (`void main()` is windows.fix_void_main's, which
      runs first under --windows-compat and --msvc.)

Usage: PYTHONPATH=scripts python3 -m amp_driver.passes.msvc FILE   prints the rewritten text.
"""
import os
import re
import sys
from pathlib import Path

from ..cpp_lexer import mask  # the C++ lexing shared by the source rewrites

MSC_RE = re.compile(r"\b_MSC_(FULL_)?VER\b")


def blank_comments_and_strings(text):
    """Comments and string/char literal contents replaced by spaces (newlines
    kept); preprocessor lines are kept. The lexing is cpp_lexer's (every
    literal prefix, raw strings, digit separators, splices), the one the
    restrict rewrite uses."""
    return mask(text, keep_directives=True)


def msc_ver_edits(b):
    return [(r.start(), r.end(), "AMP_MSVC_FULL_VER" if r.group(1) else "AMP_MSVC_VER") for r in MSC_RE.finditer(b)]


def match_angle(b, pos):
    """b[pos] == '<': the index of the matching '>' of a template argument or
    parameter list (parentheses and brackets nest; '>>' closes two), or -1
    when a ';', '{' or '}' comes first."""
    depth, paren = 0, 0
    i, n = pos, len(b)
    while i < n:
        c = b[i]
        if c in "([":
            paren += 1
        elif c in ")]":
            paren -= 1
            if paren < 0:
                return -1
        elif paren == 0 and c == "<":
            depth += 1
        elif paren == 0 and c == ">":
            depth -= 1
            if depth == 0:
                return i
        elif c in ";{}":
            return -1
        i += 1
    return -1


def split_top(s):
    """Top-level comma-separated pieces of s as (start, end) spans."""
    spans, depth, start = [], 0, 0
    for i, c in enumerate(s):
        if c in "(<[{":
            depth += 1
        elif c in ")>]}":
            depth -= 1
        elif c == "," and depth == 0:
            spans.append((start, i))
            start = i + 1
    spans.append((start, len(s)))
    return spans


QUALIFIED_END = re.compile(r">\s*::\s*(?:~\s*)?(?:[A-Za-z_]\w*|operator\b.*)\s*$", re.S)
CLASS_HEAD = re.compile(r"\s*(?:class|struct|union)\s+(?:[A-Za-z_]\w*\s*::\s*)*[A-Za-z_]\w*\s*([<:]|$)")


def member_definition_default_edits(b):
    """Defaults in the template parameter list of an out-of-class definition
    of a class template's member (its declarator is X<...>::name)."""
    edits = []
    for t in re.finditer(r"\btemplate\s*<", b):
        lt = t.end() - 1
        gt = match_angle(b, lt)
        if gt < 0:
            continue
        params = b[lt + 1:gt]
        if "=" not in params:
            continue
        # the declaration that follows, up to its body, initialiser or end
        j = gt + 1
        depth = 0
        while j < len(b):
            c = b[j]
            if c in "(<[":
                depth += 1
            elif c in ")>]":
                depth -= 1
            elif depth <= 0 and c in ";{=":
                break
            j += 1
        head = b[gt + 1:j]
        if re.match(r"\s*template\b", head):
            continue  # the inner header of a member template: judged on its own
        cm = CLASS_HEAD.match(head)
        if cm:
            # a class head: only a member class defined out of its class
            # (`struct X<T>::Inner`) or a partial specialisation qualifies
            if not re.match(r"\s*(?:class|struct|union)\s+[A-Za-z_]\w*\s*<[^{;]*>\s*::", head):
                continue
        else:
            # a function or variable: the name just before its parameter list
            # (or the end) must be qualified through a template-id
            p = head.find("(")
            declarator = head if p < 0 else head[:p]
            if not QUALIFIED_END.search(declarator):
                continue
        for s, e in split_top(params):
            piece = params[s:e]
            q = piece.find("=")
            if q >= 0:
                end = len(piece.rstrip())
                edits.append((lt + 1 + s + q, lt + 1 + s + end, ""))
    return edits


MEMBER_TEMPLATE_CALL = re.compile(r"(\.|->)(\s*)([A-Za-z_]\w*)\s*<")
SIMPLE_ARGS = re.compile(r"[\w\s:,<>*&()+\-]*")


def missing_template_edits(b):
    edits = []
    for r in MEMBER_TEMPLATE_CALL.finditer(b):
        name = r.group(3)
        if name in ("template", "operator"):
            continue
        lt = r.end() - 1
        gt = match_angle(b, lt)
        if gt < 0 or not SIMPLE_ARGS.fullmatch(b[lt + 1:gt]):
            continue
        if not re.match(r"\s*\(", b[gt + 1:]):
            continue
        edits.append((r.start(3), r.start(3), "template "))
    return edits


AMP_INT_TEMPLATES = r"\b(?:index|extent|tiled_extent|tiled_index|array|array_view|texture|texture_view|writeonly_texture_view)\s*<"
STD_ARRAY = r"\bstd\s*::\s*array\s*<"
INTEGRAL_PARAM = re.compile(r"\s*((?:unsigned(?:\s+(?:long\s+long|long|int|short|char))?|(?:std\s*::\s*)?size_t|short|long\s+long|long|int)"
                            r"(?:\s+int)?)\s+([A-Za-z_]\w*)\s*(?:=\s*(.*\S))?\s*$", re.S)


def non_int_rank_edits(b):
    """function_rank_edits and partial_specialization_rank_edits."""
    return function_rank_edits(b) + partial_specialization_rank_edits(b)


PARTIAL_SPEC = re.compile(r"\s*(struct|class)\s+([A-Za-z_]\w*)\s*<")


def unsigned_rank_specializations(b):
    """The class template partial specialisations over an AMP class template
    whose rank parameter is declared non-int (`template <class T, unsigned N>
    struct is_view<array_view<T, N>>`): (template start, '<' and '>' of the
    parameters, '<' and '>' of the specialisation's arguments, '{' of the
    body or -1, {name: (start, end, type)} of the non-int parameters used as
    a rank). The standard deduces nothing there (N is unsigned, the AMP
    parameter int): GCC silently never matches, Clang calls it ambiguous."""
    out = []
    for t in re.finditer(r"\btemplate\s*<", b):
        lt = t.end() - 1
        gt = match_angle(b, lt)
        if gt < 0:
            continue
        cm = PARTIAL_SPEC.match(b, gt + 1)
        if not cm:
            continue
        alt = cm.end() - 1
        agt = match_angle(b, alt)
        if agt < 0:
            continue
        params = b[lt + 1:gt]
        cands = {}
        for ps, pe in split_top(params):
            pm = INTEGRAL_PARAM.fullmatch(params[ps:pe])
            if pm and re.sub(r"\s+", " ", pm.group(1)) != "int":
                cands[pm.group(2)] = (lt + 1 + ps, lt + 1 + pe, re.sub(r"\s+", " ", pm.group(1)))
        used = {}
        for a in re.finditer(AMP_INT_TEMPLATES, b[alt + 1:agt]):
            if re.search(r"std\s*::\s*$", b[:alt + 1 + a.start()]):
                continue
            ilt = alt + 1 + a.end() - 1
            igt = match_angle(b, ilt)
            if igt < 0 or igt > agt:
                continue
            for s2, e2 in split_top(b[ilt + 1:igt]):
                name = b[ilt + 1 + s2:ilt + 1 + e2].strip()
                if name in cands:
                    used[name] = cands[name]
        if not used:
            continue
        m = re.compile(r"[^;{]*").match(b, agt + 1)
        brace = m.end() if m.end() < len(b) and b[m.end()] == "{" else -1
        out.append((t.start(), lt, gt, alt, agt, brace, used))
    return out


def partial_specialization_rank_edits(b):
    """What MSVC deduced: the parameter becomes `int amp_int_N`, its uses in
    the specialisation's arguments and base clause name that, and the body
    gets `static constexpr unsigned int N = amp_int_N;`, so it reads N as
    before."""
    edits = []
    for _, lt, gt, alt, agt, brace, used in unsigned_rank_specializations(b):
        if brace < 0:
            continue  # a declaration only: left to the compiler
        for name, (s, e, typ) in used.items():
            edits.append((s, e, f" int amp_int_{name}"))
            for r in re.finditer(rf"\b{name}\b", b[alt:brace]):
                edits.append((alt + r.start(), alt + r.end(), f"amp_int_{name}"))
            edits.append((brace + 1, brace + 1, f" static constexpr {typ} {name} = static_cast<{typ}>(amp_int_{name});"))
    return edits


def unsigned_rank_warnings(texts):
    """Warnings (for builds without the rewrite): where a partial
    specialisation over an AMP type with a non-int rank can never match."""
    out = []
    for path, text in texts.items():
        b = blank_comments_and_strings(text)
        for start, *_rest, used in unsigned_rank_specializations(b):
            line = text.count("\n", 0, start) + 1
            out.append(f"{path}:{line}: warning: this partial specialization never matches: its rank "
                       f"parameter{'s' if len(used) > 1 else ''} {', '.join(used)} "
                       f"{'are' if len(used) > 1 else 'is'} not int, the type of the AMP class template's rank, "
                       f"so nothing is deduced and the primary template is used (MSVC deduced it); declare it "
                       f"`int`, or build with --windows-compat or --msvc, which compile it as MSVC did")
    return out


def function_rank_edits(b):
    """A function template whose unsigned (or other non-int) template parameter
    is deduced from an AMP class template's int parameter (or an int one
    from std::array's size_t)
    (`template <unsigned N> void f(tiled_index<N>)`, `template <class T,
    unsigned Rank> void g(const array<T, Rank>&)`): MSVC deduced N, the
    standard does not (the types differ). The parameter becomes an int one,
    deduced, and N follows as a defaulted parameter of its own type, so the
    body sees N exactly as before and explicit arguments keep their places."""
    edits = []
    for t in re.finditer(r"\btemplate\s*<", b):
        lt = t.end() - 1
        gt = match_angle(b, lt)
        if gt < 0:
            continue
        params = b[lt + 1:gt]
        cands = {}
        for s, e in split_top(params):
            pm = INTEGRAL_PARAM.fullmatch(params[s:e])
            if pm:
                cands[pm.group(2)] = (lt + 1 + s, lt + 1 + e, re.sub(r"\s+", " ", pm.group(1)), pm.group(3))
        if not cands:
            continue
        # the function's parameter list: the first '(' of the declaration
        j, depth = gt + 1, 0
        while j < len(b) and not (depth <= 0 and b[j] in "(;{="):
            op = re.match(r"operator\s*(?:\(\s*\)|[^\w\s(]+)", b[j:]) if b[j] == "o" else None
            if op and not (j > 0 and (b[j - 1].isalnum() or b[j - 1] == "_")):
                j += op.end()  # operator<<, operator(): not brackets
                continue
            depth += b[j] in "<["
            depth -= b[j] in ">]"
            j += 1
        if j >= len(b) or b[j] != "(":
            continue
        head = b[gt + 1:j]
        if re.match(r"\s*template\b", head) or re.match(r"\s*(?:class|struct|union)\b", head):
            continue
        close = j
        depth = 0
        while close < len(b):
            depth += b[close] == "("
            depth -= b[close] == ")"
            if depth == 0:
                break
            close += 1
        plist_edits, used = [], {}
        for pattern, class_type, prefix in ((AMP_INT_TEMPLATES, "int", "amp_int_"), (STD_ARRAY, "std::size_t", "amp_size_")):
            for a in re.finditer(pattern, b[j:close]):
                if pattern is AMP_INT_TEMPLATES and re.search(r"std\s*::\s*$", b[:j + a.start()]):
                    continue  # std::array: the second table entry
                alt = j + a.end() - 1
                agt = match_angle(b, alt)
                if agt < 0 or agt > close:
                    continue
                for s, e in split_top(b[alt + 1:agt]):
                    name = b[alt + 1 + s:alt + 1 + e].strip()
                    if name in cands and re.sub(r"std\s*::\s*", "std::", cands[name][2]) not in (
                            (class_type,) if class_type == "int" else ("std::size_t", "size_t", "unsigned long")):
                        k = b.index(name, alt + 1 + s)
                        plist_edits.append((k, k + len(name), prefix + name))
                        used[name] = (class_type, prefix)
        if not used:
            continue
        edits += plist_edits
        tail = ""
        for name, (class_type, prefix) in used.items():
            s, e, typ, dflt = cands[name]
            edits.append((s, e, f" {class_type} {prefix}{name}" + (f" = {dflt}" if dflt else "")))
            tail += f", {typ} {name} = static_cast<{typ}>({prefix}{name})"
        edits.append((gt, gt, tail))
    return edits


KEYWORDS = set("""alignas alignof asm auto bool break case catch char char16_t char32_t class const constexpr
const_cast continue decltype default delete do double dynamic_cast else enum explicit export extern false float
for friend goto if inline int long mutable namespace new noexcept nullptr operator private protected public
register reinterpret_cast return short signed sizeof static static_assert static_cast struct switch template
this thread_local throw true try typedef typeid typename union unsigned using virtual void volatile wchar_t
while restrict amp cpu value type""".split())


def namespace_paths(b):
    """For every character: the tuple of the positions of the '{' enclosing it,
    and whether all of them open namespaces (namespace scope)."""
    stack, kinds = [], []
    paths = [None] * (len(b) + 1)
    at_ns = [True] * (len(b) + 1)
    cur, cur_ns = (), True
    last = 0
    for i, c in enumerate(b):
        if c == "{":
            k = max(b.rfind(";", 0, i), b.rfind("}", 0, i), b.rfind("{", 0, i))
            is_ns = bool(re.search(r"\bnamespace\b[^{;]*$", b[k + 1:i])) or bool(re.search(r'extern\s*"\s*"\s*$', b[k + 1:i]))
            for q in range(last, i + 1):
                paths[q], at_ns[q] = cur, cur_ns
            last = i + 1
            stack.append(i)
            kinds.append(is_ns)
            cur, cur_ns = tuple(stack), all(kinds)
        elif c == "}" and stack:
            for q in range(last, i):
                paths[q], at_ns[q] = cur, cur_ns
            last = i
            stack.pop()
            kinds.pop()
            cur, cur_ns = tuple(stack), all(kinds)
    for q in range(last, len(b) + 1):
        paths[q], at_ns[q] = cur, cur_ns
    return paths, at_ns


def later_declaration_end(b, name, start, path, paths):
    """The end (index after its ';') of the last namespace-scope declaration of
    name in the same namespace block after start, or -1."""
    pats = [rf"\b(?:const|constexpr)\b[^;{{}}=()]*\b{name}\s*=",
            rf"\b(?:struct|class|union|enum(?:\s+class)?)\s+{name}\b",
            rf"\btypedef\b[^;{{}}]*\b{name}\s*;",
            rf"\busing\s+{name}\s*="]
    end = -1
    for pat in pats:
        for r in re.finditer(pat, b[start:]):
            k = start + r.start()
            if paths[k] != path or re.search(r"[<,]\s*$", b[:k]):
                continue  # another scope, or a template parameter (`template <class T>`)
            # the declaration ends at the ';' at this brace depth
            depth, j = 0, k
            while j < len(b):
                if b[j] == "{":
                    depth += 1
                elif b[j] == "}":
                    depth -= 1
                    if depth < 0:
                        break
                elif b[j] == ";" and depth == 0:
                    break
                j += 1
            if j < len(b) and b[j] == ";":
                end = max(end, j + 1)
    return end


def deferred_class_template_edits(text, b, path=None):
    """A namespace-scope class template whose definition names something the
    file declares only later in the same namespace (MSVC looked names up at
    instantiation): the definition moves to after the last such declaration,
    a declaration of the template stays where it was (with its default
    arguments). Only when nothing between the two places names the template.
    With path, #line directives keep diagnostics on the original lines."""
    paths, at_ns = namespace_paths(b)
    edits = []
    for t in re.finditer(r"\btemplate\s*<", b):
        if not at_ns[t.start()] or (t.start() > 0 and re.search(r">\s*$", b[:t.start()])):
            continue
        lt = t.end() - 1
        gt = match_angle(b, lt)
        if gt < 0:
            continue
        cm = re.match(r"\s*(class|struct|union)\s+([A-Za-z_]\w*)\s*(?::[^;{]*)?\{", b[gt + 1:])
        if not cm:
            continue
        name = cm.group(2)
        open_b = gt + cm.end()
        depth, close = 0, open_b
        while close < len(b):
            depth += b[close] == "{"
            depth -= b[close] == "}"
            if depth == 0:
                break
            close += 1
        semi = b.find(";", close)
        if semi < 0 or b[close + 1:semi].strip():
            continue
        end = semi + 1
        body = b[gt + 1:end]
        before = b[:t.start()]
        target = -1
        own = set(re.findall(r"\b[A-Za-z_]\w*\b", b[lt + 1:gt]))  # the template's parameters
        for ident in set(re.findall(r"\b[A-Za-z_]\w*\b", body)) - KEYWORDS - own - {name}:
            if re.search(rf"\b{ident}\b", before):
                continue
            e = later_declaration_end(b, ident, end, paths[t.start()], paths)
            target = max(target, e)
        if target < 0 or re.search(rf"\b{name}\b", b[end:target]):
            continue
        params = b[lt + 1:gt]
        no_defaults = ",".join(p[:p.find("=")] if "=" in p else p for p in (params[s:e] for s, e in split_top(params)))
        decl = f"template <{params}> {cm.group(1)} {name};"
        line = text.count("\n", 0, t.start()) + 1
        line_after = text.count("\n", 0, end) + 1
        moved = f"template <{no_defaults}>" + text[gt + 1:end]
        if path:
            edits.append((t.start(), end, decl + "\n" * text.count("\n", t.start(), end)))
            edits.append((target, target, f'\n#line {line} "{path}"\n{moved}\n#line {text.count(chr(10), 0, target) + 1} "{path}"\n'))
        else:
            edits.append((t.start(), end, decl + "\n" * text.count("\n", t.start(), end)))
            edits.append((target, target, "\n" + moved + "\n"))
        del line_after
    return edits


def assert_extra_argument_edits(b):
    """assert(cond, "message"): MSVC warns (C4002) and drops the extra
    macro arguments; Clang's preprocessor refuses the call. The extra ones
    are dropped (commas split macro arguments outside parentheses only, as
    in MSVC, so `assert(f<a, b>())` would not have compiled there either)."""
    edits = []
    for m in re.finditer(r"(?<![\w.>:])assert\s*\(", b):
        open_p = m.end() - 1
        depth, i, first_comma = 0, open_p, -1
        while i < len(b):
            c = b[i]
            if c in "([{":
                depth += 1
            elif c in ")]}":
                depth -= 1
                if depth == 0:
                    break
            elif c == "," and depth == 1 and first_comma < 0:
                first_comma = i
            elif c == ";" and depth <= 1:
                i = -1
                break
            i += 1
        if i > 0 and first_comma > 0:
            edits.append((first_comma, i, ""))
    return edits


CONST_ELEMENT = re.compile(r"\bstd\s*::\s*(?:deque|list|forward_list)\s*<\s*(const\s+)[A-Za-z_][\w:]*\s*>")


def const_element_edits(b):
    """std::deque<const T> (and list): MSVC's library accepted containers of
    const elements, libstdc++ rejects them; the element loses its top-level
    const (only `const Name>`: `const char*` is left alone). std::vector<const
    T> keeps its type (compat/msvc/msvc_dialect.h defines it)."""
    return [(m.start(1), m.end(1), "") for m in CONST_ELEMENT.finditer(b)]


def type_info_edits(b):
    """`type_info` and `::type_info` -> `std::type_info` (not after `std::`,
    `.`, `->`, or in a file that declares a type_info of its own)."""
    if re.search(r"\b(?:class|struct|union|typedef|using)\s+[^;{}()]*\btype_info\b\s*[;{=:]", b):
        return []
    edits = []
    for m in re.finditer(r"\btype_info\b", b):
        before = b[:m.start()].rstrip()
        if re.search(r"(?:\bstd\s*::|\.|->|[\w)\]>]\s*::)$", before):
            continue
        edits.append((m.start(), m.start(), "std::"))
    return edits


SCOPED_ENUM = re.compile(r"\benum\s+(?:class|struct)\s+[A-Za-z_]\w*\s*(?::\s*([^{;]*?))?\s*\{")
QUALIFIED_INIT = re.compile(r"=\s*((?:::\s*)?[A-Za-z_]\w*(?:\s*::\s*[A-Za-z_]\w*)+)\s*(?=[,}])")


def scoped_enum_initializer_edits(b):
    """Enumerators of a scoped enumeration initialised with a qualified name
    (`enum class Device : int { REF = device_flags::D3D11_REF };`, another
    scoped enumeration's enumerator in Microsoft's test library): MSVC
    converted it; the initialiser becomes static_cast<underlying>(...), the
    same value (what enum_initializer_edits does when Clang's diagnostic
    names one, done beforehand: the library's header is in every test)."""
    edits = []
    for m in SCOPED_ENUM.finditer(b):
        close = b.find("}", m.end())
        if close < 0:
            continue
        typ = (m.group(1) or "int").strip() or "int"
        for q in QUALIFIED_INIT.finditer(b, m.end(), close + 1):
            edits.append((q.start(1), q.start(1), f"static_cast<{typ}>("))
            edits.append((q.end(1), q.end(1), ")"))
    return edits


# MSVC's DLL linkage markers, `__declspec(dllexport)` and `__declspec(dllimport)`
# (a library's header macro puts one on every function it exports): Clang on
# ELF ignores both with a warning at each declaration, hundreds in a file of
# such a library. They become what the GCC build's crt_extras.h makes of them:
# an export is a symbol of default visibility, an import needs nothing (an
# empty GNU attribute list, valid wherever the __declspec was).
DLL_LINKAGE = re.compile(r"\b__declspec\s*\(\s*(dllexport|dllimport)\s*\)")
DLL_EXPORT = '__attribute__((visibility("default")))'
DLL_IMPORT = "__attribute__(())"


def dll_linkage_edits(b):
    """Edits of the __declspec(dllexport|dllimport) in b, in code and in
    #define lines (b: comments and literals blanked)."""
    return [(m.start(), m.end(), DLL_EXPORT if m.group(1) == "dllexport" else DLL_IMPORT)
            for m in DLL_LINKAGE.finditer(b)]


# A function returning an lvalue reference whose body has no return
# statement (`A& operator=(const A&) restrict(amp) {}`, 20 of them in
# Microsoft's conformance suite): MSVC returned whatever its return register
# held (C4716, a warning in the Visual Studio versions AMP code was written
# for) and a caller that discards the result runs; Clang makes the end a trap
# (SIGILL), which -fno-strict-return lifts for values only. The body ends
# with `return amp_compat_msvc_no_value();` (msvc_dialect.h): a reference to
# nothing meaningful, as MSVC's.
REF_FUNCTION = re.compile(r"(?<!&)&(?!&)\s*((?:[A-Za-z_]\w*\s*::\s*)*(?:operator\s*(?:\(\s*\)|\[\s*\]|[^\s\w(]+)|"
                          r"[A-Za-z_]\w*))\s*\(")
AFTER_PARAMS = re.compile(r"(?:\s+|\bconst\b|\bvolatile\b|\boverride\b|\bfinal\b|&|\b__GPU(?:_ONLY)?\b|\b__CPU_ONLY\b|"
                          r"\b(?:restrict|noexcept|throw)\s*\([^()]*\)|\bnoexcept\b)*")


def missing_reference_return_edits(b):
    """The insertion of `return amp_compat_msvc_no_value();` before the
    closing brace of each function definition returning T& (b: blanked
    text) whose body has no `return`."""
    edits = []
    for m in REF_FUNCTION.finditer(b):
        if re.match(r"operator\b", m.group(1)) is None and m.group(1) in ("if", "while", "for", "switch", "return",
                                                                        "sizeof", "decltype", "alignof"):
            continue
        j, depth = m.end() - 1, 0
        while j < len(b):
            depth += b[j] == "("
            depth -= b[j] == ")"
            if depth == 0:
                break
            j += 1
        q = AFTER_PARAMS.match(b, j + 1)
        k = q.end()
        if k >= len(b) or b[k] != "{":
            continue
        depth, e = 0, k
        while e < len(b):
            depth += b[e] == "{"
            depth -= b[e] == "}"
            if depth == 0:
                break
            e += 1
        if e < len(b) and not re.search(r"\breturn\b", b[k:e]):
            edits.append((e, e, " return amp_compat_msvc_no_value(); "))
    return edits


def msvc_edits(text, path=None):
    """(start, end, replacement) edits of text, not overlapping (a new list;
    computed once per text and path in a process: the --msvc rounds and
    their fix-it mapping ask again for the same files)."""
    key = (text, path)
    if key not in _EDITS:
        if len(_EDITS) > 64:
            _EDITS.clear()
        _EDITS[key] = tuple(_msvc_edits(text, path))
    return list(_EDITS[key])


_EDITS = {}


def _msvc_edits(text, path):
    b = blank_comments_and_strings(text)
    first = msc_ver_edits(b) + member_definition_default_edits(b) + missing_template_edits(b) + const_element_edits(b)
    first += assert_extra_argument_edits(b) + type_info_edits(b)  # void main: windows.fix_void_main, before
    first += scoped_enum_initializer_edits(b) + missing_reference_return_edits(b)
    first += dll_linkage_edits(b)
    moves = [e for e in deferred_class_template_edits(text, b, path)
             if not any(s < e[1] and e[0] < t for s, t, _ in first)]
    first += moves
    ranks = [e for e in non_int_rank_edits(b) if not any(s < e[1] and e[0] < t or s == e[0] for s, t, _ in first)]
    return first + ranks


# Errors that name what MSVC assumed (or its library provided) at their location (a missing `typename`
# or `template` that only instantiation reveals, e.g. `T::type()` as an
# expression): the launcher inserts the keyword there in the project's copy
# and compiles again (launcher.run). Clang gives no fix-it for
# the first.
FIXABLE = re.compile(r"^(.*?):(\d+):(\d+): error: (?:(missing 'typename' prior to dependent type name)|"
                     r"(missing 'template' keyword prior to dependent template name)|"
                     r"(type '.*\*' cannot be used prior to '::' because it has no members))")
# The third: `It::value_type` with It a pointer. MSVC's standard library
# iterators are classes (std::array's too, where libstdc++'s are pointers);
# the iterator's traits are read through std::iterator_traits instead.
TRAIT_USE = re.compile(r"([A-Za-z_]\w*)\s*::\s*(value_type|difference_type|pointer|reference|iterator_category)\b")


def original_offset(text, edits, line, col):
    """The offset in text of what the compiler reported at line:col of the
    rewritten copy (the copy keeps text's lines; edits earlier on the line
    shift its columns). Columns are bytes."""
    starts = [0] + [i + 1 for i, c in enumerate(text) if c == "\n"]
    if line - 1 >= len(starts):
        return -1
    lo = starts[line - 1]
    hi = starts[line] - 1 if line < len(starts) else len(text)
    target = col - 1  # bytes from the line start in the copy
    pos, copy_bytes = lo, 0
    on_line = sorted((s, e, r) for s, e, r in edits if lo <= s <= hi)
    k = 0
    while pos <= hi:
        while k < len(on_line) and on_line[k][0] == pos:
            s, e, r = on_line[k]
            copy_bytes += len(r.encode())
            if copy_bytes > target:
                return s
            pos = max(pos, e)
            k += 1
        if copy_bytes >= target:
            return pos
        if pos < len(text):
            copy_bytes += len(text[pos].encode())
        pos += 1
    return -1


INVALID_OPERANDS = re.compile(r"^(.*?):(\d+):(\d+): error: invalid operands to binary expression \('(\w+)' and '(\w+)'\)")
# amp_compat's __declspec(property) members (detail/array.h) and their getters.
AMP_PROPERTY = re.compile(r"\.\s*(accelerator_view|associated_accelerator_view|cpu_access_type)\b(?!\s*\()")
NO_MATCH = re.compile(r"^(.*?):(\d+):(\d+): error: no matching (?:(?:member )?function for call to '(\w+)'|"
                      r"constructor for initialization of '(?:std::)?(?:basic_)?[io]?fstream\b)")
LVALUE_NOTE = re.compile(r": note: candidate .* not viable: expects an lvalue for (\d+)(?:st|nd|rd|th) argument")
# A conversion's temporary for a non-const lvalue reference parameter
# (`Iter(std::vector<T>::const_iterator& it)` given an `iterator`): MSVC
# bound it; the argument is wrapped in amp_compat_msvc_convert(...)
# (msvc_dialect.h). Calls and functional casts (`Iter<T>(var)`).
CAST_NO_MATCH = re.compile(r"^(.*?):(\d+):(\d+): error: no matching conversion for functional-style cast from ")
CONVERSION_NOTE = re.compile(r": note: candidate (?:constructor|function(?: template)?) not viable: no known conversion "
                             r"from '[^']*'(?: \(aka '[^']*'\))? to '(?!const )[^']*[^'&\s]\s*&'(?: \(aka '[^']*'\))? "
                             r"for (\d+)(?:st|nd|rd|th) argument")
# A wide file name (std::wstring, const wchar_t*) where a narrow one is
# expected: MSVC's file streams take both (crt_compat.h, narrow_path).
WIDE = r"'(?:const )?(?:std::wstring|(?:std::)?basic_string<wchar_t[^']*|(?:const )?wchar_t \*|(?:const )?wchar_t\[\d*\])'"
WIDE_NOTE = re.compile(r": note: candidate .* not viable: no known conversion from " + WIDE +
                       r"(?: \(aka '[^']*'\))? to 'const char \*' for (\d+)(?:st|nd|rd|th) argument")
# ... through a forwarding factory (std::make_shared<std::ofstream>(wide)):
# the error is in the library, the call in the instantiation note.
FORWARD_NOTE = re.compile(r"^(.*?):(\d+):(\d+): note: in instantiation of function template specialization "
                          r"'std::(?:make_shared|make_unique|allocate_shared)<(.*)>' requested here")
# A scoped enumerator initialised from another scoped enum's (`enum class B :
# int { x = A::y };`): MSVC converted it; the initialiser gets the cast.
ENUM_INIT = re.compile(r"^(.*?):(\d+):(\d+): error: value of type '[^']*' is not implicitly convertible to '([^']*)'")


# A class object passed through a C variadic parameter (`printf("%d\n",
# view[0])`, a string class to "%s"): MSVC passes its bits (x64: an object
# of 1, 2, 4 or 8 bytes in the argument's slot, any other as the address of
# a copy); Clang on Linux refuses a non-trivial class there. The argument
# is wrapped in amp_compat_msvc_vararg(...) (msvc_dialect.h), which passes
# what MSVC passes.
NON_POD_VARARG = re.compile(r"^(.*?):(\d+):(\d+): error: cannot pass (?:(?:non-trivial|non-POD) object of type '[^']*'"
                            r"(?: \(aka '[^']*'\))? to|object of non-trivial type '[^']*'(?: \(aka '[^']*'\))? "
                            r"through) variadic (?:function|method|block|constructor)")


def operand_end(b, s, stop_at_semicolon=False):
    """The end (trailing blanks left out) of the list element that starts at
    s in blanked text b: the first top-level ',' or the enclosing bracket's
    close; None when stop_at_semicolon and a ';' comes first."""
    depth, j = 0, s
    while j < len(b):
        c = b[j]
        if c in "([{":
            depth += 1
        elif c in ")]}":
            if depth == 0:
                break
            depth -= 1
        elif c == "," and depth == 0:
            break
        elif c == ";" and stop_at_semicolon:
            return None
        j += 1
    return len(b[s:j].rstrip()) + s


def argument_edits(b, s, wrapper):
    """The call argument that starts at s (b: blanked text) wrapped in
    wrapper...): it ends at the first top-level ',' or the call's ')'."""
    end = operand_end(b, s, stop_at_semicolon=True)
    return [(s, s, wrapper), (end, end, ")")] if end is not None and end > s else []


# A function object whose operator() is not const, used by a standard
# container as its hasher, equality or ordering (`struct H { size_t
# operator()(K k) { ... } };  unordered_map<K, V, H>`): MSVC's library called
# it through a non-const object; libstdc++ asserts it is callable as const.
# The class's operator() gets the `const` (a body that changes the object
# then fails to compile, with the compiler's own reason).
CONST_CALL = re.compile(r"error: static assertion failed due to requirement "
                        r"'std::__is_invocable<const ([^']+?) &, [^']*': (?:hash function must be invocable|"
                        r"comparison object must be invocable as const|key equality predicate must be invocable)")


def const_call_operator_edits(b, class_name):
    """` const` after the parameter list of each non-const operator() defined
    or declared in the body of class/struct class_name (b: blanked text)."""
    edits = []
    for m in re.finditer(rf"\b(?:struct|class)\s+{re.escape(class_name)}\b[^;{{]*\{{", b):
        open_b = m.end() - 1
        depth, close = 0, open_b
        while close < len(b):
            depth += b[close] == "{"
            depth -= b[close] == "}"
            if depth == 0:
                break
            close += 1
        for op in re.finditer(r"\boperator\s*\(\s*\)\s*\(", b[open_b:close]):
            j = open_b + op.end() - 1
            d, k = 0, j
            while k < close:
                d += b[k] == "("
                d -= b[k] == ")"
                if d == 0:
                    break
                k += 1
            tail = re.match(r"[^;{]*", b[k + 1:close]).group(0)
            if not re.search(r"\bconst\b", tail):
                edits.append((k + 1, k + 1, " const"))
    return edits


def enum_initializer_edits(b, s, target):
    """s: the start of an enumerator's initialiser inside an enum body:
    static_cast<target>( ... ) around it, up to its ',' or '}'."""
    depth, k = 0, s - 1
    while k >= 0:  # the enclosing '{' must open an enum
        c = b[k]
        if c in ")]}":
            depth += 1
        elif c in "([{":
            if depth == 0:
                break
            depth -= 1
        k -= 1
    if k < 0 or b[k] != "{" or not re.search(r"\benum\s+(?:class|struct)\s+[A-Za-z_]\w*\s*(?::[^{;]*)?$", b[:k]):
        return []
    if not re.search(r"=\s*$", b[:s]):
        return []
    end = operand_end(b, s)
    return [(s, s, f"static_cast<{target}>("), (end, end, ")")]


def call_argument_edits(text, b, s, ordinals, wrapper="amp_compat_msvc_lvalue("):
    """The call whose callee starts at s: its arguments number `ordinals`
    (1-based) wrapped in amp_compat_msvc_lvalue(...) (msvc_dialect.h), which
    gives the temporary MSVC would have bound to a non-const reference as an
    lvalue living to the end of the full expression, as MSVC's did."""
    m = re.compile(r"(?:::\s*)?[A-Za-z_]\w*(?:\s*::\s*(?:template\s+)?[A-Za-z_]\w*)*\s*").match(b, s)
    if not m:
        return []
    j = m.end()
    if j < len(b) and b[j] == "<":
        gt = match_angle(b, j)
        if gt < 0:
            return []
        j = gt + 1
        while j < len(b) and b[j].isspace():
            j += 1
    if j >= len(b) or b[j] != "(":
        return []
    depth, close = 0, j
    while close < len(b):
        depth += b[close] == "("
        depth -= b[close] == ")"
        if depth == 0:
            break
        close += 1
    spans = split_top(b[j + 1:close])
    edits = []
    for n in ordinals:
        if 1 <= n <= len(spans):
            a0, a1 = spans[n - 1]
            piece = text[j + 1 + a0:j + 1 + a1]
            lead = len(piece) - len(piece.lstrip())
            trail = len(piece.rstrip())
            if piece.strip():
                edits.append((j + 1 + a0 + lead, j + 1 + a0 + lead, wrapper))
                edits.append((j + 1 + a0 + trail, j + 1 + a0 + trail, ")"))
    return edits


# `T& v = temporary;`: MSVC bound the temporary and extended its life to
# the reference's (its C4239 extension); `T&& v = ...` does exactly that.
TEMP_BIND = re.compile(r"^(.*?):(\d+):(\d+): error: non-const lvalue reference to type '[^']*' cannot bind to a "
                       r"temporary of type")
# `using namespace std; using namespace concurrency;` and an unqualified
# `array<float, 1>`: std::array reaches the program through the standard
# headers here (MSVC's <amp.h> did not bring it), so only AMP's was meant.
AMBIGUOUS = re.compile(r"^(.*?):(\d+):(\d+): error: reference to '(\w+)' is ambiguous")
CANDIDATE = re.compile(r": note: candidate found by name lookup is '([\w:]+)'")


# `if (p <= 0)` with a pointer p: MSVC compared with the null pointer; the
# 0 becomes a null pointer of p's type (what MSVC converted it to).
PTR_ZERO = re.compile(r"^(.*?):(\d+):(\d+): error: ordered comparison between pointer and zero \('([^']*)' and '[^']*'\)")


def pointer_zero_edits(b, s, ptr_type):
    """s: the comparison operator; the literal 0 beside it becomes a null
    pointer of the other operand's type: `static_cast<decltype(+E)>(0)` where
    that operand E is a plain postfix expression (unary + makes it a prvalue
    of its pointer type: one edit right for every instantiation of a
    template, whose diagnostics name a type each), else
    `static_cast<ptr_type>(0)`."""
    op = re.compile(r"<=|>=|<|>").match(b, s)
    if not op:
        return []
    after = re.compile(r"\s*(0)(?![\w.])").match(b, op.end())
    if after:
        other = _operand_before(b, s)
        return [(after.start(1), after.end(1), _null_like(other, ptr_type))]
    before = re.search(r"(?<![\w.])(0)\s*$", b[:s])
    if before:
        return [(before.start(1), before.end(1), _null_like(_operand_after(b, op.end()), ptr_type))]
    return []


def _null_like(operand, ptr_type):
    return f"static_cast<decltype(+{operand})>(0)" if operand else f"static_cast<{ptr_type}>(0)"


_POSTFIX = re.compile(r"(?:::)?\w+(?:\s*(?:::|\.|->)\s*\w+|\s*\[[^\[\]]*\]|\s*\([^()]*\))*")
# What may stand before or after a relational operator's whole operand.
_LEFT_EDGE = re.compile(r"(?:^|[(,;{}?:!]|&&|\|\||(?<![=!<>])=|\breturn)\s*$")
_RIGHT_EDGE = re.compile(r"\s*(?:$|[),;}?:]|&&|\|\|)")


def _operand_before(b, s):
    """The postfix expression that ends just before offset s and is the whole
    left operand there, or None."""
    for m in _POSTFIX.finditer(b, max(0, s - 200), s):
        if b[m.end():s].strip() == "" and m.group(0) and _LEFT_EDGE.search(b[:m.start()]):
            return m.group(0)
    return None


def _operand_after(b, e):
    """The postfix expression that starts after offset e (spaces skipped) and
    is the whole right operand there, or None."""
    m = _POSTFIX.match(b, len(b[:e]) + (len(b[e:]) - len(b[e:].lstrip())))
    return m.group(0) if m and _RIGHT_EDGE.match(b, m.end()) else None


# A name that a dependent base class declares as a typedef (`template <class
# T> struct grid : grid_base<T> { index at(...); }` with grid_base<T>::index
# a typedef) while a namespace-scope class template has it too (AMP's
# `index`, through `using namespace concurrency`): MSVC looked it up at
# instantiation and took the base's typedef; Clang takes the template. The
# name is qualified through the class (`typename grid::index`), which finds
# the base's member at instantiation as MSVC did.
TEMPLATE_NO_ARGS = re.compile(r"^(.*?):(\d+):(\d+): error: use of class template '(?:[\w:]*::)?(\w+)' requires "
                              r"template arguments")
# ... as a variable's type in a member function (`index k = 0;`): Clang tries
# class template argument deduction and points at the variable.
NO_DEDUCTION = re.compile(r"^(.*?):(\d+):(\d+): error: no viable constructor or deduction guide for deduction of "
                          r"template arguments of '(?:[\w:]*::)?(\w+)'")


def enclosing_derived_class_template(b, s):
    """The name of the innermost class template with a base clause whose body
    encloses s (through member function bodies), or None."""
    depth, k = 0, s - 1
    while k >= 0:
        c = b[k]
        if c == "}":
            depth += 1
        elif c == "{":
            if depth:
                depth -= 1
            else:
                head = b[max(b.rfind(";", 0, k), b.rfind("}", 0, k)) + 1:k]
                if re.search(r"\bnamespace\b", head):
                    return None
                cm = re.search(r"\b(?:class|struct)\s+([A-Za-z_]\w*)\s*(?:final\s*)?:(?!:)[^{;]*$", head)
                if cm:
                    return cm.group(1) if re.search(r"\btemplate\s*<", head[:cm.start()]) else None
        k -= 1
    return None


def dependent_base_name_edits(b, s, name, declared=False):
    """s: an unqualified use of name in a class template with a base clause
    (declared: s is the variable declared with that type): `typename
    Class::name`."""
    if declared:
        m = re.search(rf"\b{name}\s*$", b[:s])
        if not m:
            return []
        s = m.start()
    if not b.startswith(name, s) or re.search(r"(?:::|\.|->)\s*$", b[:s]) or re.match(r"\s*<", b[s + len(name):]):
        return []
    cls = enclosing_derived_class_template(b, s)
    return [(s, s + len(name), f"typename {cls}::{name}")] if cls else []


def reference_declarator_edits(b, s):
    """s: the name declared by `T& name = init` or `T& name(init)` (where
    Clang points), or its initialiser: the `&` becomes `&&`."""
    m = re.search(r"(?<!&)&\s*$", b[:s])
    if not (m and re.compile(r"[A-Za-z_]\w*\s*(?:=|\()").match(b, s)):
        m = re.search(r"(?<!&)&\s*[A-Za-z_]\w*\s*(?:=|\()\s*$", b[:s])
    if not m:
        return []
    k = m.start()
    return [(k, k + 1, "&&")]


def template_argument_ordinals(args, pattern):
    """The 1-based places, among the function arguments of a factory's
    template arguments `T, A1, A2...`, of those whose type matches pattern."""
    pieces = [args[a:e].strip() for a, e in split_top(args)][1:]
    return {k + 1 for k, t in enumerate(pieces) if re.search(pattern, t)}


# The errors fixit_edits reads (each may give edits; the notes it also reads
# follow one of them).
FIXIT_ERRORS = (FIXABLE, INVALID_OPERANDS, NO_MATCH, CAST_NO_MATCH, AMBIGUOUS, PTR_ZERO, TEMPLATE_NO_ARGS,
                NO_DEDUCTION, TEMP_BIND, ENUM_INIT)


def fixable(stderr):
    """Whether stderr (a failed Clang parse or compile) holds an error of a
    kind fixit_edits reads: the user's text's, which another --msvc round
    may fix (tile_compiler.py: a round's parse with the prefix header that
    fails on them is that round's answer)."""
    return any(r.match(ln) for ln in stderr.splitlines() for r in FIXIT_ERRORS) or \
        CONST_CALL.search(stderr) is not None


def fixit_edits(stderr, texts, edits_of, win=True):
    """Edits (original coordinates) per file for the FIXABLE errors in
    stderr, and for calls that pass a temporary where a non-const reference
    is expected (NO_MATCH + LVALUE_NOTE); texts: path -> text of the
    project's files; edits_of(path): the edits its copy was made with."""
    out = {}
    pending = None  # (path, offset, {argument ordinals}) of a call without a match
    wide = None  # (path or None, {argument ordinals}) of a file stream given a wide name
    ambiguous = None  # (path, offset, name, [candidates]) of an ambiguous name
    converted = None  # (path, offset, {argument ordinals}) of a call whose argument needs a conversion's temporary

    def flush():
        if pending and pending[2]:
            path, s, ords = pending
            for e in call_argument_edits(texts[path], blank_comments_and_strings(texts[path]), s, sorted(ords)):
                out.setdefault(path, set()).add(e)
        if converted and converted[2]:
            path, s, ords = converted
            for e in call_argument_edits(texts[path], blank_comments_and_strings(texts[path]), s, sorted(ords),
                                         "amp_compat_msvc_convert("):
                out.setdefault(path, set()).add(e)
        if ambiguous and f"Concurrency::{ambiguous[2]}" in ambiguous[3] and all(
                c.startswith("std::") or c.startswith("Concurrency::") for c in ambiguous[3]):
            path, s, name = ambiguous[:3]
            if texts[path].startswith(name, s):
                out.setdefault(path, set()).add((s, s, "Concurrency::"))
        if wide and wide[0] and wide[2] and win:  # narrow_path: crt_compat.h (--windows-compat)
            path, s, ords = wide
            for e in call_argument_edits(texts[path], blank_comments_and_strings(texts[path]), s, sorted(ords),
                                         "amp_compat_crt::narrow_path("):
                out.setdefault(path, set()).add(e)

    for ln in stderr.splitlines():
        io = INVALID_OPERANDS.match(ln)
        if io and io.group(4) == io.group(5) and os.path.abspath(io.group(1)) in texts:
            # Clang 22 rejects `a.p != b.p` on __declspec(property) members in
            # a template when any operator!= is in sight: on that line, the
            # properties of amp_compat's arrays are read through their getters.
            path = os.path.abspath(io.group(1))
            text = texts[path]
            lo = original_offset(text, edits_of(path), int(io.group(2)), 1)
            hi = text.find("\n", lo)
            hi = len(text) if hi < 0 else hi
            if lo >= 0:
                for p in AMP_PROPERTY.finditer(text, lo, hi):
                    out.setdefault(path, set()).add((p.start(1), p.end(1), f"get_{p.group(1)}()"))
        nm = NO_MATCH.match(ln)
        if nm or re.match(r"^\S.*?:\d+:\d+: (?:fatal )?error: ", ln):
            flush()
            pending = wide = ambiguous = converted = None
            cm = nm or CAST_NO_MATCH.match(ln)
            if cm and os.path.abspath(cm.group(1)) in texts:
                path = os.path.abspath(cm.group(1))
                s = original_offset(texts[path], edits_of(path), int(cm.group(2)), int(cm.group(3)))
                if s >= 0:
                    converted = (path, s, set())
            am = AMBIGUOUS.match(ln)
            if am and os.path.abspath(am.group(1)) in texts:
                path = os.path.abspath(am.group(1))
                s = original_offset(texts[path], edits_of(path), int(am.group(2)), int(am.group(3)))
                if s >= 0:
                    ambiguous = (path, s, am.group(4), [])
            pz = PTR_ZERO.match(ln)
            if pz and os.path.abspath(pz.group(1)) in texts:
                path = os.path.abspath(pz.group(1))
                s = original_offset(texts[path], edits_of(path), int(pz.group(2)), int(pz.group(3)))
                if s >= 0:
                    for e in pointer_zero_edits(blank_comments_and_strings(texts[path]), s, pz.group(4)):
                        out.setdefault(path, set()).add(e)
            tn = TEMPLATE_NO_ARGS.match(ln) or NO_DEDUCTION.match(ln)
            if tn and os.path.abspath(tn.group(1)) in texts:
                path = os.path.abspath(tn.group(1))
                s = original_offset(texts[path], edits_of(path), int(tn.group(2)), int(tn.group(3)))
                if s >= 0:
                    for e in dependent_base_name_edits(blank_comments_and_strings(texts[path]), s, tn.group(4),
                                                       declared=tn.re is NO_DEDUCTION):
                        out.setdefault(path, set()).add(e)
            tb = TEMP_BIND.match(ln)
            if tb and os.path.abspath(tb.group(1)) in texts:
                path = os.path.abspath(tb.group(1))
                s = original_offset(texts[path], edits_of(path), int(tb.group(2)), int(tb.group(3)))
                if s >= 0:
                    for e in reference_declarator_edits(blank_comments_and_strings(texts[path]), s):
                        out.setdefault(path, set()).add(e)
            if nm:
                path = os.path.abspath(nm.group(1))
                stream = nm.group(4) in (None, "open")
                s = -1
                if path in texts:
                    s = original_offset(texts[path], edits_of(path), int(nm.group(2)), int(nm.group(3)))
                    if s >= 0:
                        pending = (path, s, set())
                if stream:
                    wide = (path, s, set()) if s >= 0 else (None, -1, set())
        cd = CANDIDATE.search(ln)
        if cd and ambiguous:
            ambiguous[3].append(cd.group(1))
        lv = LVALUE_NOTE.search(ln)
        if lv and pending:
            pending[2].add(int(lv.group(1)))
        cv = CONVERSION_NOTE.search(ln)
        if cv and converted:
            converted[2].add(int(cv.group(1)))
        wn = WIDE_NOTE.search(ln)
        if wn and wide and wide[0]:
            wide[2].add(int(wn.group(1)))
        fw = FORWARD_NOTE.match(ln)
        if fw and wide and not wide[0] and os.path.abspath(fw.group(1)) in texts:
            path = os.path.abspath(fw.group(1))
            s = original_offset(texts[path], edits_of(path), int(fw.group(2)), int(fw.group(3)))
            ords = template_argument_ordinals(fw.group(4), r"basic_string<wchar_t|\bwstring\b|wchar_t\s*(?:\*|\[)")
            if s >= 0 and ords:
                wide = (path, s, ords)
        cc = CONST_CALL.search(ln)
        if cc:
            name = re.sub(r"<.*", "", cc.group(1)).split("::")[-1].strip()
            for path, text in texts.items():
                for e in const_call_operator_edits(blank_comments_and_strings(text), name):
                    out.setdefault(path, set()).add(e)
        va = NON_POD_VARARG.match(ln)
        if va and os.path.abspath(va.group(1)) in texts:
            path = os.path.abspath(va.group(1))
            s = original_offset(texts[path], edits_of(path), int(va.group(2)), int(va.group(3)))
            if s >= 0:
                for e in argument_edits(blank_comments_and_strings(texts[path]), s, "amp_compat_msvc_vararg("):
                    out.setdefault(path, set()).add(e)
        en = ENUM_INIT.match(ln)
        if en and os.path.abspath(en.group(1)) in texts:
            path = os.path.abspath(en.group(1))
            s = original_offset(texts[path], edits_of(path), int(en.group(2)), int(en.group(3)))
            if s >= 0:
                for e in enum_initializer_edits(blank_comments_and_strings(texts[path]), s, en.group(4)):
                    out.setdefault(path, set()).add(e)
        m = FIXABLE.match(ln)
        if not m:
            continue
        path = os.path.abspath(m.group(1))  # as on the command line, or a copy's #line name
        if path not in texts:
            continue
        text = texts[path]
        s = original_offset(text, edits_of(path), int(m.group(2)), int(m.group(3)))
        if s < 0:
            continue
        if m.group(6):
            t = TRAIT_USE.match(text, s)
            if t:
                out.setdefault(path, set()).add(
                    (s, t.end(), f"typename std::iterator_traits<{t.group(1)}>::{t.group(2)}"))
            continue
        out.setdefault(path, set()).add((s, s, "typename " if m.group(4) else "template "))
    flush()
    return out


def describe(edits):
    kinds = []
    if any(rep.startswith("template <") for _, _, rep in edits):
        kinds.append("class templates naming later declarations defined after them")
    if any(rep.startswith(", ") for _, _, rep in edits):
        kinds.append("unsigned template parameters deduced from AMP types through an int one")
    if any(rep.startswith("AMP_MSVC") for _, _, rep in edits):
        kinds.append("_MSC_VER -> AMP_MSVC_VER")
    if any(rep == "" for _, _, rep in edits):
        kinds.append("default template arguments of out-of-class member definitions dropped")
    if any(rep in (DLL_EXPORT, DLL_IMPORT) for _, _, rep in edits):
        kinds.append("DLL export/import markers as ELF visibility")
    if any(rep == "std::" for _, _, rep in edits):
        kinds.append("type_info -> std::type_info")
    if any(rep.startswith("static_cast<") and rep.endswith(">(") for _, _, rep in edits):
        kinds.append("scoped enumerators initialised from another enum, converted")
    if any(rep.startswith("static_cast<") and rep.endswith("(0)") for _, _, rep in edits):
        kinds.append("pointers compared with 0 (the null pointer)")
    if any(rep == "&&" for _, _, rep in edits):
        kinds.append("temporaries bound to non-const references (T& -> T&&)")
    if any(rep == "Concurrency::" for _, _, rep in edits):
        kinds.append("names ambiguous with std:: qualified as AMP's")
    if any(rep.startswith(" static constexpr ") for _, _, rep in edits):  # (function templates': " int amp_int_" too)
        kinds.append("unsigned ranks of partial specializations over AMP types")
    if any(rep == " const" for _, _, rep in edits):
        kinds.append("function objects of standard containers callable as const")
    if any(rep == "amp_compat_msvc_convert(" for _, _, rep in edits):
        kinds.append("converted temporaries bound to non-const references")
    if any(rep == "amp_compat_crt::narrow_path(" for _, _, rep in edits):
        kinds.append("wide file names given to file streams")
    if any(rep.startswith("typename ") and rep != "typename " for _, _, rep in edits):
        kinds.append("dependent bases' typedefs named like a namespace's class template")
    if any(rep == "amp_compat_msvc_vararg(" for _, _, rep in edits):
        kinds.append("class objects passed through `...` as MSVC passes them")
    if any(rep == " return amp_compat_msvc_no_value(); " for _, _, rep in edits):
        kinds.append("functions returning a reference that end without a return statement")
    if any(rep == "template " for _, _, rep in edits):
        kinds.append("`template` before dependent member templates")
    return ", ".join(kinds)


def apply(text, edits):
    """text with edits (start, end, replacement) applied; of edits whose spans
    overlap (two instantiations' fix-its for one token), the first in order
    only, so that the text stays well formed and the compiler names what is
    left."""
    low = len(text) + 1
    for s, e, rep in sorted(edits, reverse=True):
        if e > low:
            continue
        text = text[:s] + rep + text[e:]
        low = s
    return text


if __name__ == "__main__":
    src = Path(sys.argv[1]).read_text(errors="replace")
    sys.stdout.write(apply(src, msvc_edits(src)))


# ---- the pass (passes/__init__.py)
NAME = "MSVC dialect (--msvc; passes/msvc.py)"
REPORT_KEYS = ("MSVC dialect:",)


def mode_applies(job):
    return job.msvc


def applies(job):
    """--msvc: every project file is read (its edits have no cheap scan, and
    Clang's fix-its are applied after a failed compile)."""
    return job.msvc


def file_edits(job, f, prior, extra):
    """(edits, report lines) of file f (a FileView); extra: path -> the
    fix-it edits the launcher collected."""
    me = msvc_edits(f.kept, f.path) + sorted(extra.get(f.path, ()))
    if not me:
        return [], []
    return me, [f"{Path(f.path).name}: MSVC dialect: {describe(me)}"]
