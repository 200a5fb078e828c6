"""Unit tests of the conformance runner's pure parts (conformance.py): the
suite's .conf files, the toolchain's prelude swap, how a failure is named and
grouped. CTest: driver.unit."""
import tempfile
import unittest
from pathlib import Path

from amp_driver import conformance as c


class Conf(unittest.TestCase):
    def parse(self, text):
        with tempfile.TemporaryDirectory() as d:
            p = Path(d) / "t.conf"
            p.write_text(text)
            return c.parse_conf(p)

    def test_definition_sets(self):
        conf = self.parse("%config = ('compile_only' => 1, 'definitions' => [ { 'T' => 'int', 'N' => '4' }, "
                          "{ 'T' => 'float', 'M' => 'it\\'s' } ]);")
        self.assertTrue(conf["compile_only"])
        self.assertEqual(conf["definitions"], [{"T": "int", "N": "4"}, {"T": "float", "M": "it's"}])
        self.assertEqual(c.set_defines(conf["definitions"][0]), ["-DT=int", "-DN=4"])

    def test_defaults(self):
        self.assertEqual(self.parse("%config = ();"), {"compile_only": False, "definitions": [{}]})


class Toolchain(unittest.TestCase):
    def test_prelude_replaced_by_the_pch(self):
        base = ["-O2", "-include", "/i/amp_prelude.h", "-I/i"]
        self.assertEqual(c.replace_prelude(base, ["-include", "p.h"]), ["-O2", "-include", "p.h", "-I/i"])
        self.assertEqual(c.replace_prelude(base, None), base)


class Failures(unittest.TestCase):
    def test_first_error_skips_the_checker_warning(self):
        text = ("amp++: warning: --amp-check: Clang could not parse this source: x error: y\n"
                "t.cpp:3:4: error: 'foo' was not declared\n")
        self.assertEqual(c.first_error(text), "t.cpp:3:4: error: 'foo' was not declared")
        self.assertEqual(c.first_error("last line\n\n"), "last line")

    def test_causes_group_alike_errors(self):
        a = c.cause_of("a.cpp:1:2: error: 'x' has 3 elements")
        b = c.cause_of("b.cpp:9:9: error: 'y' has 12 elements")
        self.assertEqual(a, b)


class Suite(unittest.TestCase):
    """The suite's layout read: tests, their .conf (the nearest folder up that has one), their kind."""

    def test_discover(self):
        with tempfile.TemporaryDirectory() as d:
            t = Path(d) / "Tests"
            (t / "2_cxx/a").mkdir(parents=True)
            (t / "2_cxx/a/test.cpp").write_text("//#Expects: Error: C3581\n//#Expects: error C2338\nint x;\n")
            (t / "2_cxx/b c").mkdir(parents=True)
            (t / "2_cxx/b c/test.cpp").write_text("int main() { return 0; }\n")
            (t / "2_cxx/compile.conf").write_text("%config = ('compile_only' => 1);")
            (t / "5_av/deep/x").mkdir(parents=True)
            (t / "5_av/deep/x/test.cpp").write_text("runall_result test_main() { }\n")
            root, tests = c.discover(Path(d))
            self.assertEqual(root, t)
            self.assertEqual([x.rel for x in tests], ["2_cxx/a", "2_cxx/b c", "5_av/deep/x"])
            a, b, x = tests
            self.assertEqual((a.kind, a.expect_codes, a.own_main), ("negative", ["C2338", "C3581"], False))
            self.assertEqual((b.kind, b.own_main, b.section, b.slug()), ("compile-only", True, "2_cxx", "2_cxx_b_c"))
            self.assertEqual((x.kind, x.sets), ("runtime", [{}]))
            (t / "2_cxx/a/other.conf").write_text("")
            (t / "2_cxx/a/more.conf").write_text("")
            with self.assertRaisesRegex(RuntimeError, "more than one .conf in"):
                c.discover(Path(d))

    def test_library_adaptations(self):
        self.assertEqual(c._platform("#if __clang__\n#if __clang__\n"),
                         "#if __clang__ || __GNUC__  /* amp_compat: GCC too */\n#if __clang__\n")
        self.assertIn("#include <cstdarg>", c._cstdarg("#include <sstream>\n"))
        self.assertEqual(c._cstdarg("int x;\n"), "int x;\n")

    def test_passlist(self):
        with tempfile.TemporaryDirectory() as d:
            p = Path(d) / "pass.txt"
            p.write_text("# passing\n2_cxx/a\n\n  5_av/x  \n")
            self.assertEqual(c.read_passlist(p), {"2_cxx/a", "5_av/x"})


class Tables(unittest.TestCase):
    class Args:
        time_limit, selected, every, filter, check = 0, 3, 1, "", False

    def test_counts_per_section_and_causes(self):
        r = lambda sec, kind, status, reason="": {"section": sec, "kind": kind, "status": status, "reason": reason,
                                                   "sets": [{}]}
        results = [r("2_cxx", "runtime", "pass"), r("2_cxx", "negative", "fail", "compiled"),
                   r("5_av", "compile-only", "fail", "a.cpp:1:1: error: 'x' has 3 elements"),
                   r("5_av", "runtime", "fail", "b.cpp:2:2: error: 'y' has 4 elements"), r("5_av", "runtime", "skip")]
        lines = c.tables(results, [], 12.0, self.Args())
        self.assertEqual(lines[0], "Test library: built unchanged.")
        row = next(ln for ln in lines if ln.startswith("5_av"))
        self.assertEqual(row.split()[-4:], ["0/3", "1", "0/0", "0/3"])
        total = next(ln for ln in lines if ln.startswith("total"))
        self.assertEqual(total.split()[1:], ["1/4", "1", "0/1", "1/5"])
        self.assertIn("(5 tests, 5 definition sets, 12 s)", lines)
        self.assertIn("      2  '…' has N elements", lines)
        self.assertIn("  negative tests that compiled: 1", lines)


if __name__ == "__main__":
    unittest.main()
