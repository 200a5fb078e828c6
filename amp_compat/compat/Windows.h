// amp_compat/compat/Windows.h -- minimal, opt-in Windows console/timer shim
// (also reachable as <windows.h>; the CRT names come from crt_compat.h).
//
// Purpose
//   Legacy C++ AMP samples often `#include <Windows.h>` only to colour console
//   output, resize the console window, time code or sleep.  This header lets
//   such code compile unchanged on Linux (GCC, Clang, Clang-CUDA host code).
//   It is NOT a Win32 emulation layer: it declares only the handful of names
//   listed below.  Code that needs anything else will fail to compile, which is
//   intended (a silent stub would hide a real porting problem).
//
// Opt-in
//   This directory is put on the include path only on request
//   (`./amp c++ --windows-compat ...`).  Under that flag only, <amp.h> includes
//   it too (through <unknwn.h>, as MSVC's amprt.h does; amp_windows_env.h).
//
// Contract (everything is inline and header-only; host code only -- none of
// these functions may be called from restrict(amp) code):
//   Types      BOOL (int), TRUE/FALSE (macros, only if not already defined),
//              BYTE, WORD (uint16_t), SHORT, LONG (int32_t), DWORD (uint32_t),
//              LONGLONG/ULONGLONG (64-bit), HANDLE (void*), COORD, SMALL_RECT,
//              LARGE_INTEGER (union with QuadPart, LowPart/HighPart and u.*).
//   Handles    GetStdHandle(STD_INPUT_HANDLE / STD_OUTPUT_HANDLE /
//              STD_ERROR_HANDLE) returns an opaque non-null handle for
//              stdin/stdout/stderr; any other argument returns
//              INVALID_HANDLE_VALUE.
//   Colours    SetConsoleTextAttribute(h, attr): for the stdout handle, and
//              only when stdout is a terminal (isatty(1)), writes an ANSI SGR
//              escape sequence to std::cout that approximates the Windows
//              attribute: bits 0..3 = foreground (1 blue, 2 green, 4 red,
//              8 intensity), bits 4..7 = background (same layout).  Attribute 7
//              (the Windows default, light grey on black) maps to a plain reset
//              "\x1b[0m"; otherwise "\x1b[0;<fg>m" (30-37, 90-97 if intense)
//              plus ";<bg>" (40-47, 100-107) only when the background bits are
//              non-zero, so black-background attributes keep the terminal's
//              own background.  The same holds for the stderr handle with isatty(2)
//              and std::cerr.  When the stream is not a terminal (redirected to
//              a file or pipe) NOTHING is written, so captured output is clean.
//              Returns TRUE for stdout/stderr handles (also when nothing was
//              written), FALSE otherwise.  At normal program exit a reset
//              sequence is written to each stream that received a colour.
//              (The escape sequences go through std::cout / std::cerr, so they
//              stay in order with iostream output, and with stdio output as
//              long as sync_with_stdio has not been switched off.)
//   Console    SetConsoleScreenBufferSize, SetConsoleWindowInfo: no-ops that
//   geometry   return TRUE (a terminal cannot be resized portably).
//   Timing     QueryPerformanceFrequency: 1e9 ticks per second (nanoseconds).
//              QueryPerformanceCounter: std::chrono::steady_clock time in
//              nanoseconds (monotonic; the epoch is unspecified, only
//              differences are meaningful -- as on Windows).  Both return TRUE
//              (FALSE only for a null pointer).
//              GetTickCount: steady_clock milliseconds truncated to 32 bits
//              (wraps like the Windows function); GetTickCount64: 64-bit.
//              Sleep(ms): blocks the calling thread for at least ms
//              milliseconds (std::this_thread::sleep_for).
//   More types UINT, INT, ULONG, USHORT, UCHAR, CHAR, WCHAR, FLOAT, BOOLEAN,
//              byte and boolean (rpcndr.h's unsigned char),
//              INT64/UINT64/LONG64/DWORD64, SIZE_T, *_PTR integers, the LP*/P*
//              pointer names, TCHAR/LPTSTR/LPCTSTR and TEXT() (wide when
//              UNICODE is defined, as winnt.h), HRESULT (long, as amp.h's)
//              with S_OK, S_FALSE, E_FAIL, SUCCEEDED(), FAILED() (bit 31 or
//              a negative value); MAX_PATH, INFINITE. No VOID/CONST macros
//              (Kokkos uses those names).
//   Memory     ZeroMemory, SecureZeroMemory, FillMemory, CopyMemory, MoveMemory.
//   System     GetSystemInfo: dwNumberOfProcessors (hardware threads),
//              dwPageSize, dwAllocationGranularity (the page size), other
//              fields zero. GetCurrentThreadId, GetCurrentProcessId,
//              SwitchToThread (yields; TRUE).
//   Code pages CP_UTF8/CP_ACP/CP_OEMCP; GetConsoleOutputCP/GetConsoleCP return
//              CP_UTF8; SetConsoleOutputCP/SetConsoleCP accept CP_UTF8 (TRUE;
//              the console is UTF-8 already) and refuse others (FALSE).
//              SetConsoleTitle(A/W): an OSC title escape on a terminal only.
//   Debugging  IsDebuggerPresent (TracerPid of /proc/self/status),
//              OutputDebugStringA/W and OutputDebugString (stderr, only when a
//              debugger is attached or AMP_DEBUG_OUTPUT is set: a console run
//              on Windows shows nothing), DebugBreak (SIGTRAP).
//   Module     GetModuleFileNameA/W, GetModuleFileName (NULL module only: the
//              program's path; Windows' return values and truncation),
//              HMODULE, HINSTANCE.
//   Timer      timeGetTime (steady_clock ms, 32 bits), timeBeginPeriod,
//              timeEndPeriod (TIMERR_NOERROR); also through <mmsystem.h>.
//   Atomics    InterlockedIncrement/Decrement/Exchange/ExchangeAdd/
//              CompareExchange (LONG) and the ...64 forms: sequentially
//              consistent, returning what the Windows functions return.
//   Locks      CRITICAL_SECTION with Initialize/Enter/TryEnter/Leave/
//              DeleteCriticalSection: recursive, as on Windows.
//   min, max   Unless NOMINMAX is defined before the first inclusion:
//              global function templates min(a, b) and max(a, b) with the
//              results of MSVC's macros ((a) < (b) ? (a) : (b) and the
//              reverse, by value, in the common type of a and b; constexpr,
//              so restrict(amp) code may call them too). Not macros: a macro
//              `max` would break every later std::numeric_limits<T>::max() and
//              the C++ library's own headers. Where both apply, std::min/
//              std::max win (their (const T&, const T&) form is the more
//              specialised), so `using namespace std;` stays unambiguous.
//   Macros     winnt.h's UNREFERENCED_PARAMETER, DBG_UNREFERENCED_PARAMETER,
//              DBG_UNREFERENCED_LOCAL_VARIABLE, C_ASSERT, ARRAYSIZE,
//              RTL_NUMBER_OF, FIELD_OFFSET; windef.h's MAKEWORD, MAKELONG,
//              LOWORD, HIWORD, LOBYTE, HIBYTE.
// Not provided on purpose: _WIN32 / _MSC_VER, threads, events, files and
// every GUI function.
#ifndef AMP_COMPAT_COMPAT_WINDOWS_H
#define AMP_COMPAT_COMPAT_WINDOWS_H

