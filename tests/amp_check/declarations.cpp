// amp_check: reject C3581 C3939 C3933 C3935 C3938
// Declarations of amp functions (AMP spec 2.4.2): no virtual, no `...`, no
// function pointer or reference parameters, no char/short parameters, a class
// with an amp constructor needs an amp destructor, redeclarations repeat the
// restriction, no extern "C" on restrict(cpu, amp).
#include <amp.h>
struct S { virtual int f() restrict(amp); };
int variadic(int n, ...) restrict(amp);
int takes_function(int (&f)(int) restrict(amp)) restrict(amp);
int takes_short(short s) restrict(amp);
struct NeedsAmpDtor { NeedsAmpDtor() restrict(cpu, amp) {} ~NeedsAmpDtor() {} };
int redeclared() restrict(cpu, amp);
int redeclared() restrict(amp) { return 1; }
extern "C" int c_linkage() restrict(cpu, amp) { return 1; }
int main() { return 0; }
