"""Unit tests of the precompiled prefix header (amp_driver/prefix_pch.py):
which sources it serves (the first include, what may come before it), the
#line the launcher's copies start with restated after the include, the flags
it is keyed on (the per-compile folders dropped, the Windows shims by
content), a copy of the same name that shadows one of its headers, and, with
the real clang++-22 where there is one, a compile through it that reports
errors at the original file and line, its dependency file, the fallback when
the header is refused, and a source declining it (Clang's defect).

Run: PYTHONPATH=scripts python3 -m unittest discover -s tests/driver -p "unit_*.py"   (CTest: driver.unit)
"""
import os
import shutil
import subprocess
import tempfile
import unittest
from pathlib import Path
from unittest import mock

from amp_driver import prefix_pch

CLANG = shutil.which("clang++-22")


class FirstInclude(unittest.TestCase):
    def test_first_quoted_include(self):
        self.assertEqual(prefix_pch.first_include('// c\n/* a\n b */\n\n#include "stdafx.h"\nint x;\n'),
                         "stdafx.h")
        self.assertEqual(prefix_pch.first_include('#line 1 "/a/b.cpp"\r\n#include "pch.h" // p\r\n'), "pch.h")

    def test_code_or_other_includes_first(self):
        self.assertIsNone(prefix_pch.first_include('#define NOMINMAX\n#include "stdafx.h"\n'))
        self.assertIsNone(prefix_pch.first_include('#include <vector>\n#include "stdafx.h"\n'))
        self.assertIsNone(prefix_pch.first_include('int x; /* */\n#include "stdafx.h"\n'))
        self.assertIsNone(prefix_pch.first_include('/* a */ int y;\n#include "stdafx.h"\n'))

    def test_line_restated_after_the_include(self):
        text = '#line 1 "/src/a.cpp"\n// c\n#include "stdafx.h"\nint x;\n'
        self.assertEqual(prefix_pch.line_kept(text),
                         '#line 1 "/src/a.cpp"\n// c\n#include "stdafx.h"\n#line 3 "/src/a.cpp"\nint x;\n')
        plain = '#include "stdafx.h"\nint x;\n'
        self.assertIs(prefix_pch.line_kept(plain), plain)
        self.assertIsNone(prefix_pch.line_kept('#line __LINE__\n#include "stdafx.h"\n'))

    def test_lines_put_after_the_include_keep_the_numbers(self):
        text = '#line 1 "/src/a.cpp"\n#include "stdafx.h"\nint x;\n'
        self.assertEqual(prefix_pch.line_kept(text, ["#define Q a", "#undef Q"]),
                         '#line 1 "/src/a.cpp"\n#include "stdafx.h"\n#define Q a\n#undef Q\n#line 2 "/src/a.cpp"\nint x;\n')
        plain = '#include "stdafx.h"\nint x;\n'
        self.assertIs(prefix_pch.line_kept(plain, ["#define Q a"]), plain, "no #line before: nothing put")


class OnlyPrefix(unittest.TestCase):
    def test_the_headers_own_source_gets_none(self):
        self.assertTrue(prefix_pch._only_prefix('// x\n#include "stdafx.h"\n\n/* y */\n// z\n'))
        self.assertFalse(prefix_pch._only_prefix('#include "stdafx.h"\nint x;\n'))


class KeyFlags(unittest.TestCase):
    def test_per_compile_folders_dropped_shims_apart(self):
        args = ["-iquote", "/tmp/amp_restrict_ab12/x/test", "-I/tmp/amp_restrict_ab12/x/inc", "-I/x/inc",
                "-DA=1", "-include", "/p/pre.h", "-O2", "-c", "a.cpp", "-o", "a.o", "-MD", "-MF", "a.d",
                "-idirafter", "/tmp/amp++win.q1/inc", "-Xclang", "-plugin-arg-tile-compiler", "-Xclang",
                "report=1", "-fplugin=/t.so", "-ferror-limit=0", "-x", "c++"]
        flags, shims, dropped = prefix_pch._key_flags(args, {9})
        self.assertEqual(flags, ["-I/x/inc", "-DA=1", "-include", "/p/pre.h", "-O2"])
        self.assertEqual(shims, ["/tmp/amp++win.q1/inc"])
        self.assertEqual(dropped, ["/tmp/amp_restrict_ab12/x/test", "/tmp/amp_restrict_ab12/x/inc"])

    def test_copies_beside_the_output_are_per_compile(self):
        self.assertTrue(prefix_pch.SCRATCH.search("/b/obj/a.o.restrict/x/"))
        self.assertTrue(prefix_pch.SCRATCH.search("/b/obj/a.o.tiles/in/x/"))
        self.assertFalse(prefix_pch.SCRATCH.search("/home/u/restrictions/x/"))


class Shadowed(unittest.TestCase):
    def test_a_copy_named_as_a_header_of_it_refuses_it(self):
        with tempfile.TemporaryDirectory() as t:
            d = Path(t, "pch")
            d.mkdir()
            (d / "deps.d").write_text(f"x.pch: {t}/src/stdafx.h \\\n {t}/inc/lib.h\n")
            over = Path(t, "amp_restrict_1")
            over.mkdir()
            (over / "other.h").write_text("")
            self.assertFalse(prefix_pch._shadowed(d, [str(over)]))
            (over / "lib.h").write_text("")
            self.assertTrue(prefix_pch._shadowed(d, [str(over)]))