#include <cstddef>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <mutex>
#include <cstdlib>
#include <iostream>
#include <thread>
#include <type_traits>
#include <utility>
#include <csignal>
#include <cstdio>
#include <string>
#include <sys/syscall.h>
#include <unistd.h>

#include "detail/utf8.h"

#include "SDKDDKVer.h"
#include "crt_compat.h"

// ---- basic Windows types --------------------------------------------------
typedef int BOOL;
typedef std::uint8_t BYTE;
typedef std::uint16_t WORD;
typedef short SHORT;
typedef std::int32_t LONG;
typedef std::uint32_t DWORD;
typedef std::int64_t LONGLONG;
typedef std::uint64_t ULONGLONG;
typedef void* HANDLE;
typedef unsigned int UINT;
typedef int INT;
typedef std::uint32_t ULONG;
typedef unsigned short USHORT;
typedef unsigned char UCHAR;
typedef char CHAR;
typedef wchar_t WCHAR;
typedef float FLOAT;
typedef BYTE BOOLEAN;
// rpcndr.h's, which Windows.h (through rpc.h) and unknwn.h include, so every
// program that includes amp.h on Windows sees them (a DLL's exported
// `int _stdcall F(..., byte rule)` with amp.h its only include).
typedef unsigned char byte;
typedef unsigned char boolean;
typedef std::int64_t INT64;
typedef std::uint64_t UINT64;
typedef std::int64_t LONG64;
typedef std::uint64_t DWORD64;
typedef std::size_t SIZE_T;
typedef std::ptrdiff_t SSIZE_T;
typedef std::intptr_t INT_PTR;
typedef std::uintptr_t UINT_PTR;
typedef std::intptr_t LONG_PTR;
typedef std::uintptr_t ULONG_PTR;
typedef std::uintptr_t DWORD_PTR;
typedef void* PVOID;
typedef void* LPVOID;
typedef const void* LPCVOID;
typedef char* LPSTR;
typedef char* PSTR;
typedef const char* LPCSTR;
typedef const char* PCSTR;
typedef wchar_t* LPWSTR;
typedef wchar_t* PWSTR;
typedef const wchar_t* LPCWSTR;
typedef const wchar_t* PCWSTR;
typedef DWORD* LPDWORD;
typedef DWORD* PDWORD;
typedef BOOL* LPBOOL;
// HRESULT as amp.h declares it (runtime_exception::get_error_code), with the
// SDK's guard: long, 64-bit here. Error codes keep their 32-bit pattern
// (E_FAIL == 0x80004005, equal to what amp_compat's exceptions report), so
// FAILED() tests bit 31 as well as the sign.
#ifndef _HRESULT_DEFINED
#define _HRESULT_DEFINED
typedef long HRESULT;
#endif
#ifdef UNICODE
typedef WCHAR TCHAR;
#define AMP_COMPAT_TEXT(q) L##q
#else
typedef char TCHAR;
#define AMP_COMPAT_TEXT(q) q
#endif
typedef TCHAR* LPTSTR;
typedef const TCHAR* LPCTSTR;
#ifndef TEXT
#define TEXT(q) AMP_COMPAT_TEXT(q)
#endif

