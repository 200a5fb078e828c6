"""Unit tests of the compiler launcher (amp_driver/launcher.py) with a
stand-in compiler (a shell script that logs its arguments and the first line
of each source it is given): which files a compile reaches (closure: "" and
<> includes through the includer's folder, -iquote and -I, Windows
spellings, never amp_compat's or Kokkos' folders), a compile no pass applies
to (run unchanged), a rewritten source and a header (copies in an overlay
that starts with #line, their folders first on the include path, dependency
files naming the originals), the placement check that
stops a compile, -D values that are exception specifications, the rank
warning of builds without --windows-compat/--msvc, the GPU build's macro,
and which pass a report line names (pass_of). The fallback when a rewritten
source does not compile: test_launcher_fallback.py.

Run: PYTHONPATH=scripts python3 -m unittest discover -s tests/driver -p "unit_*.py"   (CTest: driver.unit)
"""
import contextlib
import io
import os
import tempfile
import unittest
from pathlib import Path
from unittest import mock

from amp_driver import launcher
from amp_driver.job import Job
from amp_driver.passes import source_passes
from scratch import WritesFiles

FAKE_CC = r"""#!/bin/sh
echo "ARGS $*" >>"$FAKE_LOG"
for a; do case "$a" in *.cpp) echo "FIRST $(head -1 "$a")" >>"$FAKE_LOG" ;; esac; done
# -MD/-MMD: a dependency file naming the sources as given (-MF's, else the -o's name with .d)
prev=""; dep=""; o=""; md=""; srcs=""
for a; do
  case "$a" in -MD|-MMD) md=1 ;; -o?*) o=${a#-o} ;; *.cpp) srcs="$srcs $(printf '%s' "$a" | sed 's/ /\\ /g')" ;; esac
  [ "$prev" = -MF ] && dep=$a
  [ "$prev" = -o ] && o=$a
  prev=$a
done
[ -z "$dep" ] && [ -n "$md" ] && dep=${o%.*}.d
[ -n "$dep" ] && printf '%s: \\\n%s\n' "$o" "$srcs" >"$dep"
exit 0
"""
PAIR = "int which(int x) restrict(cpu) { return 1; }\nint which(int x) restrict(amp) { return 2; }\n"


