"""Unit tests of the host-tiles pass (amp_driver/passes/host_tiles.py) and
the tile compiler's parse (amp_driver/tile_compiler.py), with stand-ins for
clang++-22 and the compiler (shell scripts): the flags the parse keeps, the
precompiled <amp.h> and its fallback, the second parse of inlined kernels and
its fallback, the modes that turn the pass off, the census, and the
never-break rule (a rewritten source that does not compile: its kernels back
to fibers, then the source as it came, with a warning per kernel). The real
plugin's analysis: tests/host_tiles (CTest label host_tiles).

Run: PYTHONPATH=scripts python3 -m unittest discover -s tests/driver -p "unit_*.py"   (CTest: driver.unit)
"""
import contextlib
import io
import os
import tempfile
import unittest
from pathlib import Path
from unittest import mock

from amp_driver import plugins, tile_compiler
from amp_driver.job import Job
from amp_driver.passes import host_tiles

# A stand-in clang++: logs its arguments; builds a "precompiled header";
# in a parse, writes out= with the source's text (marked inlined when it
# holds INLINE, on the first pass) and a note per line holding `barrier`.
# FAIL_PCH: a parse with -include-pch fails; FAIL_PASS2: the second fails.
FAKE_CLANG = r"""#!/bin/sh
echo "$*" >>"$FAKE_LOG"
case " $* " in *" --version "*) echo "clang version 22 (stand-in)"; exit 0 ;; esac
prev=""; out=""; pass=1; inline=1; src=""; pch=""; o=""
for a; do
  case "$a" in out=*) out=${a#out=} ;; pass=2) pass=2 ;; inline=0) inline=0 ;; esac
  [ "$prev" = -include-pch ] && pch=$a
  [ "$prev" = -o ] && o=$a
  prev=$a; src=$a
done
case " $* " in *" c++-header "*|*" -emit-pch "*) echo pch >"$o"; exit 0 ;; esac
if [ -n "$pch" ] && [ -n "$FAIL_PCH" ]; then echo "$src:1:1: error: stale pch" >&2; exit 1; fi
if [ $pass = 2 ] && [ -n "$FAIL_PASS2" ]; then echo "$src:2:1: error: inlined text" >&2; exit 1; fi
grep -n barrier "$src" | while IFS=: read -r n _; do
  echo "$src:$n:5: note: amp host tiles: tiled kernel compiled [lines $n-$n]" >&2; done
if [ $pass = 1 ] && [ $inline = 1 ] && grep -q INLINE "$src"; then
  { cat "$src"; echo "/*amp_ht_inlined:f*/"; } >"$out"
else
  sed 's/barrier/compiled/; /amp_ht_inlined/d' "$src" >"$out"
fi
"""

# A stand-in compiler: refuses a source holding BROKEN (an error on its line).
FAKE_CC = r"""#!/bin/sh
for a; do case "$a" in *.cpp) src=$a ;; esac; done
n=$(grep -n BROKEN "$src" | head -1 | cut -d: -f1)
if [ -n "$n" ]; then
  f=$(head -1 "$src" | sed -n 's/^#line 1 "\(.*\)"$/\1/p'); [ -n "$f" ] && n=$((n - 1)) || f=$src
  echo "$f:$n:1: error: BROKEN text" >&2; exit 1
fi
echo "compiled $src" >&2
"""


