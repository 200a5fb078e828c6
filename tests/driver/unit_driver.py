"""Unit tests of amp++'s driver (amp_driver/driver.py) in a stand-in source
checkout (scripts/deps.sh, amp_compat/amp.h, a Kokkos install of empty
headers) and an install (share/amp_compat/amp++.conf), with stand-in
compilers (shell scripts that log their arguments): where amp_compat and
Kokkos are found, the compiler and flags of each mode, the C++ standard of
the Kokkos install, the bad requests that end in a clear error, the compile
and link lines main() runs, the notes after a failed compile, the
--amp-check parse's arguments, the checker's precompiled header, the
Windows file-name object, and libomp copied beside a CUDA program. The
option table, Line and pkg-config: unit_job_options.py.

Run: PYTHONPATH=scripts python3 -m unittest discover -s tests/driver -p "unit_*.py"   (CTest: driver.unit)
"""
import contextlib
import io
import os
import tempfile
import unittest
from pathlib import Path
from unittest import mock

from amp_driver import driver, plugins
from scratch import WritesFiles

# A stand-in compiler: logs its arguments (one line per call); a source
# holding DWORD fails as GCC would; -o FILE is written; -print-file-name
# answers $FAKE_LIBOMP.
FAKE_CC = r"""#!/bin/sh
echo "$*" >>"$FAKE_LOG"
prev=""; out=""
for a; do
  case "$a" in -print-file-name=*) echo "${FAKE_LIBOMP:-libomp.so}"; exit 0 ;; esac
  [ "$prev" = -o ] && out=$a
  case "$a" in *.cpp) if grep -q DWORD "$a" 2>/dev/null; then
    echo "$a:2:3: error: 'DWORD' was not declared in this scope" >&2; exit 1; fi ;; esac
  case "$a" in *.cpp) if grep -q BAD_AMP "$a" 2>/dev/null; then
    echo "$a:1:1: error: [C++ AMP C3581] BAD_AMP is not allowed" >&2; echo "1 error generated." >&2; exit 1; fi ;; esac
  prev=$a
done
[ -n "$out" ] && echo obj >"$out"
exit 0
"""


class Checkout(WritesFiles, unittest.TestCase):
    """A source checkout with a Kokkos install and a stand-in compiler."""

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        d = self.d = self.tmp.name
        self.here = os.path.join(d, "src", "scripts")
        self.write("src/amp_compat/amp.h", "")
        self.write("src/amp_compat/compat/msvc/flags.txt", "# the dialect\n-fms-compatibility\n\n-fms-extensions\n")
        self.write("src/amp_compat/compat/detail/win_paths.cpp", "int x;\n")
        self.write("src/scripts/deps.sh", "#!/bin/sh\necho \"deps $*\" >>\"$FAKE_LOG\"\n", 0o755)
        self.kokkos = os.path.join(d, "kokkos")
        self.write("kokkos/include/Kokkos_Core.hpp", "")
        self.write("kokkos/include/KokkosCore_config.h", "#define KOKKOS_ENABLE_CXX20\n")
        os.makedirs(os.path.join(self.kokkos, "lib"))
        self.cc = self.write("bin/fakecc", FAKE_CC, 0o755)
        self.log = os.path.join(d, "log")
        self.env = {"FAKE_LOG": self.log, "AMP_KOKKOS_ROOT": self.kokkos, "AMP_CXX": self.cc,
                    "AMP_MSVC_CXX": self.cc, "AMP_CUDA_CXX": self.cc, "AMP_BUILD_DIR": os.path.join(d, "build"),
                    "TMPDIR": d, "AMP_PCH": "0"}
        self.patch = mock.patch.dict(os.environ, self.env)
        self.patch.start()
        for k in ("AMP_GPU", "AMP_CHECK", "AMP_TILES_REPORT", "AMP_WIN_DIR", "AMP_LAUNCHER_FALLBACK",
                  "AMP_KOKKOS_CUDA_ROOT", "AMP_KOKKOS_HIP_ROOT", "AMP_CUDA_ARCH", "AMP_HIP_ARCH"):
            os.environ.pop(k, None)

    def tearDown(self):
        self.patch.stop()
        self.tmp.cleanup()

    def calls(self):
        return Path(self.log).read_text().splitlines() if os.path.exists(self.log) else []

    def build(self, *opts, env=None):
        os.environ.update(env or {})
        req = driver.parse_options(list(opts), os.environ)
        return driver.Build(req, driver.Site(self.here, os.environ), os.environ)

    def main(self, *argv):
        """driver.main's (exit status, stdout, stderr); stderr is a file, as
        the driver hands it to deps.sh."""
        out = io.StringIO()
        with tempfile.TemporaryFile("w+") as err:
            with contextlib.redirect_stderr(err), contextlib.redirect_stdout(out):
                rc = driver.main(list(argv), self.here)
            err.seek(0)
            return rc, out.getvalue(), err.read()


