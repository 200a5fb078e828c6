// The consumer program of the CMake projects (find_package, add_subdirectory).
#include "tiled_matmul.h"

int main() { return consumer_tiled_matmul(64) == 0 && consumer_tiled_matmul(48) == 0 ? 0 : 1; }
