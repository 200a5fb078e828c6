"""Unit tests of `./amp build` / `./amp import` (scripts/amp_driver/vsproj/__main__.py)
on the fixture solution, with a stand-in cmake (a shell script): the
CMakeLists.txt import writes, --print, the bad requests that end in a clear
error and exit 2, a configure or build that fails (exit 1, what was not
built named), the programs a build reports, the tiles census summary. The
real build: vsproj.build_fixture.

  python3 -m unittest discover -s tests/vsproj      (CTest: vsproj.unit)
"""
import contextlib
import io
import os
import tempfile
import unittest
from pathlib import Path
from unittest import mock

from amp_driver.vsproj import __main__ as vs
from amp_driver.vsproj.cmakegen import generate
from amp_driver.vsproj.model import Build

HERE = os.path.dirname(os.path.abspath(__file__))
SLN = os.path.join(HERE, "fixture", "Fixture.sln")

# A stand-in cmake: configure exits $FAKE_CONFIGURE (default 0); a build
# makes the files named in $FAKE_MAKES (relative to the build folder) and
# exits $FAKE_BUILD (default 0).
FAKE_CMAKE = r"""#!/bin/sh
echo "cmake $*" >>"$FAKE_LOG"
if [ "$1" = --build ]; then
  for f in $FAKE_MAKES; do mkdir -p "$(dirname "$2/$f")"; echo x >"$2/$f"; done
  exit "${FAKE_BUILD:-0}"
fi
exit "${FAKE_CONFIGURE:-0}"
"""


class Main(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.d = self.tmp.name
        bindir = os.path.join(self.d, "bin")
        os.makedirs(bindir)
        Path(bindir, "cmake").write_text(FAKE_CMAKE)
        os.chmod(os.path.join(bindir, "cmake"), 0o755)
        self.log = os.path.join(self.d, "log")
        self.env = mock.patch.dict(os.environ, {"PATH": bindir + ":" + os.environ["PATH"], "FAKE_LOG": self.log})
        self.env.start()
        for k in ("FAKE_CONFIGURE", "FAKE_BUILD", "FAKE_MAKES"):
            os.environ.pop(k, None)

    def tearDown(self):
        self.env.stop()
        self.tmp.cleanup()

    def main(self, *argv):
        """(exit status, stdout, stderr); stderr is a file, as the builds hand it to cmake."""
        out = io.StringIO()
        with tempfile.TemporaryFile("w+") as err:
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                rc = vs.main(list(argv))
            err.seek(0)
            return rc, out.getvalue(), err.read()

    def test_import_writes_the_generated_cmakelists(self):
        out = os.path.join(self.d, "imp")
        rc, _, err = self.main("import", SLN, "--out", out)
        self.assertEqual(rc, 0)
        self.assertEqual(Path(out, "CMakeLists.txt").read_text(), generate(Build(SLN, None), None, True, True))
        self.assertIn(f"wrote {out}/CMakeLists.txt", err)
        self.assertIn("-DCMAKE_CXX_COMPILER=clang++-22", err)
        rc, _, err = self.main("import", SLN, "--out", out, "--no-msvc", "--no-windows-compat")
        self.assertEqual(Path(out, "CMakeLists.txt").read_text(), generate(Build(SLN, None), None, False, False))
        self.assertNotIn("clang++-22", err)
        self.assertFalse(os.path.exists(self.log), "import runs no cmake")

    def test_print(self):
        rc, out, _ = self.main("build", SLN, "--print", "--config", "Debug|x64")
        self.assertEqual(rc, 0)
        self.assertTrue(out.startswith("Fixture.sln: configuration Debug|x64\n"), out)
        self.assertIn("App", out)

    def test_bad_requests(self):
        rc, _, err = self.main("import", os.path.join(self.d, "none.sln"))
        self.assertEqual(rc, 2)
        self.assertTrue(err.startswith("amp import: error: "), err)
        rc, _, err = self.main("build", SLN)
        self.assertEqual(rc, 2)
        self.assertIn("amp build: error: give --amp-source (a checkout) or --amp-prefix (an install)", err)
        rc, _, err = self.main("build", SLN, "--amp-source", "/a", "--amp-prefix", "/b")
        self.assertEqual(rc, 2)
        with self.assertRaises(SystemExit):
            self.main("compile", SLN)

    def test_configure_fails(self):
        os.environ["FAKE_CONFIGURE"] = "1"
        rc, _, err = self.main("build", SLN, "--amp-prefix", "/inst", "--out", os.path.join(self.d, "b"))
        self.assertEqual(rc, 1)
        self.assertIn("amp build: error: CMake could not configure the build", err)
        self.assertIn("-DCMAKE_PREFIX_PATH=/inst", Path(self.log).read_text())

    def test_build_reports_what_it_made(self):
        out = os.path.join(self.d, "b")
        os.environ["FAKE_MAKES"] = "bin/fixture_app"
        os.environ["FAKE_BUILD"] = "2"
        rc, stdout, err = self.main("build", SLN, "--amp-source", "/src", "--out", out, "--jobs", "3")
        self.assertEqual(rc, 1)
        self.assertEqual(stdout, f"{out}/build/bin/fixture_app\n", "the programs built, one a line")
        self.assertIn("amp build: error: the build stopped; not built: ", err)
        self.assertNotIn("App", err.split("not built: ")[1])
        self.assertIn(f"cmake --build {out}/build -j 3 -- -k", Path(self.log).read_text())
        self.assertTrue(os.path.isfile(os.path.join(out, "CMakeLists.txt")))


class TilesSummary(unittest.TestCase):
    def test_counts(self):
        with tempfile.TemporaryDirectory() as d:
            census = os.path.join(d, "census")
            Path(census).write_text("a.cpp:1:1\tcompiled\t\nb.cpp:2:2\tfibers\tbarrier in a loop\n"
                                    "a.cpp:1:1\tcompiled\t\n")
            err = io.StringIO()
            with contextlib.redirect_stderr(err):
                vs.tiles_summary(census)
            self.assertEqual(err.getvalue(), f"[amp build] host tiles: 2 tiled kernel(s) with barriers, 1 compiled, "
                                             f"1 on fibers (each with its reason: {census})\n")
            Path(census).write_text("")
            err = io.StringIO()
            with contextlib.redirect_stderr(err):
                vs.tiles_summary(census)
            self.assertEqual(err.getvalue(), "")


if __name__ == "__main__":
    unittest.main()
