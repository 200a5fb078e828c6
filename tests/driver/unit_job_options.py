"""Unit tests of the driver package's option table (options.py), compile job
(job.py), each pass's applies(job) (the cheap scan), amp++'s option parsing
and compile line (driver.py) and its failure notes (hints.py).

Run: PYTHONPATH=scripts python3 -m unittest discover -s tests/driver -p "unit_*.py"   (CTest: driver.unit)
"""
import os
import re
import tempfile
import unittest
from pathlib import Path

from amp_driver import options
from amp_driver.job import Job
from amp_driver.passes import checked, gpu, host_tiles, msvc, windows
from amp_driver import launcher, driver, hints

ROOT = Path(__file__).resolve().parents[2]
INC = "/x/amp_compat"


class OptionTable(unittest.TestCase):
    def test_every_driver_option_is_a_row(self):
        """Each option driver.parse_options takes is in the table, and back."""
        flags = set()
        for o in options.OPTIONS:
            flags.update(re.findall(r"--[a-z-]+", o.flag))
        for f in flags:
            r = driver.parse_options([f] if f not in ("--arch",) else ["--arch=sm_80"], {})
            self.assertEqual(r.args, [], f"{f} is in the table but the driver passes it to the compiler")
        self.assertEqual(driver.parse_options(["--no-such-option", "-O3"], {}).args, ["--no-such-option", "-O3"])

    def test_help_lists_every_row(self):
        text = options.help_text()
        for o in options.OPTIONS:
            self.assertIn(o.flag, text)
            if o.env:
                self.assertIn(o.env, text)

    def test_readme_lists_the_table(self):
        """README.md's "Compiling your own AMP code" holds the table's list."""
        readme = (ROOT / "README.md").read_text()
        section = readme.split("## Compiling your own AMP code", 1)[1].split("\n## ", 1)[0]
        for line in options.readme_lines():
            self.assertIn(line, section, "README.md is behind the option table: "
                          "regenerate its list with scripts/amp_driver.sh readme-options")

    def test_cmake_counterparts_exist(self):
        """The CMake options and targets the table names are CMakeLists.txt's."""
        cmake = (ROOT / "CMakeLists.txt").read_text()
        for o in options.OPTIONS:
            for name in re.findall(r"\b(AMP_[A-Z_]+)=", o.cmake):
                self.assertRegex(cmake, rf"(option|set)\({name}\b", f"{o.flag}: no CMake option {name}")
            for target in re.findall(r"target (amp_compat::\w+)", o.cmake):
                self.assertIn(f"add_library({target} ALIAS", cmake, f"{o.flag}: no CMake target {target}")

    def test_marks_of_each_mode(self):
        m = options.modes_of
        self.assertEqual(m(["-c", "a.cpp"]), {"gpu": "", "windows": False, "msvc": False, "checked": False})
        self.assertTrue(m(["-include", f"{INC}/compat/crt_compat.h"])["windows"])
        self.assertTrue(m([f"-include{INC}/compat/crt_compat.h"])["windows"])
        self.assertFalse(m([f"-I{INC}/compat"])["windows"])
        self.assertTrue(m(["-fms-compatibility"])["msvc"])
        self.assertTrue(m(["-include", f"{INC}/compat/msvc/msvc_dialect.h"])["msvc"])
        self.assertEqual(m(["--cuda-gpu-arch=sm_90"])["gpu"], "cuda")
        self.assertEqual(m(["-x", "cuda"])["gpu"], "cuda")
        self.assertEqual(m(["--offload-arch=gfx90a"])["gpu"], "hip")
        self.assertEqual(m(["-x", "hip"])["gpu"], "hip")
        self.assertEqual(m(["-x", "c++"])["gpu"], "")
        self.assertTrue(m(["-DAMP_CHECKED=1"])["checked"])
        self.assertFalse(m(["-DAMP_CHECKED=1", "-x", "cuda"])["checked"])  # a host build only
        self.assertTrue(m(["-Xclang", "-fms-compatibility"])["msvc"])
        self.assertFalse(m(["-o", "-fms-compatibility"])["msvc"], "an output file's name is no mark")
        self.assertFalse(m(["-include"])["windows"])
        self.assertTrue(m(["-D", "AMP_CHECKED=1"])["checked"])


