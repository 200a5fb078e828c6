"""Unit tests of the one builder of the Clang plugins (amp_driver/plugins.py)
with a stand-in clang++ and llvm-config (shell scripts that log their
calls) and a plugin folder of two sources and a header: built once, each
object again only when its source (or a header of the folder) is newer, the
prebuilt plugin of an install, llvm-config beside clang++ or by its major
version, and the clear errors (no Clang headers, a failed compile, no
llvm-config); main's exit statuses. The real plugins: tests/amp_check,
tests/host_tiles.

Run: PYTHONPATH=scripts python3 -m unittest discover -s tests/driver -p "unit_*.py"   (CTest: driver.unit)
"""
import contextlib
import io
import os
import tempfile
import time
import unittest
from pathlib import Path
from unittest import mock

from amp_driver import plugins
from scratch import WritesFiles

FAKE_CLANG = r"""#!/bin/sh
echo "clang $*" >>"$FAKE_LOG"
case "$1" in -dumpversion) echo "${FAKE_MAJOR:-22}.1.0"; exit 0 ;; esac
prev=""; for a; do
  case "$a" in *.cpp) grep -q BROKEN "$a" && exit 1 ;; esac
  [ "$prev" = -o ] && echo built >"$a"; prev=$a; done
exit 0
"""
FAKE_CONFIG = r"""#!/bin/sh
echo "config $*" >>"$FAKE_LOG"
case "$1" in --includedir) echo "$FAKE_INC" ;; --cxxflags) echo "-std=c++17 -fno-rtti" ;; esac
"""


class Builder(WritesFiles, unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        d = self.d = self.tmp.name
        self.clang = self.write("llvm/bin/clang++", FAKE_CLANG, 0o755)
        self.write("llvm/bin/llvm-config", FAKE_CONFIG, 0o755)
        self.write("inc/clang/AST/ASTConsumer.h", "")
        self.main_cpp = self.write("src/amp_check.cpp", "int a;\n")
        self.other_cpp = self.write("src/rules.cpp", "int b;\n")
        self.header = self.write("src/rules.h", "")
        self.out = os.path.join(d, "out")
        self.log = os.path.join(d, "log")
        self.env = {"AMP_CHECK_CLANG": self.clang, "FAKE_LOG": self.log, "FAKE_INC": os.path.join(d, "inc"),
                    "AMP_JOBS": "2"}
        self.environ = mock.patch.dict(os.environ, self.env)  # the stand-ins read it
        self.environ.start()
        self.where = mock.patch.object(plugins, "_where", lambda name, env: (Path(self.main_cpp), self.prebuilt,
                                                                               Path(self.out)))
        self.prebuilt = None
        self.where.start()

    def tearDown(self):
        self.where.stop()
        self.environ.stop()
        self.tmp.cleanup()

    def build(self):
        """(the plugin's path, the compiles and links run, stderr)."""
        if os.path.exists(self.log):
            os.unlink(self.log)
        err = io.StringIO()
        with contextlib.redirect_stderr(err):
            so = plugins.build("amp_check", dict(os.environ))
        calls = Path(self.log).read_text().splitlines() if os.path.exists(self.log) else []
        return so, [c for c in calls if c.startswith("clang") and "-dumpversion" not in c], err.getvalue()

    def age(self, path, t):
        os.utime(path, (t, t))

    def test_built_once(self):
        so, calls, err = self.build()
        self.assertEqual(so, os.path.join(self.out, "amp_check.so"))
        self.assertEqual(err, "amp_check: building the plugin\n")
        compiles = [c for c in calls if " -c " in c]
        self.assertEqual(len(compiles), 2)
        self.assertIn("-std=c++17 -fno-rtti -fPIC -O1 -c", compiles[0], "llvm-config's flags")
        self.assertEqual(len([c for c in calls if "-shared" in c]), 1)
        self.assertTrue(os.path.isfile(so))
        self.assertEqual(self.build()[1:], ([], ""), "up to date: nothing run")

    def test_a_newer_source_recompiles_that_object(self):
        self.build()
        t0 = time.time()
        for f in (self.main_cpp, self.other_cpp, self.header):
            self.age(f, t0 - 100)
        for f in list(Path(self.out).rglob("*.o")) + [Path(self.out, "amp_check.so")]:
            self.age(f, t0 - 50)
        self.age(self.other_cpp, t0 - 10)
        _, calls, _ = self.build()
        self.assertEqual([c.split(" -c ")[1].split()[0] for c in calls if " -c " in c], [self.other_cpp])
        self.assertEqual(len([c for c in calls if "-shared" in c]), 1)
        self.age(self.header, t0 + 100)
        _, calls, _ = self.build()
        self.assertEqual(len([c for c in calls if " -c " in c]), 2, "a newer header: every object")

    def test_prebuilt_plugin_of_an_install(self):
        self.prebuilt = Path(self.write("share/amp_check.so", "prebuilt"))
        self.age(self.main_cpp, 1000)
        self.age(self.other_cpp, 1000)
        self.age(self.header, 1000)
        so, calls, _ = self.build()
        self.assertEqual((so, calls), (str(self.prebuilt), []))
        self.age(self.header, os.path.getmtime(self.prebuilt) + 10)
        so, _, _ = self.build()
        self.assertEqual(so, os.path.join(self.out, "amp_check.so"), "sources newer than it: built afresh")

    def test_no_source(self):
        os.unlink(self.main_cpp)
        with self.assertRaisesRegex(plugins.PluginError, "amp_check: no plugin source at"):
            self.build()

    def test_no_clang_headers(self):
        os.unlink(os.path.join(self.d, "inc/clang/AST/ASTConsumer.h"))
        with self.assertRaisesRegex(plugins.PluginError, r"Clang's C\+\+ headers are missing \(Debian: libclang-22-dev\)"):
            self.build()

    def test_a_failed_compile(self):
        Path(self.main_cpp).write_text("BROKEN\n")  # the first of two compiles run side by side
        with self.assertRaisesRegex(plugins.PluginError, "amp_check: building the plugin failed"):
            self.build()
        self.assertFalse(os.path.exists(os.path.join(self.out, "amp_check.so")))

    def test_llvm_config_by_major_version(self):
        os.unlink(os.path.join(self.d, "llvm/bin/llvm-config"))
        os.environ["FAKE_MAJOR"] = "97"
        with self.assertRaisesRegex(plugins.PluginError, "no llvm-config for"):
            plugins.llvm_config(self.clang)
        cfg = self.write("path/llvm-config-97", FAKE_CONFIG, 0o755)
        os.environ["PATH"] = os.path.join(self.d, "path") + ":" + os.environ["PATH"]
        self.assertEqual(plugins.llvm_config(self.clang), cfg)


class Main(unittest.TestCase):
    def test_statuses(self):
        err = io.StringIO()
        with contextlib.redirect_stderr(err):
            self.assertEqual(plugins.main(["no_such_plugin"]), 2)
            self.assertIn("The one builder of amp_compat's Clang plugins", err.getvalue())
            with mock.patch.dict(os.environ, {"AMP_CHECK_CLANG": "no-such-clang++-0"}):
                self.assertEqual(plugins.main(["amp_check"]), 3)
        self.assertIn("amp_check: no-such-clang++-0 not found", err.getvalue())


if __name__ == "__main__":
    unittest.main()
