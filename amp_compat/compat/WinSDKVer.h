// amp_compat/compat/WinSDKVer.h -- included by some targetver.h files before
// they set _WIN32_WINNT; provides the same constants as SDKDDKVer.h.
#ifndef AMP_COMPAT_COMPAT_WINSDKVER_H
#define AMP_COMPAT_COMPAT_WINSDKVER_H
#define _WIN32_MAXVER 0x0A00
#define WINVER_MAXVER 0x0A00
#define _WIN32_WINNT_MAXVER 0x0A00
#endif