#define S_OK ((HRESULT)0L)
#define S_FALSE ((HRESULT)1L)
#define E_FAIL ((HRESULT)0x80004005L)
// One evaluation of hr, as the SDK's macros (FAILED(hr = f()) and
// SUCCEEDED(f()) call f once): a constexpr function does the test.
constexpr bool amp_compat_hresult_failed(HRESULT hr) {
    return hr < 0 || (static_cast<unsigned long>(hr) & 0x80000000ul) != 0;
}
#define FAILED(hr) (::amp_compat_hresult_failed((HRESULT)(hr)))
#define SUCCEEDED(hr) (!::amp_compat_hresult_failed((HRESULT)(hr)))
#define MAX_PATH 260
#define INFINITE 0xFFFFFFFF

#ifndef TRUE
#define TRUE 1
#endif
#ifndef FALSE
#define FALSE 0
#endif

#ifndef WINAPI
#define WINAPI
#endif

// ---- standard handles -----------------------------------------------------
#define STD_INPUT_HANDLE ((DWORD)-10)
#define STD_OUTPUT_HANDLE ((DWORD)-11)
#define STD_ERROR_HANDLE ((DWORD)-12)
#define INVALID_HANDLE_VALUE ((HANDLE)(std::intptr_t)-1)

// ---- console text attributes (same values as the Windows SDK) -------------
#define FOREGROUND_BLUE 0x0001
#define FOREGROUND_GREEN 0x0002
#define FOREGROUND_RED 0x0004
#define FOREGROUND_INTENSITY 0x0008
#define BACKGROUND_BLUE 0x0010
#define BACKGROUND_GREEN 0x0020
#define BACKGROUND_RED 0x0040
#define BACKGROUND_INTENSITY 0x0080

typedef struct _COORD {
    SHORT X;
    SHORT Y;
} COORD, *PCOORD;

