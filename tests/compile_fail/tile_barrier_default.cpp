// Must not compile in a plain build: AMP gives tile_barrier no public
// default constructor (only the runtime makes one; a kernel copies its
// tiled_index's). --windows-compat and --msvc make it public, for Visual
// C++ code whose tile_static objects hold one (Visual C++ runs no
// constructor for those: tests/compat/msvc_habits/tile_static_barrier_member.cpp).
// Expected diagnostic: "private".
#include <amp.h>

using namespace concurrency;

int main() {
  tile_barrier b;
  (void)b;
  return 0;
}
