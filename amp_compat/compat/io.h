// amp_compat/compat/io.h -- MSVC's <io.h> low-level file functions that
// console programs use (--windows-compat only; host code only).
//
// Contract:
//   _setmode(fd, mode)  returns the previous mode (_O_TEXT at first) and
//       records the new one; nothing else changes. Programs call
//       _setmode(_fileno(stdout), _O_U16TEXT) so that std::wcout can print
//       any Unicode text on a Windows console; here wide output is UTF-8
//       already (crt_compat.h) and narrow and wide output may be mixed
//       freely (on Windows narrow output to a _O_U16TEXT stream would stop
//       the program). _O_BINARY: line ends are never translated on Linux.
//       A bad descriptor or mode: the invalid-parameter handler, -1, EINVAL.
//   _access(path, mode) (mode 0 exists, 2 write, 4 read, 6 both; 0 or -1 and
//       errno), _unlink, _close, _read, _write, _lseek, _dup, _dup2,
//       _filelength (the size, or -1), _fileno, _isatty (crt_extras.h).
#ifndef AMP_COMPAT_COMPAT_IO_H
#define AMP_COMPAT_COMPAT_IO_H

#include <cerrno>
#include <sys/stat.h>
#include <unistd.h>

namespace amp_compat_crt {
inline int& fd_mode(int fd) {
  static thread_local int none = 0;
  static int modes[3] = {0x4000, 0x4000, 0x4000};  // _O_TEXT for stdin, stdout, stderr
  return fd >= 0 && fd < 3 ? modes[fd] : none;
}
}  // namespace amp_compat_crt

inline int _setmode(int fd, int mode) {
  const int known = _O_TEXT | _O_BINARY | _O_WTEXT | _O_U16TEXT | _O_U8TEXT;
  if (fd < 0 || (mode & ~known) != 0 || mode == 0) {
    amp_compat_crt::invalid_parameter("_setmode", "bad file descriptor or mode", EINVAL);
    return -1;
  }
  if (fd >= 3) {  // a file: its mode is not tracked, but it must exist
    struct stat st;
    if (fstat(fd, &st) != 0) { errno = EBADF; return -1; }
    return _O_TEXT;
  }
  int& m = amp_compat_crt::fd_mode(fd);
  const int old = m;
  m = mode;
  return old;
}
inline int _access(const char* path, int mode) { return ::access(path, mode & 6); }
inline int _unlink(const char* path) { return ::unlink(path); }
inline int _close(int fd) { return ::close(fd); }
inline int _read(int fd, void* buf, unsigned n) { return static_cast<int>(::read(fd, buf, n)); }
inline int _write(int fd, const void* buf, unsigned n) { return static_cast<int>(::write(fd, buf, n)); }
inline long _lseek(int fd, long offset, int origin) { return static_cast<long>(::lseek(fd, offset, origin)); }
inline int _dup(int fd) { return ::dup(fd); }
inline int _dup2(int fd, int fd2) { return ::dup2(fd, fd2); }
inline long _filelength(int fd) {
  struct stat st;
  return fstat(fd, &st) == 0 ? static_cast<long>(st.st_size) : -1L;
}

#endif
