"""Unit tests of the MSVC-dialect pass (amp_driver/passes/msvc.py, --msvc):
the edits made before the compile (msvc_edits: _MSC_VER, defaults of
out-of-class member definitions, `template` before dependent member
templates, non-int ranks deduced from AMP types, assert's extra argument,
type_info, const elements, scoped enum initialisers, DLL linkage markers),
the warnings for builds without the rewrite, the mapping of the copy's
line:column back to the original (original_offset), and the edits read from Clang's errors after a
failed compile (fixit_edits). Text only (the compiled results:
tests/compat/msvc, ./amp test).

Run: PYTHONPATH=scripts python3 -m unittest discover -s tests/driver -p "unit_*.py"   (CTest: driver.unit)
"""
import unittest

from amp_driver.job import Job
from amp_driver.passes import msvc
from amp_driver.passes.restrict_pairs import FileView


def rewritten(text):
    return msvc.apply(text, msvc.msvc_edits(text))


class Edits(unittest.TestCase):
    def test_msc_ver_renamed_in_code_not_in_literals(self):
        self.assertEqual(rewritten('#if _MSC_VER >= 1700 && _MSC_FULL_VER\nconst char* s = "_MSC_VER";\n#endif\n'),
                         '#if AMP_MSVC_VER >= 1700 && AMP_MSVC_FULL_VER\nconst char* s = "_MSC_VER";\n#endif\n')

    def test_defaults_of_out_of_class_member_definitions(self):
        self.assertEqual(rewritten("template <class T, int P = 0> const int X<T, P>::size = 3;"),
                         "template <class T, int P > const int X<T, P>::size = 3;")
        self.assertEqual(rewritten("template <class T, class A = B> struct Z<T, A>::Inner {};"),
                         "template <class T, class A > struct Z<T, A>::Inner {};")
        # a member template defined out of its class: its own list
        self.assertEqual(rewritten("template <class T> template <class U, int Q = 1> void X<T>::f() {}"),
                         "template <class T> template <class U, int Q > void X<T>::f() {}")
        for kept in ("template <class T = int> struct Y {};", "template <class T = int> void f(T) {}",
                     "template <class T> struct X { template <class U, int Q = 1> void f(); };"):
            self.assertEqual(rewritten(kept), kept)

    def test_template_before_dependent_member_templates(self):
        self.assertEqual(rewritten("x = a.b<c>(d); y = p->get<3>(); z = a.b < c;"),
                         "x = a.template b<c>(d); y = p->template get<3>(); z = a.b < c;")
        for kept in ("x = a.template b<c>(d);", "if (a.n < b && c > d) {}", "x = a.b;"):
            self.assertEqual(rewritten(kept), kept)

    def test_unsigned_rank_of_a_function_template(self):
        self.assertEqual(rewritten("template <class T, unsigned int Rank> void g(const array_view<T, Rank>& a) {}"),
                         "template <class T, int amp_int_Rank, unsigned int Rank = static_cast<unsigned int>"
                         "(amp_int_Rank)> void g(const array_view<T, amp_int_Rank>& a) {}")
        self.assertEqual(rewritten("template <unsigned N> void h(std::array<int, N> a) {}"),
                         "template < std::size_t amp_size_N, unsigned N = static_cast<unsigned>(amp_size_N)> "
                         "void h(std::array<int, amp_size_N> a) {}")
        for kept in ("template <int N> void g(tiled_index<N> t) {}", "template <size_t N> void h(std::array<int, N>) {}",
                     "template <unsigned N> void k(my_index<N> t) {}"):
            self.assertEqual(rewritten(kept), kept)

    def test_unsigned_rank_of_a_partial_specialisation(self):
        self.assertEqual(rewritten("template <class T, unsigned N> struct is_view<array_view<T, N>> { };"),
                         "template <class T, int amp_int_N> struct is_view<array_view<T, amp_int_N>> "
                         "{ static constexpr unsigned N = static_cast<unsigned>(amp_int_N); };")
        decl = "template <class T, unsigned N> struct is_view<array_view<T, N>>;"
        self.assertEqual(rewritten(decl), decl)

    def test_small_habits(self):
        self.assertEqual(rewritten('void h() { assert(x > 0, "positive"); assert(y); }'),
                         "void h() { assert(x > 0); assert(y); }")
        self.assertEqual(rewritten("const type_info& t = typeid(int); std::type_info* p; my_type_info v;"),
                         "const std::type_info& t = typeid(int); std::type_info* p; my_type_info v;")
        self.assertEqual(rewritten("std::deque<const int> dq; std::vector<const int>* v;"),
                         "std::deque<int> dq; std::vector<const int>* v;")
        self.assertEqual(rewritten("enum class E : int { a = F::x, b = G::y, c = 3 };"),
                         "enum class E : int { a = static_cast<int>(F::x), b = static_cast<int>(G::y), c = 3 };")

    def test_dll_linkage_markers(self):
        # A DLL's header macro: exports become default-visibility symbols,
        # imports an empty attribute list (Clang warns at each one otherwise).
        self.assertEqual(rewritten("#define API __declspec(dllexport)\nAPI void f();\n"),
                         '#define API __attribute__((visibility("default")))\nAPI void f();\n')
        self.assertEqual(rewritten("class __declspec( dllimport ) C { __declspec(dllimport) void m(); };"),
                         "class __attribute__(()) C { __attribute__(()) void m(); };")
        for kept in ('__declspec(align(16)) struct S {};', '// __declspec(dllexport)\n',
                     'const char* s = "__declspec(dllimport)";', "__declspec(dllexport noinline) void g();"):
            self.assertEqual(rewritten(kept), kept)
        self.assertEqual(msvc.describe(msvc.msvc_edits("__declspec(dllexport) int h();")),
                         "DLL export/import markers as ELF visibility")

    def test_nothing_to_do(self):
        self.assertEqual(msvc.msvc_edits("int main() { return 0; }\n"), [])

    def test_edits_do_not_overlap(self):
        text = ("#if _MSC_VER\n#endif\ntemplate <class T, unsigned N, int P = 0> void f(index<N> i) { a.b<N>(i); "
                "assert(i, \"m\"); }\n")
        edits = sorted(msvc.msvc_edits(text))
        for (s0, e0, _), (s1, e1, _) in zip(edits, edits[1:]):
            self.assertTrue(e0 <= s1 and (s0, e0) != (s1, e1), edits)

    def test_describe(self):
        text = "#if _MSC_VER\n#endif\nx = a.b<c>(d);\n"
        self.assertEqual(msvc.describe(msvc.msvc_edits(text)),
                         "_MSC_VER -> AMP_MSVC_VER, `template` before dependent member templates")
        self.assertEqual(msvc.describe([]), "")
        fn = msvc.msvc_edits("template <unsigned N> void g(index<N> i) {}")
        self.assertEqual(msvc.describe(fn), "unsigned template parameters deduced from AMP types through an int one")
        spec = msvc.msvc_edits("template <class T, unsigned N> struct is_view<array_view<T, N>> { };")
        self.assertEqual(msvc.describe(spec), "unsigned ranks of partial specializations over AMP types")


