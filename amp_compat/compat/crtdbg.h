// amp_compat/compat/crtdbg.h -- MSVC's debug CRT macros (<crtdbg.h>, which
// MSVC's <amp.h> includes), with the meaning they have in MSVC's two builds:
//
//   Release (_DEBUG not defined, the default here as in a Release project):
//     _ASSERT(e), _ASSERTE(e), _ASSERT_EXPR(e, msg), _RPT0.._RPT5,
//     _RPTF0.._RPTF5, _RPTW0.._RPTW5, _RPTFW0.._RPTFW5 expand to ((void)0) and
//     do not evaluate their arguments; _CrtSetDbgFlag, _CrtSetReportMode,
//     _CrtSetBreakAlloc, _CrtDumpMemoryLeaks return 0; _CrtCheckMemory
//     returns 1 (TRUE); _CrtSetReportFile returns 0.
//   Debug (-D_DEBUG):
//     _ASSERT/_ASSERTE/_ASSERT_EXPR evaluate the expression once; when it is
//     false they print "Assertion failed: <expr>[ (<msg>)], file F, line L" to
//     stderr and abort() (MSVC shows a dialog, then aborts or breaks).
//     _RPTn(type, fmt, ...) print the printf-formatted message to stderr
//     (_RPTFn prefixed with "F(L) : "); for _CRT_ERROR and _CRT_ASSERT the
//     program then aborts, _CRT_WARN only prints. _CrtSetDbgFlag(f) stores f
//     and returns the previous value (_CRTDBG_REPORT_FLAG only reads it);
//     _CrtSetReportMode likewise per report type. No heap is tracked:
//     _CrtDumpMemoryLeaks returns 0 and _CrtCheckMemory 1 (use ASan or
//     valgrind for leaks and heap corruption).
// Host code only.
#ifndef AMP_COMPAT_COMPAT_CRTDBG_H
#define AMP_COMPAT_COMPAT_CRTDBG_H

#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cwchar>

#define _CRT_WARN 0
#define _CRT_ERROR 1
#define _CRT_ASSERT 2
#define _CRT_ERRCNT 3

#define _CRTDBG_MODE_FILE 0x1
#define _CRTDBG_MODE_DEBUG 0x2
#define _CRTDBG_MODE_WNDW 0x4
#define _CRTDBG_REPORT_MODE (-1)
#define _CRTDBG_ALLOC_MEM_DF 0x01
#define _CRTDBG_DELAY_FREE_MEM_DF 0x02
#define _CRTDBG_CHECK_ALWAYS_DF 0x04
#define _CRTDBG_RESERVED_DF 0x08
#define _CRTDBG_CHECK_CRT_DF 0x10
#define _CRTDBG_LEAK_CHECK_DF 0x20
#define _CRTDBG_REPORT_FLAG (-1)

namespace amp_compat_crtdbg {
struct state {
    int flag = _CRTDBG_ALLOC_MEM_DF;
    int mode[_CRT_ERRCNT] = {_CRTDBG_MODE_DEBUG, _CRTDBG_MODE_WNDW, _CRTDBG_MODE_WNDW};
};
inline state& get() {
    static state s;
    return s;
}
[[noreturn]] inline void assert_failed(const char* expr, const char* msg, const char* file, int line) {
    if (msg)
        std::fprintf(stderr, "Assertion failed: %s (%s), file %s, line %d\n", expr, msg, file, line);
    else
        std::fprintf(stderr, "Assertion failed: %s, file %s, line %d\n", expr, file, line);
    std::fflush(stderr);
    std::abort();
}
inline void assert_failed_w(const char* expr, const wchar_t* msg, const char* file, int line) {
    std::fprintf(stderr, "Assertion failed: %s (%ls), file %s, line %d\n", expr, msg, file, line);
    std::fflush(stderr);
    std::abort();
}
inline void report(int type, const char* file, int line, const char* fmt, ...) {
    if (file) std::fprintf(stderr, "%s(%d) : ", file, line);
    std::va_list ap;
    va_start(ap, fmt);
    std::vfprintf(stderr, fmt, ap);
    va_end(ap);
    std::fflush(stderr);
    if (type == _CRT_ERROR || type == _CRT_ASSERT) std::abort();
}
inline void report_w(int type, const char* file, int line, const wchar_t* fmt, ...) {
    if (file) std::fprintf(stderr, "%s(%d) : ", file, line);
    wchar_t buf[4096];
    std::va_list ap;
    va_start(ap, fmt);
    std::vswprintf(buf, sizeof buf / sizeof buf[0], fmt, ap);
    va_end(ap);
    std::fprintf(stderr, "%ls", buf);
    std::fflush(stderr);
    if (type == _CRT_ERROR || type == _CRT_ASSERT) std::abort();
}
inline int set_flag(int f) {
    int old = get().flag;
    if (f != _CRTDBG_REPORT_FLAG) get().flag = f;
    return old;
}
inline int set_mode(int type, int m) {
    if (type < 0 || type >= _CRT_ERRCNT) return -1;
    int old = get().mode[type];
    if (m != _CRTDBG_REPORT_MODE) get().mode[type] = m;
    return old;
}
}  // namespace amp_compat_crtdbg

