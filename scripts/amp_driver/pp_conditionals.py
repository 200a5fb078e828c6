"""Which parts of a C++ source the preprocessor keeps, as far as the text
passes can tell without running it.

The launcher's text passes (amp_driver/passes/restrict_pairs.py and the passes it calls) read
a source as written. Code in a conditional group the compile does not take
(`#else` of an `#ifndef` that holds, `#if 0`) is no code for the compiler, but
it is text for the passes: a declarator in an inactive `#else` right after an
active one reads as `restrict(amp, cpu) int f(long x)`. This module evaluates
the conditional directives (#if, #ifdef, #ifndef, #elif, #elifdef, #elifndef,
#else, #endif) with what is known of the compile:

  * the -D/-U options of the compile (Env.from_args) and a few macros whose
    presence the compile decides (__cplusplus from -std, _MSC_VER from
    -fms-compatibility-version, _WIN32/_WIN64 never on these targets,
    __CUDA_ARCH__ and __HIP_DEVICE_COMPILE__ unknown in GPU compiles, which
    the passes read once for the host and the device pass; Clang defines no
    _MSC_VER on Linux, but under --msvc the launcher's MSVC pass spells every
    _MSC_VER as AMP_MSVC_VER, which flags.txt sets to the same version);
  * the file's own #define/#undef lines, in order, where they are active;
  * an include guard (`#ifndef X` / `#if !defined X` followed by `#define X`)
    is taken: a file included again is skipped by the compiler, not read.

Every other macro is unknown (it may come from a header the passes do not
read), and a condition that depends on one is undecided: three values,
True (kept), False (dropped), None (undecided). segments() gives the state of
every stretch of text between directives; blank_inactive() blanks what is
certainly dropped, keeping line breaks and positions.
"""
import re
from collections import namedtuple

from .cpp_lexer import SPLICE, tokens
from .job import scan

# start, end: a stretch of text between two directives (directive lines not
# included); state: True / False / None (undecided); conditional: whether it
# lies inside a conditional group.
Segment = namedtuple("Segment", "start end state conditional")

CONDITIONALS = {"if", "ifdef", "ifndef", "elif", "elifdef", "elifndef", "else", "endif"}
_TOKEN = re.compile(r"\s*(?:(0[xX][0-9a-fA-F']+|0[bB][01']+|\d[\d']*)[uUlLzZ]*"
                    r"|([A-Za-z_]\w*)|('(?:\\.|[^'\\])*')|(\|\||&&|==|!=|<=|>=|<<|>>|[-+*/%<>!~&|^?:(),]))")
_STD_CPLUSPLUS = {"98": "199711L", "03": "199711L", "11": "201103L", "0x": "201103L", "14": "201402L",
                  "1y": "201402L", "17": "201703L", "1z": "201703L", "20": "202002L", "2a": "202002L",
                  "23": "202302L", "2b": "202302L"}
_QUERIES = {"__has_include", "__has_include_next", "__has_builtin", "__has_attribute", "__has_cpp_attribute",
            "__has_feature", "__has_extension", "__has_warning", "__has_declspec_attribute"}


