// Must compile AND link: AMP code may odr-use the static data members of the
// AMP types (take their address, bind them to `const int&` as std::max and
// GoogleTest's EXPECT_EQ do). A `static const int rank = N;` declared in the
// class without a definition elsewhere links only while the optimiser happens
// to fold every use; `static constexpr` members (inline since C++17) always
// link.
#include <amp.h>

#include <algorithm>
#include <cstdio>

using namespace concurrency;

template <class T> const void* address(const T& x) { return &x; }

int main() {
  const void* addresses[] = {
      address(index<2>::rank),         address(extent<3>::rank),
      address(tiled_extent<4, 4>::rank), address(tiled_extent<4, 4>::tile_dim0),
      address(tiled_extent<4, 4>::tile_dim1), address(tiled_extent<2, 2, 2>::tile_dim2),
      address(tiled_index<8>::rank),   address(tiled_index<8>::tile_dim0),
      address(array<int, 2>::rank),    address(array_view<int, 3>::rank),
      address(array_view<const int, 1>::rank),
  };
  // The addresses escape through a volatile, so no optimisation level can
  // fold them away.
  static const void* volatile sink;
  for (const void* p : addresses) sink = p;
  const int sum = std::max(index<2>::rank, 1) + std::max(array_view<int, 2>::rank, 1);
  std::printf("%d %p\n", sum, sink);
  return sum == 4 ? 0 : 1;
}
