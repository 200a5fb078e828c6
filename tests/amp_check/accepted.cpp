// amp_check: accept
// Legal C++ AMP that the checker must let through: kernels over array_view and
// array, tile_static and barriers, restrict(cpu)/restrict(amp) overload pairs,
// lambdas and local classes inheriting their function's restriction, implicit
// special members, constants read by value, constexpr helpers, math, atomics,
// references to pointers, a kernel's own array_view over a local array.
#include <amp.h>
#include <amp_math.h>
using namespace concurrency;
static const int kScale = 3;
constexpr int square(int x) { return x * x; }
struct Pair { int a; float b; };
int pick(int x) restrict(cpu) { return x; }
int pick(int x) restrict(amp) { return -x; }
int deref(int*& p) restrict(amp) { return *p; }
int main() {
  std::vector<int> data(64, 1);
  array_view<int, 1> av(64, data);
  array<int, 1> arr(64);
  parallel_for_each(av.extent.tile<16>(), [=, &arr](tiled_index<16> t) restrict(amp) {
    tile_static int shared[16];
    shared[t.local[0]] = av[t.global];
    t.barrier.wait();
    struct Local { int twice(int v) { return 2 * v; } } local;
    auto add = [](int x, int y) { return x + y; };
    Pair p{shared[0], 1.0f};
    int local_array[2] = {1, 2};
    array_view<int, 1> view(2, local_array);
    int* q = &local_array[0];
    int value = add(local.twice(p.a), square(kScale)) + pick(1) + view[1] + deref(q);
    value += int(fast_math::sqrtf(4.0f));
    atomic_fetch_add(&arr[t.global], value);
    av[t.global] = value;
  });
  return av[0] == 0;
}