class Warnings(unittest.TestCase):
    def test_a_specialisation_that_never_matches(self):
        text = "// x\ntemplate <class T, unsigned N> struct is_view<array_view<T, N>> { };\n"
        w = msvc.unsigned_rank_warnings({"s.h": text})
        self.assertEqual(len(w), 1)
        self.assertTrue(w[0].startswith("s.h:2: warning: this partial specialization never matches: its rank "
                                        "parameter N is not int"), w)
        self.assertEqual(msvc.unsigned_rank_warnings({"s.h": "template <class T, int N> struct is_view<array_view<T, N>> {};"}), [])


class OriginalOffset(unittest.TestCase):
    def test_columns_after_an_edit_on_the_line(self):
        text = "ab cd\nxyz\n"
        # the copy reads "abcd cd": its column 6 is the c of cd (offset 3 in the original)
        self.assertEqual(msvc.original_offset(text, [(0, 2, "abcd")], 1, 6), 3)
        # a column inside the replacement names the edit's start
        self.assertEqual(msvc.original_offset(text, [(0, 2, "abcd")], 1, 3), 0)
        self.assertEqual(msvc.original_offset(text, [], 2, 2), 7)

    def test_columns_are_bytes(self):
        self.assertEqual(msvc.original_offset("\u00e9x y\n", [], 1, 4), 2)

    def test_outside_the_text(self):
        self.assertEqual(msvc.original_offset("a\n", [], 5, 1), -1)
        self.assertEqual(msvc.original_offset("a\n", [], 1, 40), -1)


