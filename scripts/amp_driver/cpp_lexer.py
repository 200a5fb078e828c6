"""Where a C++ source's comments, literals, preprocessor directives and line
splices are, found as the compiler's translation phases 1-3 find them.

The source rewrites (amp_driver/passes/restrict_pairs.py) scan C++ with regular expressions;
they must never look inside a comment or a literal, and must see a token that
a backslash-newline splits as one token. This module gives them that:

  tokens(text)        the tokens, as Token(kind, start, end, ...): kinds
                      identifier, number, literal (character, string or raw
                      string, with its encoding prefix and user-defined
                      suffix), punct (one character), comment, directive (a
                      whole preprocessor line, continuation lines and the
                      comments in it included) and splice (a backslash-newline
                      between tokens of code).
  mask(text)          the text with the comments, literals' contents and
                      directives replaced by spaces, and the backslash of each
                      splice in code too; every line break stays, so the
                      length and every position are those of the text.
  join_splices(text)  the text with the splices in code removed (those inside
                      literals, comments and directives stay), each removed
                      line break put back at the end of its logical line, so
                      that later lines keep their numbers.

What the lexer follows (C++17/20 as GCC and Clang lex it):
- a backslash followed by a line break (spaces or tabs between are accepted,
  as GCC and Clang accept them) joins two lines anywhere, in identifiers,
  numbers, literals and // comments (which then continue) alike, but not
  inside a raw string literal, where the standard reverts splices;
- encoding prefixes L, u, U, u8 on character and string literals; raw strings
  R"delim( ... )delim" with every prefix (R, LR, uR, UR, u8R), over any
  number of lines; a user-defined suffix (`"x"_s`, `'c'_ch`) is part of its
  literal;
- a quote inside a number is a digit separator (1'000'000, 0x1'F, 0b1'0): a
  pp-number takes a `'` followed by a digit, letter or underscore;
- a character or string literal not closed on its line ends at the line break
  (the compiler says "missing terminating ' character" and goes on), so that
  an apostrophe in `#error don't` or in #if 0 prose never swallows the rest
  of the file;
- a directive is a line whose first token is # (or %:), whitespace and
  comments before it allowed; it ends at the first line break that is not
  spliced and not inside a block comment; `#include <...>` takes its header
  name whole (a quote in it opens nothing); a byte order mark at the start of
  the file is skipped, as the compilers skip it.
Not followed: trigraphs (removed in C++17) and universal character names
(both are spelled inside identifiers and literals, which are scanned whole).
"""
import re
from collections import namedtuple

# kind: see above; body: (start, end) of a literal's contents between its
# quotes (raw strings: the delimiter and parentheses included), else None;
# spelling: an identifier's or directive name's text with the splices removed.
Token = namedtuple("Token", "kind start end body spelling")

SPLICE = re.compile(r"\\[ \t\f\v]*\r?\n")
ENCODING_PREFIXES = {"L", "u", "U", "u8"}
RAW_PREFIXES = {"R", "LR", "uR", "UR", "u8R"}
INCLUDE_DIRECTIVES = {"include", "include_next", "import"}
RAW_DELIM = re.compile(r'[^ ()\\\t\v\f\n"]{0,16}\(')
WS = " \t\r\f\v"


def _after_splices(text, i):
    """The index of the first character at or after i that is not part of a
    backslash-newline."""
    while i < len(text) and text[i] == "\\":
        m = SPLICE.match(text, i)
        if not m:
            break
        i = m.end()
    return i


def _is_ident_char(c):
    return c.isalnum() or c == "_" or c == "$" or ord(c) >= 0x80


def _line_end(text, i):
    """The index of the first line break at or after i that is not spliced
    (len(text) when there is none)."""
    while True:
        k = text.find("\n", i)
        if k < 0:
            return len(text)
        p = k - 1
        if p >= 0 and text[p] == "\r":
            p -= 1
        while p >= 0 and text[p] in " \t\f\v":
            p -= 1
        if p < 0 or text[p] != "\\":
            return k
        i = k + 1


def _identifier(text, i):
    """(end, spelling) of the identifier starting at text[i]."""
    chars = []
    n = len(text)
    while True:
        i = _after_splices(text, i)
        if i < n and _is_ident_char(text[i]):
            chars.append(text[i])
            i += 1
        else:
            return i, "".join(chars)


def _number(text, i):
    """The end of the pp-number starting at text[i] (a digit, or '.' and a
    digit): digits, letters, '_', '.', exponent signs, and digit separators."""
    n = len(text)
    i += 1
    while True:
        j = _after_splices(text, i)
        if j >= n:
            return j if j > i else i
        c = text[j]
        if c in "eEpP":
            k = _after_splices(text, j + 1)
            i = k + 1 if k < n and text[k] in "+-" else j + 1
        elif _is_ident_char(c) or c == ".":
            i = j + 1
        elif c == "'":
            k = _after_splices(text, j + 1)
            if k < n and (text[k].isalnum() or text[k] == "_"):
                i = k + 1
            else:
                return i
        else:
            return i


