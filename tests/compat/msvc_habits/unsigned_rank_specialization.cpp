// A partial specialization over array_view with an unsigned rank: MSVC
// deduces N from array_view's int rank and picks the specialization; the
// standard deduces nothing (GCC silently takes the primary template).
#include <amp.h>
#include <cstdio>
using namespace concurrency;

template <class T> struct is_view { static const int value = 0; };
template <class T, unsigned int N> struct is_view<array_view<T, N>> {
  static const int value = 1;
  static unsigned rank() { return N; }
};

int main() {
#ifndef AMP_HABIT_NO_RANK_CALL  // (the warning test compiles the rest without the flags)
  std::printf("%d %d %u\n", is_view<array_view<int, 2>>::value, is_view<int>::value,
              is_view<array_view<const float, 3>>::rank());
#endif
  return 0;
}