#ifdef _DEBUG
#define _ASSERT_EXPR(expr, msg) \
    ((expr) ? (void)0 : ::amp_compat_crtdbg::assert_failed_w(#expr, msg, __FILE__, __LINE__))
#define _ASSERT(expr) ((expr) ? (void)0 : ::amp_compat_crtdbg::assert_failed(#expr, nullptr, __FILE__, __LINE__))
#define _ASSERTE(expr) _ASSERT(expr)
#define AMP_COMPAT_RPT(type, ...) ::amp_compat_crtdbg::report(type, nullptr, 0, __VA_ARGS__)
#define AMP_COMPAT_RPTF(type, ...) ::amp_compat_crtdbg::report(type, __FILE__, __LINE__, __VA_ARGS__)
#define AMP_COMPAT_RPTW(type, ...) ::amp_compat_crtdbg::report_w(type, nullptr, 0, __VA_ARGS__)
#define AMP_COMPAT_RPTFW(type, ...) ::amp_compat_crtdbg::report_w(type, __FILE__, __LINE__, __VA_ARGS__)
#define _CrtSetDbgFlag(f) ::amp_compat_crtdbg::set_flag(f)
#define _CrtSetReportMode(t, m) ::amp_compat_crtdbg::set_mode(t, m)
#else
#define _ASSERT_EXPR(expr, msg) ((void)0)
#define _ASSERT(expr) ((void)0)
#define _ASSERTE(expr) ((void)0)
#define AMP_COMPAT_RPT(...) ((void)0)
#define AMP_COMPAT_RPTF(...) ((void)0)
#define AMP_COMPAT_RPTW(...) ((void)0)
#define AMP_COMPAT_RPTFW(...) ((void)0)
#define _CrtSetDbgFlag(f) ((int)0)
#define _CrtSetReportMode(t, m) ((int)0)
#endif
#define _RPT0(t, m) AMP_COMPAT_RPT(t, "%s", m)
#define _RPT1(t, f, a) AMP_COMPAT_RPT(t, f, a)
#define _RPT2(t, f, a, b) AMP_COMPAT_RPT(t, f, a, b)
#define _RPT3(t, f, a, b, c) AMP_COMPAT_RPT(t, f, a, b, c)
#define _RPT4(t, f, a, b, c, d) AMP_COMPAT_RPT(t, f, a, b, c, d)
#define _RPT5(t, f, a, b, c, d, e) AMP_COMPAT_RPT(t, f, a, b, c, d, e)
#define _RPTF0(t, m) AMP_COMPAT_RPTF(t, "%s", m)
#define _RPTF1(t, f, a) AMP_COMPAT_RPTF(t, f, a)
#define _RPTF2(t, f, a, b) AMP_COMPAT_RPTF(t, f, a, b)
#define _RPTF3(t, f, a, b, c) AMP_COMPAT_RPTF(t, f, a, b, c)
#define _RPTF4(t, f, a, b, c, d) AMP_COMPAT_RPTF(t, f, a, b, c, d)
#define _RPTF5(t, f, a, b, c, d, e) AMP_COMPAT_RPTF(t, f, a, b, c, d, e)
#define _RPTW0(t, m) AMP_COMPAT_RPTW(t, L"%ls", m)
#define _RPTW1(t, f, a) AMP_COMPAT_RPTW(t, f, a)
#define _RPTW2(t, f, a, b) AMP_COMPAT_RPTW(t, f, a, b)
#define _RPTW3(t, f, a, b, c) AMP_COMPAT_RPTW(t, f, a, b, c)
#define _RPTW4(t, f, a, b, c, d) AMP_COMPAT_RPTW(t, f, a, b, c, d)
#define _RPTW5(t, f, a, b, c, d, e) AMP_COMPAT_RPTW(t, f, a, b, c, d, e)
#define _RPTFW0(t, m) AMP_COMPAT_RPTFW(t, L"%ls", m)
#define _RPTFW1(t, f, a) AMP_COMPAT_RPTFW(t, f, a)
#define _RPTFW2(t, f, a, b) AMP_COMPAT_RPTFW(t, f, a, b)
#define _RPTFW3(t, f, a, b, c) AMP_COMPAT_RPTFW(t, f, a, b, c)
#define _RPTFW4(t, f, a, b, c, d) AMP_COMPAT_RPTFW(t, f, a, b, c, d)
#define _RPTFW5(t, f, a, b, c, d, e) AMP_COMPAT_RPTFW(t, f, a, b, c, d, e)
#define _CrtDumpMemoryLeaks() ((int)0)
#define _CrtCheckMemory() ((int)1)
#define _CrtSetBreakAlloc(n) ((long)0)
#define _CrtSetReportFile(t, f) ((void*)0)

#endif  // AMP_COMPAT_COMPAT_CRTDBG_H