class Options(unittest.TestCase):
    def test_last_build_kind_wins_and_the_environment(self):
        self.assertFalse(driver.parse_options(["--gpu", "--host"], {}).gpu)
        r = driver.parse_options(["--host", "--gpu=hip"], {})
        self.assertTrue(r.gpu)
        self.assertEqual(r.gpu_kind, "hip")
        self.assertEqual(driver.parse_options([], {"AMP_GPU": ""}).gpu_kind, "cuda")
        self.assertEqual(driver.parse_options([], {"AMP_TILES_REPORT": "1"}).tiles_report, "1")
        self.assertEqual(driver.parse_options(["--amp-check"], {}).check, "1")
        self.assertEqual(driver.parse_options(["--cflags", "--libs", "--cflags"], {}).print, ["cflags", "libs", "cflags"])
        r = driver.parse_options(["--arch=sm_80", "-O3", "--amp-help", "x.cpp"], {})
        self.assertEqual((r.arch, r.help, r.args), ("sm_80", True, ["-O3", "x.cpp"]))

    def test_kokkos_std(self):
        with tempfile.TemporaryDirectory() as d:
            self.assertEqual(driver.kokkos_std(d), "17", "no configuration: C++17")
            os.makedirs(os.path.join(d, "include"))
            cfg = Path(d, "include", "KokkosCore_config.h")
            cfg.write_text("#define KOKKOS_ENABLE_CXX17\n#define KOKKOS_ENABLE_CXX20\n")
            self.assertEqual(driver.kokkos_std(d), "20")
            cfg.write_text("// #define KOKKOS_ENABLE_CXX23\n#define KOKKOS_ENABLE_CXX23_X\n")
            self.assertEqual(driver.kokkos_std(d), "17")

    def test_read_flag_list(self):
        with tempfile.TemporaryDirectory() as d:
            p = Path(d, "f.txt")
            p.write_text("# comment\n  -fa  \n\n-fb # not a comment\n")
            self.assertEqual(driver.read_flag_list(p), ["-fa", "-fb # not a comment"])


class Sites(Checkout):
    def test_source_checkout(self):
        s = driver.Site(self.here, {"AMP_BUILD_DIR": "/b"})
        self.assertEqual(s.mode, "source")
        self.assertEqual(str(s.incdir), os.path.join(os.path.realpath(self.d), "src", "amp_compat"))
        self.assertEqual(s.conf["KOKKOS_HOST"], "/b/deps/kokkos-host")

    def test_install_with_relative_paths(self):
        here = os.path.join(self.d, "inst", "bin")
        self.write("inst/share/amp_compat/amp++.conf", 'KOKKOS_HOST="lib/kokkos-host"\nKOKKOS_CUDA=/abs/k\n'
                                                       "CUDA_ARCH_CONF=sm_80\n# comment\n")
        s = driver.Site(here, {})
        self.assertEqual(s.mode, "installed")
        prefix = os.path.realpath(os.path.join(self.d, "inst"))
        self.assertEqual(s.conf["KOKKOS_HOST"], f"{prefix}/lib/kokkos-host")
        self.assertEqual(s.conf["KOKKOS_CUDA"], "/abs/k")
        self.assertEqual(s.conf["CUDA_ARCH_CONF"], "sm_80")
        self.assertEqual(str(s.incdir), f"{prefix}/include/amp_compat")
        # the install's CUDA Kokkos is for sm_80: another architecture needs its own
        with self.assertRaisesRegex(driver.DriverError, "this install's CUDA Kokkos is for sm_80; for sm_90 set "
                                                         "AMP_KOKKOS_CUDA_ROOT"):
            driver.Build(driver.parse_options(["--gpu", "--arch=sm_90"], {}), s, {})

    def test_neither(self):
        with self.assertRaisesRegex(driver.DriverError, "cannot find amp_compat next to"):
            driver.Site(self.d, {})


