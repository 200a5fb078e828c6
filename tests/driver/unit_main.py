"""Unit tests of the package's entry (amp_driver/__main__.py,
`python3 -m amp_driver COMMAND ...`): each command reaches its module, an
unknown or incomplete command prints the usage and exits 2.

Run: PYTHONPATH=scripts python3 -m unittest discover -s tests/driver -p "unit_*.py"   (CTest: driver.unit)
"""
import contextlib
import io
import os
import subprocess
import sys
import unittest
from pathlib import Path
from unittest import mock

from amp_driver import __main__ as entry
from amp_driver import options

ROOT = Path(__file__).resolve().parents[2]


def run(*argv):
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        rc = entry.main(list(argv))
    return rc, out.getvalue(), err.getvalue()


class Commands(unittest.TestCase):
    def test_usage(self):
        for argv in ([], ["nothing"], ["launch"], ["tiles-census"], ["tiles-census", "a", "b"]):
            rc, _, err = run(*argv)
            self.assertEqual(rc, 2, argv)
            self.assertTrue(err.startswith("python3 -m amp_driver COMMAND ARGS..."), err)

    def test_launch_needs_a_compiler_that_exists(self):
        rc, _, err = run("launch", "/no/such/cc", "-c", "a.cpp")
        self.assertEqual((rc, err), (2, "launch: error: the compiler /no/such/cc is not found\n"))

    def test_table_commands(self):
        self.assertEqual(run("help"), (0, options.help_text(), ""))
        rc, out, _ = run("readme-options")
        self.assertEqual(out, "\n".join(options.readme_lines()) + "\n")
        rc, out, _ = run("pkgconfig")
        self.assertTrue(out.startswith("Cflags: -std=c++17"), out)
        self.assertIn("\nLibs: -L${kokkos}/lib", out)

    def test_each_command_reaches_its_module(self):
        calls = []
        targets = {"launch": "amp_driver.launcher.launch", "c++": "amp_driver.driver.main",
                   "rewrite": "amp_driver.passes.restrict_pairs.main", "plugin": "amp_driver.plugins.main",
                   "tile-compiler": "amp_driver.tile_compiler.main", "backends": "amp_driver.backends.main",
                   "vsproj": "amp_driver.vsproj.__main__.main"}
        for cmd, target in targets.items():
            with mock.patch(target, lambda *a, t=target: calls.append((t, a)) or 7):
                self.assertEqual(run(cmd, "sh" if cmd == "launch" else "x", "y")[0], 7, cmd)
        self.assertEqual(calls, [("amp_driver.launcher.launch", (["sh", "y"],)),
                                 ("amp_driver.driver.main", (["y"], "x")),  # c++ BINDIR ARGS
                                 ("amp_driver.passes.restrict_pairs.main", (["x", "y"],)),
                                 ("amp_driver.plugins.main", (["x", "y"],)),
                                 ("amp_driver.tile_compiler.main", (["x", "y"],)),
                                 ("amp_driver.backends.main", (["x", "y"],)),
                                 ("amp_driver.vsproj.__main__.main", (["x", "y"],))])

    def test_check_flags(self):
        """plugins.check_flags, one a line (scripts/amp_check.sh flags; ./amp's checked compiles)."""
        with mock.patch("amp_driver.plugins.build", lambda name, env=None: f"/b/{name}.so"):
            rc, out, _ = run("check-flags")
        self.assertEqual(rc, 0)
        self.assertEqual(out.splitlines(), ["-DAMP_CHECK_PASS=1", "-fplugin=/b/amp_check.so", "-Xclang",
                                            "-plugin-arg-amp-check", "-Xclang", f"lib={ROOT}/amp_compat/"])
        with mock.patch.dict(os.environ, {"AMP_CHECK_CLANG": "no-such-clang++-0"}):
            rc, out, err = run("check-flags")
        self.assertEqual((rc, out), (3, ""))
        self.assertIn("no-such-clang++-0 not found", err)
        self.assertEqual(run("check-flags", "extra")[0], 2)

    def test_conformance_gets_its_arguments(self):
        seen = []
        with mock.patch("amp_driver.conformance.main", lambda: seen.append(list(sys.argv)) or 0), \
                mock.patch.object(sys, "argv", list(sys.argv)):
            self.assertEqual(run("conformance", "--every", "5")[0], 0)
        self.assertEqual(seen, [["amp conformance", "--every", "5"]])

    def test_tiles_census(self):
        rc, _, err = run("tiles-census", "/no/such/census")
        self.assertEqual(rc, 2)
        self.assertTrue(err.startswith("tiles-census: error: no census file /no/such/census"), err)
        seen = []
        with mock.patch("amp_driver.passes.host_tiles.print_census", lambda path: seen.append(path)):
            self.assertEqual(run("tiles-census", __file__)[0], 0)
        self.assertEqual(seen, [__file__])

    def test_as_a_program(self):
        r = subprocess.run([sys.executable, "-m", "amp_driver", "no-such-command"], capture_output=True, text=True,
                           env=dict(os.environ, PYTHONPATH=str(ROOT / "scripts")))
        self.assertEqual(r.returncode, 2)
        self.assertIn("COMMAND ARGS", r.stderr)


if __name__ == "__main__":
    unittest.main()
