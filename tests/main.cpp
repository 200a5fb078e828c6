// Test driver: initialises GoogleTest only; the AMP runtime starts Kokkos
// itself on first use (and finalises it at exit).
#include <gtest/gtest.h>

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