class Builds(Checkout):
    def test_host(self):
        b = self.build()
        self.assertEqual(b.cxx, self.cc)
        self.assertEqual(b.kokkos, self.kokkos)
        self.assertEqual(b.cflags[:2], ["-std=c++20", "-O2"])
        self.assertIn("-fopenmp", b.cflags)
        self.assertEqual(b.cflags[-1], "-ffp-contract=off")
        self.assertEqual(b.libs[:3], [f"-L{self.kokkos}/lib", "-lkokkoscontainers", "-lkokkoscore"])
        self.assertEqual(b.modes(), {"gpu": "", "windows": False, "msvc": False, "checked": False})
        self.assertEqual(self.calls(), [], "AMP_KOKKOS_ROOT given: deps.sh is not run")

    def test_lib64_and_missing_kokkos(self):
        os.rename(os.path.join(self.kokkos, "lib"), os.path.join(self.kokkos, "lib64"))
        self.assertEqual(self.build().klib, os.path.join(self.kokkos, "lib64"))
        with self.assertRaisesRegex(driver.DriverError, r"no Kokkos install at /nowhere \(set AMP_KOKKOS_ROOT\)"):
            self.build(env={"AMP_KOKKOS_ROOT": "/nowhere"})

    def test_source_checkout_sets_up_kokkos_through_deps(self):
        with self.assertRaisesRegex(driver.DriverError, "no Kokkos install at"):
            self.build(env={"AMP_KOKKOS_ROOT": ""})
        self.assertEqual(self.calls(), ["deps host"])

    def test_msvc(self):
        b = self.build("--msvc")
        self.assertEqual(b.cflags[:3], ["-std=gnu++20", "-fms-compatibility", "-fms-extensions"])
        self.assertIn(f"{b.site.incdir}/compat/msvc/msvc_dialect.h", b.cflags)
        self.assertNotIn("-std=c++20", b.cflags)
        self.assertEqual(self.build("--msvc", "--fast-math").cflags[-1], "-ffp-contract=fast-honor-pragmas")

    def test_cuda(self):
        b = self.build("--gpu", env={"AMP_KOKKOS_CUDA_ROOT": self.kokkos, "AMP_CUDA_PATH": "/cuda"})
        self.assertEqual(b.gpu_kind, "cuda")
        for f in ("--cuda-gpu-arch=sm_90", "--cuda-path=/cuda", "-fno-gpu-flush-denormals-to-zero"):
            self.assertIn(f, b.cflags)
        # What GCC only warns about does not stop Clang's CUDA compile either.
        for f in ("-Wno-register", "-Wno-c++11-narrowing", "-Wno-reserved-user-defined-literal"):
            self.assertIn(f, b.cflags)
        self.assertIn("-Wl,-rpath,$ORIGIN", b.libs)
        self.assertIn("-lcudart_static", b.libs)
        self.assertEqual(self.build("--gpu", "--arch=sm_80", env={"AMP_KOKKOS_CUDA_ROOT": self.kokkos}).arch, "sm_80")

    def test_cuda_libs_printed_name_libomps_folder(self):
        omp = self.write("omp/libomp.so", "")
        b = self.build("--gpu", "--libs", env={"AMP_KOKKOS_CUDA_ROOT": self.kokkos, "FAKE_LIBOMP": omp})
        self.assertNotIn("-Wl,-rpath,$ORIGIN", b.libs)
        self.assertIn("-Wl,-rpath," + os.path.dirname(os.path.realpath(omp)), b.libs)

    def test_hip(self):
        b = self.build("--gpu=hip", env={"AMP_KOKKOS_HIP_ROOT": self.kokkos, "AMP_HIP_CXX": self.cc})
        self.assertIn("--offload-arch=gfx90a", b.cflags)
        self.assertIn("-Wno-c++11-narrowing", b.cflags)
        self.assertEqual(b.libs[-5:], ["-Wl,-Bstatic", "-lboost_context", "-Wl,-Bdynamic", "-ldl", "-pthread"])
        self.assertNotIn("-fopenmp", b.cflags)
        fast = self.build("--gpu=hip", "--fast-math", env={"AMP_KOKKOS_HIP_ROOT": self.kokkos, "AMP_HIP_CXX": self.cc})
        self.assertEqual(fast.cflags[-1], "-ffp-contract=on")

    def test_checked(self):
        b = self.build("--checked", "-c", "a.cpp")
        self.assertEqual(b.req.args, ["-DAMP_CHECKED=1", "-c", "a.cpp"])
        self.assertTrue(b.modes()["checked"])
        with self.assertRaisesRegex(driver.DriverError, "--checked is a host build"):
            self.build("--checked", "--gpu", env={"AMP_KOKKOS_CUDA_ROOT": self.kokkos})

    def test_compiler_of_each_build(self):
        """options.compiler: --gpu --msvc compiles with the CUDA compiler; a missing one is named with its variable."""
        b = self.build("--gpu", "--msvc", env={"AMP_KOKKOS_CUDA_ROOT": self.kokkos, "AMP_MSVC_CXX": "/no/msvc"})
        self.assertEqual((b.cxx, b.cxx_var), (self.cc, "AMP_CUDA_CXX"))
        self.assertEqual(self.build("--msvc").cxx_var, "AMP_MSVC_CXX")
        self.assertEqual(self.build().cxx_var, "AMP_CXX")

    def test_bad_gpu_kind_from_the_environment(self):
        with self.assertRaisesRegex(driver.DriverError, "AMP_GPU=metal: expected cuda or hip"):
            self.build("--gpu", env={"AMP_GPU": "metal"})

    def test_windows_compat(self):
        b = self.build("--windows-compat")
        inc = b.site.incdir
        self.assertIn(f"{inc}/compat/crt_compat.h", b.cflags)
        self.assertIn("-ltbb", b.libs)


