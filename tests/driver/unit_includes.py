"""Unit tests of the #include walk the passes share (amp_driver/includes.py):
every file reached once, the starting files first, the include spellings it
reads ("" and <>, blanks after # and before the name, not a commented or
macro include), what follow() is told, unreadable files listed but not read.

Run: PYTHONPATH=scripts python3 -m unittest discover -s tests/driver -p "unit_*.py"   (CTest: driver.unit)
"""
import os
import tempfile
import unittest
from pathlib import Path

from amp_driver import includes


class Walk(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.d = self.tmp.name

    def tearDown(self):
        self.tmp.cleanup()

    def write(self, name, text):
        p = os.path.join(self.d, name)
        Path(p).write_text(text)
        return p

    def follow_here(self, asked):
        """follow(): "" and <> names as files of the test's folder (those that exist)."""
        def follow(f, kind, name):
            asked.append((os.path.basename(f), kind, name))
            p = os.path.join(self.d, name)
            return [p] if os.path.exists(p) else []
        return follow

    def test_each_file_once_and_what_follow_is_told(self):
        a = self.write("a.cpp", '#include "b.h"\n  #  include <c.h>\n#include "b.h"\n#include"missing.h"\n')
        b = self.write("b.h", '#include "c.h"\n#include "a.cpp"\n')
        c = self.write("c.h", "int c;\n")
        asked = []
        order, texts = includes.walk([a], self.follow_here(asked))
        self.assertEqual(order[0], a)
        self.assertEqual(sorted(order), sorted([a, b, c]))
        self.assertEqual(texts, {a: Path(a).read_text(), b: Path(b).read_text(), c: "int c;\n"})
        self.assertEqual(sorted(asked[:4]), sorted([("a.cpp", '"', "b.h"), ("a.cpp", "<", "c.h"),
                                                    ("a.cpp", '"', "b.h"), ("a.cpp", '"', "missing.h")]))
        self.assertEqual(len(asked), 6, "each file's includes asked about once")

    def test_not_includes(self):
        a = self.write("a.cpp", '// #include "b.h"\nint x; #include "b.h"\n#define H "b.h"\n#include H\n'
                                '#include_next "b.h"\n#import "b.h"\n')
        self.write("b.h", "")
        asked = []
        order, _ = includes.walk([a], self.follow_here(asked))
        self.assertEqual(order, [a])
        self.assertEqual(asked, [])

    def test_several_starts_and_unreadable_files(self):
        a = self.write("a.cpp", '#include "gone.h"\n')
        b = self.write("b.cpp", "")
        gone = os.path.join(self.d, "gone.h")
        order, texts = includes.walk([a, b, a], lambda f, k, n: [gone])
        self.assertEqual(sorted(order), sorted([a, b, gone]))
        self.assertNotIn(gone, texts)
        self.assertEqual(includes.walk([], lambda f, k, n: []), ([], {}))


if __name__ == "__main__":
    unittest.main()
