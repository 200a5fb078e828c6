"""Unit tests of the checked build's source pass (amp_driver/passes/checked.py,
--checked): when it applies (a host build with the mode, a file that names
tile_static), its edits (each tile_static array between guard zones, named by
its file and line) and its report line; what it leaves (tile_static scalars,
GPU builds).

Run: PYTHONPATH=scripts python3 -m unittest discover -s tests/driver -p "unit_*.py"   (CTest: driver.unit)
"""
import unittest

from amp_driver.cpp_lexer import mask
from amp_driver.job import Job
from amp_driver.passes import checked, gpu
from amp_driver.passes.restrict_pairs import FileView


def job(text, **modes):
    j = Job.parse("g++", [], modes=dict({"checked": True}, **modes))
    j.texts = {"/p/k.cpp": text}
    return j


def edit(text, path="/p/k.cpp"):
    edits, report = checked.file_edits(job(text), FileView(path, mask(text), text), [], {})
    for s, e, r in sorted(edits, reverse=True):
        text = text[:s] + r + text[e:]
    return text, report


class Checked(unittest.TestCase):
    def test_applies(self):
        self.assertTrue(checked.applies(job("void k() { tile_static float a[16]; }")))
        self.assertTrue(checked.mode_applies(job("")))
        self.assertFalse(checked.applies(job("void k() { float a[16]; }")))
        self.assertFalse(checked.applies(job("// tile_static\n", checked=False)))
        self.assertFalse(checked.applies(job("tile_static int a[4];", gpu="cuda")), "a host build only")

    def test_arrays_between_guard_zones(self):
        out, report = edit("void k() {\n  tile_static float a[16];\n  tile_static T m[4] [8];\n}\n")
        self.assertIn(f'tile_static {gpu.CHECKED_STORAGE}<float[16]> amp_ts_a("a", "/p/k.cpp", 2); '
                      'auto& a = amp_ts_a.use();', out)
        self.assertIn(f'tile_static {gpu.CHECKED_STORAGE}<T[4][8]> amp_ts_m("m", "/p/k.cpp", 3);', out)
        self.assertEqual(out.count("\n"), 4, "lines stay where they were")
        self.assertEqual(report, ["k.cpp: checked build: 2 tile_static array(s) between guard zones"])

    def test_left_as_written(self):
        """Scalars, several declarators, initialisers: as written (the compiler says what AMP refuses)."""
        for text in ("void k() { tile_static float s; }", "void k() { tile_static int a[4], b[4]; }",
                     "void k() { tile_static int a[2] = {1, 2}; }", 'const char* c = "tile_static int a[4];";'):
            self.assertEqual(edit(text), (text, []), text)

    def test_file_name_in_the_label(self):
        out, _ = edit("tile_static int a[4];", path='C:\\src\\"k".cpp')
        self.assertIn('amp_ts_a("a", "C:/src/k.cpp", 1)', out)


if __name__ == "__main__":
    unittest.main()
