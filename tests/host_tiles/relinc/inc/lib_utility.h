#pragma once
#include "utility/tile_sum.h"
