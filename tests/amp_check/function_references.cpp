// amp_check: reject C3939
// A pointer or reference to a function cannot be amp-restricted (MSVC C3939),
// wherever it is declared: a variable, a parameter, a cast's type, a member
// function pointer. restrict(cpu) alone is allowed there. (The launcher says
// it before any parse, so this file holds this rule alone.)
#include <amp.h>
int twice(int x) restrict(amp, cpu) { return 2 * x; }
struct C { int f(int x) { return x; } };
int takes(int (*p)(int) restrict(amp, cpu)) { return p(1); }  // error: C3939
int cpu_pointer_ok(int (*p)(int) restrict(cpu)) { return p(1); }
int main() {
  int (*p)(int) restrict(cpu) = twice;
  int (&r)(int) restrict(amp) = twice;  // error: C3939
  int (*q)(int) = (int (*)(int) restrict(amp, cpu))twice;  // error: C3939
  int (C::*m)(int) restrict(amp) = &C::f;  // error: C3939
  return p(1) + r(1) + q(1) + cpu_pointer_ok(p) + takes(q) + (m != nullptr);
}
