// amp_check: reject C3581 C3588 C3599
// Pointer rules (AMP spec 2.4.1.3, 2.4.3.6): no function pointers or
// pointers to members, no casts between pointers and integers, no
// arithmetic on bool*.
#include <amp.h>
int twice(int x) restrict(amp) { return 2 * x; }
struct M { int m; };
int function_pointer(int x) restrict(amp) { int (*f)(int) = twice; return f(x); }  // error: C3581
int member_pointer(M s) restrict(amp) { int M::*p = &M::m; return s.*p; }  // error: C3581
int int_to_pointer(int x) restrict(amp) { int* p = (int*)(long)x; return p != nullptr; }  // error: C3588
bool bool_arith(bool b) restrict(amp) { bool* p = &b; return *(p + 0); }  // error: C3599
int main() { return 0; }
