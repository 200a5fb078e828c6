"""Unit tests of the Windows pass's compile-line answers
(amp_driver/passes/windows.py): include names spelled the Windows way
(resolve_ci, include_shims, write_shims: a shim per spelling, an #error when
it names several files), `void main` (fix_void_main), prepare() (the copy of
a source with `void main`, the wmain entry, the shim folder, nothing for a
compile of no Windows mode), the note for a compile without
--windows-compat (hint) and the pass's cheap scan. Its text edits
(std::exception(message), __declspec(align)): test_win_edits.py.

Run: PYTHONPATH=scripts python3 -m unittest discover -s tests/driver -p "unit_*.py"   (CTest: driver.unit)
"""
import os
import tempfile
import unittest
from pathlib import Path
from unittest import mock

from amp_driver.job import Job
from amp_driver.passes import windows as w


class Tree(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.d = os.path.realpath(self.tmp.name)

    def tearDown(self):
        self.tmp.cleanup()

    def write(self, rel, text=""):
        p = os.path.join(self.d, rel)
        os.makedirs(os.path.dirname(p), exist_ok=True)
        Path(p).write_text(text)
        return p

    def dirs(self, **kw):
        d = {"-I": [], "-iquote": [], "-isystem": [], "-idirafter": []}
        d.update({"-" + k: v for k, v in kw.items()})
        return d


class Resolve(Tree):
    def test_case_and_backslashes(self):
        t = self.write("Sub/Timer.h")
        self.assertEqual(w.resolve_ci(self.d, "sub\\timer.h"), [t])
        self.assertEqual(w.resolve_ci(self.d, "SUB/./TIMER.H"), [t])
        self.assertEqual(w.resolve_ci(os.path.join(self.d, "Sub"), "..\\sub\\Timer.h"), [t])
        self.assertEqual(w.resolve_ci(self.d, "Sub"), [], "a folder is no file")
        self.assertEqual(w.resolve_ci(self.d, "nope.h"), [])
        self.assertEqual(w.resolve_ci("/no/such/folder", "x.h"), [])

    def test_two_files_that_differ_in_case(self):
        a, b = self.write("x/Timer.h"), self.write("x/timer.h")
        self.assertEqual(w.resolve_ci(os.path.join(self.d, "x"), "TIMER.H"), sorted([a, b]))


class Shims(Tree):
    def test_which_includes_need_one(self):
        src = self.write("a.cpp", '#include "sub\\timer.h"\n#include <lib.h>\n#include "exact.h"\n'
                                  '#include "nothing.h"\n#include <amp.h>\n')
        timer = self.write("Sub/Timer.h", '#include "Deep.h"\n')
        self.write("Sub/deep.h")
        lib = self.write("inc/Lib.h")
        self.write("exact.h")
        self.write("ac/AMP.H")  # a library folder (it holds amp.h) ...
        self.write("ac/amp.h")
        shims = w.include_shims([src], self.dirs(I=[os.path.join(self.d, "inc"), os.path.join(self.d, "ac")]))
        self.assertEqual(shims, {"sub\\timer.h": ('"', [timer], [src]), "lib.h": ("<", [lib], [src]),
                                 "Deep.h": ('"', [os.path.join(self.d, "Sub", "deep.h")], [timer])})

    def test_written_shims(self):
        timer = self.write("Sub/Timer.h")
        shims = {"..\\sub\\timer.h": ('"', [timer], ["/p/a.cpp"]), "../../SUB/timer.h": ('"', [timer], ["/p/a.cpp"]),
                 "T.h": ('"', ["/p/t.h", "/p/T.H"], ["/p/b.cpp", "/p/a.cpp"])}
        base = w.write_shims(shims, os.path.join(self.d, "work"))
        # a name with `/..` climbs: the shims sit deep enough that it stays inside the work folder
        self.assertEqual(base, os.path.join(self.d, "work", "inc", "u", "u"), "one level per `..`")
        # the compiler looks a backslashed name up as one file name
        self.assertIn(f'#include "{timer}"', Path(base, "..\\sub\\timer.h").read_text())
        self.assertIn(f'#include "{timer}"', Path(self.d, "work", "inc", "SUB", "timer.h").read_text())
        two = Path(base, "T.h").read_text()
        self.assertTrue(two.startswith('#error "amp_compat: #include \\"T.h\\" names several files'), two)
        self.assertIn("/p/t.h and /p/T.H", two)
        self.assertIn("(included from /p/a.cpp, /p/b.cpp)", two)

    def test_redirected_shims(self):
        # the host tile compiler's copies of project headers, reached through
        # shims that name the originals (deep shims for `..` spellings too)
        timer, other = self.write("Sub/Timer.h"), self.write("Other.h")
        shims = {"../sub/timer.h": ('"', [timer], ["/p/a.cpp"]), "other.h": ('"', [other], ["/p/a.cpp"])}
        base = w.write_shims(shims, os.path.join(self.d, "work"))
        self.assertEqual(w.shim_target(os.path.join(base, "other.h")), other)
        self.assertIsNone(w.shim_target(timer), "not a shim")
        copy = self.write("overlay/Timer.h")
        dest = os.path.join(self.d, "mirror")
        new = w.redirect_shims(base, dest, lambda t: copy if t == timer else t + ".none")
        self.assertEqual(new, os.path.join(dest, "u"), "the counterpart of the shims' folder")
        self.assertIn(f'#include "{copy}"', Path(self.d, "mirror", "sub", "timer.h").read_text())
        self.assertIn(f'#include "{other}"', Path(new, "other.h").read_text(), "no copy: unchanged")
        self.assertIsNone(w.redirect_shims(base, os.path.join(self.d, "m2"), lambda t: t + ".none"))


class VoidMain(unittest.TestCase):
    def test_rewritten(self):
        text = '// void main() {}\nvoid main(int argc) {\n  if (argc) return;\n  puts("return;");\n}\nvoid g() { return; }\n'
        self.assertEqual(w.fix_void_main(text),
                         '// void main() {}\nint main(int argc) {\n  if (argc) return 0;\n  puts("return;");\n}\n'
                         'void g() { return; }\n')
        self.assertEqual(w.fix_void_main("void __cdecl wmain()\n{ }\n"), "int __cdecl wmain()\n{ }\n")
        self.assertEqual(w.fix_void_main("  void _tmain(int n, char** v) {}"), "  int _tmain(int n, char** v) {}")

    def test_left_alone(self):
        for text in ("void main();", "int main() { return 0; }", "static void main2() {}", "void main( {"):
            self.assertIsNone(w.fix_void_main(text), text)


class Prepare(Tree):
    def job(self, args, **modes):
        return Job.parse("g++", args, modes=dict({"gpu": "", "windows": False, "msvc": False}, **modes))

    def test_no_windows_mode_no_change(self):
        src = self.write("a.cpp", "void main() {}\n")
        job = self.job(["-c", src])
        self.assertIs(w.prepare(job), job.args)

    def test_void_main_compiled_from_a_copy(self):
        src = self.write("a.cpp", "void main() { return; }\n")
        work = os.path.join(self.d, "work")
        with mock.patch.dict(os.environ, {"AMP_WIN_DIR": work}):
            args = w.prepare(self.job(["-c", src, "-o", "a.o"], msvc=True))
        copy = work + "/main" + src
        self.assertEqual(args, ["-iquote", self.d, "-c", copy, "-o", "a.o"])
        self.assertEqual(Path(copy).read_text(), f'#line 1 "{src}"\nint main() {{ return 0; }}\n')

    def test_work_folder_beside_the_output(self):
        src = self.write("a.cpp", "void main() {}\n")
        out = os.path.join(self.d, "o", "a.o")
        with mock.patch.dict(os.environ, {}):
            os.environ.pop("AMP_WIN_DIR", None)
            args = w.prepare(self.job(["-c", src, "-o", out], msvc=True))
        self.assertIn(out + ".win/main" + src, args)

    def test_wmain_entry_and_shims(self):
        src = self.write("a.cpp", '#include "STDAFX.H"\nint wmain(int argc, wchar_t** argv) { return 0; }\n')
        self.write("stdafx.h")
        work = os.path.join(self.d, "work")
        crt = "/ac/compat/crt_compat.h"
        with mock.patch.dict(os.environ, {"AMP_WIN_DIR": work}):
            args = w.prepare(self.job(["-include", crt, "-c", src], windows=True))
        self.assertEqual(args, ["-include", "/ac/compat/detail/wmain_entry.h", "-include", crt, "-c", src,
                                "-idirafter", os.path.join(work, "inc")])
        self.assertIn(os.path.join(self.d, "stdafx.h"), Path(work, "inc", "STDAFX.H").read_text())


class Hint(Tree):
    def test_windows_spellings_get_a_note(self):
        src = self.write("a.cpp")
        timer = self.write("Sub/Timer.h")
        errors = (f"{src}:1:10: fatal error: Sub\\Timer.h: No such file or directory\n"
                  f"{src}:2:10: fatal error: 'sub/timer.h' file not found\n"
                  f"{src}:3:10: fatal error: 'zz.h' file not found\n")
        notes = w.hint(errors).splitlines()
        self.assertEqual(len(notes), 2)
        self.assertEqual(notes[1], f'amp++: note: #include "sub/timer.h" in {src} is spelled the Windows way (letter '
                                   f"case or backslashes) (the file is {timer}); add --windows-compat, which resolves "
                                   "such names without changing the files")
        self.assertEqual(w.hint("a.cpp:1:1: error: expected ';'\n"), "")

    def test_a_file_there_as_spelled_is_no_windows_spelling(self):
        src = self.write("a.cpp")
        self.write("ok.h")
        self.assertEqual(w.hint(f"{src}:1:10: fatal error: 'ok.h' file not found\n"), "")


class FileEdits(unittest.TestCase):
    def edit(self, text, **modes):
        from amp_driver.cpp_lexer import mask
        from amp_driver.passes.restrict_pairs import FileView
        job = Job.parse("g++", [], modes=dict({"windows": True}, **modes))
        edits, report = w.file_edits(job, FileView("/p/a.cpp", mask(text), text), [], {})
        for s, e, r in sorted(edits, reverse=True):
            text = text[:s] + r + text[e:]
        return text, report

    def test_each_habit_and_its_report_line(self):
        text = ('void f() { throw std::exception("bad"); }\n__declspec(align(16)) struct V { float x; };\n'
                "template <class T, unsigned N> void g(const array_view<T, N>& a) {}\n")
        out, report = self.edit(text)
        self.assertIn(w.MSVC_EXCEPTION + '("bad")', out)
        self.assertIn("struct __declspec(align(16)) V", out)
        self.assertIn("int amp_int_N", out)
        self.assertEqual(report, [f"a.cpp: 1 MSVC std::exception(message) construction(s) or base(s) -> {w.MSVC_EXCEPTION}",
                                  "a.cpp: 1 __declspec(align) before a class key moved after it",
                                  "a.cpp: MSVC rank deduction: unsigned template parameters deduced from AMP types "
                                  "through an int one"])

    def test_rank_deduction_is_the_msvc_pass_s_under_msvc(self):
        out, report = self.edit("template <unsigned N> void g(index<N> i) {}\n", msvc=True)
        self.assertEqual((out, report), ("template <unsigned N> void g(index<N> i) {}\n", []))

    def test_nothing_to_do(self):
        self.assertEqual(self.edit("int main() {}\n"), ("int main() {}\n", []))


class Applies(unittest.TestCase):
    def test_cheap_scan(self):
        job = Job.parse("g++", [], modes={"windows": True})
        for text, needed in (("template <class T, unsigned N> void f();", True), ("__declspec(thread) int x;", True),
                             ("catch (std::exception e) {}", True), ("int main() {}", False)):
            job.texts = {"a.cpp": text}
            self.assertEqual(w.applies(job), needed, text)
        job.windows = False
        self.assertFalse(w.applies(job))


if __name__ == "__main__":
    unittest.main()
