#pragma once
#include <cstddef>
std::size_t other_unit_length(const wchar_t* s);
