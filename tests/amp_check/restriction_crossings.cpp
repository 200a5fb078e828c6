// amp_check: reject C2440 C3931 C3596
// Restrictions that cross where nothing is called by name: an amp-only
// function named (not called) in cpu code becomes a pointer or reference to a
// restrict(cpu) function (MSVC C2440); a cpu local whose destructor (written,
// or implicit and inheriting its subobjects') is amp-only cannot be destroyed
// there (C3931); an amp lambda inside amp code still cannot capture a pointer
// (C3596), and its `mutable restrict(amp)` is read where C++ AMP writes it.
#include <amp.h>
int glorp(int x) restrict(amp) { return 668 + x; }
int both(int x) restrict(amp, cpu) { return x; }
struct AmpDtor { ~AmpDtor() restrict(amp) {} };
struct Holder { AmpDtor d; };                 // its implicit destructor: restrict(amp)
struct BothDtor { ~BothDtor() restrict(cpu, amp) {} };
void locals() {
  BothDtor fine;
  Holder h;  // error: C3931
}
int pointer_capture(int* data) restrict(amp) {
  int n = 3;
  int byValue = [n]() mutable restrict(amp) { return ++n; }();
  [data]() mutable restrict(amp) { *data = 1; }();  // error: C3596
  return byValue;
}
int main() {
  typedef int FT(int);
  FT& ok = both;
  FT& p = glorp;  // error: C2440
  int (*q)(int) = &glorp;  // error: C2440
  locals();
  return ok(1) + p(-2) + q(0);
}