class Env:
    """What is known of the macros: defined (name -> replacement text, or None
    when its value is unknown or it is function-like) and undefined names;
    any other name is unknown."""

    def __init__(self, defined=None, undefined=()):
        self.defined = dict(defined or {})
        self.undefined = set(undefined)

    def copy(self):
        return Env(self.defined, self.undefined)

    def define(self, name, value):
        self.defined[name] = value
        self.undefined.discard(name)

    def undef(self, name):
        self.defined.pop(name, None)
        self.undefined.add(name)

    def forget(self, name):
        self.defined.pop(name, None)
        self.undefined.discard(name)

    @classmethod
    def from_args(cls, args, gpu):
        """The macros a compile's arguments decide (see the module's text).
        gpu: whether it is a CUDA/HIP compile (the job's mode, job.Job.gpu)."""
        env = cls()
        env.undefined.update({"_WIN32", "_WIN64", "__APPLE__", "_MSC_VER", "_MSC_FULL_VER"})
        env.define("__linux__", "1")
        env.define("__cplusplus", None)
        if not gpu:
            env.undefined.update({"__CUDA_ARCH__", "__HIP_DEVICE_COMPILE__", "__CUDACC__", "__HIPCC__",
                                  "__HIP__", "__NVCC__"})
        for _, opt, value in scan(args):  # the one reading of the compile line (job.py)
            if opt is None:
                continue
            a = opt + value if opt in ("-D", "-U") and value is not None else opt
            if a.startswith("-D"):
                name, eq, value = a[2:].partition("=")
                if "(" in name:
                    env.define(name.split("(")[0], None)
                elif name:
                    env.define(name, value if eq else "1")
            elif a.startswith("-U") and len(a) > 2:
                env.undef(a[2:])
            elif a.startswith("-std="):
                v = re.search(r"(\d\w)$", a)
                env.define("__cplusplus", _STD_CPLUSPLUS.get(v.group(1)) if v else None)
            elif a.startswith("-fms-compatibility-version="):
                m = re.match(r"(\d+)\.(\d+)", a.split("=", 1)[1])
                if m:
                    env.define("_MSC_VER", str(int(m.group(1)) * 100 + int(m.group(2))))
                    env.define("_MSC_FULL_VER", None)
        return env


class _Expr:
    """A #if expression evaluated in three values: ints, or None (unknown)."""

    def __init__(self, text, env, depth=0):
        self.env, self.depth = env, depth
        self.toks = []
        pos = 0
        text = text.strip()
        while text[pos:].strip():
            m = _TOKEN.match(text, pos)
            if not m or m.end() == pos:
                raise ValueError(f"cannot read `{text[pos:]}`")
            pos = m.end()
            if m.group(1) is not None:
                self.toks.append(("num", int(m.group(1).replace("'", ""), 0)
                                  if not re.fullmatch(r"0\d+", m.group(1).replace("'", ""))
                                  else int(m.group(1).replace("'", ""), 8)))
            elif m.group(2) is not None:
                self.toks.append(("id", m.group(2)))
            elif m.group(3) is not None:
                self.toks.append(("num", None))  # a character literal: value not computed
            else:
                self.toks.append(("op", m.group(4)))
        self.i = 0

    def peek(self):
        return self.toks[self.i] if self.i < len(self.toks) else ("end", None)

    def take(self, op=None):
        t = self.peek()
        if op is not None and t != ("op", op):
            raise ValueError(f"expected `{op}`")
        self.i += 1
        return t

    def value(self):
        v = self.ternary()
        if self.peek()[0] != "end":
            raise ValueError("trailing tokens")
        return v

    def ternary(self):
        c = self.binary(0)
        if self.peek() == ("op", "?"):
            self.take()
            a = self.ternary()
            self.take(":")
            b = self.ternary()
            if c is None:
                return a if a == b else None
            return a if c else b
        return c

    _PREC = [("||",), ("&&",), ("|",), ("^",), ("&",), ("==", "!="), ("<", ">", "<=", ">="), ("<<", ">>"),
             ("+", "-"), ("*", "/", "%")]

    def binary(self, level):
        if level == len(self._PREC):
            return self.unary()
        left = self.binary(level + 1)
        while self.peek()[0] == "op" and self.peek()[1] in self._PREC[level]:
            op = self.take()[1]
            right = self.binary(level + 1)
            left = self.apply(op, left, right)
        return left

    @staticmethod
    def apply(op, a, b):
        if op == "||":
            return 1 if a or b else (None if a is None or b is None else 0)
        if op == "&&":
            return 0 if a == 0 or b == 0 else (None if a is None or b is None else 1)
        if a is None or b is None:
            return None
        if op in ("/", "%") and b == 0:
            return None
        return {"|": lambda: a | b, "^": lambda: a ^ b, "&": lambda: a & b, "==": lambda: int(a == b),
                "!=": lambda: int(a != b), "<": lambda: int(a < b), ">": lambda: int(a > b),
                "<=": lambda: int(a <= b), ">=": lambda: int(a >= b), "<<": lambda: a << b if b < 64 else None,
                ">>": lambda: a >> b, "+": lambda: a + b, "-": lambda: a - b, "*": lambda: a * b,
                "/": lambda: int(a / b), "%": lambda: a - b * int(a / b)}[op]()

    def unary(self):
        t = self.peek()
        if t[0] == "op" and t[1] in ("!", "~", "-", "+"):
            self.take()
            v = self.unary()
            if v is None:
                return None
            return {"!": int(not v), "~": ~v, "-": -v, "+": v}[t[1]]
        return self.primary()

    def skip_parens(self):
        self.take("(")
        depth = 1
        while depth:
            t = self.take()
            if t[0] == "end":
                raise ValueError("unbalanced parentheses")
            if t == ("op", "("):
                depth += 1
            elif t == ("op", ")"):
                depth -= 1

    def primary(self):
        t = self.take()
        if t[0] == "num":
            return t[1]
        if t == ("op", "("):
            v = self.ternary()
            self.take(")")
            return v
        if t[0] != "id":
            raise ValueError("expected a value")
        name = t[1]
        if name == "defined":
            paren = self.peek() == ("op", "(")
            if paren:
                self.take()
            n = self.take()
            if n[0] != "id":
                raise ValueError("defined without a name")
            if paren:
                self.take(")")
            return self.defined(n[1])
        if name in _QUERIES:
            if self.peek() == ("op", "("):
                self.skip_parens()
            return None
        if name in ("true", "false"):
            return int(name == "true")
        if self.peek() == ("op", "("):  # a function-like macro's call
            self.skip_parens()
            return None if name not in self.env.undefined else 0
        if name in self.env.undefined:
            return 0
        if name in self.env.defined:
            value = self.env.defined[name]
            if value is None or self.depth > 8:
                return None
            if not value.strip():
                raise ValueError(f"{name} expands to nothing")
            try:
                return _Expr(value, self.env, self.depth + 1).value()
            except (ValueError, RecursionError):
                return None
        return None

    def defined(self, name):
        if name in self.env.defined or name in _QUERIES:
            return 1
        if name in self.env.undefined:
            return 0
        return None


