"""Unit tests of the restrict pass (amp_driver/passes/restrict_pairs.py): the
restrict(cpu)/restrict(amp) pairs and their dispatchers (free functions,
members, conversion operators, constructors, groups spread over a header and
a source, unrestricted declarations pairing with restrict(amp) ones),
`restrict` as an identifier, dynamic exception specifications (in the text
and in -D values), the placement check and the out-of-range literal check,
and the pass run alone (main). Text only: no compile (the compiled results:
tests/restrict, CTest label restrict).

Run: PYTHONPATH=scripts python3 -m unittest discover -s tests/driver -p "unit_*.py"   (CTest: driver.unit)
"""
import contextlib
import io
import os
import re
import tempfile
import unittest
from pathlib import Path

from amp_driver.cpp_lexer import mask
from amp_driver.job import Job
from amp_driver.passes import restrict_pairs as rp


class Files(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.d = self.tmp.name

    def tearDown(self):
        self.tmp.cleanup()

    def file(self, name, text):
        p = os.path.join(self.d, name)
        Path(p).write_text(text)
        return p

    def rewrite(self, text, name="a.cpp", **kw):
        p = self.file(name, text)
        out, report = rp.rewrite_files([p], **kw)
        return out.get(p), report


class Memo(Files):
    def test_rounds_read_and_search_the_files_once(self):
        """The launcher's --msvc rounds (the same files, more fix-it edits each round) share a memo: the
        files are read and searched once, and every round's result is the one without it."""
        from unittest import mock
        h = self.file("a.h", "int f(int x) restrict(amp);\nint f(int x) restrict(cpu);\n")
        c = self.file("a.cpp", '#include "a.h"\nint f(int x) restrict(amp) { return -x; }\n'
                               "int f(int x) restrict(cpu) { return x; }\nint g() { return 1; }\n")
        memo, real, calls = {}, rp.find_decls, []

        def counting(*a, **kw):
            calls.append(1)
            return real(*a, **kw)
        rounds = [{}, {c: {(54, 54, "/*fix*/")}}]
        job = Job.parse("clang++", ["-c", c], modes={"gpu": "", "windows": False, "msvc": True, "checked": False})
        with_memo, searched = [], []
        with mock.patch.object(rp, "find_decls", counting):
            for e in rounds:
                with_memo.append(rp.rewrite_files([h, c], job=job, extra_edits=e, memo=memo))
                searched.append(len(calls))
        without = [rp.rewrite_files([h, c], job=job, extra_edits=e) for e in rounds]
        self.assertEqual(with_memo, without)
        self.assertIn("/*fix*/", with_memo[1][0][c])
        self.assertGreater(searched[0], 0)
        self.assertEqual(searched[1], searched[0], "the second round searched nothing")
        Path(c).write_text("int g();\n")  # other paths: read again
        self.assertEqual(rp.rewrite_files([c], memo=memo), rp.rewrite_files([c]))


class Pairs(Files):
    def test_free_function_pair(self):
        out, report = self.rewrite("int f(int x) restrict(cpu) { return x; }\n"
                                   "int f(int x) restrict(amp) { return -x; }\n")
        self.assertIn("int f__amp_cpu(int x) restrict(cpu) { return x; }", out)
        self.assertIn("int f__amp_amp(int x) restrict(amp) { return -x; }", out)
        self.assertRegex(out, r"inline int f\(int x\) ?restrict\(cpu, amp\) \{ AMP_RESTRICT_PAIR\("
                              r"f__amp_cpu\(static_cast<decltype\(x\)&&>\(x\)\), f__amp_amp\(")
        self.assertEqual(out.count("\n"), 2, "the lines stay where they were (diagnostics keep their numbers)")
        self.assertEqual(report, ["a.cpp: f(int) restrict(cpu)/restrict(amp) pair -> one restrict(cpu, amp) "
                                  "function selecting by context"])

    def test_member_pair_and_default_arguments(self):
        out, _ = self.rewrite("struct S {\n  float g(float, int = 3) restrict(cpu);\n"
                              "  float g(float y, int k) restrict(amp) { return y * k; }\n};\n")
        self.assertIn("g__amp_cpu(float, int = 3) restrict(cpu);", out)
        # unnamed parameters get names; the default stays with the dispatcher
        self.assertIn("float g(float amp_pair_arg0, int amp_pair_arg1 = 3)", out)
        self.assertNotIn("inline", out, "a member is not declared inline")

    def test_unrestricted_declaration_is_the_cpu_side(self):
        out, _ = self.rewrite("int h(int v) restrict(amp) { return 1; }\nint h(int v) { return 2; }\n")
        self.assertIn("int h__amp_amp(int v) restrict(amp)", out)
        self.assertIn("int h__amp_cpu(int v) { return 2; }", out)
        self.assertIn("restrict(cpu, amp)", out)

    def test_amp_h_spellings_are_restrictions(self):
        out, _ = self.rewrite("int h(int v) __GPU_ONLY { return 1; }\nint h(int v) __CPU_ONLY { return 2; }\n")
        self.assertIn("h__amp_amp(int v) __GPU_ONLY", out)
        self.assertIn("h__amp_cpu(int v) __CPU_ONLY", out)

    def test_one_sided_overload_of_a_paired_name_keeps_its_restriction(self):
        out, report = self.rewrite("int f() restrict(amp) { return 0; }\nint f(float) restrict(amp) { return 1; }\n"
                                   "int f() restrict(cpu) { return 0; }\nint f(double) restrict(cpu) { return 2; }\n")
        self.assertIn("int f__amp_amp(float) restrict(amp) { return 1; }", out)
        self.assertRegex(out, r"inline int f\(float amp_pair_arg0\) restrict\(amp\) \{ AMP_RESTRICT_PAIR\(f__amp_amp\(")
        self.assertRegex(out, r"inline int f\(double amp_pair_arg0\) restrict\(cpu\) \{ AMP_RESTRICT_PAIR\(f__amp_cpu\(")
        self.assertRegex(out, r"inline int f\(\) restrict\(cpu, amp\) \{ AMP_RESTRICT_PAIR\(f__amp_cpu\(\), f__amp_amp\(\)")
        self.assertIn("a.cpp: f(float) restrict(amp) (renamed with its name's pair; the dispatcher keeps its "
                      "restriction)", report)

    def test_applied_edits_map_a_diagnostic_back(self):
        """Every pass's edits of a copy are recorded, so that a column the compiler
        reports in the copy (after `restrict` renamed on the line) maps back."""
        from amp_driver.passes import msvc
        text = "void restrict(index<1>& idx, array<int, 1>& a) restrict(amp) { }\nint restrict(int a) { return a; }\n"
        out, _ = self.rewrite(text)
        p = os.path.join(self.d, "a.cpp")
        col = out.splitlines()[0].index("array<int") + 1
        err = (f"{p}:1:{col}: error: reference to 'array' is ambiguous\n"
               f"{p}:9:9: note: candidate found by name lookup is 'Concurrency::array'\n"
               f"{p}:9:9: note: candidate found by name lookup is 'std::array'\n")
        fix = msvc.fixit_edits(err, {p: text}, lambda f: rp.APPLIED[f])
        self.assertEqual(fix, {p: {(text.index("array<int"), text.index("array<int"), "Concurrency::")}})

    def test_different_signatures_are_no_pair(self):
        text = "int m(int x) restrict(cpu) { return 1; }\nint m(float x) restrict(amp) { return 2; }\n"
        out, report = self.rewrite(text)
        self.assertIsNone(out)
        self.assertEqual(report, [])

    def test_conversion_operator_pair(self):
        out, _ = self.rewrite("struct S {\n  operator int() const restrict(cpu) { return a; }\n"
                              "  operator int() const restrict(amp) { return -a; }\n  int a;\n};\n")
        self.assertIn("int amp_pair_operator0__amp_cpu() const restrict(cpu)", out)
        self.assertIn("int amp_pair_operator0__amp_amp() const restrict(amp)", out)
        self.assertIn("operator int() const restrict(cpu, amp) { AMP_RESTRICT_PAIR(amp_pair_operator0__amp_cpu(), "
                      "amp_pair_operator0__amp_amp()) }", out)

    def test_constructor_pair_becomes_one_constructor(self):
        out, report = self.rewrite("struct S {\n  S(int v) restrict(cpu) : a(v) {}\n"
                                   "  S(int v) restrict(amp) : a(-v) {}\n  int a;\n};\n")
        self.assertIn("#if AMP_DEVICE_PASS", out)
        self.assertIn("S(int v) restrict(cpu, amp) : a(AMP_RESTRICT_IN_AMP ? decltype(a)(-v) : decltype(a)(v))", out)
        self.assertIn("a.cpp: constructor S(int) restrict(cpu)/restrict(amp) pair -> one constructor selecting by "
                      "context", report)

    def test_delegating_constructor_pair_is_left_alone(self):
        text = "struct S {\n  S(int v) restrict(cpu) : S() {}\n  S(int v) restrict(amp) : S() {}\n  S();\n};\n"
        out, report = self.rewrite(text)
        self.assertFalse(any("constructor" in r for r in report))
        self.assertTrue(out is None or "AMP_RESTRICT_IN_AMP" not in out)

    def test_group_over_a_header_and_a_source(self):
        h = self.file("h.h", "int k(int x) restrict(amp);\nint k(int x);\n")
        c = self.file("b.cpp", '#include "h.h"\nint k(int x) restrict(amp) { return 1; }\nint k(int x) { return 2; }\n')
        out, _ = rp.rewrite_files([h, c])
        # both files rename; the dispatcher is defined once, in the file with the definitions
        self.assertIn("k__amp_amp(int x) restrict(amp);", out[h])
        self.assertIn("k__amp_cpu(int x);", out[h])
        self.assertNotIn("AMP_RESTRICT_PAIR", out[h])
        self.assertEqual(out[c].count("AMP_RESTRICT_PAIR"), 1)

    def test_a_side_defined_nowhere_calls_the_defined_one(self):
        """A header declares f() restrict(amp) but only the cpu f() is defined:
        MSVC only ever called the defined one; the dispatcher does too."""
        h = self.file("h.h", "int f(int x) restrict(amp);\n")
        c = self.file("c.cpp", '#include "h.h"\nint f(int x) { return 2; }\n')
        out, _ = rp.rewrite_files([h, c])
        self.assertIn("AMP_RESTRICT_PAIR(f__amp_cpu(static_cast<decltype(x)&&>(x)), "
                      "f__amp_cpu(static_cast<decltype(x)&&>(x)))", out[c])

    def test_dropped_group_is_no_declaration(self):
        """An #if 0 group holds no declaration for the pass."""
        out, report = self.rewrite("#if 0\nint z(int) restrict(amp) { return 0; }\n#endif\nint z(int) { return 1; }\n")
        self.assertIsNone(out)
        self.assertEqual(report, [])

    def test_spliced_restriction_is_read_whole(self):
        out, _ = self.rewrite("int f(int x) restr\\\nict(cpu) { return x; }\nint f(int x) restrict(amp) { return 0; }\n")
        self.assertIn("f__amp_cpu", out)
        self.assertIn("f__amp_amp", out)

    def test_nothing_to_do(self):
        out, report = self.rewrite("int main() { return 0; }\n")
        self.assertIsNone(out)
        self.assertEqual(report, [])


class Identifier(unittest.TestCase):
    def edits(self, text, macros=frozenset()):
        return [(text[s:e], r) for s, e, r in rp.identifier_edits(mask(text), macros)]

    def test_restrict_called_like_a_function_is_renamed_everywhere(self):
        text = "int restrict = 1; int q = restrict(2); int f() restrict(amp);"
        self.assertEqual(self.edits(text), [("restrict", rp.RESTRICT_IDENT)] * 2)

    def test_no_call_form_no_rename(self):
        self.assertEqual(self.edits("int restrict = 1; int f() restrict(cpu, amp);"), [])

    def test_command_line_specifiers_are_specifiers(self):
        self.assertEqual(self.edits("int f() restrict(AMP_R);", {"AMP_R"}), [])
        self.assertEqual(len(self.edits("int f() restrict(AMP_R);")), 1)

    def test_comments_and_literals_are_not_code(self):
        self.assertEqual(self.edits('// restrict(x)\nconst char* s = "restrict(y)";'), [])


class SpecifierMacros(Files):
    def test_a_restriction_list_defined_in_the_file_is_a_specifier(self):
        # `restrict(R)` with `#define R cpu, amp` in the file: no rename (it was
        # renamed as an identifier, and the compile failed).
        out, report = self.rewrite("#define R cpu, amp\nint f(int x) restrict(R) { return x; }\n"
                                   "int g = restrict_count(1);\n")
        self.assertFalse(any("identifier" in r for r in report), report)
        out, report = self.rewrite("#define R hello\nint restrict(int); int g = restrict(1);\n")
        self.assertTrue(any("identifier" in r for r in report), report)


class ThrowSpecs(unittest.TestCase):
    def apply(self, text):
        for s, e, r in sorted(rp.throw_spec_edits(mask(text)), reverse=True):
            text = text[:s] + r + text[e:]
        return text

    def test_specifications(self):
        self.assertEqual(self.apply("void f() throw();"), "void f() noexcept;")
        self.assertEqual(self.apply("void f() throw(int, E);"), "void f() ;")
        self.assertEqual(self.apply("void f() const throw() {}"), "void f() const noexcept {}")
        self.assertEqual(self.apply("void f() & throw(X);"), "void f() & ;")

    def test_throw_expressions_stay(self):
        for text in ("void f() { if (x) throw (e); }", "void f() { throw (e); }", "void f() { while (x) throw(1); }"):
            self.assertEqual(self.apply(text), text)

    def test_unbalanced_is_left(self):
        self.assertEqual(self.apply("void f() throw(int"), "void f() throw(int")

    def test_define_values(self):
        self.assertEqual(rp.throw_spec_define("throw()"), "noexcept")
        self.assertEqual(rp.throw_spec_define(" throw ( std::bad_alloc ) "), "")
        self.assertEqual(rp.throw_spec_define("throw(x) + 1"), "throw(x) + 1")
        self.assertEqual(rp.throw_spec_define("1"), "1")

    def test_in_rewrite_files_a_restrict_in_a_dropped_specification_goes(self):
        with tempfile.TemporaryDirectory() as d:
            p = os.path.join(d, "t.cpp")
            Path(p).write_text("void f() throw(restrict); int g() { return restrict(1); }\n")
            out, report = rp.rewrite_files([p])
        self.assertEqual(out[p], "void f() ; int g() { return amp_restrict_identifier(1); }\n")
        self.assertEqual(len(report), 2)


class Helpers(unittest.TestCase):
    def test_safe_name(self):
        ids = {}
        self.assertEqual(rp.safe_name("f", "amp", ids), "f__amp_amp")
        self.assertEqual(rp.safe_name("operator+", "cpu", ids), "amp_pair_operator0__amp_cpu")
        self.assertEqual(rp.safe_name("operator-", "cpu", ids), "amp_pair_operator1__amp_cpu")
        self.assertEqual(rp.safe_name("operator+", "amp", ids), "amp_pair_operator0__amp_amp")

    def test_declare(self):
        self.assertEqual(rp.declare("const int&", "a", None), "const int& a")
        self.assertEqual(rp.declare("float[4]", "v", None), "float v[4]")
        self.assertEqual(rp.declare("int[2][3]", "m", None), "int m[2][3]")
        self.assertEqual(rp.declare("void (*)(int)", "cb", "nullptr"), "void (*cb)(int) = nullptr")
        self.assertEqual(rp.declare(" int ", "n", "3"), "int n = 3")

    def test_one_line(self):
        self.assertEqual(rp.one_line("static\n  inline /* c */ int "), "static inline int ")
        self.assertEqual(rp.one_line("#if X\nint\n#endif\n"), "#if X\nint\n#endif\n")

    def test_take_edits(self):
        text = "0123456789"
        edits = [(2, 3, "X"), (5, 5, "+"), (8, 9, "Y")]
        self.assertEqual(rp.take_edits(text, edits, 1, 7), "1X34+56")
        self.assertEqual(rp.line_of("a\nb\nc", 4), 3)


class Placement(unittest.TestCase):
    def errors(self, text, args=()):
        return [re.sub(r"^x\.cpp:", "", e) for e in rp.check_placement({"x.cpp": text}, list(args))]

    def test_well_placed(self):
        for text in ("int f() restrict(amp);", "int f() const & restrict(amp) noexcept -> int;",
                     "auto l = [=]() mutable restrict(amp) { };", "struct S { S() restrict(cpu, amp) : a(0) {} };",
                     "int f() restrict(amp) { return 0; }", "R f2() const restrict(amp);"):
            self.assertEqual(self.errors(text), [], text)

    def test_followed_by_a_type(self):
        e = self.errors("int f() restrict(amp) int;")
        self.assertEqual(len(e), 1)
        self.assertTrue(e[0].startswith("1:9: error: C++ AMP: a restriction specifier (restrict(amp)) cannot be "
                                        "followed by `int`"), e)

    def test_after_the_exception_specification(self):
        e = self.errors("void g()\n  throw() restrict(amp);")
        self.assertEqual(len(e), 1)
        self.assertIn("2:11: error:", e[0])
        self.assertIn("must come before the exception specification (throw(...))", e[0])

    def test_qualifier_after_the_restriction(self):
        e = self.errors("int f() restrict(amp) const;")
        self.assertIn("`const` must come before", e[0])

    def test_not_after_a_parameter_list(self):
        e = self.errors("restrict(amp) int f();")
        self.assertIn("cannot follow the start of the file", e[0])

    def test_aliases_from_the_files_and_the_command_line(self):
        e = self.errors("#define AMPR restrict(amp)\nint f() AMPR int;\n")
        self.assertEqual(len(e), 1)
        self.assertIn("(AMPR) cannot be followed by `int`", e[0])
        self.assertEqual(len(self.errors("int g() MYR int;", ["-DMYR=restrict(amp)"])), 1)
        self.assertEqual(len(self.errors("int g() MYR int;", ["-D", "MYR=restrict(amp)"])), 1)
        self.assertEqual(self.errors("int g() MYR int;"), [])  # not known as a restriction

    def test_amp_restricted_function_pointers_and_references(self):
        # MSVC C3939 wherever the declarator is: variable, parameter, cast, member pointer
        for text in ("int (*p)(int) restrict(amp) = f;", "int g(int (&r)(int) __GPU);",
                     "int x = ((int (*)(int) restrict(cpu, amp))f)(1);", "int (C::*m)(int) __GPU_ONLY = &C::f;"):
            e = self.errors(text)
            self.assertEqual(len(e), 1, text)
            self.assertIn("on a pointer or reference to a function", e[0])
            self.assertTrue(e[0].endswith("[C++ AMP C3939]"), e[0])
        # restrict(cpu) there is allowed; a function declarator or operator() is not a pointer
        for text in ("int (*p)(int) restrict(cpu) = f;", "int f(int (*p)(int)) restrict(amp);",
                     "struct S { int operator()(int) restrict(amp); };", "auto l = [](int) restrict(amp) { };"):
            self.assertEqual(self.errors(text), [], text)

    def test_amp_function_with_an_exception_specification(self):
        # MSVC C3581, throw() included (the launcher turns throw() into noexcept, so the checker cannot see it)
        for text in ("int f() __GPU throw() { return 0; }", "int g() restrict(amp) throw(int);"):
            e = self.errors(text)
            self.assertEqual(len(e), 1, text)
            self.assertTrue(e[0].endswith("[C++ AMP C3581]"), e[0])
        self.assertEqual(self.errors("int h() restrict(cpu) throw();"), [])

    def test_a_macro_neighbour_is_not_judged(self):
        self.assertEqual(self.errors("int f() restrict(amp) MY_SPEC;"), [])

    def test_dropped_groups_are_not_read(self):
        self.assertEqual(self.errors("#if 0\nint f() restrict(amp) int;\n#endif\n"), [])
        self.assertEqual(len(self.errors("#if 1\nint f() restrict(amp) int;\n#endif\n")), 1)

    def test_reads_paths_and_skips_unreadable_files(self):
        with tempfile.TemporaryDirectory() as d:
            p = os.path.join(d, "y.cpp")
            Path(p).write_text("int f() restrict(amp) int;\n")
            e = rp.check_placement([p, os.path.join(d, "missing.cpp")], [])
        self.assertEqual(len(e), 1)
        self.assertTrue(e[0].startswith(p + ":1:9: error: C++ AMP:"))


class UnknownSpecifier(unittest.TestCase):
    def errors(self, text, args=()):
        return [re.sub(r"^x\.cpp:", "", e) for e in rp.check_placement({"x.cpp": text}, list(args))]

    def test_unknown_word_after_a_declarator(self):
        # Microsoft's Restriction_specifier/Negative/Test.04 (C3936).
        e = self.errors("int f1() restrict(hello) {}")
        self.assertEqual(len(e), 1)
        self.assertTrue(e[0].startswith("1:19: error: C++ AMP: 'hello': unrecognized restriction specifier"), e)
        self.assertEqual(len(self.errors("auto l = [](int x) restrict(amp, gpu) { return x; };")), 1)

    def test_restrictions_macros_and_calls_are_not_errors(self):
        for text in ("int f() restrict(cpu, amp) { return 0; }", "int f() restrict(direct3d);",
                     "#define R amp\nint f() restrict(R);",
                     "int restrict(int v);\nint a(int x) { if (x) restrict(x); return (int) restrict(x); }"):
            self.assertEqual(self.errors(text), [], text)
        self.assertEqual(self.errors("int f() restrict(RESTRICTION);", ["-DRESTRICTION=amp"]), [])


class Literals(unittest.TestCase):
    def errors(self, body, spec="restrict(amp)"):
        return rp.check_placement({"x.cpp": f"float h() {spec} {{ {body} }}"}, [])

    def test_out_of_range_in_amp_code(self):
        self.assertEqual(len(self.errors("return 1e39f;")), 1)
        self.assertIn("floating literal 1e39f exceeds the range of float", self.errors("return 1e39f;")[0])
        self.assertIn("floating literal 1e400 exceeds the range of double", self.errors("return 1e400;")[0])
        self.assertEqual(len(self.errors("return 3.5e38f + 1e39;", "__GPU")), 1)

    def test_in_range_and_long_double(self):
        for body in ("return 3.4e38f;", "return 1.7976931348623158e+308;", "return 1e400L;", "return 1e39;"):
            self.assertEqual(self.errors(body), [], body)

    def test_only_in_amp_code(self):
        self.assertEqual(self.errors("return 1e39f;", "restrict(cpu)"), [])
        self.assertEqual(self.errors("return 1e39f;", ""), [])


class Main(Files):
    def test_report_and_out_dir(self):
        p = self.file("a.cpp", "void f() throw();\n")
        outdir = os.path.join(self.d, "out")
        os.mkdir(outdir)
        buf = io.StringIO()
        with contextlib.redirect_stdout(buf):
            self.assertEqual(rp.main([p, "--out-dir", outdir, "--report"]), 0)
        self.assertEqual(Path(outdir, "a.cpp").read_text(), "void f() noexcept;\n")
        self.assertEqual(buf.getvalue(), "a.cpp: 1 dynamic exception specification(s) -> noexcept / none\n")
        self.assertEqual(Path(p).read_text(), "void f() throw();\n")

    def test_single_file_printed_unchanged_when_nothing_to_do(self):
        p = self.file("b.cpp", "int main() {}\n")
        buf = io.StringIO()
        with contextlib.redirect_stdout(buf):
            rp.main([p])
        self.assertEqual(buf.getvalue(), "int main() {}\n")

    def test_bad_arguments(self):
        p = self.file("d.cpp", "int x;\n")
        err = io.StringIO()
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
            self.assertEqual(rp.main([p, "--out-dir"]), 2)
            self.assertEqual(rp.main([p, "--out-dir", os.path.join(self.d, "none")]), 2)
            self.assertEqual(rp.main([p, os.path.join(self.d, "gone.cpp")]), 2)
            self.assertEqual(rp.main(["--report"]), 2)
        self.assertEqual(err.getvalue().splitlines(), ["rewrite: error: --out-dir needs an existing folder"] * 2 + [
            f"rewrite: error: no such file: {self.d}/gone.cpp",
            "usage: python3 -m amp_driver rewrite [--in-place] [--report] [--out-dir DIR] FILE..."])

    def test_in_place(self):
        p = self.file("c.cpp", "void f() throw(int);\n")
        with contextlib.redirect_stdout(io.StringIO()):
            rp.main(["--in-place", p])
        self.assertEqual(Path(p).read_text(), "void f() ;\n")


class WithJob(Files):
    def test_the_jobs_modes_add_their_passes(self):
        p = self.file("g.cpp", "void f() { parallel_for_each(e, k); }\n")
        job = Job.parse("clang++", ["-c", p], modes={"gpu": "cuda"})
        out, report = rp.rewrite_files([p], job=job)
        self.assertIn("amp_parallel_for_each_scope", out[p])
        out, report = rp.rewrite_files([p], job=Job.parse("g++", ["-c", p], modes={"gpu": ""}))
        self.assertEqual(out, {})

    def test_command_line_restriction_macros(self):
        p = self.file("m.cpp", "int f() restrict(AMP_R); int g() { return restrict(1); }\n")
        out, _ = rp.rewrite_files([p], job=Job.parse("g++", ["-DAMP_R=cpu,amp", p], modes={}))
        self.assertIn("restrict(AMP_R)", out[p])
        out, _ = rp.rewrite_files([p], job=Job.parse("g++", ["-D", "AMP_R=cpu,amp", p], modes={}))
        self.assertIn("restrict(AMP_R)", out[p])
        self.assertIn("amp_restrict_identifier(1)", out[p])


if __name__ == "__main__":
    unittest.main()
