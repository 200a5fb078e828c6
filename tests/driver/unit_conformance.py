"""Unit tests of the conformance runner's pure parts (conformance.py): the
suite's .conf files, the toolchain's prelude swap, how a failure is named and
grouped. CTest: driver.unit."""
import contextlib
import io
import json
import tempfile
import unittest
from pathlib import Path

from amp_driver import conformance as c


class Conf(unittest.TestCase):
    def parse(self, text):
        with tempfile.TemporaryDirectory() as d:
            p = Path(d) / "t.conf"
            p.write_text(text)
            return c.parse_conf(p)

    def test_definition_sets(self):
        conf = self.parse("%config = ('compile_only' => 1, 'definitions' => [ { 'T' => 'int', 'N' => '4' }, "
                          "{ 'T' => 'float', 'M' => 'it\\'s' } ]);")
        self.assertTrue(conf["compile_only"])
        self.assertEqual(conf["definitions"], [{"T": "int", "N": "4"}, {"T": "float", "M": "it's"}])
        self.assertEqual(c.set_defines(conf["definitions"][0]), ["-DT=int", "-DN=4"])

    def test_defaults(self):
        self.assertEqual(self.parse("%config = ();"), {"compile_only": False, "definitions": [{}]})


class Toolchain(unittest.TestCase):
    def test_prelude_replaced_by_the_pch(self):
        base = ["-O2", "-include", "/i/amp_prelude.h", "-I/i"]
        self.assertEqual(c.replace_prelude(base, ["-include", "p.h"]), ["-O2", "-include", "p.h", "-I/i"])
        self.assertEqual(c.replace_prelude(base, None), base)


class Failures(unittest.TestCase):
    def test_first_error_skips_the_checker_warning(self):
        text = ("amp++: warning: --amp-check: Clang could not parse this source: x error: y\n"
                "t.cpp:3:4: error: 'foo' was not declared\n")
        self.assertEqual(c.first_error(text), "t.cpp:3:4: error: 'foo' was not declared")
        self.assertEqual(c.first_error("last line\n\n"), "last line")

    def test_causes_group_alike_errors(self):
        a = c.cause_of("a.cpp:1:2: error: 'x' has 3 elements")
        b = c.cause_of("b.cpp:9:9: error: 'y' has 12 elements")
        self.assertEqual(a, b)


class Suite(unittest.TestCase):
    """The suite's layout read: tests, their .conf (the nearest folder up that has one), their kind."""

    def test_discover(self):
        with tempfile.TemporaryDirectory() as d:
            t = Path(d) / "Tests"
            (t / "2_cxx/a").mkdir(parents=True)
            (t / "2_cxx/a/test.cpp").write_text("//#Expects: Error: C3581\n//#Expects: error C2338\nint x;\n")
            (t / "2_cxx/b c").mkdir(parents=True)
            (t / "2_cxx/b c/test.cpp").write_text("int main() { return 0; }\n")
            (t / "2_cxx/compile.conf").write_text("%config = ('compile_only' => 1);")
            (t / "5_av/deep/x").mkdir(parents=True)
            (t / "5_av/deep/x/test.cpp").write_text("runall_result test_main() { }\n")
            root, tests = c.discover(Path(d))
            self.assertEqual(root, t)
            self.assertEqual([x.rel for x in tests], ["2_cxx/a", "2_cxx/b c", "5_av/deep/x"])
            a, b, x = tests
            self.assertEqual((a.kind, a.expect_codes, a.own_main), ("negative", ["C2338", "C3581"], False))
            self.assertEqual((b.kind, b.own_main, b.section, b.slug()), ("compile-only", True, "2_cxx", "2_cxx_b_c"))
            self.assertEqual((x.kind, x.sets), ("runtime", [{}]))
            (t / "2_cxx/a/other.conf").write_text("")
            (t / "2_cxx/a/more.conf").write_text("")
            with self.assertRaisesRegex(RuntimeError, "more than one .conf in"):
                c.discover(Path(d))

    def test_library_adaptations(self):
        self.assertEqual(c._platform("#if __clang__\n#if __clang__\n"),
                         "#if __clang__ || __GNUC__  /* amp_compat: GCC too */\n#if __clang__\n")
        self.assertIn("#include <cstdarg>", c._cstdarg("#include <sstream>\n"))
        self.assertEqual(c._cstdarg("int x;\n"), "int x;\n")

    def test_listed_tests(self):
        with tempfile.TemporaryDirectory() as d:
            p = Path(d) / "r.tsv"
            p.write_text("# test\tkind\n2_cxx/a\truntime\tpass\t\n5_av/x\tnegative\tfail\tcompiled\n3_b/c\n\n")
            self.assertEqual(c.listed_tests(p), {"2_cxx/a", "5_av/x", "3_b/c"})

    def test_passlist(self):
        with tempfile.TemporaryDirectory() as d:
            p = Path(d) / "pass.txt"
            p.write_text("# passing\n2_cxx/a\n\n  5_av/x  \n")
            self.assertEqual(c.read_passlist(p), {"2_cxx/a", "5_av/x"})