class MissingReferenceReturn(unittest.TestCase):
    def test_reference_functions_without_return_get_one(self):
        t = ("struct A { A& operator=(const A&) restrict(amp) {} int& get() const { x = 1; } int& ok() { return x; } };\n"
             "A& A::operator+=(const A& o) __GPU {}\nint& f(int& a) noexcept {}\nX& operator[](int) {}\n"
             "void g() { if (a & f(b)) { } auto l = [&](int i) restrict(amp) { }; bool z = a && f(b); }\n"
             "X&& mv() {}\nint& decl(int);\nS& operator=(const S&) = default;\n")
        r = " return amp_compat_msvc_no_value(); "
        edits = msvc.missing_reference_return_edits(msvc.blank_comments_and_strings(t))
        self.assertEqual(msvc.apply(t, edits), t.replace("restrict(amp) {}", "restrict(amp) {" + r + "}")
                         .replace("x = 1; }", "x = 1; " + r + "}").replace("__GPU {}", "__GPU {" + r + "}")
                         .replace("noexcept {}", "noexcept {" + r + "}").replace("(int) {}", "(int) {" + r + "}"))
        self.assertEqual(msvc.describe(edits), "functions returning a reference that end without a return statement")


class FixIts(unittest.TestCase):
    P = "/p/f.cpp"

    def fix(self, text, err, edits=()):
        return msvc.apply(text, msvc.fixit_edits(err, {self.P: text}, lambda p: list(edits)).get(self.P, ()))

    def test_typename_template_and_iterator_traits(self):
        text = "template <class T> void f() {\n  T::type x;\n  It::value_type y = q.get<3>();\n}\n"
        err = (f"{self.P}:2:3: error: missing 'typename' prior to dependent type name 'T::type'\n"
               f"{self.P}:3:3: error: type 'int *' cannot be used prior to '::' because it has no members\n"
               "/p/other.cpp:1:1: error: missing 'typename' prior to dependent type name 'U::t'\n")
        self.assertEqual(self.fix(text, err), "template <class T> void f() {\n  typename T::type x;\n"
                                              "  typename std::iterator_traits<It>::value_type y = q.get<3>();\n}\n")

    def test_positions_of_the_rewritten_copy(self):
        """The copy was made with an edit earlier on the line: the column is mapped back."""
        text = "void g() { assert(a, \"m\"); T::type x; }\n"
        edits = msvc.msvc_edits(text)
        col = msvc.apply(text, edits).index("T::type") + 1
        err = f"{self.P}:1:{col}: error: missing 'typename' prior to dependent type name 'T::type'\n"
        self.assertEqual(self.fix(text, err, edits), "void g() { assert(a, \"m\"); typename T::type x; }\n")

    def test_temporary_bound_to_a_reference(self):
        text = "void f() {\n  accelerator_view& v = accelerator().default_view;\n}\n"
        err = (f"{self.P}:2:21: error: non-const lvalue reference to type 'accelerator_view' cannot bind to a "
               "temporary of type 'accelerator_view'\n")
        self.assertEqual(self.fix(text, err), "void f() {\n  accelerator_view&& v = accelerator().default_view;\n}\n")

    def test_temporary_argument(self):
        text = "void f() {\n  g(1, v.section(0, n));\n}\n"
        err = (f"{self.P}:2:3: error: no matching function for call to 'g'\n"
               f"{self.P}:9:6: note: candidate function not viable: expects an lvalue for 2nd argument\n")
        self.assertEqual(self.fix(text, err), "void f() {\n  g(1, amp_compat_msvc_lvalue(v.section(0, n)));\n}\n")
        # without the note, nothing is known about the arguments
        self.assertEqual(self.fix(text, err.splitlines()[0] + "\n"), text)

    def test_class_through_varargs(self):
        text = "void f() {\n  printf(\"%d %s\\n\", av[g(1, 2)], Name(\"a,b\"));\n}\n"
        err = (f"{self.P}:2:21: error: cannot pass non-trivial object of type 'array_view<int, 2 - 1>' to variadic "
               "function; expected type from format string was 'int' [-Wnon-pod-varargs]\n"
               f"{self.P}:2:34: error: cannot pass object of non-trivial type 'Name' through variadic function; "
               "call will abort at runtime [-Wnon-pod-varargs]\n")
        self.assertEqual(self.fix(text, err), "void f() {\n  printf(\"%d %s\\n\", amp_compat_msvc_vararg(av[g(1, 2)]), "
                                              "amp_compat_msvc_vararg(Name(\"a,b\")));\n}\n")

    def test_pointer_compared_with_zero(self):
        text = "bool f(int* p) { return p <= 0; }\n"
        err = f"{self.P}:1:27: error: ordered comparison between pointer and zero ('int *' and 'int')\n"
        self.assertEqual(self.fix(text, err), "bool f(int* p) { return p <= static_cast<decltype(+p)>(0); }\n")
        sum_ = "bool f(int* p, int n) { return n + p <= 0; }\n"  # no plain operand: the diagnostic's type
        err = f"{self.P}:1:38: error: ordered comparison between pointer and zero ('int *' and 'int')\n"
        self.assertEqual(self.fix(sum_, err), "bool f(int* p, int n) { return n + p <= static_cast<int *>(0); }\n")

    def test_pointer_compared_with_zero_in_a_template(self):
        # One comparison, a diagnostic per instantiation (a BLAS library's
        # `if (x <= 0)` for four element types): one edit right for all of
        # them; the four casts were written over one `0`.
        text = "template <class T> int f(const T* x) {\n  if (x <= 0) return 0;\n  return 1;\n}\n"
        err = "".join(f"{self.P}:2:9: error: ordered comparison between pointer and zero ('const {t} *' and 'int')\n"
                      for t in ("float", "double", "cf", "cd"))
        self.assertEqual(self.fix(text, err),
                         "template <class T> int f(const T* x) {\n  if (x <= static_cast<decltype(+x)>(0)) return 0;\n"
                         "  return 1;\n}\n")

    def test_overlapping_edits_keep_the_text_whole(self):
        self.assertEqual(msvc.apply("if (x <= 0)", {(9, 10, "A"), (9, 10, "B")}), "if (x <= B)")
        self.assertEqual(msvc.apply("abcdef", {(1, 3, "X"), (3, 5, "Y")}), "aXYf")

    def test_ambiguous_array(self):
        text = "void f() { array<float, 1> a(4); }\n"
        err = (f"{self.P}:1:12: error: reference to 'array' is ambiguous\n"
               "/usr/include/c++/12/array:95:12: note: candidate found by name lookup is 'std::array'\n"
               "/x/amp.h:9:9: note: candidate found by name lookup is 'Concurrency::array'\n")
        self.assertEqual(self.fix(text, err), "void f() { Concurrency::array<float, 1> a(4); }\n")
        other = err.replace("'std::array'", "'mine::array'")
        self.assertEqual(self.fix(text, other), text, "only a std::/Concurrency:: ambiguity is AMP's to settle")

    def test_scoped_enum_initialiser(self):
        text = "enum class B : int { x = A::y, z };\n"
        err = f"{self.P}:1:26: error: value of type 'A' is not implicitly convertible to 'int'\n"
        self.assertEqual(self.fix(text, err), "enum class B : int { x = static_cast<int>(A::y), z };\n")

    def test_const_call_operator(self):
        text = "struct H { size_t operator()(K k) { return 1; } };\n"
        err = ("/usr/include/c++/12/bits/hashtable.h:1:1: error: static assertion failed due to requirement "
               "'std::__is_invocable<const H &, const K &>{}': hash function must be invocable with an argument of "
               "key type\n")
        self.assertEqual(self.fix(text, err), "struct H { size_t operator()(K k) const { return 1; } };\n")

    def test_dependent_base_typedef(self):
        text = "template <class T> struct grid : base<T> {\n  index at(int k);\n};\n"
        err = f"{self.P}:2:3: error: use of class template 'Concurrency::index' requires template arguments\n"
        self.assertEqual(self.fix(text, err),
                         "template <class T> struct grid : base<T> {\n  typename grid::index at(int k);\n};\n")

    def test_files_not_of_the_project_and_other_errors(self):
        text = "T::type x;\n"
        self.assertEqual(msvc.fixit_edits("/usr/include/x.h:1:1: error: missing 'typename' prior to dependent type "
                                          "name 'T::type'\n", {self.P: text}, lambda p: []), {})
        self.assertEqual(msvc.fixit_edits(f"{self.P}:1:1: error: expected ';'\n", {self.P: text}, lambda p: []), {})
        self.assertEqual(msvc.fixit_edits("", {}, lambda p: []), {})


class Pass(unittest.TestCase):
    def test_applies_and_file_edits(self):
        job = Job.parse("clang++", [], modes={"msvc": True})
        self.assertTrue(msvc.applies(job) and msvc.mode_applies(job))
        text = "#if _MSC_VER\n#endif\n"
        f = FileView("/p/a.cpp", None, text)
        edits, report = msvc.file_edits(job, f, [], {"/p/a.cpp": {(0, 0, "template ")}})
        self.assertEqual(sorted(edits), [(0, 0, "template "), (4, 12, "AMP_MSVC_VER")])
        self.assertEqual(report, ["a.cpp: MSVC dialect: _MSC_VER -> AMP_MSVC_VER, `template` before dependent "
                                  "member templates"])
        self.assertEqual(msvc.file_edits(job, FileView("/p/b.cpp", None, "int x;\n"), [], {}), ([], []))


if __name__ == "__main__":
    unittest.main()