@unittest.skipUnless(CLANG, "no clang++-22")
class RealClang(unittest.TestCase):
    def setUp(self):
        self.t = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, self.t)
        self.env = mock.patch.dict(os.environ, {"AMP_BUILD_DIR": self.t, "AMP_PREFIX_PCH": "1"})
        self.env.start()
        self.addCleanup(self.env.stop)
        src = Path(self.t, "proj")
        src.mkdir()
        (src / "stdafx.h").write_text("#define PREFIX_SEEN 1\ninline int prefixed() { return 7; }\n")
        self.orig = src / "a.cpp"
        self.orig.write_text('#include "stdafx.h"\nstatic_assert(PREFIX_SEEN == 1, "");\nint f() { return g(); }\n')
        # The launcher's copy: a per-compile folder, #line 1 naming the original.
        over = Path(self.t, "amp_restrict_x", "proj")
        over.mkdir(parents=True)
        self.copy = over / "a.cpp"
        self.copy.write_text(f'#line 1 "{self.orig}"\n' + self.orig.read_text())
        self.cmd = [CLANG, "-fsyntax-only", "-iquote", str(over), "-iquote", str(src), str(self.copy)]

    def test_errors_at_the_original_line_through_the_header(self):
        words, alt = prefix_pch.for_compile(CLANG, self.cmd[1:], len(self.cmd) - 2)
        self.assertEqual(words[0], "-include-pch")
        self.assertTrue(alt and alt.endswith("/.prefix/a.cpp"))
        os.unlink(alt)
        r = prefix_pch.run(self.cmd, stderr=subprocess.PIPE, text=True)
        self.assertNotEqual(r.returncode, 0)
        self.assertIn(f"{self.orig}:3:", r.stderr)  # g undeclared, where the original says
        self.assertFalse(Path(alt).exists())

    def test_a_dependency_file_lists_its_headers_and_the_kept_copy(self):
        d = Path(self.t, "a.d")
        cmd = self.cmd[:1] + ["-MD", "-MF", str(d)] + self.cmd[1:]
        Path(self.orig).write_text('#include "stdafx.h"\nint f() { return prefixed(); }\n')
        self.copy.write_text(f'#line 1 "{self.orig}"\n' + self.orig.read_text())
        r = prefix_pch.run(cmd, stderr=subprocess.PIPE, text=True)
        self.assertEqual(r.returncode, 0, r.stderr)
        deps = d.read_text()
        self.assertIn("stdafx.h", deps)
        alt = self.copy.parent / ".prefix" / "a.cpp"
        self.assertIn(str(alt), deps)
        self.assertTrue(alt.exists())  # named by the dependency file: kept with the launcher's copies

    def test_a_refused_header_falls_back(self):
        words, alt = prefix_pch.for_compile(CLANG, self.cmd[1:], len(self.cmd) - 2)
        os.unlink(alt)
        Path(words[1]).write_bytes(b"not a precompiled header")
        os.utime(words[1], (4e9, 4e9))  # newer than its headers: taken as fresh
        r = prefix_pch.run(self.cmd, stderr=subprocess.PIPE, text=True)
        self.assertIn(f"{self.orig}:3:", r.stderr)
        self.assertNotIn("precompiled", r.stderr)
        self.assertFalse(Path(words[1]).exists())  # removed: the next compile builds it again

    def test_a_source_that_passes_only_without_it_declines_it(self):
        # Clang 22's defect (prefix_pch.decline): libstdc++'s std::equal kept
        # unparsed by -fdelayed-template-parsing in the header, parsed in the source.
        src = Path(self.t, "proj")
        (src / "stdafx.h").write_text("#include <vector>\n#include <algorithm>\n")
        self.orig.write_text('#include "stdafx.h"\n'
                             "bool same(const std::vector<int>& a, const std::vector<int>& b) { return a == b; }\n")
        cmd = [CLANG, "-std=c++17", "-fdelayed-template-parsing", "-fsyntax-only", str(self.orig)]
        words, _ = prefix_pch.for_compile(CLANG, cmd[1:], len(cmd) - 2)
        self.assertTrue(words)
        r = prefix_pch.run(cmd, stderr=subprocess.PIPE, text=True)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(prefix_pch.for_compile(CLANG, cmd[1:], len(cmd) - 2), ([], None))

    def test_the_launchers_copy_looks_the_trait_keywords_up_and_keeps_it(self):
        # The same defect through the launcher's copy (#line 1 naming the
        # original): the names are looked up after the include (TRAITS_SEEN)
        # and the compile passes with the header, reporting at the original.
        src = Path(self.t, "proj")
        (src / "stdafx.h").write_text("#include <vector>\n#include <algorithm>\n")
        self.orig.write_text('#include "stdafx.h"\n'
                             "bool same(const std::vector<int>& a, const std::vector<int>& b) { return a == b; }\n"
                             "int f() { return g(); }\n")
        self.copy.write_text(f'#line 1 "{self.orig}"\n' + self.orig.read_text())
        cmd = [CLANG, "-std=c++17", "-fdelayed-template-parsing"] + self.cmd[1:]
        words, alt = prefix_pch.for_compile(CLANG, cmd[1:], len(cmd) - 2)
        self.assertTrue(words)
        self.assertIn("#define __amp_compat_traits_seen", Path(alt).read_text())
        os.unlink(alt)
        r = subprocess.run(cmd[:1] + words + cmd[1:-1] + [str(self.copy)], stderr=subprocess.PIPE, text=True)
        self.assertIn("expected '('", r.stderr, "the defect, without the lookups")
        r = prefix_pch.run(cmd, stderr=subprocess.PIPE, text=True)
        self.assertNotIn("expected '('", r.stderr)
        self.assertIn(f"{self.orig}:3:", r.stderr)  # only the source's own error, where the original says
        self.assertEqual(prefix_pch.for_compile(CLANG, cmd[1:], len(cmd) - 2)[0], words, "not declined")


if __name__ == "__main__":
    unittest.main()
