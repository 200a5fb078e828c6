// A library's top header: its kernels' headers by names relative to itself.
#pragma once
#include "detail/reverse.h"
#include "lib_utility.h"