def _suffix(text, i):
    """The end of a user-defined literal suffix at text[i] (i when none)."""
    j = _after_splices(text, i)
    if j < len(text) and (text[j].isalpha() or text[j] == "_" or ord(text[j]) >= 0x80):
        return _identifier(text, j)[0]
    return i


def _quoted(text, q):
    """text[q] is ' or ": (body start, body end, token end) of the literal,
    escapes and splices honoured, ending at the closing quote or, unclosed,
    at the line break."""
    quote, n = text[q], len(text)
    k = q + 1
    while True:
        k = _after_splices(text, k)
        if k >= n:
            return q + 1, n, n
        c = text[k]
        if c == quote:
            return q + 1, k, _suffix(text, k + 1)
        if c == "\n":
            end = k - 1 if text[k - 1] == "\r" else k
            return q + 1, end, end
        if c == "\\":
            k = _after_splices(text, k + 1)
            if k < n and text[k] != "\n":
                k += 1
        else:
            k += 1


def _raw(text, q):
    """text[q] is the '"' of a raw string: (body start, body end, token end),
    or None when no valid delimiter follows (the compiler rejects it)."""
    d = RAW_DELIM.match(text, q + 1)
    if not d:
        return None
    close = ")" + text[q + 1:d.end() - 1] + '"'
    k = text.find(close, d.end())
    if k < 0:
        return q + 1, len(text), len(text)
    return q + 1, k + len(close) - 1, _suffix(text, k + len(close))


def _block_comment_end(text, i):
    """text[i:] follows '/*': the index after its '*/' (splices between the
    two characters allowed), or len(text) when unclosed."""
    while True:
        k = text.find("*", i)
        if k < 0:
            return len(text)
        j = _after_splices(text, k + 1)
        if j < len(text) and text[j] == "/":
            return j + 1
        i = k + 1


_TOKENS_CACHE = {}  # text -> its tokens: the launcher's passes lex the same files several times


def tokens(text):
    """The tokens of text (see the module's docstring), in order; tokens inside
    a directive are part of the directive token. The list is shared between
    calls with the same text: do not modify it."""
    cached = _TOKENS_CACHE.get(text)
    if cached is None:
        if len(_TOKENS_CACHE) >= 32:
            _TOKENS_CACHE.clear()
        cached = _TOKENS_CACHE[text] = _tokens(text)
    return cached


def _tokens(text):
    out = []
    n = len(text)
    i = 1 if text.startswith("\ufeff") else 0  # a UTF-8 byte order mark (Visual Studio writes one) is no token
    line_start = True  # nothing but whitespace and comments since the last line break
    directive = None  # (start, name) of the directive being read
    want_header = False  # a directive name of #include was just read

    def emit(kind, start, end, body=None, spelling=None):
        if directive is None:
            out.append(Token(kind, start, end, body, spelling))

    while i < n:
        c = text[i]
        if c == "\n":
            if directive is not None:
                out.append(Token("directive", directive[0], i, None, directive[1]))
                directive = None
            line_start = True
            i += 1
            continue
        if c in WS:
            i += 1
            continue
        if c == "\\":
            m = SPLICE.match(text, i)
            if m:
                emit("splice", i, m.end())
                i = m.end()
                continue
        nxt = _after_splices(text, i + 1)
        if c == "/" and nxt < n and text[nxt] == "/":
            end = _line_end(text, nxt + 1)
            if end < n and text[end - 1] == "\r":
                end -= 1  # a CRLF line break is not part of the comment
            emit("comment", i, end)
            i = end
            continue
        if c == "/" and nxt < n and text[nxt] == "*":
            end = _block_comment_end(text, nxt + 1)
            emit("comment", i, end)
            i = end
            continue
        if line_start and directive is None and (c == "#" or (c == "%" and nxt < n and text[nxt] == ":")):
            start = i
            i = i + 1 if c == "#" else nxt + 1
            j = i
            while True:  # whitespace, splices and block comments before the name
                j = _after_splices(text, j)
                if j < n and text[j] in WS:
                    j += 1
                elif text.startswith("/*", j):
                    j = _block_comment_end(text, j + 2)
                else:
                    break
            name = ""
            if j < n and (text[j].isalpha() or text[j] == "_"):
                j, name = _identifier(text, j)
            directive = (start, name)
            want_header = name in INCLUDE_DIRECTIVES
            line_start = False
            i = j
            continue
        line_start = False
        if want_header:
            want_header = False
            if c == "<":  # a header name: quotes and slashes in it are characters
                k = i + 1
                while k < n and text[k] not in ">\n":
                    k += 1
                i = k + 1 if k < n and text[k] == ">" else k
                continue
        if c.isdigit() or (c == "." and nxt < n and text[nxt].isdigit()):
            end = _number(text, i)
            emit("number", i, end)
            i = end
            continue
        if c.isalpha() or c == "_" or c == "$" or ord(c) >= 0x80:
            end, spelling = _identifier(text, i)
            q = end  # a prefixed literal: the quote right after the prefix
            if q < n and text[q] == '"' and spelling in RAW_PREFIXES:
                r = _raw(text, q)
                if r:
                    emit("literal", i, r[2], (r[0], r[1]), spelling)
                    i = r[2]
                    continue
            if q < n and ((text[q] == "'" and spelling in ENCODING_PREFIXES) or
                          (text[q] == '"' and spelling in ENCODING_PREFIXES | RAW_PREFIXES)):
                b0, b1, end = _quoted(text, q)
                emit("literal", i, end, (b0, b1), spelling)
                i = end
                continue
            emit("identifier", i, end, None, spelling)
            i = end
            continue
        if c in "'\"":
            b0, b1, end = _quoted(text, i)
            emit("literal", i, end, (b0, b1), "")
            i = end
            continue
        emit("punct", i, i + 1)
        i += 1
    if directive is not None:
        out.append(Token("directive", directive[0], n, None, directive[1]))
    return out


