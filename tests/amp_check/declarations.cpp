// amp_check: reject C3581 C3939 C3933 C3935 C3938
// Declarations of amp functions (AMP spec 2.4.2): no virtual, no `...`, no
// function pointer or reference parameters, no char/short parameters, a class
// with an amp constructor needs an amp destructor, redeclarations repeat the
// restriction, no extern "C" on restrict(cpu, amp).
#include <amp.h>
struct S { virtual int f() restrict(amp); };  // error: C3581
int variadic(int n, ...) restrict(amp);  // error: C3581
int takes_function(int (&f)(int)) restrict(amp);  // error: C3939
int takes_short(short s) restrict(amp);  // error: C3581
struct NeedsAmpDtor { NeedsAmpDtor() restrict(cpu, amp) {} ~NeedsAmpDtor() {} };  // error: C3933
int redeclared() restrict(cpu, amp);
int redeclared() restrict(amp) { return 1; }  // error: C3935
extern "C" int c_linkage() restrict(cpu, amp) { return 1; }  // error: C3938
int main() { return 0; }
