#!/usr/bin/env python3
"""Unit tests of scripts/amp_driver/cpp_lexer.py and of the restrict-pair rewrite that
uses it (CTest: restrict.lexer). One class per category of what the lexer must
read as the compiler does; each checks the lexer's view (tokens, mask) and that
a restrict(cpu)/restrict(amp) pair written after the construct is still
rewritten, as Windows code that uses the construct needs.

Run: python3 tests/driver/test_cpp_lexer.py [-v]
"""
import os
import sys
import tempfile
import unittest
from pathlib import Path

from amp_driver import cpp_lexer
from amp_driver.passes import restrict_pairs

PAIR = ("int which(int x) restrict(cpu) { return 1000 + x; }\n"
        "int which(int x) restrict(amp) { return 2000 + x; }\n")


def rewrite(source, name="t.cpp"):
    """The rewrite's output for one file holding source (None: left unchanged)."""
    with tempfile.TemporaryDirectory() as d:
        p = os.path.join(d, name)
        with open(p, "w", newline="") as f:
            f.write(source)
        out, _ = restrict_pairs.rewrite_files([p])
        return out.get(p)


def kinds(text):
    return [(t.kind, text[t.start:t.end]) for t in cpp_lexer.tokens(text)]


class Base(unittest.TestCase):
    def assertPairRewritten(self, before, after=""):
        """The pair after `before` (and before `after`) is rewritten, and the
        text of `before` and `after` is kept as written."""
        out = rewrite(before + PAIR + after)
        self.assertIsNotNone(out, "the pair was left unrewritten")
        self.assertIn("int which__amp_cpu(int x) restrict(cpu)", out)
        self.assertIn("int which__amp_amp(int x) restrict(amp)", out)
        self.assertIn("AMP_RESTRICT_PAIR(which__amp_cpu(", out)
        self.assertTrue(out.startswith(before), "text before the pair changed")
        self.assertTrue(out.endswith(after), "text after the pair changed")

    def assertMasked(self, text, visible):
        """mask(text) keeps the length and line breaks, and its tokens are
        exactly `visible` (whitespace-separated)."""
        m = cpp_lexer.mask(text)
        self.assertEqual(len(m), len(text))
        self.assertEqual([i for i, c in enumerate(m) if c == "\n"], [i for i, c in enumerate(text) if c == "\n"])
        self.assertEqual(m.split(), visible.split())


class EncodingPrefixes(Base):
    def test_prefixed_character_literals_are_one_token(self):
        for p in ("L", "u", "U", "u8"):
            with self.subTest(prefix=p):
                text = f"c = {p}'(';"
                self.assertEqual(kinds(text), [("identifier", "c"), ("punct", "="), ("literal", f"{p}'('"),
                                               ("punct", ";")])
                self.assertMasked(text, f"c = {p}' ';")

    def test_prefixed_string_literals(self):
        for p in ("L", "u", "U", "u8"):
            with self.subTest(prefix=p):
                self.assertMasked(f's = {p}"(\\")";', f's = {p}"    ";')

    def test_pair_after_wide_literals(self):
        for lit in ("L'('", "L')'", 'L"("', "u8'('", "U'\\''", "u'\"'"):
            with self.subTest(literal=lit):
                self.assertPairRewritten(f"const auto open_paren = {lit};\n")

    def test_identifier_ending_like_a_prefix_is_no_prefix(self):
        # `xL` is an identifier; a quote right after it is a literal of its own
        self.assertEqual(kinds("xL 'a'"), [("identifier", "xL"), ("literal", "'a'")])


class RawStrings(Base):
    def test_every_prefix(self):
        for p in ("R", "LR", "uR", "UR", "u8R"):
            with self.subTest(prefix=p):
                text = f'auto s = {p}"d(a)" \' ( // /* )d";'
                self.assertEqual(kinds(text)[3], ("literal", text[9:-1]))
                self.assertMasked(text, f'auto s = {p}" ";')

    def test_across_lines_with_quotes_and_parentheses(self):
        text = 'auto s = R"xyz(line ( one "\n  line \' two )" \\\n)xyz";\nint after;'
        t = kinds(text)
        self.assertEqual(t[3], ("literal", text[9:text.index(";")]))
        self.assertEqual(t[-3:], [("identifier", "int"), ("identifier", "after"), ("punct", ";")])
        self.assertMasked(text, 'auto s = R" "; int after;')

    def test_pair_after_raw_strings(self):
        self.assertPairRewritten('const char* q = R"(say "hi" (or \'bye\')"; // ok\n'
                                 'const wchar_t* w = LR"delim(\n) " )delim";\n')

    def test_raw_prefix_is_no_character_prefix(self):
        self.assertEqual(kinds("R'x'"), [("identifier", "R"), ("literal", "'x'")])

    def test_invalid_delimiter_is_no_raw_string(self):
        # a space cannot be in the delimiter: the compiler rejects it; the lexer
        # reads an ordinary string (ending on its line) rather than eat the file
        self.assertEqual(kinds('R" x(a)x" y')[0][0], "literal")


