// amp_check: reject C3930 C3931
// A function may call only what its restriction allows (AMP spec 2.3): amp code
// no restrict(cpu) function (C3930), restrict(cpu, amp) code no amp-only one
// (C3931); implicit constructors are as restricted as their members'. An
// overload of a paired name with one side only (`paired(float)`, amp-only,
// beside the pair `paired(int)`) keeps its restriction through the pair
// rewrite (Microsoft's Func_Over/Negative/Test.17).
#include <amp.h>
int cpu_only(int x) { return x + 1; }
int amp_only(int x) restrict(amp) { return x + 2; }
struct CpuCtor { int v; CpuCtor() { v = 0; } };
struct Holder { CpuCtor c; };
int calls_cpu(int x) restrict(amp) { return cpu_only(x); }  // error: C3930
int calls_amp(int x) restrict(cpu, amp) { return amp_only(x); }  // error: C3931
int builds_cpu_member() restrict(amp) { Holder h; return h.c.v; }  // error: C3930
int paired() restrict(cpu) { return 0; }
int paired() restrict(amp) { return 1; }
int paired(float x) restrict(amp) { return 2; }
int paired(int x, int y) restrict(cpu) { return 3; }
int pair_from_both() restrict(cpu, amp) { return paired(); }
int amp_overload_from_both(float x) restrict(cpu, amp) { return paired(x); }  // error: C3931
int cpu_overload_from_amp(int x) restrict(amp) { return paired(x, x); }  // error: C3930
int main() { return 0; }
