#pragma once
#include <vector>
// Sum of v by a tiled AMP reduction (reduce.cpp, its own translation unit).
long tiled_sum(const std::vector<int>& v);
