// amp_compat/compat/SDKDDKVer.h -- the version macros a Visual Studio
// project's targetver.h expects (opt-in: ./amp c++ --windows-compat).
//
// Contract: defines the _WIN32_WINNT_* / NTDDI_* constants of the Windows SDK
// and, when the program has not chosen them (targetver.h may define
// _WIN32_WINNT first, as the SDK allows), _WIN32_WINNT, WINVER and
// NTDDI_VERSION for Windows 10. Nothing here changes what amp_compat does; the
// values only let `#if _WIN32_WINNT >= ...` in legacy code evaluate as it did.
// _WIN32 / _MSC_VER are deliberately NOT defined: libstdc++, glibc and Kokkos
// would take their Windows code paths.
#ifndef AMP_COMPAT_COMPAT_SDKDDKVER_H
#define AMP_COMPAT_COMPAT_SDKDDKVER_H

#define _WIN32_WINNT_NT4 0x0400
#define _WIN32_WINNT_WIN2K 0x0500
#define _WIN32_WINNT_WINXP 0x0501
#define _WIN32_WINNT_WS03 0x0502
#define _WIN32_WINNT_VISTA 0x0600
#define _WIN32_WINNT_WS08 0x0600
#define _WIN32_WINNT_WIN7 0x0601
#define _WIN32_WINNT_WIN8 0x0602
#define _WIN32_WINNT_WINBLUE 0x0603
#define _WIN32_WINNT_WIN10 0x0A00

#define NTDDI_WINXP 0x05010000
#define NTDDI_VISTA 0x06000000
#define NTDDI_WIN7 0x06010000
#define NTDDI_WIN8 0x06020000
#define NTDDI_WINBLUE 0x06030000
#define NTDDI_WIN10 0x0A000000

#ifndef _WIN32_WINNT
#define _WIN32_WINNT _WIN32_WINNT_WIN10
#endif
#ifndef WINVER
#define WINVER _WIN32_WINNT
#endif
#ifndef NTDDI_VERSION
#define NTDDI_VERSION NTDDI_WIN10
#endif
#ifndef _WIN32_IE
#define _WIN32_IE 0x0A00
#endif

#endif  // AMP_COMPAT_COMPAT_SDKDDKVER_H