typedef struct _SMALL_RECT {
    SHORT Left;
    SHORT Top;
    SHORT Right;
    SHORT Bottom;
} SMALL_RECT, *PSMALL_RECT;

typedef union _LARGE_INTEGER {
    __extension__ struct {  // anonymous struct, as in the Windows SDK
        DWORD LowPart;
        LONG HighPart;
    };
    struct {
        DWORD LowPart;
        LONG HighPart;
    } u;
    LONGLONG QuadPart;
} LARGE_INTEGER, *PLARGE_INTEGER;

namespace amp_compat_windows_detail {

// Handles are small non-null integers: file descriptor + 1.
inline HANDLE handle_from_fd(int fd) {
    return reinterpret_cast<HANDLE>(static_cast<std::intptr_t>(fd + 1));
}

// Returns 0, 1 or 2 for the standard handles, -1 for anything else.
inline int fd_from_handle(HANDLE h) {
    const std::intptr_t v = reinterpret_cast<std::intptr_t>(h);
    return (v >= 1 && v <= 3) ? static_cast<int>(v - 1) : -1;
}

// coloured()[fd] is true once an escape sequence was written to fd 1 or 2.
inline bool* coloured() {
    static bool flags[3] = {false, false, false};
    return flags;
}

inline void reset_colours_at_exit() {
    if (coloured()[1]) std::cout << "\x1b[0m" << std::flush;
    if (coloured()[2]) std::cerr << "\x1b[0m" << std::flush;
}

inline void mark_coloured(int fd) {
    static const bool registered = (std::atexit(&reset_colours_at_exit), true);
    (void)registered;
    coloured()[fd] = true;
}

// Windows colour index (bit0 blue, bit1 green, bit2 red) -> ANSI colour index
// (bit0 red, bit1 green, bit2 blue).
inline int ansi_colour(int win) {
    return ((win & 1) << 2) | (win & 2) | ((win & 4) >> 2);
}

inline std::chrono::nanoseconds steady_now() {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(
        std::chrono::steady_clock::now().time_since_epoch());
}

}  // namespace amp_compat_windows_detail

inline HANDLE GetStdHandle(DWORD nStdHandle) {
    if (nStdHandle == STD_INPUT_HANDLE) return amp_compat_windows_detail::handle_from_fd(0);
    if (nStdHandle == STD_OUTPUT_HANDLE) return amp_compat_windows_detail::handle_from_fd(1);
    if (nStdHandle == STD_ERROR_HANDLE) return amp_compat_windows_detail::handle_from_fd(2);
    return INVALID_HANDLE_VALUE;
}

inline BOOL SetConsoleTextAttribute(HANDLE hConsoleOutput, WORD wAttributes) {
    namespace d = amp_compat_windows_detail;
    const int fd = d::fd_from_handle(hConsoleOutput);
    if (fd != 1 && fd != 2) return FALSE;
    if (!isatty(fd)) return TRUE;  // redirected: emit nothing, still "succeeds"
    std::ostream& os = (fd == 1) ? std::cout : std::cerr;
    const int attr = wAttributes & 0xFF;
    if (attr == 0x07) {
        os << "\x1b[0m";
    } else {
        const int fg = attr & 0x0F;
        const int bg = (attr >> 4) & 0x0F;
        const int fg_code = ((fg & 8) ? 90 : 30) + d::ansi_colour(fg & 7);
        os << "\x1b[0;" << fg_code;
        if (bg != 0) os << ';' << (((bg & 8) ? 100 : 40) + d::ansi_colour(bg & 7));
        os << 'm';
    }
    d::mark_coloured(fd);
    return TRUE;
}

inline BOOL SetConsoleScreenBufferSize(HANDLE hConsoleOutput, COORD dwSize) {
    (void)hConsoleOutput;
    (void)dwSize;
    return TRUE;
}

inline BOOL SetConsoleWindowInfo(HANDLE hConsoleOutput, BOOL bAbsolute,
                                 const SMALL_RECT* lpConsoleWindow) {
    (void)hConsoleOutput;
    (void)bAbsolute;
    (void)lpConsoleWindow;
    return TRUE;
}

