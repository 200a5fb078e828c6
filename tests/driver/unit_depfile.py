"""Unit tests of amp_driver/depfile.py: which dependency files a compile
writes, GCC's format read and written back (escapes, continuations, -MP's
empty rules), and copies and shims replaced by the user's files.

Run: PYTHONPATH=scripts python3 -m unittest discover -s tests/driver -p "unit_*.py"   (CTest: driver.unit)
"""
import os
import tempfile
import unittest
from pathlib import Path

from amp_driver import depfile
from amp_driver.job import Job
from amp_driver.passes.windows import SHIM_NOTE, shim_target


class Paths(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.src = os.path.join(self.tmp.name, "k.cpp")
        Path(self.src).write_text("int main() {}\n")

    def tearDown(self):
        self.tmp.cleanup()

    def test_gcc_rules(self):
        job = lambda *a: Job.parse("g++", list(a))
        self.assertEqual(depfile.paths(job("-MD", "-MF", "x.d", "-c", self.src, "-o", "o/k.o")), ["x.d"])
        self.assertEqual(depfile.paths(job("-MMD", "-MFy.d", "-c", self.src)), ["y.d"])
        self.assertEqual(depfile.paths(job("-MD", "-c", self.src, "-o", "o/k.o")), ["o/k.d"])
        self.assertEqual(depfile.paths(job("-MMD", "-c", self.src)), ["k.d"])
        self.assertEqual(depfile.paths(job("-c", self.src, "-o", "k.o")), [])


class Format(unittest.TestCase):
    TEXT = ("o/k.o: /s/k.cpp /s/my\\ dir/a\\#b.h \\\n /s/cost$$.h \\\n /s/Inc\\VH.h\n"
            "/s/my\\ dir/a\\#b.h:\n")

    def test_read(self):
        self.assertEqual(depfile.parse(self.TEXT),
                         [(["o/k.o"], ["/s/k.cpp", "/s/my dir/a#b.h", "/s/cost$.h", "/s/Inc\\VH.h"]),
                          (["/s/my dir/a#b.h"], [])])

    def test_round_trip(self):
        rules = depfile.parse(self.TEXT)
        self.assertEqual(depfile.parse(depfile.render(rules)), rules)
        self.assertIn("/s/my\\ dir/a\\#b.h", depfile.render(rules))
        self.assertIn("/s/cost$$.h", depfile.render(rules))

    def test_crlf_continuations(self):
        self.assertEqual(depfile.parse("a.o: x.h \\\r\n y.h\r\n"), [(["a.o"], ["x.h", "y.h"])])


class Restore(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.d = os.path.realpath(self.tmp.name)

    def tearDown(self):
        self.tmp.cleanup()

    def write(self, rel, text):
        p = Path(self.d, rel)
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text)
        return str(p)

    def test_copies_and_shims_become_originals(self):
        src = self.write("src/k.cpp", "")
        hdr = self.write("src/inc/vh.h", "")
        ovl = os.path.join(self.d, "ovl")
        copy = self.write("ovl" + src, "")
        hcopy = self.write("ovl" + hdr, "")
        shims = os.path.join(self.d, "win", "inc")
        shim = self.write("win/inc/Inc\\VH.h", f"// \"Inc\\VH.h\": {SHIM_NOTE}\n#include \"{hdr}\"\n")
        bad = self.write("win/inc/Gone.h", f"// \"Gone.h\": {SHIM_NOTE}\n#include \"{self.d}/nowhere.h\"\n")
        dep = self.write("k.d", depfile.render([(["k.o"], [copy, "/usr/include/stdio.h", hcopy, shim, hdr, bad]),
                                               ([hcopy], []), ([hdr], []), ([shim], [])]))
        self.assertTrue(depfile.restore_file(dep, [(ovl, "")], [shims], shim_target))
        self.assertEqual(depfile.parse(Path(dep).read_text()),
                         [(["k.o"], [src, "/usr/include/stdio.h", hdr]), ([hdr], [])])
        self.assertFalse(depfile.restore_file(dep, [(ovl, "")], [shims], shim_target), "nothing more to change")

    def test_a_copy_of_a_shim_folder(self):
        hdr = self.write("src/vh.h", "")
        self.write("win/inc/VH.h", f"// \"VH.h\": {SHIM_NOTE}\n#include \"{hdr}\"\n")
        copied = self.write("tiles/winshims/3/VH.h", "// a redirected copy\n")
        dep = self.write("k.d", f"k.o: {copied}\n")
        depfile.restore_file(dep, [(os.path.join(self.d, "tiles/winshims/3"), os.path.join(self.d, "win/inc"))],
                             [os.path.join(self.d, "win/inc")], shim_target)
        self.assertEqual(depfile.parse(Path(dep).read_text()), [(["k.o"], [hdr])])

    def test_no_file_no_change(self):
        self.assertFalse(depfile.restore_file(os.path.join(self.d, "none.d"), [], [], shim_target))


if __name__ == "__main__":
    unittest.main()