class Main(Checkout):
    def test_help(self):
        rc, out, _ = self.main("--help")
        self.assertEqual(rc, 0)
        self.assertIn("--windows-compat", out)

    def test_cflags_and_libs(self):
        rc, out, _ = self.main("--cflags", "--libs")
        self.assertEqual(rc, 0)
        self.assertTrue(out.startswith("-std=c++20 -O2 -D_STRINGS_H -include "), out)
        self.assertTrue(out.rstrip().endswith("-ldl -pthread"), out)
        os.environ["AMP_KOKKOS_CUDA_ROOT"] = self.kokkos
        rc, out, _ = self.main("--gpu", "--cflags")
        self.assertTrue(out.startswith("-x cuda -std=c++20"), out)

    def test_bad_option_is_a_clear_error(self):
        rc, out, err = self.main("--gpu=metal", "-c", "a.cpp")
        self.assertEqual(rc, 2)
        self.assertEqual(err, "amp++: error: --gpu=metal: the GPU builds are --gpu=cuda and --gpu=hip\n")

    def test_missing_compiler_is_a_clear_error(self):
        src = self.write("a.cpp", "int main() { return 0; }\n")
        os.environ["AMP_CXX"] = "/no/such/g++"
        self.assertEqual(self.main("-c", src), (2, "", "amp++: error: the compiler /no/such/g++ is not found (set "
                                                        "AMP_CXX to another)\n"))
        os.environ["AMP_MSVC_CXX"] = "no-such-clang++"
        self.assertIn("(set AMP_MSVC_CXX to another)", self.main("--msvc", "-c", src)[2])

    def test_compile(self):
        src = self.write("a.cpp", "int main() { return 0; }\n")
        rc, _, err = self.main("-c", src, "-o", os.path.join(self.d, "a.o"))
        self.assertEqual((rc, err), (0, ""))
        line = self.calls()[-1].split()
        self.assertEqual(line[:2], ["-std=c++20", "-O2"])
        self.assertEqual(line[-4:], ["-c", src, "-o", os.path.join(self.d, "a.o")])
        self.assertNotIn("-lkokkoscore", line, "a compile does not link")

    def test_link_of_objects_only(self):
        obj = self.write("a.o", "")
        rc, _, _ = self.main(obj, "-o", os.path.join(self.d, "prog"))
        self.assertEqual(rc, 0)
        line = self.calls()[-1].split()
        self.assertEqual(line[:3], [obj, "-o", os.path.join(self.d, "prog")], "no compile flags for a link")
        self.assertIn("-lkokkoscore", line)

    def test_verbose(self):
        src = self.write("a.cpp", "int main() { return 0; }\n")
        rc, _, err = self.main("--amp-verbose", "-c", src)
        self.assertTrue(err.startswith(self.cc + " -std=c++20 -O2"), err)

    def test_failed_compile_gets_the_notes(self):
        src = self.write("w.cpp", "int main() {\n  DWORD n = 0;\n}\n")
        rc, _, err = self.main("-c", src)
        self.assertEqual(rc, 1)
        self.assertIn(f"{src}:2:3: error: 'DWORD' was not declared in this scope", err)
        self.assertIn("add --windows-compat", err)

    def test_windows_folder_removed(self):
        src = self.write("a.cpp", "int main() { return 0; }\n")
        rc, _, _ = self.main("--windows-compat", "-c", src)
        self.assertEqual(rc, 0)
        self.assertEqual([f for f in os.listdir(self.d) if f.startswith("amp++win.")], [])