def _blank(out, start, end):
    for k in range(start, end):
        if out[k] != "\n":
            out[k] = " "


def mask(text, keep_directives=False):
    """The text with comments, directives and the contents of literals (their
    prefixes, quotes and suffixes stay) replaced by spaces, and the backslash
    of each splice in code too; line breaks and the length are kept.
    keep_directives: preprocessor lines stay as written (for rewrites that
    read #if/#define lines themselves)."""
    out = list(text)
    for t in tokens(text):
        if t.kind == "comment" or (t.kind == "directive" and not keep_directives):
            _blank(out, t.start, t.end)
        elif t.kind == "literal":
            _blank(out, t.body[0], t.body[1])
        elif t.kind == "splice" or (t.kind in ("identifier", "number") and "\\" in text[t.start:t.end]):
            for s in SPLICE.finditer(text, t.start, t.end):  # the backslash (and blanks), not the line break
                _blank(out, s.start(), s.end() - (2 if text[s.end() - 2] == "\r" else 1))
    return "".join(out)


def join_splices(text):
    """The text with every backslash-newline in code (between or inside
    tokens) removed; each removed line break is put back at the first line
    break that follows outside a literal (or at the end), so that every later
    line keeps its number. Splices in comments, literals and directives stay.
    Returns text itself when it has none."""
    if not SPLICE.search(text):
        return text
    toks = tokens(text)
    kept = [(t.start, t.end) for t in toks if t.kind in ("comment", "directive", "literal")]
    literals = [(t.start, t.end) for t in toks if t.kind == "literal"]
    removed = []
    k = 0
    for s in SPLICE.finditer(text):
        while k < len(kept) and kept[k][1] <= s.start():
            k += 1
        if k < len(kept) and kept[k][0] <= s.start() < kept[k][1]:
            continue
        removed.append(s)
    if not removed:
        return text
    pieces, pos, owed, li = [], 0, 0, 0
    breaks = [m.start() for m in re.finditer("\n", text)]
    events = sorted([(s.start(), 0, s) for s in removed] + [(b, 1, None) for b in breaks], key=lambda e: e[:2])
    for at, kind, s in events:
        if kind == 0:
            pieces.append(text[pos:at])
            pos = s.end()
            owed += 1
            continue
        if at < pos or owed == 0:
            continue  # a line break that a removed splice held, or nothing owed
        while li < len(literals) and literals[li][1] <= at:
            li += 1
        if li < len(literals) and literals[li][0] <= at < literals[li][1]:
            continue  # inside a raw string: its contents stay as written
        pieces.append(text[pos:at] + "\n" * owed)
        pos, owed = at, 0
    pieces.append(text[pos:] + "\n" * owed)
    return "".join(pieces)


def match_fwd(code, pos, open_c, close_c):
    """Index of the bracket that closes the one at code[pos], or -1; code is
    masked text (mask()), so brackets in comments and literals are gone."""
    depth = 0
    for i in range(pos, len(code)):
        if code[i] == open_c:
            depth += 1
        elif code[i] == close_c:
            depth -= 1
            if depth == 0:
                return i
    return -1


def match_back(code, pos, open_c, close_c):
    """Index of the bracket that opens the one at code[pos] (a close_c), or
    -1; code is masked text."""
    depth = 0
    for i in range(pos, -1, -1):
        if code[i] == close_c:
            depth += 1
        elif code[i] == open_c:
            depth -= 1
            if depth == 0:
                return i
    return -1
