// A class object passed through a C variadic parameter, as MSVC code does:
// Microsoft's conformance suite prints `av[0]` (an array_view) with
// printf's "%d", and Windows code passes string classes whose only member is
// the character pointer to "%s". MSVC passes the object's bits (x64: an
// object of 1, 2, 4 or 8 bytes in the argument's slot, any other as the
// address of a copy); Clang on Linux refuses a non-trivial class there, and
// under --msvc the launcher wraps the argument (amp_compat_msvc_vararg).
// MSVC x64 prints "42 abc 7 ok".
#include <amp.h>
#include <cstdarg>
#include <cstdio>
#include <vector>

struct Handle {  // 4 bytes, not trivially copyable: passed as its int
  int id;
  Handle(int i) : id(i) {}
  Handle(const Handle& o) : id(o.id) {}
  ~Handle() {}
};
struct Name {  // one pointer: "%s" reads it
  const char* text;
  Name(const char* t) : text(t) {}
  ~Name() {}
};
struct Triple {  // 12 bytes: passed as the address of a copy
  int a, b, c;
  Triple(int x) : a(x), b(x + 1), c(x + 2) {}
  ~Triple() {}
};

int last_of(int n, ...) {  // reads what MSVC x64 passes for a 12-byte class
  va_list ap;
  va_start(ap, n);
  const int* t = va_arg(ap, const int*);
  va_end(ap);
  return t[2];
}

int main() {
  std::vector<int> data{1, 2, 3, 4, 5, 6};
  concurrency::array_view<int, 2> av(2, 3, data);
  char buf[64];
  std::snprintf(buf, sizeof buf, "[%d]", av[0]);  // prints bits, as MSVC; not checked
  std::printf("%d %s %d %s\n", Handle(42), Name("abc"), last_of(1, Triple(5)), buf[0] == '[' ? "ok" : "no");
  return 0;
}