class UserDefinedSuffixes(Base):
    def test_suffix_is_part_of_the_literal(self):
        self.assertEqual(kinds('"ab"_s + L"c"sv'), [("literal", '"ab"_s'), ("punct", "+"), ("literal", 'L"c"sv')])
        self.assertEqual(kinds("'x'_ch"), [("literal", "'x'_ch")])
        self.assertEqual(kinds("12_km 1.5e3_m"), [("number", "12_km"), ("number", "1.5e3_m")])

    def test_literal_operator_declaration(self):
        self.assertEqual(kinds('operator""_km('),
                         [("identifier", "operator"), ("literal", '""_km'), ("punct", "(")])

    def test_pair_after_user_defined_literals(self):
        self.assertPairRewritten('auto a = "(("_s; auto b = u8"("_raw; auto c = 10\'000_km; auto d = u8\'{\'_c8;\n')


class DigitSeparators(Base):
    def test_separators_stay_in_the_number(self):
        for num in ("1'000'000", "0x1'F", "0b1'0", "0'7", "1'0.5e1'0", "0x1'ap-1'0", "1'000ull"):
            with self.subTest(number=num):
                self.assertEqual(kinds(num + " '('"), [("number", num), ("literal", "'('")])

    def test_character_literal_after_a_keyword_is_no_separator(self):
        # `case'(':` and `return'x';`: a quote after a letter that ends a
        # keyword opens a literal (only a number takes a separator)
        text = "switch (c) { case'(': return')'; }"
        self.assertMasked(text, "switch (c) { case' ': return' '; }")
        self.assertPairRewritten("int depth(char c) { switch (c) { case'(': return 1; default: return 0; } }\n")

    def test_quote_ending_a_number_opens_a_literal(self):
        # 1'+'x': a separator must be followed by a digit or letter
        self.assertEqual(kinds("1'+'"), [("number", "1"), ("literal", "'+'")])

    def test_pair_after_separators(self):
        self.assertPairRewritten("const long big = 1'000'000 + 0x1'F + 0b1'0; const char c = '(';\n")


class Comments(Base):
    def test_line_and_block_comments(self):
        text = "a /* it's ( \" */ b // don't ( \"\nc"
        self.assertEqual(kinds(text), [("identifier", "a"), ("comment", "/* it's ( \" */"), ("identifier", "b"),
                                       ("comment", "// don't ( \""), ("identifier", "c")])
        self.assertMasked(text, "a b c")

    def test_comment_markers_inside_literals(self):
        self.assertMasked('s = "/* not a comment"; t = \'/\'; // real\nu', 's = " "; t = \' \'; u')

    def test_pair_after_comments(self):
        self.assertPairRewritten("/* it's (((\n */\n// don't ( open\nint x; // \"(\n")


class LineSplices(Base):
    def test_spliced_line_comment_continues(self):
        text = "// a comment \\\ncontinued ( here\nint after;"
        self.assertEqual(kinds(text)[0], ("comment", text[:text.index("\nint")]))
        self.assertMasked(text, "int after;")
        self.assertPairRewritten("// the next line is a comment too \\\nint which(int x) restrict(cpu);\n")

    def test_splice_with_crlf_and_trailing_blanks(self):
        text = "// c \\  \r\n ( \r\nint after;\r\n"
        self.assertMasked(text, "int after;")

    def test_splice_inside_an_identifier(self):
        text = "int wh\\\nich(int x)"
        tok = cpp_lexer.tokens(text)[1]
        self.assertEqual((tok.kind, tok.spelling), ("identifier", "which"))
        self.assertEqual(cpp_lexer.join_splices(text), "int which(int x)\n")

    def test_pair_whose_tokens_are_split(self):
        src = ("int wh\\\nich(int x) restrict(cpu) { return 1000 + x; }\n"
               "int which(int x) res\\\ntrict(amp) { return 2000 + x; }\n"
               "int later;\n")
        out = rewrite(src)
        self.assertIsNotNone(out, "the split pair was left unrewritten")
        self.assertIn("int which__amp_cpu(int x) restrict(cpu)", out)
        self.assertIn("int which__amp_amp(int x) restrict(amp)", out)
        # every line after the split ones keeps its number
        self.assertEqual(out.splitlines().index("int later;"), 4)

    def test_join_keeps_splices_in_literals_comments_and_directives(self):
        text = '#define M(a) \\\n  (a)\ns = "x\\\ny"; // c \\\nd\nR"(\\\n)"'
        self.assertEqual(cpp_lexer.join_splices(text), text)

    def test_join_puts_line_breaks_back_after_the_logical_line(self):
        text = 'int a = 1 + \\\n 2; /* x */\nint b;\n'
        self.assertEqual(cpp_lexer.join_splices(text), "int a = 1 +  2; /* x */\n\nint b;\n")
        # never inside a raw string that the logical line opens
        text = 'auto s = \\\nR"(a\nb)"; int c;\nint d;'
        self.assertEqual(cpp_lexer.join_splices(text), 'auto s = R"(a\nb)"; int c;\n\nint d;')

    def test_spliced_string_literal(self):
        self.assertEqual(kinds('s = "a(\\\n)b"; t'), [("identifier", "s"), ("punct", "="),
                                                      ("literal", '"a(\\\n)b"'), ("punct", ";"),
                                                      ("identifier", "t")])