def evaluate(expr, env):
    """The value of a #if expression: 1, 0 or None (undecided or unreadable)."""
    try:
        v = _Expr(expr, env).value()
    except (ValueError, RecursionError):
        return None
    return None if v is None else int(bool(v))


def _directive_parts(text, tok):
    """(name, the rest of the line) of a directive token, comments and
    splices removed."""
    line = SPLICE.sub("", text[tok.start:tok.end])
    line = re.sub(r"/\*.*?\*/", " ", line, flags=re.S)
    line = re.sub(r"//.*", "", line)
    m = re.match(r"\s*(?:#|%:)\s*([A-Za-z_]\w*)?(.*)", line, re.S)
    return (m.group(1) or ""), m.group(2).strip()


def _and(a, b):
    if a is False or b is False:
        return False
    if a is None or b is None:
        return None
    return True


def _not(a):
    return None if a is None else not a


def _or(a, b):
    if a is True or b is True:
        return True
    if a is None or b is None:
        return None
    return False


def segments(text, env=None):
    """The Segments of text in order, directive lines left out; env (an Env,
    copied) is what the compile defines (default: nothing known)."""
    env = env.copy() if env is not None else Env()
    directives = [t for t in tokens(text) if t.kind == "directive"]
    out, pos = [], 0
    stack = []  # per open group: [state of its enclosing text, a branch taken (3 values), state now]
    state = True
    names = [_directive_parts(text, d) for d in directives]
    for k, d in enumerate(directives):
        if d.start > pos:
            out.append(Segment(pos, d.start, state, bool(stack)))
        pos = d.end
        name, rest = names[k]
        if name in ("if", "ifdef", "ifndef"):
            if name == "if":
                cond = evaluate(rest, env)
                cond = None if cond is None else bool(cond)
            else:
                word = re.match(r"[A-Za-z_]\w*", rest)
                cond = None
                if word:
                    dv = 1 if word.group(0) in env.defined else 0 if word.group(0) in env.undefined else None
                    cond = None if dv is None else bool(dv) == (name == "ifdef")
            guard = _guard_name(name, rest)
            if cond is None and guard and k + 1 < len(directives) and names[k + 1][0] == "define" \
                    and re.match(re.escape(guard) + r"\b", names[k + 1][1]):
                cond = True  # an include guard: a file read again is skipped whole
            branch = _and(state, cond)
            stack.append([state, cond, branch])
            state = branch
        elif name in ("elif", "elifdef", "elifndef") and stack:
            outer, taken, _ = stack[-1]
            if name == "elif":
                cond = evaluate(rest, env)
                cond = None if cond is None else bool(cond)
            else:
                word = re.match(r"[A-Za-z_]\w*", rest)
                dv = None
                if word:
                    dv = 1 if word.group(0) in env.defined else 0 if word.group(0) in env.undefined else None
                cond = None if dv is None else bool(dv) == (name == "elifdef")
            branch = _and(outer, _and(_not(taken), cond))
            stack[-1] = [outer, _or(taken, cond), branch]
            state = branch
        elif name == "else" and stack:
            outer, taken, _ = stack[-1]
            branch = _and(outer, _not(taken))
            stack[-1] = [outer, True, branch]
            state = branch
        elif name == "endif" and stack:
            state = stack.pop()[0]
        elif name in ("define", "undef"):
            m = re.match(r"([A-Za-z_]\w*)(\()?\s*(.*)", rest, re.S)
            if m and state is not False:
                if state is None:
                    env.forget(m.group(1))
                elif name == "undef":
                    env.undef(m.group(1))
                else:
                    env.define(m.group(1), None if m.group(2) else m.group(3).strip())
    if pos < len(text):
        out.append(Segment(pos, len(text), state, bool(stack)))
    return out


