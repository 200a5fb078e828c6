#!/usr/bin/env python3
"""Unit tests of the --windows-compat source edits of scripts/amp_driver/passes/windows.py:
MSVC's std::exception(message) (exception_edits) and __declspec(align) before
a class key (declspec_edits) -- what is rewritten and what is left alone."""
import sys
from pathlib import Path

from amp_driver.passes import windows
from amp_driver.cpp_lexer import mask

X = windows.MSVC_EXCEPTION
U = "using namespace std;\n"


def apply(fn, src):
    out = src
    for s, e, r in sorted(fn(mask(src)), reverse=True):
        out = out[:s] + r + out[e:]
    return out


EXC_CASES = [
    ('f(){ throw std::exception("bad"); }', 'f(){ throw ' + X + '("bad"); }'),
    ('f(){ throw ::std::exception(msg, 1); }', 'f(){ throw ' + X + '(msg, 1); }'),
    ('struct E : public std::exception { E(const char* m) : std::exception(m) {} };',
     'struct E : public ' + X + ' { E(const char* m) : ' + X + '(m) {} };'),
    ('struct E : std::exception {};', 'struct E : ' + X + ' {};'),
    ('class E final : protected virtual std::exception {};', 'class E final : protected virtual ' + X + ' {};'),
    ('f(){ std::exception e("local"); }', 'f(){ ' + X + ' e("local"); }'),
    ('f(){ try {} catch (std::exception e) {} }', 'f(){ try {} catch (std::exception& e) {} }'),
    ('f(){ try {} catch (const std::exception e) {} }', 'f(){ try {} catch (const std::exception& e) {} }'),
    (U + 'f(){ throw exception("u"); }', U + 'f(){ throw ' + X + '("u"); }'),
    (U + 'struct E : exception { E() : exception("u") {} };', U + 'struct E : ' + X + ' { E() : ' + X + '("u") {} };'),
    (U + 'f(){ try {} catch (exception e) {} }', U + 'f(){ try {} catch (exception& e) {} }'),
]
EXC_UNCHANGED = [
    'f(){ try {} catch (std::exception& e) { std::cout << e.what(); } }',
    'f(){ throw std::exception(); }',  # no message: libstdc++'s own works
    'f(){ std::exception_ptr p = std::current_exception(); }',
    'f(){ throw std::runtime_error("rt"); }',
    'f(){ const char* s = "throw std::exception(\\"x\\")"; }  // std::exception("y")',
    'f(){ throw exception("no using-directive"); }',  # which exception is unknown here
    U + 'class exception {}; f(){ throw exception("own class"); }',
    U + 'f(){ throw my::exception("other namespace"); x.exception("member"); }',
    'f(){ try {} catch (std::exception&) {} catch (...) {} }',
]
DECL_CASES = [
    ("__declspec(align(16)) struct V { float x[4]; };", "struct __declspec(align(16)) V { float x[4]; };"),
    ("__declspec( align(32) ) class M : public B {};", "class __declspec( align(32) ) M : public B {};"),
    ("__declspec(thread) static int per_thread = 7;", "thread_local static int per_thread = 7;"),
    ("static __declspec( thread ) int n;", "static thread_local int n;"),
]
DECL_UNCHANGED = [
    "struct __declspec(align(16)) V { float x[4]; };",
    "__declspec(align(16)) float table[4];",
    "__declspec(align(16)) struct V v2;",  # an object of a class declared elsewhere
    "__declspec(noinline) int f();",
]


def main():
    bad = total = 0
    for fn, cases, same in ((windows.exception_edits, EXC_CASES, EXC_UNCHANGED),
                            (windows.declspec_edits, DECL_CASES, DECL_UNCHANGED)):
        for src, want in cases + [(u, u) for u in same]:
            total += 1
            got = apply(fn, src)
            if got != want:
                bad += 1
                print(f"FAIL {fn.__name__}\n  source:   {src!r}\n  expected: {want!r}\n  got:      {got!r}")
    print(f"win edits: {total - bad} of {total} cases")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
