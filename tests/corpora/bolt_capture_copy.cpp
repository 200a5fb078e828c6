// Why Bolt's by-key radix sort (int and unsigned keys) returns zeros on every
// accelerator (tests/corpora/README.md, "StableSortByKey"): its kernels
// capture its scratch containers by value, and their copy constructor copies
// the data into a new array (Bolt's device_vector: `device_vector(const
// device_vector&, bool copy = true)`). A lambda's capture by copy runs that
// constructor on the host when the lambda is made, in C++ whatever the AMP
// implementation, so each kernel writes into a private copy that is thrown
// away: the histograms the next kernel reads are the originals, zeros.
//
// The same shape in a program of ours: `owner` holds a view of its own array
// and deep-copies in its copy constructor. Captured by value, the kernel's
// writes are lost; its array_view captured by value (or an array captured by
// reference, as Bolt's sort.inl does) keeps them. Prints one line per form,
// the same on every accelerator (0 0, then 7 7).
#include <amp.h>

#include <cstdio>
#include <memory>
#include <vector>
using namespace concurrency;

struct owner {
  array_view<int, 1> view;
  explicit owner(int n) : view(fresh(n)) {}
  // A deep copy, as Bolt's device_vector's (`copy = true` by default).
  owner(const owner& o) : view(fresh(o.view.get_extent()[0])) { copy(o.view, view); }
  owner& operator=(const owner&) = delete;
  // A view that keeps its new array's storage alive (AMP: an array's storage
  // lives as long as a view of it).
  static array_view<int, 1> fresh(int n) {
    array<int, 1> a(n);
    return a.view_as(a.get_extent());
  }
};

int main() {
  const int n = 4;
  owner by_value(n);
  parallel_for_each(extent<1>(n), [by_value](index<1> i) restrict(amp) { by_value.view[i] = 7; });
  std::vector<int> a(n);
  copy(by_value.view, a.begin());
  std::printf("deep-copying object captured by value: %d %d (the kernel wrote a copy)\n", a[0], a[n - 1]);

  owner by_ref(n);
  array_view<int, 1> v = by_ref.view;
  parallel_for_each(extent<1>(n), [v](index<1> i) restrict(amp) { v[i] = 7; });
  copy(by_ref.view, a.begin());
  std::printf("its array_view captured by value: %d %d\n", a[0], a[n - 1]);
  return 0;
}
