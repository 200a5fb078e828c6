// Reference for samples/ports/transpose_large.cpp: the sample checks its
// result element by element against a CPU transpose, so the expected output is
// zero mismatches for every case.
#include <iostream>
int main() {
    struct { int width, height, size; } cases[] = {
        {1024, 1024, 16}, {2048, 512, 16}, {512, 2048, 16}, {1024, 1024, 32}};
    for (const auto& c : cases)
        std::cout << "transpose " << c.width << "x" << c.height << " (width x height), "
                  << c.size << "x" << c.size << " tiles: mismatches 0: OK\n";
}
