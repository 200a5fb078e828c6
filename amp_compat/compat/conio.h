// amp_compat/compat/conio.h -- the console input functions of MSVC's
// <conio.h> (--windows-compat only), which Visual Studio console programs use
// to wait for a key ("Press any key to exit") or to poll the keyboard.
//
// Contract (host code only; inline):
//   _getch()   one character from the keyboard, without echo and without
//              waiting for Enter: stdin is switched to non-canonical,
//              no-echo mode for the read when it is a terminal. When stdin
//              is not a terminal (a pipe, a file, /dev/null: a test run) the
//              next byte of stdin is returned, and EOF (-1) at its end, so a
//              program run without a keyboard never waits forever.
//   _getche()  the same, echoing the character to stdout.
//   _kbhit()   non-zero when a key (a byte of stdin) is waiting, without
//              reading it (poll with a zero timeout); also at the end of a
//              redirected input (the next _getch returns EOF), so that a
//              `while (!_kbhit())` loop of a run without a keyboard ends.
//   _putch(c), _cputs(s)  write to stdout (the console), flushed.
//   getch, getche, kbhit, putch: MSVC's older names for the same.
// Extended keys (arrows, function keys) arrive as their terminal escape
// sequences, one byte per call, not as Windows' 0/0xE0 prefix codes.
#ifndef AMP_COMPAT_COMPAT_CONIO_H
#define AMP_COMPAT_COMPAT_CONIO_H

#include <poll.h>
#include <termios.h>
#include <unistd.h>

#include <cstdio>

namespace amp_compat_crt {
inline int console_key(bool echo) {
  std::fflush(stdout);
  unsigned char c = 0;
  if (!isatty(0)) {
    const int n = static_cast<int>(::read(0, &c, 1));
    if (n != 1) return EOF;
  } else {
    termios old{}, raw{};
    const bool saved = tcgetattr(0, &old) == 0;
    if (saved) {
      raw = old;
      raw.c_lflag &= ~static_cast<tcflag_t>(ICANON | ECHO);
      raw.c_cc[VMIN] = 1;
      raw.c_cc[VTIME] = 0;
      tcsetattr(0, TCSANOW, &raw);
    }
    const int n = static_cast<int>(::read(0, &c, 1));
    if (saved) tcsetattr(0, TCSANOW, &old);
    if (n != 1) return EOF;
  }
  if (c == '\n' && isatty(0)) c = '\r';  // Enter is '\r' to _getch, as on Windows
  if (echo) { std::fputc(c, stdout); std::fflush(stdout); }
  return c;
}
}  // namespace amp_compat_crt

inline int _getch() { return amp_compat_crt::console_key(false); }
inline int _getche() { return amp_compat_crt::console_key(true); }
inline int _kbhit() {
  pollfd p{0, POLLIN, 0};
  return ::poll(&p, 1, 0) == 1 && (p.revents & POLLIN) ? 1 : 0;
}
inline int _putch(int c) {
  const int r = std::fputc(c, stdout);
  std::fflush(stdout);
  return r;
}
inline int _cputs(const char* s) {
  const int r = std::fputs(s, stdout);
  std::fflush(stdout);
  return r < 0 ? -1 : 0;
}
inline int getch() { return _getch(); }
inline int getche() { return _getche(); }
inline int kbhit() { return _kbhit(); }
inline int putch(int c) { return _putch(c); }

#endif
