// From AMP to Kokkos, one kernel at a time (migration_guide.md): AMP kernels
// and Kokkos kernels on the same data, without copies, through <amp_kokkos.h>.
//   1. an AMP kernel fills an array (unchanged AMP code);
//   2. the next step, already ported to Kokkos, squares it through a View of
//      the array's storage (kokkos_view);
//   3. new data is a (host) Kokkos::View; an unchanged tiled AMP kernel writes
//      it through an array_view over the View (make_array_view);
//   4. Kokkos reads the result.
#include <amp.h>
#include <amp_kokkos.h>

#include <cstdio>

using namespace concurrency;

int main() {
  const int n = 16;
  array<float, 1> a(n);
  parallel_for_each(a.extent, [&a](index<1> i) restrict(amp) { a[i] = i[0] * 0.5f; });

  auto v = kokkos_view(a); // the array's data, in the memory of Kokkos' default space
  Kokkos::parallel_for("square", Kokkos::RangePolicy<>(0, n), KOKKOS_LAMBDA(int i) { v(i) = v(i) * v(i); });
  Kokkos::fence();

  Kokkos::View<float*, Kokkos::HostSpace> out("out", n); // new data, owned by Kokkos
  array_view<float, 1> o = make_array_view(out);
  o.discard_data();
  // Running sums within tiles of 4.
  parallel_for_each(a.extent.tile<4>(), [&a, o](tiled_index<4> t) restrict(amp) {
    tile_static float s[4];
    s[t.local[0]] = a[t.global];
    t.barrier.wait();
    float sum = 0.0f;
    for (int k = 0; k <= t.local[0]; ++k) sum += s[k];
    o[t.global] = sum;
  });
  o.synchronize(); // the View's memory holds the results

  for (int i = 0; i < n; ++i) std::printf("%2d %8.2f\n", i, out(i));
  return 0;
}
