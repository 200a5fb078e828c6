// Reference for samples/seeds/tiling_description.cpp (seed 000, first program).
// Plain C++: computes the tile/global/local indices of an 8x9 matrix in 2x3
// tiles arithmetically and prints them in the program's format.  Console
// colour calls produce no output when stdout is not a terminal, so the
// expected text contains no escape sequences.  The program's final
// `std::cin >> wait;` reads from empty stdin and prints nothing.
#include <iomanip>
#include <iostream>

int main() {
    const int ROWS = 8, COLS = 9, TR = 2, TC = 3;
    for (int row = 0; row < ROWS; row++) {
        for (int col = 0; col < COLS; col++)
            std::cout << "Value: " << std::setw(2) << row * COLS + col << "      ";
        std::cout << "\n";
        for (int col = 0; col < COLS; col++)
            std::cout << "Tile:   " << "(" << row / TR << "," << col / TC << ")  ";
        std::cout << "\n";
        for (int col = 0; col < COLS; col++)
            std::cout << "Global: " << "(" << row << "," << col << ")  ";
        std::cout << "\n";
        for (int col = 0; col < COLS; col++)
            std::cout << "Local:  " << "(" << row % TR << "," << col % TC << ")  ";
        std::cout << "\n";
        std::cout << "\n";
    }
}
