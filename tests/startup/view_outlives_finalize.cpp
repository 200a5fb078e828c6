// An array_view over a Kokkos::View (make_array_view, <amp_kokkos.h>) held by
// an object made before Kokkos started: it is destroyed after amp_compat's exit
// handler has finalized Kokkos, and with it the buffer's copy of the View.
// Kokkos 4.6 aborts when a View's allocation is released after finalize
// (Kokkos 3.4 printed "... is being deallocated after Kokkos::finalize was
// called"); amp_compat must then leave the copy unreleased (amp_kokkos.h,
// keep_view_alive). A program of its own: the order of its exit is the test.
// Exit status 0 if the results are right and the program ends cleanly; CTest
// also fails it on Kokkos' message.
#include <amp.h>
#include <amp_kokkos.h>

#include <cstdio>
#include <optional>

using namespace concurrency;

// Constructed during static initialisation (before Kokkos starts), so
// destroyed after the exit handler that start_kokkos() registers.
static std::optional<array_view<int, 1>> held;

int main() {
  start_kokkos();
  const int n = 256;
  {
    Kokkos::View<int*, Kokkos::HostSpace> v("amp_test_held_view", n);
    held.emplace(make_array_view(v));
  } // the program's View is gone; the array_view's copy keeps the data alive
  array_view<int, 1> a = *held;
  parallel_for_each(a.extent, [=](index<1> i) restrict(amp) { a[i] = 3 * i[0] + 1; });
  a.synchronize();
  bool ok = true;
  for (int i = 0; i < n; ++i) ok = ok && (*held)[i] == 3 * i + 1;
  std::printf("results %s; the array_view over the View ends at exit, after Kokkos' finalize\n", ok ? "ok" : "WRONG");
  return ok ? 0 : 1;
}