class Directives(Base):
    def test_include_header_name_with_a_quote(self):
        text = "#include <it's/a.h>\nint x = '(';"
        self.assertEqual(kinds(text)[0], ("directive", "#include <it's/a.h>"))
        self.assertMasked(text, "int x = ' ';")

    def test_error_and_prose_with_apostrophes(self):
        text = "#error don't do that (\nint a;\n#if 0\nit's prose ( with an apostrophe\n#endif\nint b;"
        # the unclosed literal of the prose ends with its line
        self.assertMasked(text, "int a; it' int b;")
        self.assertPairRewritten("#if 0\nit's prose (\n#endif\n")

    def test_directive_after_a_comment_on_its_line(self):
        text = "/* note */ #define OPEN (\n/* a\n b */ # define CLOSE )\nint x;"
        self.assertMasked(text, "int x;")
        self.assertPairRewritten("/* Windows build */ #define OPEN_PAREN (\n")

    def test_directive_continued_by_a_block_comment(self):
        text = "#define X 1 /* spans\n ( lines */\nint y;"
        self.assertEqual(kinds(text), [("directive", text[:text.index("\nint")]), ("identifier", "int"),
                                       ("identifier", "y"), ("punct", ";")])
        # the quote on the comment's second line must not open a literal
        self.assertPairRewritten("#define X 1 /* spans\n \" ( lines */\n")

    def test_spliced_directive_and_string_with_comment_opener(self):
        text = '#define A "/*" \\\n  "("\nint z;'
        self.assertMasked(text, "int z;")
        self.assertPairRewritten('#define A "/*" \\\n  "("\n')

    def test_directive_after_a_byte_order_mark(self):
        # Visual Studio saves sources with a UTF-8 byte order mark
        text = "\ufeff#include <it's.h>\nint x = '(';"
        self.assertEqual(kinds(text)[0], ("directive", "#include <it's.h>"))
        self.assertMasked(text, "\ufeff int x = ' ';")
        self.assertPairRewritten("\ufeff#include <it's.h>\n")

    def test_hash_inside_a_line_is_no_directive(self):
        self.assertEqual(kinds("a # b")[1], ("punct", "#"))
        self.assertEqual(kinds("%:define X")[0], ("directive", "%:define X"))


class PlacementCheck(Base):
    """The launcher's placement check reads the same mask: a misplaced
    restriction after a wide literal is still reported."""

    def test_misplaced_restriction_after_a_wide_literal(self):
        with tempfile.TemporaryDirectory() as d:
            p = os.path.join(d, "t.cpp")
            with open(p, "w") as f:
                f.write("const wchar_t c = L'(';\nint f() restrict(amp) const;\n")
            errors = restrict_pairs.check_placement([p], [])
        self.assertEqual(len(errors), 1, errors)
        self.assertIn("t.cpp:2:9: error: C++ AMP: `const` must come before", errors[0])


class Identity(Base):
    """A file without a pair is left as written, whatever it contains."""

    def test_no_pair_no_output(self):
        src = ('#include <amp.h>\r\nconst wchar_t c = L\'(\'; // it\'s \\\r\n continued\r\n'
               'int f(int x) restrict(amp) { return x; }\r\nauto s = R"(restrict(cpu))";\r\n')
        self.assertIsNone(rewrite(src))

    def test_crlf_pair_after_wide_literal(self):
        src = "const wchar_t c = L'(';\r\n" + PAIR.replace("\n", "\r\n")
        out = rewrite(src)
        self.assertIsNotNone(out)
        self.assertIn("which__amp_amp", out)


if __name__ == "__main__":
    unittest.main()
