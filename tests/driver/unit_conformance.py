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


if __name__ == "__main__":
    unittest.main()