def _guard_name(name, rest):
    if name == "ifndef":
        m = re.match(r"([A-Za-z_]\w*)\s*$", rest)
    elif name == "if":
        m = re.match(r"!\s*defined\s*(?:\(\s*([A-Za-z_]\w*)\s*\)|([A-Za-z_]\w*))\s*$", rest)
        return (m.group(1) or m.group(2)) if m else None
    else:
        return None
    return m.group(1) if m else None


def has_conditionals(text):
    return re.search(r"^[ \t]*(?:#|%:)[ \t]*(?:if|elif|else)", text, re.M) is not None


def blank_inactive(text, masked, env=None):
    """masked (text's mask(), same length) with every stretch the compile
    certainly drops replaced by spaces; line breaks and positions kept.
    Returns masked itself when nothing is dropped."""
    if not has_conditionals(text):
        return masked
    dropped = [s for s in segments(text, env) if s.state is False]
    if not dropped:
        return masked
    out = list(masked)
    for s in dropped:
        for k in range(s.start, s.end):
            if out[k] != "\n":
                out[k] = " "
    return "".join(out)


def state_at(segs, pos):
    """The state (True/False/None) of the segment holding pos (True outside
    any segment, e.g. on a directive line)."""
    lo, hi = 0, len(segs)
    while lo < hi:
        mid = (lo + hi) // 2
        if segs[mid].end <= pos:
            lo = mid + 1
        else:
            hi = mid
    if lo < len(segs) and segs[lo].start <= pos < segs[lo].end:
        return segs[lo].state
    return True


def undecided_between(segs, a, b):
    """Whether a stretch of undecided state (inside a conditional group
    nobody can decide here) overlaps [a, b] of the text."""
    for s in segs:
        if s.end < a:
            continue
        if s.start > b:
            break
        if s.state is None:
            return True
    return False