class Merge(unittest.TestCase):
    """tests/conformance/merge_results.py: runs merged into one table, later runs winning."""

    def test_runs_merge_into_the_table(self):
        import importlib.util
        spec = importlib.util.spec_from_file_location(
            "merge_results", Path(__file__).resolve().parents[1] / "conformance" / "merge_results.py")
        m = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(m)
        with tempfile.TemporaryDirectory() as d:
            tsv, a, b = Path(d) / "r.tsv", Path(d) / "a.jsonl", Path(d) / "results.json"
            tsv.write_text("# header\nx/old\truntime\tpass\t\nx/b\tnegative\tfail\tcompiled\n")
            a.write_text('{"test": "x/a", "kind": "runtime", "status": "fail", "reason": "run: exit code 1", '
                         '"sets": [{"status": "fail", "output_tail": ["one", "last  line"]}]}\n')
            b.write_text(json.dumps({"results": [{"test": "x/b", "kind": "negative", "status": "pass", "reason": ""},
                                                 {"test": "x/a", "kind": "runtime", "status": "skip", "reason": ""}]}))
            with contextlib.redirect_stdout(io.StringIO()) as out:
                m.main([str(tsv), str(a)])
            self.assertEqual(tsv.read_text(), "# header\nx/a\truntime\tfail\trun: exit code 1: last line\n"
                                              "x/b\tnegative\tfail\tcompiled\nx/old\truntime\tpass\t\n")
            self.assertIn("runtime and compile-only: 1 of 2 pass (0 skip, 1 fail)", out.getvalue())
            with contextlib.redirect_stdout(io.StringIO()):
                m.main([str(tsv), str(b)])
            self.assertEqual(tsv.read_text().splitlines()[1:3], ["x/a\truntime\tskip\t", "x/b\tnegative\tpass\t"])

    def test_paths_are_the_suites(self):
        import importlib.util
        spec = importlib.util.spec_from_file_location(
            "merge_results", Path(__file__).resolve().parents[1] / "conformance" / "merge_results.py")
        m = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(m)
        r = {"reason": "build", "sets": [{"status": "fail", "output_tail": [
            "/home/u/shared/ms-amp-conformance/Tests/5_Data/t/test.cpp:27:29: error: e"]}]}
        self.assertEqual(m.why(r), "build: Tests/5_Data/t/test.cpp:27:29: error: e")


class Tables(unittest.TestCase):
    class Args:
        time_limit, selected, every, filter, check = 0, 3, 1, "", False

    def test_counts_per_section_and_causes(self):
        r = lambda sec, kind, status, reason="": {"section": sec, "kind": kind, "status": status, "reason": reason,
                                                   "sets": [{}]}
        results = [r("2_cxx", "runtime", "pass"), r("2_cxx", "negative", "fail", "compiled"),
                   r("5_av", "compile-only", "fail", "a.cpp:1:1: error: 'x' has 3 elements"),
                   r("5_av", "runtime", "fail", "b.cpp:2:2: error: 'y' has 4 elements"), r("5_av", "runtime", "skip")]
        lines = c.tables(results, [], 12.0, self.Args())
        self.assertEqual(lines[0], "Test library: built unchanged.")
        row = next(ln for ln in lines if ln.startswith("5_av"))
        self.assertEqual(row.split()[-4:], ["0/3", "1", "0/0", "0/3"])
        total = next(ln for ln in lines if ln.startswith("total"))
        self.assertEqual(total.split()[1:], ["1/4", "1", "0/1", "1/5"])
        self.assertIn("(5 tests, 5 definition sets, 12 s)", lines)
        self.assertIn("      2  '…' has N elements", lines)
        self.assertIn("  negative tests that compiled: 1", lines)


# A stand-in compiler for the conformance runner: the test source's markers
# decide. SA: a static_assert fails; AMPC: the checker's C3581; ERR: an
# ordinary error; SLOW: sleeps; EXIT n: the program built exits with n.
FAKE_CXX = r"""#!/bin/sh
prev=""; out=""; src=""
for a; do [ "$prev" = -o ] && out=$a; case "$a" in *test.cpp) src=$a ;; esac; prev=$a; done
grep -q SLOW "$src" && sleep 5
case " $* " in *" -DFAILSET=1 "*) echo "$src:1:1: error: this set" >&2; exit 1 ;; esac
grep -q SA "$src" && { echo "$src:3:1: error: static assertion failed: no" >&2; exit 1; }
grep -q AMPC "$src" && { echo "$src:3:1: error: [C++ AMP C3581] not in amp code" >&2; exit 1; }
grep -q ERR "$src" && { echo "$src:4:2: error: 'x' was not declared" >&2; exit 1; }
code=$(sed -n 's/.*EXIT \([0-9]*\).*/\1/p' "$src" | head -1)
[ -n "$out" ] && printf '#!/bin/sh\necho ran\nexit %s\n' "${code:-0}" >"$out" && chmod +x "$out"
exit 0
"""


