"""Unit tests of amp++'s notes after a failed compile (amp_driver/hints.py):
each Windows/MSVC habit its errors show, in GCC's and Clang's wording, the
option named (--windows-compat, --msvc), no note when that option is already
given or the errors show no habit, the includes spelled the Windows way, and
the AMP name used in a template before `using namespace concurrency` (read
from the sources). Not one note for a pattern that only matches across two
lines.

Run: PYTHONPATH=scripts python3 -m unittest discover -s tests/driver -p "unit_*.py"   (CTest: driver.unit)
"""
import os
import tempfile
import unittest
from pathlib import Path

from amp_driver.hints import hints


class Req:
    def __init__(self, windows=False, msvc=False):
        self.windows, self.msvc = windows, msvc


class Windows(unittest.TestCase):
    def test_names_headers_and_wordings(self):
        for err in ("a.cpp:3:1: error: 'DWORD' was not declared in this scope",
                    "a.cpp:3:1: error: unknown type name 'HRESULT'",
                    "a.cpp:3:1: error: use of undeclared identifier '_tmain'",
                    "a.cpp:1:10: fatal error: Windows.h: No such file or directory",
                    "a.cpp:1:10: fatal error: 'tchar.h' file not found",
                    "a.cpp:1:10: fatal error: wrl/client.h: No such file or directory",
                    "a.cpp:4:3: error: 'stdext' has not been declared"):
            out = hints(err + "\n", Req(), [])
            self.assertIn("uses Windows/MSVC runtime, SDK or PPL names", out, err)
            self.assertTrue(out.endswith("add --windows-compat\n"), out)
            self.assertEqual(hints(err + "\n", Req(windows=True), []), "", err)

    def test_a_name_inside_a_longer_one_is_not_windows(self):
        for err in ("a.cpp:3:1: error: 'MY_DWORD_T' was not declared in this scope",
                    "a.cpp:3:1: error: unknown type name 'HANDLER'",
                    "a.cpp:1:10: fatal error: mywindows.h: No such file or directory",
                    "a.cpp:1:10: fatal error: 'mytchar.h' file not found"):
            self.assertEqual(hints(err + "\n", Req(), []), "", err)

    def test_assert_with_a_message(self):
        err = ("a.cpp:5:40: error: macro \"assert\" passed 2 arguments, but takes just 1\n"
               '    5 |   assert(n > 0, "n must be positive");\n')
        out = hints(err, Req(), [])
        self.assertIn('assert(condition, "message") with a message argument', out)
        # without the caret line naming assert(, it is some other macro
        self.assertEqual(hints(err.splitlines()[0] + "\n", Req(), []), "")

    def test_windows_include_spelling(self):
        with tempfile.TemporaryDirectory() as d:
            src = os.path.join(d, "a.cpp")
            Path(src).write_text("")
            Path(d, "Timer.h").write_text("")
            out = hints(f"{src}:1:10: fatal error: timer.h: No such file or directory\n", Req(), [src])
            self.assertIn('#include "timer.h" in', out)
            self.assertIn("spelled the Windows way", out)
            self.assertEqual(hints(f"{src}:1:10: fatal error: timer.h: No such file or directory\n",
                                   Req(windows=True), [src]), "")


class Msvc(unittest.TestCase):
    def test_each_habit_named_once(self):
        err = ("a.cpp:1:1: error: need 'typename' before 'T::type' because 'T' is a dependent scope\n"
               "a.cpp:2:1: error: missing 'template' keyword prior to dependent template name 'tile'\n"
               "a.cpp:3:1: error: ordered comparison between pointer and zero ('int *' and 'int')\n"
               "a.cpp:4:1: error: missing 'typename' prior to dependent type name 'T::x'\n")
        out = hints(err, Req(), [])
        self.assertTrue(out.startswith("amp++: note: MSVC-isms found:\n"), out)
        self.assertEqual(out.count("a missing `typename` before a dependent type"), 1)
        self.assertIn("a missing `template` before a dependent member template", out)
        self.assertIn("a pointer compared with 0", out)
        self.assertIn("add --msvc to compile in the MSVC dialect", out)
        self.assertEqual(hints(err, Req(msvc=True), []), "")

    def test_static_class_definition(self):
        # GCC's error (Clang only warns): a public DLL's `static class CA { ... };`.
        err = "a.cpp:2:1: error: a storage class can only be specified for objects and functions\n"
        self.assertIn("`static` on a class definition that declares no object", hints(err, Req(), []))
        self.assertEqual(hints(err, Req(msvc=True), []), "")

    def test_void_main_needs_neither_with_windows_compat(self):
        err = "a.cpp:1:1: error: '::main' must return 'int'\n"
        self.assertIn("`void main()`", hints(err, Req(), []))
        self.assertEqual(hints(err, Req(windows=True), []), "")

    def test_windows_and_msvc_notes_together(self):
        err = "a.cpp:1:1: error: 'DWORD' was not declared in this scope\na.cpp:2:1: error: '__int64' does not name a type\n"
        out = hints(err, Req(), [])
        self.assertEqual(out.count("amp++: note:"), 2)
        self.assertLess(out.index("add --windows-compat"), out.index("MSVC-isms"))

    def test_name_found_only_at_instantiation(self):
        err = "a.cpp:3:5: error: 'extent' was not declared in this scope; did you mean 'Concurrency::extent'?\n"
        with tempfile.TemporaryDirectory() as d:
            late, none = os.path.join(d, "late.cpp"), os.path.join(d, "none.cpp")
            Path(late).write_text("template <class T> void f() { extent<1> e(4); }\nusing namespace concurrency;\n")
            Path(none).write_text("int main() {}\n")
            self.assertIn("an AMP name used in a template before `using namespace concurrency;`",
                          hints(err, Req(), [late]))
            self.assertEqual(hints(err, Req(), [none]), "")
            self.assertEqual(hints(err, Req(), [os.path.join(d, "missing.cpp")]), "")

    def test_one_line_at_a_time(self):
        err = "a.cpp:1:1: error: mismatched types 'unsigned\nint' and 'int'\n"
        self.assertEqual(hints(err, Req(), []), "")
        self.assertEqual(hints("", Req(), []), "")


if __name__ == "__main__":
    unittest.main()
