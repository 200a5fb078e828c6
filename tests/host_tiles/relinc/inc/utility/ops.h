// The functor of tile_sum.h, in a header the tile compiler does not rewrite.
#pragma once
#include <amp.h>

struct add_op {
  int operator()(int a, int b) const restrict(cpu, amp) { return a + b; }
};