// Code pages: the console here always reads and writes UTF-8 (the wide
// streams and _tprintf write UTF-8 too), so SetConsoleOutputCP(CP_UTF8), the
// usual call before printing Unicode, has nothing to change. Another code page
// is refused (FALSE): the output would still be UTF-8, not that code page.
#define CP_ACP 0
#define CP_OEMCP 1
#define CP_UTF8 65001
inline UINT GetConsoleOutputCP() { return CP_UTF8; }
inline UINT GetConsoleCP() { return CP_UTF8; }
inline BOOL SetConsoleOutputCP(UINT cp) { return cp == CP_UTF8 ? TRUE : FALSE; }
inline BOOL SetConsoleCP(UINT cp) { return cp == CP_UTF8 ? TRUE : FALSE; }
// SetConsoleTitle: the terminal's title (an OSC escape) when stdout is a
// terminal; nothing when it is redirected. TRUE either way.
inline BOOL SetConsoleTitleA(const char* title) {
    if (title && isatty(1)) {
        std::cout << "\x1b]0;" << title << "\x07" << std::flush;
    }
    return TRUE;
}
inline BOOL SetConsoleTitleW(const wchar_t* title) {
    return SetConsoleTitleA(title ? amp_compat_crt::to_utf8(title).c_str() : nullptr);
}
#ifdef UNICODE
#define SetConsoleTitle SetConsoleTitleW
#else
#define SetConsoleTitle SetConsoleTitleA
#endif

inline BOOL QueryPerformanceFrequency(LARGE_INTEGER* lpFrequency) {
    if (lpFrequency == nullptr) return FALSE;
    lpFrequency->QuadPart = 1000000000LL;  // counter ticks are nanoseconds
    return TRUE;
}

inline BOOL QueryPerformanceCounter(LARGE_INTEGER* lpPerformanceCount) {
    if (lpPerformanceCount == nullptr) return FALSE;
    lpPerformanceCount->QuadPart =
        static_cast<LONGLONG>(amp_compat_windows_detail::steady_now().count());
    return TRUE;
}

inline ULONGLONG GetTickCount64() {
    return static_cast<ULONGLONG>(amp_compat_windows_detail::steady_now().count() / 1000000);
}

inline DWORD GetTickCount() {
    return static_cast<DWORD>(GetTickCount64() & 0xFFFFFFFFull);
}

inline void Sleep(DWORD dwMilliseconds) {
    std::this_thread::sleep_for(std::chrono::milliseconds(dwMilliseconds));
}

// ---- winnt.h / windef.h helper macros ----------------------------------------
// As Microsoft's headers define them (each guarded: a program's own
// definition, made first, wins).
#ifndef UNREFERENCED_PARAMETER
#define UNREFERENCED_PARAMETER(P) ((void)(P))
#endif
#ifndef DBG_UNREFERENCED_PARAMETER
#define DBG_UNREFERENCED_PARAMETER(P) ((void)(P))
#endif
#ifndef DBG_UNREFERENCED_LOCAL_VARIABLE
#define DBG_UNREFERENCED_LOCAL_VARIABLE(V) ((void)(V))
#endif
#ifndef UNREFERENCED_LOCAL_VARIABLE
#define UNREFERENCED_LOCAL_VARIABLE(V) ((void)(V))
#endif
#ifndef C_ASSERT
#define C_ASSERT(e) static_assert((e), "C_ASSERT(" #e ")")
#endif
// The element count of an array (a pointer does not compile: _countof).
#ifndef RTL_NUMBER_OF
#define RTL_NUMBER_OF(A) _countof(A)
#endif
#ifndef ARRAYSIZE
#define ARRAYSIZE(A) _countof(A)
#endif
#ifndef _ARRAYSIZE
#define _ARRAYSIZE(A) _countof(A)
#endif
#ifndef FIELD_OFFSET
#define FIELD_OFFSET(type, field) ((LONG)offsetof(type, field))
#endif
#ifndef MAKEWORD
#define MAKEWORD(a, b) ((WORD)(((BYTE)(((std::uintptr_t)(a)) & 0xff)) | ((WORD)((BYTE)(((std::uintptr_t)(b)) & 0xff))) << 8))
#define MAKELONG(a, b) ((LONG)(((WORD)(((std::uintptr_t)(a)) & 0xffff)) | ((DWORD)((WORD)(((std::uintptr_t)(b)) & 0xffff))) << 16))
#define LOWORD(l) ((WORD)(((std::uintptr_t)(l)) & 0xffff))
#define HIWORD(l) ((WORD)((((std::uintptr_t)(l)) >> 16) & 0xffff))
#define LOBYTE(w) ((BYTE)(((std::uintptr_t)(w)) & 0xff))
#define HIBYTE(w) ((BYTE)((((std::uintptr_t)(w)) >> 8) & 0xff))
#endif

