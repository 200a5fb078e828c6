// A library's top header: its kernels' headers by names relative to itself.
#pragma once
#include "detail/swap_pairs.h"
#include "lib_utility.h"
