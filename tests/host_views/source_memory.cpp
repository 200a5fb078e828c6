// What a view's source memory shows before synchronize() on a host
// accelerator (AMP_HOST_VIEWS, migration_guide.md "A view's source memory
// before synchronize()"). Each line is one observation; the expected lines
// for `in-place` (the default) and `copy` (a GPU's behaviour) are in
// tests/CMakeLists.txt.
#include <amp.h>

#include <cstdio>
#include <vector>
using namespace concurrency;

int main() {
  // 1. A kernel writes through a view: the source before and after synchronize().
  std::vector<int> v(8, 1);
  {
    array_view<int, 1> av(8, v);
    parallel_for_each(av.extent, [=](index<1> i) restrict(amp) { av[i] = 2 * av[i] + i[0]; });
    std::printf("after kernel: %d %d\n", v[0], v[7]);
    av.synchronize();
    std::printf("after synchronize: %d %d\n", v[0], v[7]);
  }
  // 2. Reading through the view synchronizes implicitly, whatever the mode.
  std::vector<int> w(4, 5);
  {
    array_view<int, 1> aw(4, w);
    parallel_for_each(aw.extent, [=](index<1> i) restrict(amp) { aw[i] += 1; });
    const int seen = aw[3];
    std::printf("through the view: %d; source: %d\n", seen, w[3]);
  }
  // 3. The view's destruction copies back (as on a GPU).
  std::vector<int> x(4, 0);
  {
    array_view<int, 1> ax(4, x);
    parallel_for_each(ax.extent, [=](index<1> i) restrict(amp) { ax[i] = 7; });
  }
  std::printf("after destruction: %d\n", x[0]);
  // 4. discard_data(): the kernel does not see the source's contents; a
  // second kernel sees the first one's results; the source is written by
  // synchronize() only.
  std::vector<int> y(4, 9);
  {
    array_view<int, 1> ay(4, y);
    ay.discard_data();
    parallel_for_each(ay.extent, [=](index<1> i) restrict(amp) { ay[i] = 3; });
    parallel_for_each(ay.extent, [=](index<1> i) restrict(amp) { ay[i] += 1; });
    std::printf("discarded, two kernels: %d\n", y[0]);
    ay.synchronize();
    std::printf("then synchronize: %d\n", y[0]);
  }
  // 5. A host write to the source after a kernel read it, then refresh():
  // the next kernel sees the new value.
  std::vector<int> z(2, 1), out(2, 0);
  {
    array_view<const int, 1> az(2, z);
    array_view<int, 1> ao(2, out);
    parallel_for_each(ao.extent, [=](index<1> i) restrict(amp) { ao[i] = az[i]; });
    z[0] = 40;
    az.refresh();
    parallel_for_each(ao.extent, [=](index<1> i) restrict(amp) { ao[i] = az[i] + 2; });
    ao.synchronize();
    std::printf("refresh: %d %d\n", out[0], out[1]);
  }
  // 6. copy() out of a view a kernel wrote reads the results.
  std::vector<int> c(3, 0), d(3, 0);
  {
    array_view<int, 1> ac(3, c);
    parallel_for_each(ac.extent, [=](index<1> i) restrict(amp) { ac[i] = 10 + i[0]; });
    copy(ac, d.begin());
    std::printf("copy out: %d %d; source: %d\n", d[0], d[2], c[0]);
  }
  // 7. Two views made apart over one memory (an in-place call through
  // separate input and output views, as AMD's Bolt makes them): separate data
  // sources. The input view, captured without const, counts as written; the
  // last view to go copies back last, so on a GPU the input's unchanged copy
  // overwrites the output's results (the user's memory ends as it began).
  int a[3] = {1, 2, 3};
  {
    array_view<int, 1> in(3, a);
    array_view<int, 1> res(3, a);
    res.discard_data();
    parallel_for_each(res.extent, [=](index<1> i) restrict(amp) { res[i] = 10 * in[i]; });
    res.synchronize();
    std::printf("aliased views, output synchronized: %d %d\n", a[0], a[2]);
  }
  std::printf("aliased views gone: %d %d\n", a[0], a[2]);
  // 8. A discarded view a kernel writes in part: the elements it leaves
  // alone are copied back too. In place they keep the source's values; in a
  // copy (a GPU's storage, the private host copy) they read zero, never what
  // the memory held before.
  std::vector<int> p(3, 5);
  {
    array_view<int, 1> ap(3, p);
    ap.discard_data();
    parallel_for_each(extent<1>(1), [=](index<1> i) restrict(amp) { ap[i] = 6; });
    ap.synchronize();
    std::printf("discarded, partly written: %d %d %d\n", p[0], p[1], p[2]);
  }
  // 9. A new array reads zero before anything writes it, on every accelerator.
  {
    array<int, 1> fresh(3);
    std::vector<int> f(3, 8);
    copy(fresh, f.begin());
    std::printf("new array: %d %d %d\n", f[0], f[1], f[2]);
  }
  // 10. discard_data() of sections after a kernel wrote the whole view
  // (Microsoft's suite, ImplicitSynchronize/Discard/Test.02): the sections'
  // results are not copied back, the rest's are. A strided section and a
  // contiguous one.
  std::vector<int> s(16, 20);
  {
    array_view<int, 2> as(4, 4, s);
    array_view<int, 2> inner = as.section(index<2>(1, 1), extent<2>(2, 2));
    array_view<int, 2> last_row = as.section(index<2>(3, 0));
    parallel_for_each(as.extent, [=](index<2> i) restrict(amp) { as[i] = 1; });
    inner.discard_data();
    last_row.discard_data();
    as.synchronize();
    std::printf("sections discarded: %d %d %d %d %d\n", s[0], s[5], s[10], s[11], s[12]);
  }
  return 0;
}
