// rand/srand/RAND_MAX as MSVC's C runtime has them (crt_compat.h): programs
// that seed srand get the data they got on Windows.
#include <gtest/gtest.h>

#include <cstdlib>
#include <thread>

TEST(CrtRand, MsvcSequenceAndRange) {
  static_assert(RAND_MAX == 32767, "MSVC's RAND_MAX");
  srand(1);
  EXPECT_EQ(rand(), 41);  // MSVC's first value for seed 1
  EXPECT_EQ(rand(), 18467);
  EXPECT_EQ(rand(), 6334);
  std::srand(1);
  EXPECT_EQ(std::rand(), 41);  // std:: is the same generator
  srand(2012);
  for (int i = 0; i < 10000; ++i) {
    const int r = rand();
    ASSERT_GE(r, 0);
    ASSERT_LE(r, RAND_MAX);
  }
}

TEST(CrtRand, StatePerThread) {
  srand(7);
  int other = -1;
  std::thread t([&] { other = rand(); });  // a new thread starts from seed 1
  t.join();
  EXPECT_EQ(other, 41);
}
