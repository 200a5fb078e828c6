// amp_compat/compat/direct.h -- MSVC's <direct.h> folder functions
// (--windows-compat only; host code only): _getcwd (a null buffer allocates,
// as MSVC's), _chdir, _mkdir (one argument: the folder is created with mode
// 0777 less the umask), _rmdir. Paths are Linux paths; `\` is not translated
// here (only opens are: win_paths.cpp).
#ifndef AMP_COMPAT_COMPAT_DIRECT_H
#define AMP_COMPAT_COMPAT_DIRECT_H

#include <cstddef>
#include <sys/stat.h>
#include <unistd.h>

inline char* _getcwd(char* buf, int size) { return ::getcwd(buf, buf ? static_cast<std::size_t>(size) : 0); }
inline int _chdir(const char* path) { return ::chdir(path); }
inline int _mkdir(const char* path) { return ::mkdir(path, 0777); }
inline int _rmdir(const char* path) { return ::rmdir(path); }

#endif
