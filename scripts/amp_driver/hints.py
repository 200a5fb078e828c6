"""amp++'s notes after a failed compile: the Windows/MSVC habits its errors
show (GCC and Clang wordings) and the driver option that takes them
(--windows-compat, --msvc). Only read when a compile failed."""
import re

WINNAMES = ("stdext|_ASSERTE|IUnknown|HRESULT|_TCHAR|_tmain|_T|_tprintf|_stprintf_s|LARGE_INTEGER|"
            "QueryPerformanceCounter|QueryPerformanceFrequency|DWORD|BOOL|LONG|HANDLE|Sleep|GetTickCount|"
            "GetTickCount64|_countof|__max|__min|sprintf_s|_snprintf_s|swprintf_s|strcpy_s|strcat_s|fopen_s|errno_t")
WIN_HEADERS = ("Windows|windows|tchar|SDKDDKVer|WinSDKVer|ppl|ppltasks|concrt|concurrent_vector|concurrent_queue|"
               "d3d11|dxgi|d3dcsx|d3dcommon|D3Dcommon|atlbase|Unknwn|unknwn|wrl.client")
# (GCC's and Clang's wordings; the name between quotes, not inside a longer one: MY_DWORD_T is no DWORD)
WINDOWS_RE = re.compile(rf"\s({WIN_HEADERS})\.h: No such file|'({WIN_HEADERS})\.h' file not found|"
                        rf"\W{{1,3}}({WINNAMES})\W{{1,3}} (was not declared|does not name a type|has not been declared)|"
                        rf"(undeclared identifier|unknown type name) \W({WINNAMES})\W")
ASSERT_ARGS = re.compile(r"macro .assert. passed [0-9]+ arguments, but takes just 1|too many arguments provided to "
                         r"function-like macro invocation")
ASSERT_CALL = re.compile(r"(^|[^A-Za-z0-9_.>:])assert\s*\(", re.M)

# (regex over the errors, the MSVC-ism it shows); the first needs no --windows-compat.
VOID_MAIN = (re.compile(r"(::)?main.{1,3} must return .int."),
             "`void main()` (accepted with --windows-compat or --msvc: compiled as `int main`)")
