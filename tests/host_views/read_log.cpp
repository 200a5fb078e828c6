// The result log's record of what the host reads back (AMP_RESULT_LOG,
// runtime/result_log.h, log_host_read): each way a program gets a kernel's
// results once, nothing for what it never reads. The program prints, for each
// read, the FNV-1a hash of the bytes it read; read_log_test.sh checks that the
// log's `read` lines carry the same hashes in the same order, on every
// accelerator and with AMP_HOST_VIEWS=copy (a GPU's copies on the host).
#include <amp.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>
using namespace concurrency;

template <class T> static void print_hash(const char* what, const std::vector<T>& v) {
  std::uint64_t h = 1469598103934665603ull;
  const unsigned char* p = reinterpret_cast<const unsigned char*>(v.data());
  for (std::size_t i = 0; i < v.size() * sizeof(T); ++i) h = (h ^ p[i]) * 1099511628211ull;
  std::printf("%s %016llx\n", what, static_cast<unsigned long long>(h));
}

int main() {
  // synchronize(), then a second one with no kernel between: one read.
  std::vector<int> a(64, 1);
  {
    array_view<int, 1> v(64, a);
    parallel_for_each(v.extent, [=](index<1> i) restrict(amp) { v[i] = 3 * v[i] + i[0]; });
    v.synchronize();
    print_hash("synchronize", a);
    v.synchronize();
  }
  // An element read through the view (the first host access): one read.
  std::vector<int> b(32, 2);
  {
    array_view<int, 1> v(32, b);
    parallel_for_each(v.extent, [=](index<1> i) restrict(amp) { v[i] += i[0]; });
    const int seen = v[5];
    print_hash("element", b);
    if (seen != 7) std::printf("wrong element %d\n", seen);
  }
  // The last view goes away: the user's memory then holds the results.
  std::vector<float> c(16, 0.5f);
  {
    array_view<float, 1> v(16, c);
    parallel_for_each(v.extent, [=](index<1> i) restrict(amp) { v[i] = v[i] * static_cast<float>(i[0]); });
  }
  print_hash("destruction", c);
  // Two kernels, then data(): one read, the second kernel's results.
  std::vector<int> d(8, 0);
  {
    array_view<int, 1> v(8, d);
    parallel_for_each(v.extent, [=](index<1> i) restrict(amp) { v[i] = i[0]; });
    parallel_for_each(v.extent, [=](index<1> i) restrict(amp) { v[i] *= 5; });
    const int* p = v.data();
    print_hash("data", d);
    if (p[7] != 35) std::printf("wrong data %d\n", p[7]);
  }
  // An array copied into a host iterator; a scratch array never read; a
  // read-only view: one read (the copy).
  std::vector<int> e(128), in(128, 4);
  {
    array<int, 1> out(128), scratch(128);
    array_view<const int, 1> src(128, in);
    parallel_for_each(out.extent, [=, &out, &scratch](index<1> i) restrict(amp) {
      scratch[i] = src[i] + 1;
      out[i] = src[i] * i[0];
    });
    copy(out, e.begin());
    print_hash("copy", e);
  }
  // An array converted to std::vector: one read.
  {
    array<double, 1> out(10);
    parallel_for_each(out.extent, [&out](index<1> i) restrict(amp) { out[i] = 0.25 * i[0]; });
    std::vector<double> f = out;
    print_hash("vector", f);
  }
  // A view over an array, read element by element after a kernel: one read
  // of the array's storage.
  {
    array<int, 1> store(20);
    array_view<int, 1> v(store);
    parallel_for_each(v.extent, [=](index<1> i) restrict(amp) { v[i] = 100 - i[0]; });
    std::vector<int> g(20);
    for (int i = 0; i < 20; ++i) g[static_cast<std::size_t>(i)] = v[i];
    print_hash("view of array", g);
  }
  return 0;
}
