// amp_check: reject C3593 C3594 C3587 C3591 C3589 C3586 C3595
// Statements and expressions restrict(amp) code cannot contain (AMP spec
// 2.4.3): goto and labels, try/throw, dynamic_cast, typeid, string literals,
// global and static variables, static locals, 64-bit literals, recursion.
#include <amp.h>
#include <typeinfo>
struct B { virtual ~B() {} };
struct D : B {};
int global_counter = 0;
int jumps(int x) restrict(amp) { if (x) goto done; x = 1; done: return x; }  // error: C3593
int throws(int x) restrict(amp) { if (x) throw x; return 0; }  // error: C3594
int tries(int x) restrict(amp) { try { return x; } catch (...) { return 0; } }  // error: C3594
bool casts(B* b) restrict(amp) { return dynamic_cast<D*>(b) != nullptr; }  // error: C3581 C3587
bool asks_type(int x) restrict(amp) { return typeid(x) == typeid(int); }  // error: C3591 C3930
int literal() restrict(amp) { return "text"[0]; }  // error: C3589
int uses_global() restrict(amp) { return global_counter; }  // error: C3586
int static_local() restrict(amp) { static int n = 0; return n; }  // error: C3586
int wide_literal() restrict(amp) { return int(0x2ffffffffLL); }  // error: C3595
int recursive(int n) restrict(amp) { return n ? recursive(n - 1) : 0; }  // error: C3586
int main() { return 0; }
