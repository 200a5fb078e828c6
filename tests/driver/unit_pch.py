"""Unit tests of amp++'s precompiled <amp.h> (amp_driver/pch.py), with a
stand-in g++ (a shell script that writes the header it is asked for and a
dependency list naming a header of this test): where it is used, what
replaces the -include options, built once, again when a header it was built
from changes. CTest: driver.unit."""
import os
import tempfile
import time
import unittest
from pathlib import Path

from amp_driver import pch

FAKE_GXX = r"""#!/bin/sh
echo "$*" >>"$FAKE_LOG"
prev=""; out=""; dep=""
for a; do [ "$prev" = -o ] && out=$a; [ "$prev" = -MF ] && dep=$a; prev=$a; done
echo gch >"$out"
printf '%s: %s\n' "$out" "$FAKE_DEP" >"$dep"
"""


class Pch(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.d = self.tmp.name
        self.gxx = os.path.join(self.d, "g++")
        Path(self.gxx).write_text(FAKE_GXX)
        os.chmod(self.gxx, 0o755)
        self.log = os.path.join(self.d, "log")
        self.dep = os.path.join(self.d, "amp.h")
        Path(self.dep).write_text("// amp.h\n")
        old = time.time() - 100
        os.utime(self.dep, (old, old))
        os.environ.update(FAKE_LOG=self.log, FAKE_DEP=self.dep)
        self.src = os.path.join(self.d, "k.cpp")
        Path(self.src).write_text("// k\n#include <vector>\n#include <amp.h>\nint main() {}\n")

    def tearDown(self):
        self.tmp.cleanup()

    def builds(self):
        return Path(self.log).read_text().count("c++-header") if os.path.exists(self.log) else 0

    def test_where_it_is_used(self):
        w = pch.wanted
        host = {"gpu": "", "windows": False, "msvc": False}
        self.assertTrue(w("g++", ["-c", self.src], [self.src], host, {}))
        self.assertTrue(w("x86_64-linux-gnu-g++-12", ["-c", self.src], [self.src], host, {}))
        self.assertFalse(w("g++", ["-c", self.src], [self.src], host, {"AMP_PCH": "0"}))
        self.assertFalse(w("clang++-22", ["-c", self.src], [self.src], host, {}))
        for mode in ({"gpu": "cuda"}, {"windows": True}, {"msvc": True}):
            self.assertFalse(w("g++", ["-c", self.src], [self.src], dict(host, **mode), {}), mode)
        for flag in (["-MD"], ["-MMD", "-MF", "k.d"], ["-include", "mine.h"], ["-includemine.h"], ["-E"]):
            self.assertFalse(w("g++", flag + ["-c", self.src], [self.src], host, {}), flag)
        Path(self.src).write_text('#include "mine.h"\n#include <amp.h>\n')
        self.assertFalse(w("g++", ["-c", self.src], [self.src], host, {}))

    def test_header_flags(self):
        flags, includes = pch.header_flags(["-O2", "-include", "/i/prelude.h", "-I/i", "-include", "/i/crt.h"],
                                           ["-c", self.src, "-o", "k.o", "-DX", "-L/l", "-lfoo", "-Wl,-z"])
        self.assertEqual(flags, ["-O2", "-I/i", "-DX"])
        self.assertEqual(includes, ["/i/prelude.h", "/i/crt.h"])
        # a Makefile's -o$@: the object is no flag of the header (one header for every object)
        self.assertEqual(pch.header_flags(["-O2"], ["-c", self.src, "-ok.o"])[0], ["-O2"])

    def test_built_once_and_again_when_a_header_changes(self):
        cflags = ["-O2", "-include", "/i/prelude.h", "-I/i", "-include", "/i/crt.h", "-fopenmp"]
        cmd = pch.cmd_with(self.gxx, cflags, ["-c", self.src], self.d + "/cache", {})
        header = next(Path(self.d, "cache").glob("*/amp_pch.h"))
        self.assertEqual(cmd, [self.gxx, "-O2", "-include", str(header), "-I/i", "-fopenmp", "-c", self.src])
        self.assertEqual(header.read_text(), '#include "/i/prelude.h"\n#include "/i/crt.h"\n#include <amp.h>\n')
        self.assertEqual(pch.cmd_with(self.gxx, cflags, ["-c", self.src], self.d + "/cache", {}), cmd)
        self.assertEqual(self.builds(), 1)
        os.utime(self.dep, None)  # amp.h changed after the header was built
        later = time.time() + 5
        os.utime(self.dep, (later, later))
        pch.cmd_with(self.gxx, cflags, ["-c", self.src], self.d + "/cache", {})
        self.assertEqual(self.builds(), 2)
        # Other flags, another header.
        pch.cmd_with(self.gxx, cflags + ["-DY"], ["-c", self.src], self.d + "/cache", {})
        self.assertEqual(len(list(Path(self.d, "cache").glob("*/amp_pch.h"))), 2)

    def test_joined_include(self):
        """-includeFILE is an -include as job.replace_includes reads it: in the header, and replaced."""
        cflags = ["-includeprelude.h", "-O2", "-include", "crt.h"]
        flags, includes = pch.header_flags(cflags, ["-c", self.src])
        self.assertEqual((flags, includes), (["-O2"], ["prelude.h", "crt.h"]))
        cmd = pch.cmd_with(self.gxx, cflags, ["-c", self.src], self.d + "/cache", {})
        header = next(Path(self.d, "cache").glob("*/amp_pch.h"))
        self.assertEqual(cmd, [self.gxx, "-include", str(header), "-O2", "-c", self.src])
        self.assertEqual(header.read_text(), '#include "prelude.h"\n#include "crt.h"\n#include <amp.h>\n')

    def test_no_header_when_it_does_not_build(self):
        Path(self.gxx).write_text("#!/bin/sh\nexit 1\n")
        self.assertIsNone(pch.cmd_with(self.gxx, ["-include", "/p.h"], ["-c", self.src], self.d + "/c", {}))


if __name__ == "__main__":
    unittest.main()