class AmpCheck(Checkout):
    def setUp(self):
        super().setUp()
        os.environ.update(AMP_CHECK_CLANG=self.cc, AMP_CHECK_PCH="0")
        self.plugin = mock.patch.object(plugins, "check_flags", lambda build, root: ["-fplugin=/stand-in.so"])
        self.plugin.start()

    def tearDown(self):
        self.plugin.stop()
        super().tearDown()

    def test_the_parse_takes_only_what_decides_it(self):
        src = self.write("a.cpp", "int main() { return 0; }\n")
        rc, _, err = self.main("--amp-check", "-c", src, "-o", "a.o", "-I", "inc", "-DX=1", "-Uy", "-O3",
                               "-include", "pre.h", "-std=c++20", "-L/lib", "b.o", "-fno-exceptions", "-g",
                               "-imacros", "m.h")
        self.assertEqual(rc, 0, err)
        calls = self.calls()
        self.assertEqual(calls[0], "deps checker")
        check = next(c for c in calls if "-fsyntax-only" in c).split()
        tail = check[check.index(f"{self.kokkos}/include") + 2:]
        # job.parse_flags: the same flags as the host tile compiler's parse (-fno-exceptions changes
        # what the source may say; -imacros its macros), then the sources.
        self.assertEqual(tail, ["-I", "inc", "-DX=1", "-Uy", "-include", "pre.h", "-std=c++20", "-fno-exceptions",
                                "-imacros", "m.h", src, "-fplugin=/stand-in.so", "-fsyntax-only", "-w"])
        self.assertIn("-c", calls[-1].split(), "then the compile")

    def test_a_violation_fails_before_the_compile(self):
        src = self.write("a.cpp", "BAD_AMP\n")
        rc, _, err = self.main("--amp-check", "-c", src)
        self.assertEqual(rc, 1)
        self.assertIn("[C++ AMP C3581] BAD_AMP is not allowed", err)
        self.assertNotIn("error generated", err)
        self.assertFalse(any(" -c " in f" {c} " for c in self.calls()), "no compile after a violation")

    def test_check_only(self):
        src = self.write("a.cpp", "int main() { return 0; }\n")
        with mock.patch.dict(os.environ, {"AMP_CHECK": "only"}):
            rc, _, _ = self.main("--amp-check", "-c", src)
        self.assertEqual(rc, 0)
        self.assertFalse(any(" -c " in f" {c} " for c in self.calls()))

    def test_needs_a_source_checkout(self):
        b = self.build()
        b.site.mode = "installed"
        with self.assertRaisesRegex(driver.DriverError, "--amp-check needs a source checkout"):
            driver.amp_check(b, b.req, b.site, os.environ)