class CompileJob(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.src = os.path.join(self.dir.name, "a.cpp")
        Path(self.src).write_text("int main() {}\n")

    def tearDown(self):
        self.dir.cleanup()

    def test_parsed_once(self):
        j = Job.parse("g++", ["-I", "inc", "-iquote", "q", "-DX=1", "-D", "Y", "-o", "a.o", "-c", self.src,
                              "-include", "pre.h", "missing.cpp"])
        self.assertEqual(j.sources, [10])
        self.assertEqual(j.out, "a.o")
        self.assertEqual(j.defines, {"X": "1", "Y": "1"})
        self.assertEqual(j.dirs["-I"], [os.path.abspath("inc")])
        self.assertEqual(j.dirs["-iquote"], [os.path.abspath("q")])
        self.assertFalse(j.preprocess_only)

    def test_response_files(self):
        """@FILE read as GCC reads it: the passes see its sources and folders; an unreadable one stays."""
        with tempfile.TemporaryDirectory() as d:
            inner = Path(d, "inner.rsp")
            inner.write_text("-DX=1\n")
            rsp = Path(d, "a.rsp")
            rsp.write_text(f"-I 'my inc' \"-Iq r\" -DA=a\\ b\n{self.src} @{inner}\n")
            j = Job.parse("g++", ["-c", f"@{rsp}", "-o", "a.o", "@missing.rsp"])
            self.assertEqual(j.args, ["-c", "-I", "my inc", "-Iq r", "-DA=a b", self.src, "-DX=1", "-o", "a.o",
                                      "@missing.rsp"])
            self.assertEqual(j.sources, [5])
            self.assertEqual(j.dirs["-I"], [os.path.abspath("my inc"), os.path.abspath("q r")])
            self.assertEqual(j.defines["X"], "1")
            rsp.write_text("--tiles-report -O2\n")
            self.assertEqual(driver.parse_options(driver.expand_response_files([f"@{rsp}"]), {}).tiles_report, "1")

    def test_writes_depfiles(self):
        """-MD, -MMD, -MF (joined or not): their files name the originals of the passes' copies (depfile.py)."""
        for flags in (["-MD"], ["-MMD"], ["-MF", "a.d"], ["-MFa.d"], ["-M", "-MF", "a.d"]):
            self.assertTrue(Job.parse("g++", flags + ["-c", self.src, "-o", "a.o"]).writes_depfiles, flags)
        for flags in (["-M"], ["-MM"], ["-o", "-MD.o"], ["-MT", "-MD"], ["-DMD"]):
            self.assertFalse(Job.parse("g++", flags + ["-c", self.src]).writes_depfiles, flags)

    def test_parse_flags(self):
        """What a Clang parse beside the compile keeps (the tile compiler's and the restrict(amp) check's)."""
        from amp_driver.job import parse_flags
        line = ["-c", self.src, "-O2", "-g", "-o", "a.o", "-Iinc", "-imacros", "m.h", "-imacrosn.h", "-includep.h",
                "-include-pch", "x.pch", "-idirafter", "late", "-fno-exceptions", "-funsigned-char", "-fPIC",
                "-MF", "a.d", "-Wall", "-Wno-deprecated", "-L/lib", "-lfoo", "b.o", "--cuda-path=/cuda"]
        self.assertEqual(parse_flags(line), ["-Iinc", "-imacros", "m.h", "-imacrosn.h", "-includep.h", "-idirafter",
                                             "late", "-fno-exceptions", "-funsigned-char", "-Wno-deprecated"])
        self.assertEqual(parse_flags(line, cuda=True)[-1], "--cuda-path=/cuda")

    def test_replace_includes(self):
        from amp_driver.job import replace_includes
        line = ["-O2", "-include", "a.h", "-I/i", "-includeb.h", "-include-pch", "x.pch", "-include", "c.h"]
        self.assertEqual(replace_includes(line, lambda f: True, ["-include", "p.h"]),
                         ["-O2", "-include", "p.h", "-I/i", "-include-pch", "x.pch"])
        self.assertEqual(replace_includes(line, lambda f: f == "b.h", []),
                         ["-O2", "-include", "a.h", "-I/i", "-include-pch", "x.pch", "-include", "c.h"])
        self.assertEqual(replace_includes(["-o", "-include", "-c"], lambda f: True, ["X"]), ["-o", "-include", "-c"],
                         "an -o value is no option")

    def test_forced_include(self):
        from amp_driver.job import forced_include
        self.assertEqual(forced_include("-include", "a.h"), "a.h")
        self.assertEqual(forced_include("-includeb.h", None), "b.h")
        for opt, value in (("-include-pch", "x.pch"), ("-includ", None), ("-I", "i"), (None, "k.cpp")):
            self.assertIsNone(forced_include(opt, value), opt)

    def test_output_joined_to_its_option(self):
        """A Makefile's `-o$@`: the output all the same (-MD's overlay beside it, --windows-compat's folder)."""
        self.assertEqual(Job.parse("g++", ["-c", self.src, "-oobj/a.o"]).out, "obj/a.o")
        self.assertIsNone(Job.parse("clang++", ["-c", self.src, "-objcmt-migrate-literals"]).out)
        self.assertIsNone(Job.parse("clang++", ["-c", self.src, "-offload-arch=gfx90a"]).out)

    def test_macro_options_both_spellings(self):
        from amp_driver.job import macro_args, restriction_macros
        args = ["-DA=1", "-D", "B=throw()", "-UC", "-U", "D", "-o", "-DNOT_A_MACRO.o", "-I", "-DNOT_EITHER"]
        self.assertEqual(list(macro_args(args)), [(0, "-D", "A=1"), (2, "-D", "B=throw()"), (3, "-U", "C"),
                                                  (5, "-U", "D")])
        self.assertEqual(Job.parse("g++", args).defines, {"A": "1", "B": "throw()"})
        self.assertEqual(restriction_macros(["-DR1=cpu,amp", "-D", "R2=amp", "-DR3=1", "-D", "R4"]), {"R1", "R2"})

    def test_one_reading_of_the_words(self):
        from amp_driver.job import scan
        self.assertEqual(list(scan(["-o", "x.o", "-c", "a.cpp", "-Ifoo", "-x", "c++", "-o"])),
                         [(0, "-o", "x.o"), (2, "-c", None), (3, None, "a.cpp"), (4, "-Ifoo", None), (5, "-x", "c++"),
                          (7, "-o", None)])

    def test_modes_given_win_over_the_line(self):
        """amp++ hands its modes over: the line's marks are not read again."""
        j = Job.parse("g++", ["-fms-compatibility", self.src], modes={"gpu": "", "windows": True})
        self.assertTrue(j.windows)
        self.assertFalse(j.msvc)

    def test_checked_is_host_only(self):
        self.assertFalse(Job.parse("c", [], modes={"gpu": "cuda", "checked": True}).checked)


def job_with(text, **modes):
    j = Job.parse("g++", [], modes=dict({"gpu": "", "windows": False, "msvc": False, "checked": False}, **modes))
    j.texts = {"/p/a.cpp": text}
    return j


class Applies(unittest.TestCase):
    """Each pass's applies(job): its mode, then the cheap scan of the text."""

    def test_gpu(self):
        self.assertFalse(gpu.applies(job_with("parallel_for_each(e, f);")))
        self.assertTrue(gpu.applies(job_with("parallel_for_each(e, f);", gpu="cuda")))
        self.assertFalse(gpu.applies(job_with("int main() {}", gpu="cuda")))

    def test_windows(self):
        self.assertFalse(windows.applies(job_with("throw std::exception(\"x\");")))
        self.assertTrue(windows.applies(job_with("throw std::exception(\"x\");", windows=True)))
        self.assertTrue(windows.applies(job_with("__declspec(align(16)) struct S {};", windows=True)))
        self.assertFalse(windows.applies(job_with("int main() { return 0; }", windows=True)))

    def test_msvc_reads_every_file(self):
        self.assertTrue(msvc.applies(job_with("int main() {}", msvc=True)))
        self.assertFalse(msvc.applies(job_with("int main() {}")))

    def test_checked(self):
        self.assertTrue(checked.applies(job_with("tile_static int a[4];", checked=True)))
        self.assertFalse(checked.applies(job_with("tile_static int a[4];")))
        self.assertFalse(checked.applies(job_with("int a[4];", checked=True)))

    def test_restrict_pass_scan(self):
        self.assertTrue(launcher.text_passes_apply(job_with("int f() restrict(amp);")))
        self.assertTrue(launcher.text_passes_apply(job_with("void f() throw(int);")))
        self.assertFalse(launcher.text_passes_apply(job_with("int f() restrict(cpu, amp);")))
        self.assertFalse(launcher.text_passes_apply(job_with("int main() { return 0; }")))

    def test_host_tiles_needs_a_barrier(self):
        with tempfile.TemporaryDirectory() as d:
            src = os.path.join(d, "t.cpp")
            Path(src).write_text("int main() {}\n")
            j = Job.parse("g++", ["-c", src])
            self.assertFalse(host_tiles.applies(j))
            Path(src).write_text("void k(tiled_index<4> t) restrict(amp) { t.barrier.wait(); }\n")
            self.assertTrue(host_tiles.applies(j))
            self.assertFalse(host_tiles.applies(Job.parse("g++", ["-E", src])))


class DriverLine(unittest.TestCase):
    def test_gpu_sources_get_x(self):
        line = driver.Line(["-c", "a.cpp", "b.o", "c.cu", "-o", "x"], "cuda")
        self.assertEqual(line.args, ["-c", "-x", "cuda", "a.cpp", "-x", "none", "b.o", "-x", "cuda", "c.cu", "-o", "x"])
        self.assertFalse(line.link)
        self.assertEqual(line.srcs, ["a.cpp", "c.cu"])

    def test_user_x_wins(self):
        line = driver.Line(["-x", "c++", "a.cpp"], "cuda")
        self.assertEqual(line.args, ["-x", "c++", "a.cpp"])

    def test_link_and_exe(self):
        line = driver.Line(["a.o", "-o", "prog"], "")
        self.assertTrue(line.link and line.have_input and not line.have_src)
        self.assertEqual(line.exe, "prog")
        self.assertEqual(driver.Line(["-shared", "a.o"], "").exe, "")
        self.assertEqual(driver.Line(["a.o", "-obin/prog"], "").exe, "bin/prog")

    def test_gpu_option_spellings(self):
        self.assertEqual(driver.parse_options(["--gpu=hip"], {}).gpu_kind, "hip")
        self.assertEqual(driver.parse_options(["--gpu"], {"AMP_GPU": "hip"}).gpu_kind, "hip")
        with self.assertRaises(driver.DriverError):
            driver.parse_options(["--gpu=metal"], {})
        self.assertEqual(driver.parse_options(["--amp-check"], {"AMP_CHECK": "only"}).check, "only")


class PkgConfig(unittest.TestCase):
    def test_host_flags_on_pkgconfig_variables(self):
        cflags, libs = driver.pkgconfig_lines()
        self.assertTrue(cflags.startswith("Cflags: -std=c++17 -D_STRINGS_H -include ${includedir}/amp_compat/amp_prelude.h"))
        self.assertIn("-isystem ${kokkos}/include -fopenmp -ffp-contract=off", cflags)
        self.assertNotIn("-O2", cflags)
        self.assertEqual(libs, "Libs: -L${kokkos}/lib -lkokkoscontainers -lkokkoscore -fopenmp -l:libboost_context.a "
                               "-ldl -pthread")


class TableFlags(unittest.TestCase):
    """What the table says an option adds is what --cflags/--libs print."""

    def build(self, *opts):
        req = driver.parse_options(list(opts) + ["--cflags"], {})
        return driver.template_build(req, include="/inc", kokkos="/k")

    def test_windows_compat(self):
        base, win = self.build(), self.build("--windows-compat")
        self.assertEqual(win.cflags[:len(base.cflags) - 1], base.cflags[:-1])
        self.assertEqual(win.cflags[len(base.cflags) - 1:-1], options.flags("--windows-compat", "cflags", "/inc"))
        self.assertEqual(win.libs[-len(options.flags("--windows-compat", "libs", "/inc")) - 3:-3],
                         options.flags("--windows-compat", "libs", "/inc"))

    def test_fast_math_and_host(self):
        self.assertIn("-ffp-contract=fast", self.build("--fast-math").cflags)
        self.assertIn("-ffp-contract=off", self.build().cflags)
        self.assertIn("-fopenmp", self.build().cflags)

    def test_msvc_dialect(self):
        inc = str(ROOT / "amp_compat")
        req = driver.parse_options(["--msvc", "--cflags"], {})
        cflags = driver.template_build(req, include=inc, kokkos="/k").cflags
        self.assertTrue(cflags[0].startswith("-std=gnu++"))
        self.assertIn("-fms-compatibility", cflags)
        self.assertIn(f"{inc}/compat/msvc/msvc_dialect.h", cflags)


class Hints(unittest.TestCase):
    class Req:
        windows = msvc = False

    def test_windows_names(self):
        err = "a.cpp:3:1: error: 'DWORD' was not declared in this scope\n"
        self.assertIn("add --windows-compat", hints.hints(err, self.Req(), []))
        r = self.Req()
        r.windows = True
        self.assertEqual(hints.hints(err, r, []), "")

    def test_msvc_isms(self):
        err = "a.cpp:4:1: error: '::main' must return 'int'\na.cpp:5:3: error: '__int64' was not declared in this scope\n"
        out = hints.hints(err, self.Req(), [])
        self.assertIn("`void main()`", out)
        self.assertIn("Microsoft keywords", out)
        self.assertIn("add --msvc", out)

    def test_nothing_to_say(self):
        self.assertEqual(hints.hints("a.cpp:1:1: error: expected ';'\n", self.Req(), []), "")


if __name__ == "__main__":
    unittest.main()