// ---- memory -----------------------------------------------------------------
#define ZeroMemory(dest, len) std::memset((dest), 0, (len))
#define SecureZeroMemory(dest, len) std::memset((dest), 0, (len))
#define FillMemory(dest, len, fill) std::memset((dest), (fill), (len))
#define CopyMemory(dest, src, len) std::memcpy((dest), (src), (len))
#define MoveMemory(dest, src, len) std::memmove((dest), (src), (len))

// ---- system information -------------------------------------------------------
typedef struct _SYSTEM_INFO {
    WORD wProcessorArchitecture;
    WORD wReserved;
    DWORD dwPageSize;
    LPVOID lpMinimumApplicationAddress;
    LPVOID lpMaximumApplicationAddress;
    DWORD_PTR dwActiveProcessorMask;
    DWORD dwNumberOfProcessors;
    DWORD dwProcessorType;
    DWORD dwAllocationGranularity;
    WORD wProcessorLevel;
    WORD wProcessorRevision;
} SYSTEM_INFO, *LPSYSTEM_INFO;

inline void GetSystemInfo(LPSYSTEM_INFO info) {
    if (info == nullptr) return;
    std::memset(info, 0, sizeof *info);
    const unsigned n = std::thread::hardware_concurrency();
    info->dwNumberOfProcessors = n ? n : 1;
    const long page = sysconf(_SC_PAGESIZE);
    info->dwPageSize = static_cast<DWORD>(page > 0 ? page : 4096);
    info->dwAllocationGranularity = info->dwPageSize;
}

inline DWORD GetCurrentThreadId() { return static_cast<DWORD>(syscall(SYS_gettid)); }
inline DWORD GetCurrentProcessId() { return static_cast<DWORD>(getpid()); }
inline BOOL SwitchToThread() {
    std::this_thread::yield();
    return TRUE;
}

// ---- debugging and the program's own file name --------------------------------
// OutputDebugString: Windows sends the text to an attached debugger (Visual
// Studio's Output window) and shows nothing on the console; here the
// debugger's window is stderr, written only when a debugger is attached or
// AMP_DEBUG_OUTPUT is set, so a console run prints what it printed on Windows.
inline BOOL IsDebuggerPresent() {
    char buf[4096];
    FILE* f = std::fopen("/proc/self/status", "r");
    if (!f) return FALSE;
    long tracer = 0;
    while (std::fgets(buf, sizeof buf, f))
        if (std::strncmp(buf, "TracerPid:", 10) == 0) { tracer = std::strtol(buf + 10, nullptr, 10); break; }
    std::fclose(f);
    return tracer != 0 ? TRUE : FALSE;
}
inline void OutputDebugStringA(const char* text) {
    if (text && (std::getenv("AMP_DEBUG_OUTPUT") || IsDebuggerPresent())) {
        std::fputs(text, stderr);
        std::fflush(stderr);
    }
}
inline void OutputDebugStringW(const wchar_t* text) {
    if (text) OutputDebugStringA(amp_compat_crt::to_utf8(text).c_str());
}
inline void DebugBreak() { std::raise(SIGTRAP); }  // as __debugbreak (crt_extras.h)
typedef void* HMODULE;
typedef void* HINSTANCE;
// GetModuleFileName(NULL, buf, size): the program's path (/proc/self/exe), as
// Windows returns it: the length without the null, or `size` with the text
// cut (and null-terminated) when it does not fit; 0 on failure or for a
// module handle other than NULL (DLLs have no equivalent here). Wide: UTF-8
// read as wide text.
inline DWORD GetModuleFileNameA(HMODULE module, LPSTR buf, DWORD size) {
    if (module != nullptr || buf == nullptr || size == 0) return 0;
    char path[4096];
    const ssize_t n = readlink("/proc/self/exe", path, sizeof path - 1);
    if (n <= 0) return 0;
    const DWORD len = static_cast<DWORD>(n);
    if (len >= size) {
        std::memcpy(buf, path, size - 1);
        buf[size - 1] = '\0';
        return size;
    }
    std::memcpy(buf, path, len);
    buf[len] = '\0';
    return len;
}
inline DWORD GetModuleFileNameW(HMODULE module, LPWSTR buf, DWORD size) {
    if (module != nullptr || buf == nullptr || size == 0) return 0;
    char path[4096];
    if (GetModuleFileNameA(nullptr, path, sizeof path) == 0) return 0;
    const std::wstring w = amp_compat_crt::from_utf8(path);
    if (w.size() >= size) {
        std::wmemcpy(buf, w.data(), size - 1);
        buf[size - 1] = L'\0';
        return size;
    }
    std::wmemcpy(buf, w.data(), w.size());
    buf[w.size()] = L'\0';
    return static_cast<DWORD>(w.size());
}
#ifdef UNICODE
#define OutputDebugString OutputDebugStringW
#define GetModuleFileName GetModuleFileNameW
#else
#define OutputDebugString OutputDebugStringA
#define GetModuleFileName GetModuleFileNameA
#endif