class Tree(WritesFiles, unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.d = os.path.realpath(self.tmp.name)
        self.cc = self.write("bin/cc", FAKE_CC, 0o755)
        self.log = os.path.join(self.d, "log")
        self.env = mock.patch.dict(os.environ, {"FAKE_LOG": self.log, "AMP_TILE_COMPILER": "off"})
        self.env.start()
        for k in ("AMP_WIN_DIR", "AMP_LAUNCHER_FALLBACK", "AMP_TILES_CENSUS"):
            os.environ.pop(k, None)

    def tearDown(self):
        self.env.stop()
        self.tmp.cleanup()

    def launch(self, *args, modes=None):
        """(exit status, the launcher's stderr, [the compiler's argument lists], [first lines of its sources])."""
        err = io.StringIO()
        with contextlib.redirect_stderr(err):
            rc = launcher.launch([self.cc] + list(args), modes, may_exec=False)
        lines = Path(self.log).read_text().splitlines() if os.path.exists(self.log) else []
        calls = [ln[5:].split() for ln in lines if ln.startswith("ARGS ")]
        firsts = [ln[6:] for ln in lines if ln.startswith("FIRST ")]
        return rc, err.getvalue(), calls, firsts


class Closure(Tree):
    def test_the_files_a_compile_reaches(self):
        src = self.write("src/a.cpp", '#include "h.h"\n#include <lib.h>\n#include "q.h"\n#include <amp.h>\n'
                                      '#include "Sub\\Dir.H"\n#include "missing.h"\n#include <vector>\n')
        h = self.write("src/h.h", '#include "h2.h"\n')
        h2 = self.write("src/h2.h", "")
        lib = self.write("inc/lib.h", "")
        q = self.write("q/q.h", "")
        sub = self.write("src/sub/dir.h", "")
        self.write("ac/amp.h", '#include "inner.h"\n')
        self.write("ac/inner.h", "")
        job = Job.parse("g++", ["-I", os.path.join(self.d, "inc"), f"-I{self.d}/ac", "-iquote", f"{self.d}/q",
                                "-c", src])
        files, rel, texts = launcher.closure(job)
        self.assertEqual(sorted(files), sorted([src, h, h2, lib, q, sub]))
        self.assertEqual(files[0], src)
        self.assertEqual(rel, {h: {src}, h2: {h}, sub: {src}})
        self.assertEqual(set(texts), set(files))

    def test_project_folders(self):
        self.write("kk/Kokkos_Core.hpp", "")
        self.write("ac/amp.h", "")
        self.assertFalse(launcher._project_dir(os.path.join(self.d, "kk")))
        self.assertFalse(launcher._project_dir(os.path.join(self.d, "ac")))
        self.assertFalse(launcher._project_dir("/usr/include"))
        self.assertFalse(launcher._project_dir(str(launcher.ROOT / "amp_compat" / "compat")))
        self.assertTrue(launcher._project_dir(self.d))


class Run(Tree):
    def test_nothing_to_do_compiles_as_written(self):
        src = self.write("a.cpp", "int main() { return 0; }\n")
        rc, err, calls, _ = self.launch("-O2", "-c", src, "-o", "a.o")
        self.assertEqual((rc, err), (0, ""))
        self.assertEqual(calls, [["-O2", "-c", src, "-o", "a.o"]])

    def test_a_rewritten_source(self):
        src = self.write("a.cpp", PAIR)
        rc, err, calls, firsts = self.launch("-c", src, "-o", os.path.join(self.d, "a.o"))
        self.assertEqual((rc, err), (0, ""))
        (args,) = calls
        copy = args[args.index("-c") + 1]
        self.assertNotEqual(copy, src)
        self.assertTrue(copy.endswith(src), "the overlay mirrors the original's path")
        self.assertEqual(firsts, [f'#line 1 "{src}"'])
        self.assertEqual(args[:4], ["-iquote", os.path.dirname(copy), "-iquote", self.d],
                         "the copy's folder first, then the original's")
        self.assertFalse(os.path.exists(copy), "the temporary overlay is removed")

    def test_a_rewritten_header_mirrors_its_includer(self):
        src = self.write("a.cpp", '#include "h.h"\nint main() { return which(1); }\n')
        self.write("h.h", PAIR)
        rc, _, calls, firsts = self.launch("-c", src)
        self.assertEqual(rc, 0)
        self.assertNotEqual(calls[0][-1], src, "a.cpp reaches the copy of h.h through its own folder")
        self.assertEqual(firsts, [f'#line 1 "{src}"'])

    def test_dependency_files_name_the_originals(self):
        # The stand-in writes the dependency file as GCC does: the files it
        # read (here: its sources, as given). The launcher's copies are
        # temporary; make and Ninja must watch the user's files instead.
        src = self.write("a.cpp", PAIR)
        out = os.path.join(self.d, "obj", "a.o")
        os.makedirs(os.path.dirname(out))
        rc, _, calls, _ = self.launch("-MD", "-MF", out + ".d", "-c", src, "-o", out)
        self.assertEqual(rc, 0)
        copy = calls[0][calls[0].index("-c") + 1]
        self.assertNotEqual(copy, src)
        self.assertTrue(copy.endswith(src) and not os.path.exists(copy), "the temporary overlay is removed")
        self.assertEqual(Path(out + ".d").read_text(), f"{out}: \\\n {src}\n")
        self.assertFalse(os.path.exists(out + ".restrict"), "nothing is left beside the output")
        # a Makefile's -MMD -o$@: the dependency file is named after the output
        out2 = os.path.join(self.d, "obj", "b.o")
        self.launch("-MMD", "-c", src, "-o" + out2)
        self.assertEqual(Path(out2[:-2] + ".d").read_text(), f"{out2}: \\\n {src}\n")

    def test_a_misplaced_restriction_stops_the_compile(self):
        src = self.write("a.cpp", "int f() restrict(amp) int;\n")
        rc, err, calls, _ = self.launch("-c", src)
        self.assertEqual(rc, 1)
        self.assertEqual(err.count("error: C++ AMP:"), 1)
        self.assertTrue(err.startswith(f"{src}:1:9: error: C++ AMP:"), err)
        self.assertEqual(calls, [])

    def test_exception_specification_in_a_define(self):
        src = self.write("a.cpp", "void f() THROWS;\n")
        rc, _, calls, _ = self.launch("-DTHROWS=throw(int)", "-DNONE=throw()", "-DX=1", "-c", src)
        self.assertEqual(rc, 0)
        self.assertEqual(calls, [["-DTHROWS=", "-DNONE=noexcept", "-DX=1", "-c", src]])
        os.unlink(self.log)
        rc, _, calls, _ = self.launch("-D", "THROWS=throw(int)", "-c", src)
        self.assertEqual(calls, [["-D", "THROWS=", "-c", src]])

    def test_rank_warning_without_the_windows_modes(self):
        src = self.write("a.cpp", "template <class T, unsigned N> struct is_view<array_view<T, N>> { };\n")
        _, err, _, _ = self.launch("-c", src)
        self.assertIn(f"{src}:1: warning: this partial specialization never matches", err)
        _, err, _, _ = self.launch("-c", src, modes={"windows": True})
        self.assertNotIn("never matches", err)

    def test_gpu_builds_scope_parallel_for_each(self):
        src = self.write("a.cpp", "void f() { parallel_for_each(e, k); }\n")
        rc, _, calls, _ = self.launch("-x", "cuda", "-c", src, modes={"gpu": "cuda"})
        self.assertEqual(rc, 0)
        self.assertIn("-DAMP_PARALLEL_FOR_EACH_SCOPED=1", calls[0])
        rc, _, calls, _ = self.launch("-c", src)
        self.assertNotIn("-DAMP_PARALLEL_FOR_EACH_SCOPED=1", calls[-1])

    def test_the_compilers_status_is_returned(self):
        failing = self.write("bin/fail", "#!/bin/sh\nexit 3\n", 0o755)
        src = self.write("a.cpp", "int main() {}\n")
        with contextlib.redirect_stderr(io.StringIO()):
            self.assertEqual(launcher.launch([failing, "-c", src], may_exec=False), 3)


class PassOf(unittest.TestCase):
    def test_each_report_line_names_its_pass(self):
        for ps in source_passes():
            for key in ps.REPORT_KEYS:
                self.assertEqual(launcher.pass_of(f"a.cpp: {key} something"), ps.NAME)
        self.assertIn("`restrict` as an identifier", launcher.pass_of("a.cpp: `restrict` used as an identifier -> x"))
        self.assertIn("exception specifications",
                      launcher.pass_of("a.cpp: 2 dynamic exception specification(s) -> noexcept / none"))
        self.assertIn("restrict(cpu)/restrict(amp) pairs", launcher.pass_of("a.cpp: f(int) restrict(cpu)/... pair"))


if __name__ == "__main__":
    unittest.main()