MSVC_ISMS = [
    (r"need .{1,3}typename.{1,3} before|missing .typename. prior to dependent type name",
     "a missing `typename` before a dependent type (MSVC accepts `InIt::value_type x;`)"),
    (r"expected nested-name-specifier before|expected a qualified name after .typename.",
     "`typename` before a name that is not qualified (`typedef typename T type;`)"),
    (r"that depend on a template parameter, so a declaration of|no declarations were found by argument-dependent "
     r"lookup at the point of instantiation|neither visible in the template definition nor found by "
     r"argument-dependent lookup",
     "a name found only when the template is instantiated (MSVC has no two-phase lookup; base-class members "
     "without this->)"),
    (r".{1,3}(__int64|__forceinline|__declspec).{1,3} (was not declared|does not name a type)|unknown type name "
     r".__int64.|(undeclared identifier|unknown type name) .(__forceinline|__declspec).",
     "Microsoft keywords (__int64, __forceinline, __declspec)"),
    (r"default argument for template parameter for class enclosing|cannot add a default template argument to the "
     r"definition of a member",
     "default template arguments repeated on a member defined outside its class template"),
    (r"non-type template argument evaluates to .* cannot be narrowed|narrowing conversion of .* from .* to .int. "
     r"\[-Wnarrowing\]",
     "a narrowing template argument (MSVC warns, C4305)"),
    (r"deduced non-type template argument does not have the same type|mismatched types .unsigned int. and .int.",
     "an unsigned template parameter deduced from an int one (template <unsigned N> f(tiled_index<N>))"),
    (r"missing 'template' keyword prior to dependent template name",
     "a missing `template` before a dependent member template (x.extent.tile<N>())"),
    (r"cannot bind non-const lvalue reference of type .* to an rvalue|expects an lvalue for [0-9]+(st|nd|rd|th) "
     r"argument",
     "a temporary bound to a non-const reference (f(v.section(0, n)) with f(V&), `accelerator_view& v = "
     "accelerator().default_view;`)"),
    (r"extra qualification .{1,3}[A-Za-z_][A-Za-z_0-9:<>, ]*::.{1,3} on member",
     "a member declared with its class name inside the class (`int Counter::get();`)"),
    (r"a storage class can only be specified for objects and functions",
     "`static` on a class definition that declares no object (`static class X { ... };`: MSVC ignores it, C4091)"),
    (r"ordered comparison of pointer with integer zero|ordered comparison between pointer and zero",
     "a pointer compared with 0 by <, <=, >, >= (`if (p <= 0)`: MSVC compares with the null pointer)"),
    (r"reference to .{1,3}(array|extent|index)' is ambiguous|reference to .{1,3}(array|extent|index).{1,3} is "
     r"ambiguous",
     "`using namespace std;` and `using namespace concurrency;` with an unqualified array/extent/index (Visual "
     "Studio's <amp.h> brought no std::array)"),
    # A temporary array converted to an array_view (GCC and Clang wordings).
    (r"no known conversion (for argument [0-9]+ )?from .{1,3}(Concurrency::)?array<[^>]*>.{1,3} to "
     r".{1,3}[^']*array_view<",
     "a temporary array viewed as an array_view (MSVC binds a temporary to array&; also accepted with "
     "--windows-compat)"),
    # MSVC's __declspec(property) members of array and texture.
    (r"(has no member named|no member named) .{1,3}(accelerator_view|associated_accelerator_view|cpu_access_type|"
     r"bits_per_scalar_element|data_length|mipmap_levels|row_pitch|depth_pitch).{1,3}( in "
     r".{1,3}(Concurrency::)?(graphics::)?(array|texture)<|;|$)",
     "MSVC's property syntax on an array or texture (arr.accelerator_view, tex.data_length: __declspec(property))"),
]
MSVC_ISMS = [(re.compile(p, re.M), what) for p, what in MSVC_ISMS]
# An AMP name used unqualified in a template defined before the program's
# `using namespace concurrency`: MSVC looks it up when the template is used.
DID_YOU_MEAN = re.compile(r"did you mean .{1,3}Concurrency::[A-Za-z_]+.{1,3}\?")
USING_CONCURRENCY = re.compile(r"using\s+namespace\s+(::)?(Concurrency|concurrency)\s*;")


def _search_lines(regex, text):
    """grep -E: a match within one line."""
    return any(regex.search(ln) for ln in text.splitlines())


def hints(err, req, srcs):
    """The notes for the errors err of a failed compile (text, possibly '')."""
    out = []
    if not req.windows and _search_lines(ASSERT_ARGS, err) and _search_lines(ASSERT_CALL, err):
        out.append('amp++: note: assert(condition, "message") with a message argument (MSVC ignores the extra '
                   'argument); add --windows-compat')
    if not req.windows and _search_lines(WINDOWS_RE, err):
        out.append("amp++: note: this program uses Windows/MSVC runtime, SDK or PPL names (<Windows.h>, <tchar.h>, "
                   "<d3d11.h>, <wrl/client.h>, _tmain, QueryPerformanceCounter, sprintf_s, stdext::, <ppl.h> ...); "
                   "add --windows-compat")
    # An #include the Windows way (another letter case, backslashes).
    if not req.windows and re.search(r"No such file or directory|file not found", err):
        from .passes.windows import hint
        h = hint(err)
        if h:
            out.append(h)
    if not req.msvc:
        isms = []
        if not req.windows and _search_lines(VOID_MAIN[0], err):
            isms.append(VOID_MAIN[1])
        isms += [what for regex, what in MSVC_ISMS if _search_lines(regex, err)]
        if _search_lines(DID_YOU_MEAN, err) and srcs and any(_using_concurrency(s) for s in srcs):
            isms.append("an AMP name used in a template before `using namespace concurrency;` (MSVC looks names up "
                        "when the template is used)")
        if isms:
            out.append("amp++: note: MSVC-isms found:" + "".join(f"\n  - {i}" for i in isms)
                       + "\n  add --msvc to compile in the MSVC dialect (Clang, amp_compat/compat/msvc/flags.txt), "
                         "or fix the code")
    return "".join(o + "\n" for o in out)


def _using_concurrency(path):
    try:
        with open(path, errors="replace") as f:
            return any(USING_CONCURRENCY.search(ln) for ln in f)
    except OSError:
        return False