// ---- multimedia timer (mmsystem.h, which windows.h includes) -------------------
// timeGetTime: milliseconds of steady_clock, 32 bits (wraps as on Windows);
// timeBeginPeriod/timeEndPeriod: the resolution is already 1 ms (TIMERR_NOERROR).
typedef UINT MMRESULT;
#define TIMERR_NOERROR 0
inline DWORD timeGetTime() {
    return static_cast<DWORD>(std::chrono::duration_cast<std::chrono::milliseconds>(
                                  std::chrono::steady_clock::now().time_since_epoch()).count());
}
inline MMRESULT timeBeginPeriod(UINT) { return TIMERR_NOERROR; }
inline MMRESULT timeEndPeriod(UINT) { return TIMERR_NOERROR; }

// ---- interlocked operations (return values as on Windows) ---------------------
#define AMP_COMPAT_INTERLOCKED(SUFFIX, T)                                                     \
    inline T InterlockedIncrement##SUFFIX(T volatile* p) {                                    \
        return __atomic_add_fetch(p, 1, __ATOMIC_SEQ_CST);                                    \
    }                                                                                         \
    inline T InterlockedDecrement##SUFFIX(T volatile* p) {                                    \
        return __atomic_sub_fetch(p, 1, __ATOMIC_SEQ_CST);                                    \
    }                                                                                         \
    inline T InterlockedExchange##SUFFIX(T volatile* p, T v) {                                \
        return __atomic_exchange_n(p, v, __ATOMIC_SEQ_CST);                                   \
    }                                                                                         \
    inline T InterlockedExchangeAdd##SUFFIX(T volatile* p, T v) {                             \
        return __atomic_fetch_add(p, v, __ATOMIC_SEQ_CST);                                    \
    }                                                                                         \
    inline T InterlockedCompareExchange##SUFFIX(T volatile* p, T exchange, T comparand) {     \
        __atomic_compare_exchange_n(p, &comparand, exchange, false, __ATOMIC_SEQ_CST,         \
                                    __ATOMIC_SEQ_CST);                                        \
        return comparand; /* the initial value of *p */                                       \
    }
AMP_COMPAT_INTERLOCKED(, LONG)
AMP_COMPAT_INTERLOCKED(64, LONGLONG)
#undef AMP_COMPAT_INTERLOCKED

// ---- critical sections (recursive, as on Windows) -----------------------------
typedef struct _CRITICAL_SECTION {
    std::recursive_mutex* mutex;
} CRITICAL_SECTION, *LPCRITICAL_SECTION;