class Judge(unittest.TestCase):
    """Each kind of test judged from what a stand-in compiler and the program it builds do."""

    class Tc:
        kind, libs = "host", []

        def __init__(self, cxx):
            self.cxx = cxx

        def cxx_cmd(self, launch=False, cxx=None):
            return [self.cxx]

        def flags(self, pch, inc):
            return []

    class Args:
        build_timeout, timeout = 30, 30
        check = check_only = resume = run_only = build_only = False

    def setUp(self):
        import os
        self.tmp = tempfile.TemporaryDirectory()
        self.d = Path(self.tmp.name)
        cxx = self.d / "cxx"
        cxx.write_text(FAKE_CXX)
        cxx.chmod(0o755)
        self.tc = self.Tc(str(cxx))
        self.args = self.Args()
        self.args.compile_env = dict(os.environ)
        self.ctx = {"work": self.d / "work", "pch": None, "inc": "/inc", "test_main": None, "lib": self.d / "lib.a",
                    "lib_error": "", "check_pch": None}

    def tearDown(self):
        self.tmp.cleanup()

    def make(self, name, text, conf=""):
        folder = self.d / "Tests" / "5_av" / name
        folder.mkdir(parents=True)
        (folder / "test.cpp").write_text(text)
        if conf:
            (folder / "t.conf").write_text(conf)
        return c.Test(folder / "test.cpp", self.d / "Tests")

    def judge(self, test, k=0):
        return c.judge(test, k, self.tc, self.ctx, self.args)

    def test_runtime(self):
        self.assertEqual(self.judge(self.make("ok", "int x;"))["status"], "pass")
        self.assertEqual(self.judge(self.make("skip", "// EXIT 2"))["reason"], "exit code 2 (skipped by the test)")
        r = self.judge(self.make("fail", "// EXIT 3"))
        self.assertEqual((r["status"], r["reason"], r["output_tail"]), ("fail", "run: exit code 3", ["ran"]))
        r = self.judge(self.make("err", "ERR"))
        self.assertEqual((r["status"], r["reason"]), ("fail", "build: " + str(self.d) +
                                                      "/Tests/5_av/err/test.cpp:4:2: error: 'x' was not declared"))

    def test_negative(self):
        r = self.judge(self.make("sa", "//#Expects: Error: C2338\nSA"))
        self.assertEqual((r["status"], r["rejected_by"]), ("pass", "static_assert"))
        r = self.judge(self.make("chk", "//#Expects: Error: C3581\nAMPC"))
        self.assertEqual((r["status"], r["rejected_by"], r["check_codes"]), ("pass", "amp_check", ["C3581"]))
        r = self.judge(self.make("compiles", "//#Expects: Error: C3581\nint x;"))
        self.assertEqual((r["status"], r["reason"]), ("fail", "compiled, but the test expects a compile error"))

    def test_a_timed_out_compile_rejected_nothing(self):
        self.args.build_timeout = 0.3
        r = self.judge(self.make("slow", "//#Expects: Error: C3581\nSLOW"))
        self.assertEqual((r["status"], r["reason"]), ("fail", "build: build timed out after 0.3 s"))

    def test_resume_keeps_verdicts_and_rebuilds_timed_out_builds(self):
        self.args.build_timeout = 0.3
        slow = self.make("slow", "//#Expects: Error: C3581\nSLOW ERR")
        self.assertEqual(self.judge(slow)["reason"], "build: build timed out after 0.3 s")
        quick = self.make("quick", "// EXIT 0")
        self.assertEqual(self.judge(quick)["status"], "pass")
        self.args.resume, self.args.build_timeout = True, 30
        (self.d / "cxx").write_text("#!/bin/sh\nexit 9\n")  # a build now would fail: only a rebuild can
        r = self.judge(slow)  # rebuilt: the timed-out build left no verdict
        self.assertEqual((r["status"], r["reason"]), ("pass", ""))
        self.assertEqual(self.judge(quick)["status"], "pass")  # kept: its program runs again
        (self.d / "work/t/5_av_quick/set0/build.json").write_text('{"built": tr')  # cut while written
        self.assertEqual(self.judge(quick)["status"], "fail")

    def test_compile_only_and_the_library(self):
        t = self.make("co", "ERR", conf="%config = ('compile_only' => 1);")
        self.assertEqual(self.judge(t)["status"], "fail")
        self.assertEqual(self.judge(self.make("co2", "int x;", conf="%config = ('compile_only' => 1);"))["status"],
                         "pass")
        self.ctx["lib_error"] = "lib.cpp:1: error: no"
        self.assertEqual(self.judge(self.make("x", "int x;"))["reason"], "build: lib.cpp:1: error: no")

    def test_run_test_over_definition_sets(self):
        t = self.make("sets", "int x;", conf="%config = ('definitions' => [ { 'FAILSET' => '0' }, { 'FAILSET' => '1' } ]);")
        r = c.run_test(t, self.tc, self.ctx, self.args)
        self.assertEqual((r["status"], [s["status"] for s in r["sets"]]), ("fail", ["pass", "fail"]))
        self.assertTrue(r["reason"].endswith("test.cpp:1:1: error: this set"), r["reason"])

if __name__ == "__main__":
    unittest.main()