class Caches(Checkout):
    def test_check_pch_built_once_without_crt_compat(self):
        site = driver.Site(self.here, os.environ)
        flags = ["-std=c++20", "-include", "/i/compat/crt_compat.h", "-I/i"]
        p1 = driver.check_pch(self.cc, flags, "/i", site)
        self.assertTrue(p1.endswith(".pch") and os.path.isfile(p1))
        build = [c for c in self.calls() if "c++-header" in c]
        self.assertEqual(len(build), 1)
        self.assertNotIn("crt_compat.h", build[0])
        self.assertNotIn("-include -I/i", build[0], "the -include goes with its file")
        self.assertEqual(driver.check_pch(self.cc, flags, "/i", site), p1)
        self.assertEqual(len([c for c in self.calls() if "c++-header" in c]), 1)
        self.assertNotEqual(driver.check_pch(self.cc, ["-std=c++17"], "/i", site), p1, "one header per set of flags")

    def test_check_pch_that_does_not_build(self):
        failing = self.write("bin/failcc", "#!/bin/sh\nexit 1\n", 0o755)
        self.assertEqual(driver.check_pch(failing, [], "/i", driver.Site(self.here, os.environ)), "")

    def test_win_paths_object_once_per_compiler(self):
        b = self.build("--windows-compat")
        obj = driver.win_paths_object(b, os.path.join(self.d, "w"))
        self.assertEqual(obj, os.path.join(self.d, "build", "driver-cache", "win_paths-fakecc.o"))
        self.assertTrue(os.path.isfile(obj))
        driver.win_paths_object(b, os.path.join(self.d, "w"))
        self.assertEqual(len(self.calls()), 1)

    def test_win_paths_object_that_does_not_compile(self):
        b = self.build("--windows-compat")
        b.cxx = self.write("bin/failcc", "#!/bin/sh\nexit 1\n", 0o755)
        with self.assertRaisesRegex(driver.DriverError, "compiling .*win_paths.cpp failed"):
            driver.win_paths_object(b, os.path.join(self.d, "w"))

    def test_libomp_copied_beside_the_program(self):
        omp = self.write("omp/libomp.so.5", "omp")
        self.write("bin/ldd", f"#!/bin/sh\necho '\tlibomp.so.5 => {omp} (0x0)'\n", 0o755)
        exe = self.write("out/prog", "")
        with mock.patch.dict(os.environ, {"PATH": os.path.join(self.d, "bin") + ":" + os.environ["PATH"]}):
            driver.copy_libomp(exe)
        self.assertEqual(Path(self.d, "out", "libomp.so.5").read_text(), "omp")


class CaptureFd2(unittest.TestCase):
    def test_children_and_this_process(self):
        import subprocess

        def fn():
            os.write(2, b"mine\n")
            subprocess.run(["sh", "-c", "echo child >&2"])
            return 7
        self.assertEqual(driver._capture_fd2(fn), (7, "mine\nchild\n"))

    def test_shown_when_fn_raises(self):
        def fn():
            os.write(2, b"before\n")
            raise KeyError("x")
        err = io.StringIO()
        with contextlib.redirect_stderr(err), self.assertRaises(KeyError):
            driver._capture_fd2(fn)
        self.assertEqual(err.getvalue(), "before\n")


if __name__ == "__main__":
    unittest.main()
