// Integer division by zero (and INT_MIN / -1) inside kernels: Direct3D
// defines the results (unsigned: all bits set; signed: -1 for a dividend
// >= 0, 1 for a negative one; MIN / -1 is MIN, remainder 0), so such a
// kernel runs to its end on Microsoft's accelerators; on an x86-64 host it
// trapped and the program died (int_division.h). The operands come from
// the host at run time, so no compiler folds the divisions; divisors are
// read from memory and from registers (both operand forms of DIV/IDIV).
#include <amp.h>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <vector>
using namespace concurrency;

int main(int argc, char**) {
  const int zero = argc > 100 ? 1 : 0, minus_one = zero - 1; // unknown to the compiler
  std::vector<int> s(8, 0);
  std::vector<unsigned> u(2, 0);
  std::vector<long long> l(2, 0);
  std::vector<int> in{7, -7, INT_MIN};
  array_view<int, 1> sv(8, s);
  array_view<unsigned, 1> uv(2, u);
  array_view<long long, 1> lv(2, l);
  array_view<const int, 1> iv(3, in);
  parallel_for_each(extent<1>(1), [=](index<1>) restrict(amp) {
    const int d = zero, m = minus_one;
    sv[0] = iv[0] / d;
    sv[1] = iv[0] % d;
    sv[2] = iv[1] / d;
    sv[3] = iv[1] % d;
    sv[4] = iv[2] / m;
    sv[5] = iv[2] % m;
    sv[6] = iv[0] / iv[0]; // an ordinary division in the same kernel
    uv[0] = static_cast<unsigned>(iv[0]) / static_cast<unsigned>(d);
    uv[1] = static_cast<unsigned>(iv[0]) % static_cast<unsigned>(d);
  });
  // 64-bit operands (`long` is 64 bits on Linux; Windows code that uses it in
  // kernels means 32, and amp_compat keeps it as the platform has it).
  parallel_for_each(extent<1>(1), [=](index<1>) restrict(amp) {
    const long long d = zero;
    lv[0] = (iv[1] + 0LL) / d;
    lv[1] = static_cast<long long>(static_cast<unsigned long long>(iv[0]) / static_cast<unsigned long long>(d));
  });
  sv.synchronize();
  uv.synchronize();
  lv.synchronize();
  std::printf("signed: %d %d %d %d\n", s[0], s[1], s[2], s[3]);
  std::printf("min/-1: %d %d\n", s[4] == INT_MIN ? 1 : 0, s[5]);
  std::printf("ordinary: %d\n", s[6]);
  std::printf("unsigned: %x %x\n", u[0], u[1]);
  std::printf("64-bit: %lld %llx\n", l[0], static_cast<unsigned long long>(l[1]));
  // Outside a kernel a division by zero is the platform's (x86-64: SIGFPE).
  volatile int cpu_zero = zero; // a division the optimizer cannot reason away
  if (std::getenv("AMP_TEST_CPU_DIVISION")) std::printf("%d\n", 7 / cpu_zero);
  return 0;
}