class Stand_ins(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.d = self.tmp.name
        self.log = os.path.join(self.d, "log")
        for name, text in (("clang", FAKE_CLANG), ("cc", FAKE_CC)):
            Path(self.d, name).write_text(text)
            os.chmod(os.path.join(self.d, name), 0o755)
        env = {"AMP_CHECK_CLANG": os.path.join(self.d, "clang"), "FAKE_LOG": self.log,
               "AMP_BUILD_DIR": os.path.join(self.d, "build"), "AMP_HOST_TILES_REPORT": "0"}
        for k in ("AMP_TILE_PCH", "AMP_TILE_COMPILER", "FAIL_PCH", "FAIL_PASS2", "AMP_TILES_CENSUS"):
            env[k] = ""
        self.env = mock.patch.dict(os.environ, env)
        self.env.start()
        for k in ("AMP_TILE_PCH", "AMP_TILE_COMPILER", "FAIL_PCH", "FAIL_PASS2", "AMP_TILES_CENSUS"):
            del os.environ[k]
        self.plugin = mock.patch.object(plugins, "build", lambda name: "/stand-in/tile_compiler.so")
        self.plugin.start()

    def tearDown(self):
        self.plugin.stop()
        self.env.stop()
        self.tmp.cleanup()

    def source(self, text, name="k.cpp"):
        p = os.path.join(self.d, name)
        Path(p).write_text(text)
        return p

    def parses(self):
        """The logged parse command lines (not --version nor the header's build)."""
        lines = Path(self.log).read_text().splitlines() if os.path.exists(self.log) else []
        return [ln for ln in lines if "-fsyntax-only" in ln]


class ParseFlags(unittest.TestCase):
    def test_keeps_what_decides_the_meaning(self):
        flags = ["-c", "-O2", "-I", "inc", "-Iinc2", "-DX=1", "-D", "Y", "-UZ", "-include", "pre.h", "-std=c++17",
                 "-isystem", "sys", "-o", "k.o", "-fms-compatibility", "-Wno-c++11-narrowing", "-fno-rtti",
                 "-MF", "k.d", "-Xclang", "-Wno-foo", "-fopenmp", "--cuda-gpu-arch=sm_90"]
        self.assertEqual(tile_compiler.parse_flags(flags, cuda=False),
                         ["-I", "inc", "-Iinc2", "-DX=1", "-D", "Y", "-UZ", "-include", "pre.h", "-std=c++17",
                          "-isystem", "sys", "-fms-compatibility", "-Wno-c++11-narrowing", "-fno-rtti"])
        self.assertIn("--cuda-gpu-arch=sm_90", tile_compiler.parse_flags(flags, cuda=True))

    def test_amp_first(self):
        a = tile_compiler.amp_first
        self.assertTrue(a("// c\n#pragma once\n#include <vector>\n/* a\n b */\n#include <amp.h>\n"))
        self.assertTrue(a('#include "amp.h"\n'))
        self.assertFalse(a('#include "mine.h"\n#include <amp.h>\n'))
        self.assertFalse(a("int x;\n#include <amp.h>\n"))
        self.assertFalse(a("#include <vector>\n"))


class Rewrite(Stand_ins):
    def rewrite(self, text, **kw):
        src = self.source(text)
        out = os.path.join(self.d, "out.cpp")
        ok, notes = tile_compiler.rewrite(src, out, ["-I", self.d, "-c", "-O2"], report=True, **kw)
        return ok, notes, Path(out).read_text() if os.path.exists(out) else None

    def test_one_parse_with_the_precompiled_header(self):
        ok, notes, out = self.rewrite("#include <amp.h>\nk.barrier.wait();\n")
        self.assertTrue(ok)
        self.assertIn("k.compiled.wait", out)
        self.assertIn("k.cpp:2:5: note: amp host tiles: tiled kernel compiled", notes)
        parses = self.parses()
        self.assertEqual(len(parses), 1)
        self.assertIn("-include-pch", parses[0])
        self.assertIn("-plugin-arg-tile-compiler -Xclang report=1", parses[0])
        self.assertIn("-fplugin=/stand-in/tile_compiler.so", parses[0])

    def test_the_parse_takes_what_gcc_takes(self):
        self.rewrite("#include <amp.h>\nk.barrier.wait();\n")
        for f in ("-Wno-register", "-Wno-c++11-narrowing", "-Wno-reserved-user-defined-literal"):
            self.assertIn(f, self.parses()[0])

    def test_fixit_rounds_parse_with_the_prefix_header_and_read_the_errors_without_it(self):
        """The --msvc rounds' parses (all_errors) use the user's precompiled prefix header (stdafx.h) as
        every parse does; should one fail with it, the parse without it runs and its errors are the ones
        returned (not those a defect of Clang may give with the header)."""
        from amp_driver import prefix_pch
        words = ["-include-pch", os.path.join(self.d, "prefix.pch")]
        declined = []
        with mock.patch.object(prefix_pch, "for_compile", lambda c, a, i: (list(words), None)), \
                mock.patch.object(prefix_pch, "decline", lambda w, t: declined.append(w)):
            ok, _, _ = self.rewrite('#include "stdafx.h"\nk.barrier.wait();\n', all_errors=True)
            self.assertTrue(ok)
            self.assertEqual([("prefix.pch" in p, "-ferror-limit=0" in p) for p in self.parses()], [(True, True)])
            Path(self.log).unlink()
            os.environ["FAIL_PCH"] = "1"
            ok, notes, _ = self.rewrite('#include "stdafx.h"\nk.barrier.wait();\n', all_errors=True)
        self.assertEqual([("prefix.pch" in p) for p in self.parses()], [True, False])
        self.assertTrue(ok)
        self.assertNotIn("stale pch", notes)
        self.assertEqual(declined, [words], "passes only without the header: declined")

    def test_a_fixit_rounds_fixable_errors_with_the_prefix_header_are_its_answer(self):
        """A round's parse that fails with the prefix header on an error the MSVC pass's rounds read
        (msvc.fixable) is not parsed again without it: those errors are the user's text's, the next round
        parses again. Each kind: a missing typename, a temporary for a non-const reference (the AMP
        Algorithms Library's radix sort), a __declspec(property) compared with != (its Direct3D scan)."""
        from amp_driver import prefix_pch
        words = ["-include-pch", os.path.join(self.d, "prefix.pch")]
        clang = Path(self.d, "clang")
        fake = clang.read_text()
        for error in ["$src:2:3: error: missing \'typename\' prior to dependent type name \'T::type\'",
                      "$src:2:3: error: no matching function for call to \'fill\'",
                      "$src:2:3: error: invalid operands to binary expression (\'accelerator_view\' and "
                      "\'accelerator_view\')"]:
            with self.subTest(error=error):
                clang.write_text(fake.replace('echo "$src:1:1: error: stale pch" >&2', f'echo "{error}" >&2'))
                os.environ["FAIL_PCH"] = "1"
                Path(self.log).unlink(missing_ok=True)
                with mock.patch.object(prefix_pch, "for_compile", lambda c, a, i: (list(words), None)):
                    ok, notes, _ = self.rewrite('#include "stdafx.h"\nk.barrier.wait();\n', all_errors=True)
                    self.assertFalse(ok)
                    self.assertIn(":2:3: error: ", notes)
                    self.assertEqual([("prefix.pch" in p) for p in self.parses()], [True])
                    Path(self.log).unlink()
                    ok, _, _ = self.rewrite('#include "stdafx.h"\nk.barrier.wait();\n')  # not a round's parse
                self.assertEqual([("prefix.pch" in p) for p in self.parses()], [True, False])

    def test_a_fixit_rounds_other_errors_with_the_prefix_header_are_parsed_again_without(self):
        """... while one it fails on with another error (Clang's defect with the header: "expected
        '('") is parsed again without it, and that parse is the round's answer."""
        from amp_driver import prefix_pch
        words = ["-include-pch", os.path.join(self.d, "prefix.pch")]
        clang = Path(self.d, "clang")
        clang.write_text(clang.read_text().replace('echo "$src:1:1: error: stale pch" >&2',
                                                   'echo "$src:2:3: error: expected \'(\'" >&2'))
        os.environ["FAIL_PCH"] = "1"
        with mock.patch.object(prefix_pch, "for_compile", lambda c, a, i: (list(words), None)), \
                mock.patch.object(prefix_pch, "decline", lambda w, t: None):
            ok, _, _ = self.rewrite('#include "stdafx.h"\nk.barrier.wait();\n', all_errors=True)
        self.assertTrue(ok)
        self.assertEqual([("prefix.pch" in p) for p in self.parses()], [True, False])

    def test_a_failing_precompiled_header_is_dropped(self):
        os.environ["FAIL_PCH"] = "1"
        ok, _, out = self.rewrite("#include <amp.h>\nk.barrier.wait();\n")
        self.assertTrue(ok)
        self.assertEqual([("-include-pch" in p) for p in self.parses()], [True, False])
        self.assertEqual(list(Path(self.d, "build", "tile_compiler", "pch").glob("*.pch")), [])

    def test_no_precompiled_header_when_asked(self):
        os.environ["AMP_TILE_PCH"] = "0"
        self.rewrite("#include <amp.h>\nk.barrier.wait();\n")
        del os.environ["AMP_TILE_PCH"]
        self.assertFalse(any("-include-pch" in p for p in self.parses()))

    def test_one_header_whatever_the_per_compile_folders(self):
        # The launcher's copies of the user's -I folders are named anew by each
        # compile: not part of the header (each compile built its own before).
        src = self.source("#include <amp.h>\nk.barrier.wait();\n")
        for scratch in ("/tmp/amp_restrict_aa/x", "/tmp/amp_restrict_bb/x"):
            tile_compiler.rewrite(src, os.path.join(self.d, "out.cpp"), ["-I", scratch, "-I", self.d, "-c"])
        built = [ln for ln in Path(self.log).read_text().splitlines() if "c++-header" in ln]
        self.assertEqual(len(built), 1)
        self.assertNotIn("amp_restrict", built[0])
        self.assertIn(f"-I {self.d}", built[0])

    def test_a_cuda_parse_has_its_own_precompiled_header(self):
        self.rewrite("#include <amp.h>\nk.barrier.wait();\n")
        self.rewrite("#include <amp.h>\nk.barrier.wait();\n", cuda=True)
        parses = self.parses()
        self.assertIn("-x cuda --cuda-host-only", parses[1])
        pchs = [p.split("-include-pch ")[1].split()[0] for p in parses]
        self.assertNotEqual(pchs[0], pchs[1], "one header per language")
        built = [ln for ln in Path(self.log).read_text().splitlines() if "-emit-pch" in ln]
        self.assertEqual(len(built), 1)
        self.assertIn("-x cuda --cuda-host-only", built[0])

    def test_inlined_kernels_get_a_second_parse(self):
        ok, notes, out = self.rewrite("INLINE\nk.barrier.wait();\n")
        self.assertTrue(ok)
        parses = self.parses()
        self.assertEqual(len(parses), 2)
        self.assertIn("pass=2", parses[1])
        self.assertIn(f"-iquote {self.d}", parses[1])
        self.assertNotIn("amp_ht_inlined", out)  # the second parse's output
        self.assertEqual(notes.count("note: amp host tiles"), 2)  # both passes' notes
        self.assertFalse(os.path.exists(os.path.join(self.d, "out.cpp.pass2.in.cpp")))

    def test_a_failing_second_parse_means_no_inlining(self):
        os.environ["FAIL_PASS2"] = "1"
        ok, notes, out = self.rewrite("INLINE\nk.barrier.wait();\n")
        self.assertTrue(ok)
        self.assertIn("inline=0", self.parses()[-1])
        self.assertIn("tile_compiler: the parse of the inlined kernels failed", notes)
        self.assertIn("tile_compiler:   ", notes)

    def test_forced_fibers_reach_every_parse(self):
        self.rewrite("#include <amp.h>\nk.barrier.wait();\n", fibers=["/a.cpp:2:5"])
        self.assertTrue(all("fibers=/a.cpp:2:5" in p for p in self.parses()))

    def test_no_plugin_no_rewrite(self):
        def refuse(name):
            raise plugins.PluginError("tile_compiler: clang++-22 not found")
        with mock.patch.object(plugins, "build", refuse):
            ok, notes, _ = self.rewrite("k.barrier.wait();\n")
        self.assertFalse(ok)
        self.assertEqual(notes, "tile_compiler: clang++-22 not found\n")


class Pass(Stand_ins):
    KERNEL = "int main() {\n  t.barrier.wait();\n}\n"

    def job(self, *args, modes=None):
        return Job.parse(os.path.join(self.d, "cc"), list(args), modes)

    def test_modes_that_keep_fibers(self):
        src = self.source(self.KERNEL)
        self.assertTrue(host_tiles.applies(self.job("-c", src)))
        self.assertTrue(host_tiles.applies(self.job("-x", "cuda", src, modes={"gpu": "cuda"})))
        self.assertFalse(host_tiles.applies(self.job("-x", "cuda", src, modes={})))  # not the job's mode
        self.assertFalse(host_tiles.applies(self.job("-x", "hip", src, modes={"gpu": "hip"})))
        self.assertFalse(host_tiles.applies(self.job("-c", src, modes={"checked": True})))
        self.assertFalse(host_tiles.applies(self.job("-fsyntax-only", src)))
        self.assertFalse(host_tiles.applies(self.job("-xc", src)))
        os.environ["AMP_TILE_COMPILER"] = "off"
        self.assertFalse(host_tiles.applies(self.job("-c", src)))

    def compile(self, rewrite, text=KERNEL):
        src = self.source(text)
        census = os.path.join(self.d, "census")
        os.environ["AMP_TILES_CENSUS"] = census
        err = io.StringIO()
        with mock.patch.object(tile_compiler, "rewrite", rewrite), contextlib.redirect_stderr(err):
            rc, cc_err = host_tiles.run(self.job("-c", src, "-o", os.path.join(self.d, "k.o")), capture=True)
        return rc, err.getvalue() + cc_err, src, census

    def rewriter(self, broken_unless_forced):
        """A tile compiler whose copy holds BROKEN on the kernel's line
        (unless the kernel is forced back to fibers)."""
        calls = []

        def rewrite(src, out, flags, cuda=False, report=False, headers=(), overlay=None, fibers=(), all_errors=False,
                    project=()):
            calls.append(list(fibers))
            lines = Path(src).read_text().splitlines()  # #line 1 "orig", then the source
            orig = lines[0].split('"')[1]
            key = f"{orig}:2:3"
            broken = broken_unless_forced and key not in fibers
            Path(out).write_text("\n".join(lines[:2] + ["  BROKEN;" if broken else lines[2]] + lines[3:]) + "\n")
            how = "keeps fibers: (kept on fibers by the launcher)" if key in fibers else "compiled"
            return True, f"{orig}:2:3: note: amp host tiles: tiled kernel {how} [lines 2-2]\n"
        return rewrite, calls

    def test_compiled_form_compiles(self):
        rewrite, calls = self.rewriter(False)
        rc, err, src, census = self.compile(rewrite)
        self.assertEqual(rc, 0)
        self.assertIn("/out" + src, err)  # the compiler compiled the copy
        self.assertNotIn("warning", err)
        self.assertEqual(Path(census).read_text(), f"{src}:2:3\tcompiled\t\n")

    def test_a_kernel_whose_compiled_form_fails_goes_back_to_fibers(self):
        rewrite, calls = self.rewriter(True)
        rc, err, src, census = self.compile(rewrite)
        self.assertEqual(rc, 0, err)
        self.assertEqual(calls, [[], [f"{src}:2:3"]])
        self.assertIn(f"{src}:2:3: warning: amp host tiles: the compiled form of this tiled kernel did not "
                      "compile (BROKEN text)", err)
        self.assertEqual(Path(census).read_text(), f"{src}:2:3\tfibers\tBROKEN text\n")
        out = io.StringIO()
        self.assertEqual(host_tiles.print_census(census, out), (1, 0))
        self.assertIn("1 tiled kernel(s) with barriers, 0 compiled, 1 on fibers", out.getvalue())

    def test_a_conditional_decided_otherwise_is_not_called_a_defect(self):
        out = io.StringIO()
        with contextlib.redirect_stderr(out):
            host_tiles._warn("k.cpp:2:3", '#error "amp_compat: this compiler decides the preprocessor conditional '
                             'of line 5 otherwise than the tile compiler\'s parse did"')
            host_tiles._warn("k.cpp:9:3", "use of undeclared identifier 'x'")
        first, second = out.getvalue().splitlines()
        self.assertIn("conditional of line 5", first)
        self.assertNotIn("defect", first)
        self.assertIn("a defect of the tile compiler", second)

    def test_the_source_as_it_came_when_nothing_helps(self):
        def rewrite(src, out, flags, **kw):
            Path(out).write_text(Path(src).read_text() + "BROKEN\n")
            return True, ""  # no note: no kernel to blame
        rc, err, src, _ = self.compile(rewrite)
        self.assertEqual(rc, 0, err)
        self.assertIn(f"compiled {src}", err)

    def test_a_failed_parse_and_the_users_error_cost_one_compile(self):
        # The stand-in compiler counts its runs in the log.
        Path(self.d, "cc").write_text(FAKE_CC.replace("#!/bin/sh\n", '#!/bin/sh\necho run >>"$FAKE_LOG"\n'))
        rc, err, src, _ = self.compile(lambda *a, **k: (False, "k.cpp:3:1: error: BROKEN\n"), self.KERNEL + "BROKEN\n")
        self.assertEqual(rc, 1)
        self.assertEqual(Path(self.log).read_text().count("run"), 1)

    def test_a_probe_returns_the_parse_errors_and_compiles_nothing(self):
        """--msvc rounds (launcher.run): a failed parse's errors stand for the compile's."""
        Path(self.d, "cc").write_text(FAKE_CC.replace("#!/bin/sh\n", '#!/bin/sh\necho run >>"$FAKE_LOG"\n'))
        src = self.source(self.KERNEL)
        failing = lambda *a, **k: (False, "k.cpp:2:3: error: missing 'typename'\nk.cpp:2:3: note: amp host tiles: x\n")
        with mock.patch.object(tile_compiler, "rewrite", failing):
            rc, err = host_tiles.run(self.job("-c", src), capture=True, probe=True)
        self.assertIsNone(rc)
        self.assertEqual(err, "k.cpp:2:3: error: missing 'typename'\n")
        self.assertFalse(os.path.exists(self.log))

    def test_the_users_own_error_once(self):
        rewrite, _ = self.rewriter(False)
        rc, err, src, _ = self.compile(rewrite, self.KERNEL + "BROKEN\n")
        self.assertEqual(rc, 1)
        self.assertEqual(err.count("error: BROKEN text"), 1)
        self.assertNotIn("warning", err)

    def test_barriers_handed_on_are_seen(self):
        """The cheap scan: a kernel handing its barrier to a helper, a helper
        waiting through a tile_barrier, the kernel's own name for it."""
        for text in ("f(sh, t.barrier);\n", "g(t . barrier )\n",
                     "void h(const tile_barrier& b) { b.wait(); }\n",
                     "tile_barrier& b = x;\n b.wait_with_tile_static_memory_fence();\n"):
            self.assertTrue(host_tiles.applies(self.job("-c", self.source(text))), text)
        for text in ("fut.wait();\n", "int barrier = 0; tile_barrier* p;\n", "s.barrier_count = 1;\n"):
            self.assertFalse(host_tiles.applies(self.job("-c", self.source(text))), text)

    def test_a_forwarding_kernel_is_no_census_entry_but_may_go_back_to_fibers(self):
        """A launcher's kernel handing its tiled_index to a function object:
        not counted (the function object is), yet blamed like a compiled one."""
        calls = []

        def rewrite(src, out, flags, cuda=False, report=False, headers=(), overlay=None, fibers=(), all_errors=False,
                    project=()):
            calls.append(list(fibers))
            lines = Path(src).read_text().splitlines()
            orig = lines[0].split('"')[1]
            key = f"{orig}:2:3"
            Path(out).write_text("\n".join(lines[:2] + [lines[2] if key in fibers else "  BROKEN;"] + lines[3:]) + "\n")
            how = ("keeps fibers: (kept on fibers by the launcher)" if key in fibers else
                   "forwards its tiled_index to the function object `f` (compiled where that one is)")
            return True, f"{orig}:2:3: note: amp host tiles: tiled kernel {how} [lines 2-2]\n"
        rc, err, src, census = self.compile(rewrite)
        self.assertEqual(rc, 0, err)
        self.assertEqual(calls, [[], [f"{src}:2:3"]])
        self.assertIn(f"{src}:2:3: warning: amp host tiles: the compiled form of this tiled kernel did not", err)
        self.assertEqual(Path(census).read_text(), f"{src}:2:3\tfibers\tBROKEN text\n")
        kernels = host_tiles._kernels([f"{src}:2:3: note: amp host tiles: tiled kernel forwards its tiled_index "
                                       "to the function object `f` (compiled where that one is) [lines 2-4]"])
        self.assertEqual([(k.compiled, k.counted, k.end) for k in kernels], [(True, False, 4)])
        os.remove(census)
        host_tiles._census_out(kernels)
        self.assertFalse(os.path.exists(census))

    def test_a_failed_parse_is_in_the_census(self):
        rc, err, src, census = self.compile(lambda *a, **k: (False, "x.cpp:3:1: error: no such thing\n"))
        self.assertEqual(rc, 0)
        self.assertEqual(err.count("compiled "), 1)  # the source as it came, compiled once
        self.assertIn("every tiled kernel keeps fibers: the Clang parse failed: x.cpp:3: no such thing",
                      Path(census).read_text())


class Alone(Stand_ins):
    """`python3 -m amp_driver tile-compiler SRC OUT FLAG...` (tile_compiler.main)
    and the project headers' copies (overlay)."""

    def run_main(self, *argv, **env):
        err = io.StringIO()
        with mock.patch.dict(os.environ, env), contextlib.redirect_stderr(err):
            rc = tile_compiler.main(list(argv))
        return rc, err.getvalue()

    def test_usage(self):
        rc, err = self.run_main("only-one")
        self.assertEqual(rc, 2)
        self.assertIn("tile-compiler SRC OUT FLAG...", err)

    def test_mode_and_settings_from_the_flags_and_environment(self):
        src = self.source("k.barrier.wait();\n")
        out = os.path.join(self.d, "out.cpp")
        rc, err = self.run_main(src, out, "-x", "cuda", "--cuda-gpu-arch=sm_90", AMP_HOST_TILES_REPORT="1",
                                AMP_TILE_FIBERS="/a.cpp:1:1\n/b.cpp:2:2", AMP_TILE_HEADERS="/h1.h:/h2.h",
                                AMP_TILE_OVERLAY=os.path.join(self.d, "ov"))
        self.assertEqual(rc, 0)
        self.assertIn("note: amp host tiles: tiled kernel compiled", err)
        (parse,) = self.parses()
        for words in ("-x cuda --cuda-host-only", "--cuda-gpu-arch=sm_90", "report=1", "fibers=/a.cpp:1:1",
                      "fibers=/b.cpp:2:2", f"overlay={self.d}/ov", "header=/h1.h", "header=/h2.h"):
            self.assertIn(words, parse)
        self.assertNotIn("-include-pch", parse, "no precompiled header for a CUDA parse")

    def test_no_source(self):
        rc, err = self.run_main(os.path.join(self.d, "gone.cpp"), os.path.join(self.d, "out.cpp"))
        self.assertEqual(rc, 2)
        self.assertEqual(err, f"tile-compiler: error: no such file: {self.d}/gone.cpp\n")
        self.assertEqual(self.parses(), [])

    def test_a_failed_parse_is_status_1(self):
        src = self.source("k.barrier.wait();\n")
        failing = self.source("#!/bin/sh\necho 'k.cpp:1:1: error: no' >&2\nexit 1\n", "failclang")
        os.chmod(failing, 0o755)
        rc, err = self.run_main(src, os.path.join(self.d, "out.cpp"), AMP_CHECK_CLANG=failing)
        self.assertEqual((rc, err), (1, "k.cpp:1:1: error: no\n"))

    def test_overlay_folders(self):
        ov = os.path.join(self.d, "ov")
        self.assertEqual(tile_compiler._overlay_dirs(ov, ["-I/x"]), [], "no overlay folder: none")
        inc = os.path.join(self.d, "inc")
        os.makedirs(ov + os.path.realpath(inc))
        os.makedirs(ov + "/other")
        dirs = tile_compiler._overlay_dirs(ov, ["-I" + inc + "/../inc", "-I/not/mirrored", "-DX"])
        self.assertEqual(dirs[-1], "-I" + ov + os.path.realpath(inc), "an -I folder written with .. is the same")
        self.assertIn(ov + "/other", dirs)
        self.assertEqual(dirs.count("-iquote"), len([d for d, _, _ in os.walk(ov)]) - 1)

    def test_one_precompiled_header_per_set_of_flags(self):
        text = "#include <amp.h>\n"
        a = tile_compiler.pch_for(text, ["-DA"])
        self.assertEqual(tile_compiler.pch_for(text, ["-DA"]), a)
        b = tile_compiler.pch_for(text, ["-DB"])
        self.assertNotEqual(a, b)
        self.assertEqual(len([p for p in Path(self.log).read_text().splitlines() if "c++-header" in p]), 2)
        self.assertIsNone(tile_compiler.pch_for("#include <vector>\nint x;\n#include <amp.h>\n", ["-DA"]))



class Mirror(unittest.TestCase):
    """tile_compiler.mirror_project: the project's other headers beside a
    rewritten one, so that relative includes stay in the overlay."""

    def test_copies_the_headers_joined_to_a_rewritten_one(self):
        with tempfile.TemporaryDirectory() as d:
            text = {f"{d}/inc/lib.h": '#include "detail/k.h"\n',        # reaches the rewritten one
                    f"{d}/inc/detail/k.h": '#include "ops.h"\n',         # rewritten below
                    f"{d}/inc/utility/u.h": '#include "../lib.h"\n',    # through lib.h
                    f"{d}/inc/win.h": '#include "Detail\\K.h"\n',       # a Windows spelling
                    f"{d}/inc/stdafx.h": "#include <vector>\n#include <amp.h>\n",  # reaches none
                    f"{d}/inc/other.h": '#include "utility/none.h"\n',  # names no project header
                    f"{d}/inc/detail/ops.h": "// ops.h\n"}                # included by the rewritten one
            for h, t in text.items():
                os.makedirs(os.path.dirname(h), exist_ok=True)
                Path(h).write_text(t)
            proj = list(text)
            ov = f"{d}/ov"
            tile_compiler.mirror_project(ov, proj)
            self.assertFalse(os.path.exists(ov), "nothing rewritten: nothing copied")
            k = f"{d}/inc/detail/k.h"
            os.makedirs(os.path.dirname(ov + k))
            Path(ov + k).write_text("// rewritten\n")
            tile_compiler.mirror_project(ov, proj)
            for h in (f"{d}/inc/lib.h", f"{d}/inc/utility/u.h", f"{d}/inc/win.h", f"{d}/inc/detail/ops.h"):
                self.assertEqual(Path(ov + h).read_text(), text[h], h)
            for h in (f"{d}/inc/stdafx.h", f"{d}/inc/other.h"):
                self.assertFalse(os.path.exists(ov + h), f"{h} reaches no rewritten header: the original serves")
            self.assertEqual(Path(ov + k).read_text(), "// rewritten\n", "a rewritten copy stays")


if __name__ == "__main__":
    unittest.main()
