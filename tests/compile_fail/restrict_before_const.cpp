// Must not compile: the restriction specifier comes after a member function's
// cv-qualifiers (int get() const restrict(amp)); the launcher
// (scripts/amp_driver/passes/restrict_pairs.py) refuses it. Expected diagnostic: "`const` must
// come before".
#include <amp.h>

struct counter {
  int n = 0;
  int get() restrict(cpu, amp) const { return n; }
};

int main() {
  counter c;
  return c.get();
}
