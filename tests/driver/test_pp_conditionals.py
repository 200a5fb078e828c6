#!/usr/bin/env python3
"""Unit tests of scripts/amp_driver/pp_conditionals.py (which #if groups the compile
keeps) and of the launcher's passes that use it: the restriction-placement
check and the restrict-pair rewrite (CTest: restrict.pp_conditionals).

Run: python3 tests/driver/test_pp_conditionals.py [-v]
"""
import os
import sys
import tempfile
import unittest
from pathlib import Path

from amp_driver import pp_conditionals as pp
from amp_driver.options import modes_of
from amp_driver.passes import restrict_pairs
from amp_driver.cpp_lexer import mask


def kept(text, args=()):
    """The lines of text in segments the compile certainly keeps (True),
    drops (False) and cannot be decided (None), as {state: [stripped lines]}."""
    out = {True: [], False: [], None: []}
    for s in pp.segments(text, pp.Env.from_args(list(args), bool(modes_of(list(args))["gpu"]))):
        out[s.state] += [ln.strip() for ln in text[s.start:s.end].splitlines() if ln.strip()]
    return out


class Expressions(unittest.TestCase):
    def ev(self, e, args=()):
        return pp.evaluate(e, pp.Env.from_args(list(args), bool(modes_of(list(args))["gpu"])))

    def test_known_macros(self):
        self.assertEqual(self.ev("A == 3 && B", ["-DA=3", "-DB"]), 1)
        self.assertEqual(self.ev("defined(C) || C", ["-UC"]), 0)
        self.assertEqual(self.ev("(A << 2) + 1 > 12 ? 1 : 0", ["-D", "A=3"]), 1)
        self.assertEqual(self.ev("010 == 8 && 0x10 == 16 && 1'000 == 1000"), 1)
        # the value of an option that takes one is no macro (-o -DX.o: an output file)
        self.assertIsNone(self.ev("defined(NOT_A_MACRO)", ["-o", "-DNOT_A_MACRO", "-include", "-UNEITHER"]))
        self.assertEqual(self.ev("defined(A)", ["-DA", "-U", "A"]), 0)

    def test_unknown_macros_are_undecided_unless_the_logic_decides(self):
        self.assertIsNone(self.ev("FROM_A_HEADER"))
        self.assertIsNone(self.ev("!defined(FROM_A_HEADER)"))
        self.assertEqual(self.ev("FROM_A_HEADER || 1"), 1)
        self.assertEqual(self.ev("FROM_A_HEADER && 0"), 0)
        self.assertIsNone(self.ev("__has_include(<d3d11.h>)"))
        self.assertIsNone(self.ev("VERSION_OF(3) > 2"))

    def test_what_the_compile_decides(self):
        self.assertEqual(self.ev("__cplusplus >= 202002L", ["-std=c++20"]), 1)
        self.assertEqual(self.ev("__cplusplus >= 202002L", ["-std=gnu++17"]), 0)
        self.assertEqual(self.ev("defined(_MSC_VER) || defined(_WIN32)"), 0)
        self.assertEqual(self.ev("_MSC_VER >= 1700", ["-fms-compatibility-version=19.40"]), 1)
        self.assertEqual(self.ev("defined(__CUDA_ARCH__)"), 0)  # a host compile
        self.assertIsNone(self.ev("defined(__CUDA_ARCH__)", ["--cuda-gpu-arch=sm_90"]))  # both passes read once

    def test_unreadable_is_undecided(self):
        self.assertIsNone(self.ev("1 +"))
        self.assertIsNone(self.ev("1 / 0"))
        self.assertIsNone(self.ev("'a' == 97"))


