#!/usr/bin/env python3
"""The launcher (amp_driver/launcher.py) when the text of its
source passes does not compile (CTest: restrict.launcher_fallback): the
sources are compiled as written; if that succeeds its result stands, with a
warning naming the pass; else the rewritten compile's errors are shown with a
note naming the passes. A stand-in compiler (a shell script) refuses any
source holding BROKEN and prints the file it compiled.

Run: python3 tests/driver/test_launcher_fallback.py [-v]
"""
import contextlib
import io
import os
import sys
import tempfile
import unittest
from pathlib import Path
from unittest import mock

from amp_driver.passes import restrict_pairs
from amp_driver import launcher

FAKE_CC = """#!/bin/sh
for a; do src=$a; done
for a; do case "$a" in *.cpp) src=$a ;; esac; done
if grep -q BROKEN "$src"; then echo "$src:1:1: error: BROKEN text" >&2; exit 1; fi
echo "compiled $(grep -c . "$src") lines" >&2
exit 0
"""
PAIR = ("int which(int x) restrict(cpu) { return 1000 + x; }\n"
        "int which(int x) restrict(amp) { return 2000 + x; }\n")


class Fallback(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.cc = os.path.join(self.dir.name, "cc")
        Path(self.cc).write_text(FAKE_CC)
        os.chmod(self.cc, 0o755)
        self.src = os.path.join(self.dir.name, "t.cpp")

    def tearDown(self):
        self.dir.cleanup()

    def launch(self, text, breaks):
        """Launches a compile of text; the pair rewrite's output gets BROKEN
        appended when breaks. Returns (exit status, stderr)."""
        Path(self.src).write_text(text)
        real = restrict_pairs.rewrite_files

        def rewrite(*a, **k):
            out, report = real(*a, **k)
            return ({p: t + ("\nBROKEN\n" if breaks else "") for p, t in out.items()}, report)
        err = io.StringIO()
        with mock.patch.object(restrict_pairs, "rewrite_files", rewrite), contextlib.redirect_stderr(err):
            rc = launcher.launch([self.cc, "-c", self.src, "-o", self.src + ".o"])
        return rc, err.getvalue()

    def test_rewritten_text_compiles(self):
        rc, err = self.launch(PAIR, breaks=False)
        self.assertEqual(rc, 0)
        self.assertNotIn("amp++:", err)

    def test_written_source_compiles_when_the_rewrite_does_not(self):
        rc, err = self.launch(PAIR, breaks=True)
        self.assertEqual(rc, 0, err)
        self.assertIn("compiled 2 lines", err)  # the source as written
        self.assertIn("warning: the text of the launcher's source passes did not compile", err)
        self.assertIn("restrict(cpu)/restrict(amp) pairs", err)
        self.assertIn("BROKEN text", err)

    def test_both_fail(self):
        rc, err = self.launch(PAIR + "BROKEN\n", breaks=True)
        self.assertEqual(rc, 1)
        self.assertIn("error: BROKEN text", err)
        self.assertIn("note: the errors above are in the text of the launcher's source passes", err)
        self.assertIn("which(int) restrict(cpu)/restrict(amp) pair", err)

    def test_no_fallback_when_asked(self):
        with mock.patch.dict(os.environ, {"AMP_LAUNCHER_FALLBACK": "0"}):
            rc, err = self.launch(PAIR, breaks=True)
        self.assertEqual(rc, 1)
        self.assertNotIn("compiled 2 lines", err)


if __name__ == "__main__":
    unittest.main()