inline void InitializeCriticalSection(LPCRITICAL_SECTION cs) { cs->mutex = new std::recursive_mutex; }
inline BOOL InitializeCriticalSectionAndSpinCount(LPCRITICAL_SECTION cs, DWORD) {
    InitializeCriticalSection(cs);
    return TRUE;
}
inline void EnterCriticalSection(LPCRITICAL_SECTION cs) { cs->mutex->lock(); }
inline BOOL TryEnterCriticalSection(LPCRITICAL_SECTION cs) { return cs->mutex->try_lock() ? TRUE : FALSE; }
inline void LeaveCriticalSection(LPCRITICAL_SECTION cs) { cs->mutex->unlock(); }
inline void DeleteCriticalSection(LPCRITICAL_SECTION cs) {
    delete cs->mutex;
    cs->mutex = nullptr;
}

// ---- min / max (windef.h's macros, as functions; see the contract) -------------
#ifndef NOMINMAX
template <class A, class B>
constexpr std::decay_t<decltype(true ? std::declval<const A&>() : std::declval<const B&>())> min(const A& a,
                                                                                                   const B& b) {
    return (a < b) ? a : b;
}
template <class A, class B>
constexpr std::decay_t<decltype(true ? std::declval<const A&>() : std::declval<const B&>())> max(const A& a,
                                                                                                   const B& b) {
    return (a > b) ? a : b;
}
// CUDA builds (Clang's CUDA mode): the CUDA headers declare device-only
// ::min/::max for the arithmetic pairs below (__clang_cuda_math.h,
// crt/math_functions.hpp). restrict(amp) code is compiled for the host and
// the device, and on the host side such a non-template exact match beats the
// templates above, so `min(a, b)` in a kernel (Microsoft's BinomialOptions
// sample) failed with "reference to __device__ function 'min'". These
// host-only twins, with the same signatures and the macros' results (usual
// arithmetic conversions, the result in the type CUDA returns), are the host
// side's choice; the device side keeps CUDA's. HIP excludes wrong-side
// overloads by default (-fgpu-exclude-wrong-side-overloads) and needs none.
#if defined(__CUDA__) && !defined(__HIP__)
#define AMP_COMPAT_WIN_MINMAX_HOST(A, B, R)                                                   \
    __host__ constexpr R min(A a, B b) {                                                       \
        return static_cast<R>(a) < static_cast<R>(b) ? static_cast<R>(a) : static_cast<R>(b); \
    }                                                                                          \
    __host__ constexpr R max(A a, B b) {                                                       \
        return static_cast<R>(a) > static_cast<R>(b) ? static_cast<R>(a) : static_cast<R>(b); \
    }
AMP_COMPAT_WIN_MINMAX_HOST(int, int, int)
AMP_COMPAT_WIN_MINMAX_HOST(unsigned int, unsigned int, unsigned int)
AMP_COMPAT_WIN_MINMAX_HOST(int, unsigned int, unsigned int)
AMP_COMPAT_WIN_MINMAX_HOST(unsigned int, int, unsigned int)
AMP_COMPAT_WIN_MINMAX_HOST(long, long, long)
AMP_COMPAT_WIN_MINMAX_HOST(unsigned long, unsigned long, unsigned long)
AMP_COMPAT_WIN_MINMAX_HOST(long, unsigned long, unsigned long)
AMP_COMPAT_WIN_MINMAX_HOST(unsigned long, long, unsigned long)
AMP_COMPAT_WIN_MINMAX_HOST(long long, long long, long long)
AMP_COMPAT_WIN_MINMAX_HOST(unsigned long long, unsigned long long, unsigned long long)
AMP_COMPAT_WIN_MINMAX_HOST(long long, unsigned long long, unsigned long long)
AMP_COMPAT_WIN_MINMAX_HOST(unsigned long long, long long, unsigned long long)
AMP_COMPAT_WIN_MINMAX_HOST(float, float, float)
AMP_COMPAT_WIN_MINMAX_HOST(double, double, double)
AMP_COMPAT_WIN_MINMAX_HOST(float, double, double)
AMP_COMPAT_WIN_MINMAX_HOST(double, float, double)
#undef AMP_COMPAT_WIN_MINMAX_HOST
#endif
#endif

#endif  // AMP_COMPAT_COMPAT_WINDOWS_H