class Groups(unittest.TestCase):
    def test_if_else_with_a_define(self):
        k = kept("#if A\nint a;\n#elif B\nint b;\n#else\nint c;\n#endif\nint d;\n", ["-DA=0", "-DB=1"])
        self.assertEqual(k[True], ["int b;", "int d;"])
        self.assertEqual(k[False], ["int a;", "int c;"])

    def test_undecided_group(self):
        k = kept("#ifdef X\nint a;\n#else\nint b;\n#endif\n")
        self.assertEqual(k[None], ["int a;", "int b;"])

    def test_elif_after_an_undecided_branch(self):
        k = kept("#ifdef X\nint a;\n#elif 1\nint b;\n#else\nint c;\n#endif\n")
        self.assertEqual(k[None], ["int a;", "int b;"])
        self.assertEqual(k[False], ["int c;"])

    def test_defines_of_the_file_in_order(self):
        k = kept("#define W 2\n#if W > 1\nint a;\n#endif\n#undef W\n#ifdef W\nint b;\n#endif\n")
        self.assertEqual(k[True], ["int a;"])
        self.assertEqual(k[False], ["int b;"])

    def test_a_define_in_an_undecided_group_makes_the_macro_unknown(self):
        k = kept("#define W 1\n#ifdef X\n#undef W\n#endif\n#if W\nint a;\n#endif\n")
        self.assertEqual(k[None], ["int a;"])

    def test_nested_in_a_dropped_group(self):
        k = kept("#if 0\n#ifdef X\nint a;\n#else\nint b;\n#endif\n#endif\n")
        self.assertEqual(k[False], ["int a;", "int b;"])

    def test_include_guard_is_taken(self):
        k = kept("#ifndef MY_H\n#define MY_H\nint a;\n#endif\n")
        self.assertEqual(k[True], ["int a;"])
        k = kept("#if !defined(MY_H)\n#define MY_H\nint a;\n#endif\n")
        self.assertEqual(k[True], ["int a;"])

    def test_blank_inactive_keeps_positions(self):
        text = "#if 0\nint f(long x) restrict(amp)\n#endif\nint g;\n"
        m = pp.blank_inactive(text, mask(text))
        self.assertEqual(len(m), len(text))
        self.assertEqual(m.count("\n"), text.count("\n"))
        self.assertNotIn("restrict", m)
        self.assertIn("int g;", m)


def check(source, args=()):
    with tempfile.TemporaryDirectory() as d:
        p = os.path.join(d, "t.cpp")
        Path(p).write_text(source)
        return restrict_pairs.check_placement([p], list(args), bool(modes_of(list(args))["gpu"]))


def rewrite(source, args=()):
    with tempfile.TemporaryDirectory() as d:
        p = os.path.join(d, "t.cpp")
        Path(p).write_text(source)
        out, _ = restrict_pairs.rewrite_files([p], env=pp.Env.from_args(list(args), bool(modes_of(list(args))["gpu"])))
        return out.get(p)


# The shape of issue 31: a declarator in an inactive #else after the active one.
TWO_DECLARATORS = ("#ifndef NARROW\nstatic int f(int x) restrict(amp, cpu)\n#else\n"
                   "int f(long x) restrict(amp, cpu)\n#endif\n{ return x; }\n")


class Placement(unittest.TestCase):
    def test_undecided_branches_are_left_to_the_compiler(self):
        self.assertEqual(check(TWO_DECLARATORS), [])

    def test_decided_branches_either_way(self):
        self.assertEqual(check(TWO_DECLARATORS, ["-DNARROW"]), [])
        self.assertEqual(check(TWO_DECLARATORS, ["-UNARROW"]), [])

    def test_errors_in_kept_code_are_still_found(self):
        bad = "#if 1\nint f() restrict(amp) const;\n#endif\n"
        self.assertEqual(len(check(bad)), 1)
        self.assertIn("`const` must come before", check(bad)[0])
        self.assertEqual(len(check("int f() restrict(amp) const;\n")), 1)

    def test_errors_in_dropped_code_are_not(self):
        self.assertEqual(check("#if 0\nint f() restrict(amp) const;\n#endif\n"), [])
        self.assertEqual(check("#ifdef _WIN32\nint f() restrict(amp) const;\n#endif\n"), [])

    def test_literals_in_dropped_code(self):
        src = "#if 0\nfloat f() restrict(amp) { return 1e39f; }\n#endif\n"
        self.assertEqual(check(src), [])
        self.assertEqual(len(check(src.replace("#if 0", "#if 1"))), 1)


class Rewrite(unittest.TestCase):
    def test_no_pair_with_a_dropped_twin(self):
        src = ("int side(int x) restrict(cpu) { return 1; }\n#if 0\n"
               "int side(int x) restrict(amp) { return 2; }\n#endif\n")
        self.assertIsNone(rewrite(src))

    def test_pair_in_the_kept_branch(self):
        src = ("#if WIDE\nint w(int x) restrict(cpu) { return -x; }\n#else\n"
               "int w(int x) restrict(cpu) { return 1; }\nint w(int x) restrict(amp) { return 2; }\n#endif\n")
        out = rewrite(src, ["-DWIDE=0"])
        self.assertIsNotNone(out)
        self.assertIn("AMP_RESTRICT_PAIR(w__amp_cpu", out)
        self.assertIn("int w(int x) restrict(cpu) { return -x; }", out)  # dropped text is left as written


if __name__ == "__main__":
    unittest.main()
