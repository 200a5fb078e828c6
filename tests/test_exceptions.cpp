// Errors (C++ AMP spec 8): invalid compute domains, divergent barriers,
// exceptions out of kernels on the host accelerators, error codes and
// accelerators that cannot run kernels.
#include "amp_test_util.h"

#include <algorithm>
#include <climits>
#include <numeric>
#include <regex>
#include <stdexcept>

using namespace concurrency;
using amp_test::iota;

namespace {

template <class Domain> void expect_invalid_domain(const Domain& d, const char* what) {
  std::vector<int> out(1, 0);
  array_view<int, 1> o(1, out);
  bool thrown = false;
  try {
    parallel_for_each(d, [=](index<Domain::rank>) restrict(amp) { o[0] = 1; });
  } catch (const invalid_compute_domain& e) {
    thrown = true;
    EXPECT_EQ(amp_test::hr_bits(e.get_error_code()), amp_test::E_INVALIDARG_BITS) << what;
    EXPECT_STRNE(e.what(), "") << what;
  }
  EXPECT_TRUE(thrown) << what << ": no invalid_compute_domain";
  EXPECT_EQ(o[0], 0) << what << ": the kernel ran";
}

template <int D0, int D1, int D2>
void expect_invalid_tiled_domain(const tiled_extent<D0, D1, D2>& d, const char* what) {
  std::vector<int> out(1, 0);
  array_view<int, 1> o(1, out);
  bool thrown = false;
  try {
    parallel_for_each(d, [=](tiled_index<D0, D1, D2>) restrict(amp) { o[0] = 1; });
  } catch (const invalid_compute_domain& e) {
    thrown = true;
    EXPECT_EQ(amp_test::hr_bits(e.get_error_code()), amp_test::E_INVALIDARG_BITS) << what;
  }
  EXPECT_TRUE(thrown) << what << ": no invalid_compute_domain";
  EXPECT_EQ(o[0], 0) << what << ": the kernel ran";
}

TEST(Exceptions, InvalidComputeDomainZeroOrNegative) {
  expect_invalid_domain(extent<1>(0), "extent<1>(0)");
  expect_invalid_domain(extent<1>(-5), "extent<1>(-5)");
  expect_invalid_domain(extent<2>(4, 0), "extent<2>(4,0)");
  expect_invalid_domain(extent<3>(2, -1, 3), "extent<3>(2,-1,3)");
  expect_invalid_domain(extent<2>(-2, -2), "extent<2>(-2,-2)"); // size() is positive here
  expect_invalid_tiled_domain(extent<1>(0).tile<4>(), "tiled extent<1>(0)");
  expect_invalid_tiled_domain(extent<2>(-4, 4).tile<2, 2>(), "tiled extent<2>(-4,4)");
}

TEST(Exceptions, InvalidComputeDomainNotDivisibleByTile) {
  expect_invalid_tiled_domain(extent<1>(10).tile<4>(), "10 / tile<4>");
  expect_invalid_tiled_domain(extent<2>(16, 10).tile<4, 4>(), "(16,10) / tile<4,4>");
  expect_invalid_tiled_domain(extent<2>(6, 16).tile<4, 4>(), "(6,16) / tile<4,4>");
  expect_invalid_tiled_domain(extent<3>(4, 4, 6).tile<2, 2, 4>(), "(4,4,6) / tile<2,2,4>");
  // pad() makes it valid.
  std::vector<int> out(12, 0);
  array_view<int, 1> o(12, out);
  parallel_for_each(extent<1>(10).tile<4>().pad(), [=](tiled_index<4> t) restrict(amp) {
    if (t.global[0] < 10) o[t.global] = 1;
  });
  o.synchronize();
  EXPECT_EQ(std::accumulate(out.begin(), out.end(), 0), 10);
}

TEST(Exceptions, InvalidComputeDomainTooManyPoints) {
  expect_invalid_domain(extent<2>(1 << 16, 1 << 16), "2^32 points");
  expect_invalid_domain(extent<2>(1 << 16, 1 << 15), "2^31 points");
  expect_invalid_domain(extent<3>(1 << 11, 1 << 11, 1 << 10), "2^32 points, rank 3");
  expect_invalid_tiled_domain(extent<2>(1 << 16, 1 << 16).tile<16, 16>(), "2^32 points, tiled");
}

// what() is Microsoft's text, word for word (Microsoft's conformance suite
// compares it), with this runtime's lower thread limit where only it applies.
template <class Domain, class K> std::string domain_message(const Domain& d, K k) {
  try {
    parallel_for_each(d, k);
  } catch (const invalid_compute_domain& e) {
    return e.what();
  }
  return "(no invalid_compute_domain)";
}

TEST(Exceptions, InvalidComputeDomainMicrosoftTexts) {
  EXPECT_EQ(domain_message(extent<2>(16, 0), [](index<2>) restrict(amp) {}),
            "concurrency::parallel_for_each: unsupported compute domain, the extent of dimension 1 of the compute "
            "domain (0) cannot be smaller than or equal to 0.");
  EXPECT_EQ(domain_message(extent<1>(-2), [](index<1>) restrict(amp) {}),
            "concurrency::parallel_for_each: unsupported compute domain, the extent of dimension 0 of the compute "
            "domain (-2) cannot be smaller than or equal to 0.");
  EXPECT_EQ(domain_message(extent<2>(8, 49).tile<4, 2>(), [](tiled_index<4, 2>) restrict(amp) {}),
            "concurrency::parallel_for_each (tiling): unsupported compute domain, the extent of dimension 1 of the "
            "compute domain (49) cannot be evenly divided by the extent of dimension 1 of the tile (2).");
  // Microsoft's limit (4294967295), its product taken from dimension 0 and
  // "at least" where it passes the limit before the last dimension.
  EXPECT_EQ(domain_message(extent<2>(1 << 16, 1 << 16), [](index<2>) restrict(amp) {}),
            "concurrency::parallel_for_each: unsupported compute domain, The number of threads requested "
            "(4294967296) exceeds the limit (4294967295).");
  EXPECT_EQ(domain_message(extent<3>(9110917, 3627949, 558080), [](index<3>) restrict(amp) {}),
            "concurrency::parallel_for_each: unsupported compute domain, The number of threads requested "
            "(at least 33053942219233) exceeds the limit (4294967295).");
  int dims[128];
  std::fill(dims, dims + 128, INT_MAX);
  EXPECT_EQ(domain_message(extent<128>(dims), [](index<128>) restrict(amp) {}),
            "concurrency::parallel_for_each: unsupported compute domain, The number of threads requested "
            "(at least 4611686014132420609) exceeds the limit (4294967295).");
  // This runtime's own limit below Microsoft's (int indices).
  EXPECT_EQ(domain_message(extent<2>(1 << 16, 1 << 15), [](index<2>) restrict(amp) {}),
            "concurrency::parallel_for_each: unsupported compute domain, The number of threads requested "
            "(2147483648) exceeds the limit (2147483647).");
}

TEST(Exceptions, ErrorCodes) {
  try {
    parallel_for_each(extent<1>(0), [=](index<1>) restrict(amp) {});
    FAIL() << "no exception";
  } catch (const runtime_exception& e) { // invalid_compute_domain is a runtime_exception
    EXPECT_EQ(amp_test::hr_bits(e.get_error_code()), 0x80070057u);
  }
  const runtime_exception r("message", static_cast<HRESULT>(0x80004005L));
  EXPECT_STREQ(r.what(), "message");
  EXPECT_EQ(amp_test::hr_bits(r.get_error_code()), 0x80004005u);
  const invalid_compute_domain icd("bad domain");
  EXPECT_STREQ(icd.what(), "bad domain");
  EXPECT_EQ(amp_test::hr_bits(icd.get_error_code()), 0x80070057u);
  const out_of_memory oom("oom");
  EXPECT_EQ(amp_test::hr_bits(oom.get_error_code()), 0x8007000Eu);
  const unsupported_feature uf("nope");
  EXPECT_EQ(amp_test::hr_bits(uf.get_error_code()), 0x80004001u);
  const runtime_exception copy = icd;
  EXPECT_STREQ(copy.what(), "bad domain");
  EXPECT_EQ(amp_test::hr_bits(copy.get_error_code()), 0x80070057u);
  static_assert(std::is_base_of<std::exception, runtime_exception>::value, "runtime_exception is a std::exception");
  static_assert(std::is_base_of<runtime_exception, invalid_compute_domain>::value, "");
  static_assert(std::is_base_of<runtime_exception, out_of_memory>::value, "");
  static_assert(std::is_base_of<runtime_exception, unsupported_feature>::value, "");
  static_assert(std::is_base_of<runtime_exception, accelerator_view_removed>::value, "");
}

// ---- divergent barriers (host accelerators detect them; on a GPU they are undefined)

std::string divergent_message(int tile_with_early_return, int returning_item) {
  std::vector<int> out(8 * 16, 0);
  array_view<int, 1> o(8 * 16, out);
  try {
    parallel_for_each(o.extent.tile<16>(), [=](tiled_index<16> t) restrict(amp) {
      if (t.tile[0] == tile_with_early_return && t.local[0] == returning_item) return;
      o[t.global] = 1;
      t.barrier.wait();
      o[t.global] = 2;
    });
  } catch (const runtime_exception& e) {
    return e.what();
  }
  return "";
}

TEST(Exceptions, DivergentBarrierOtherWorkItemReturns) {
  AMP_TEST_SKIP_ON_GPU("divergent barriers are undefined behaviour on a GPU");
  const std::string m = divergent_message(5, 3);
  ASSERT_FALSE(m.empty()) << "a divergent barrier raised no runtime_exception";
  EXPECT_TRUE(std::regex_search(m, std::regex("tile *\\(? *5 *\\)?"))) << "message does not name tile 5: " << m;
}

TEST(Exceptions, DivergentBarrierFirstWorkItemReturns) {
  AMP_TEST_SKIP_ON_GPU("divergent barriers are undefined behaviour on a GPU");
  const std::string m = divergent_message(2, 0);
  ASSERT_FALSE(m.empty()) << "a divergent barrier raised no runtime_exception";
  EXPECT_TRUE(std::regex_search(m, std::regex("tile *\\(? *2 *\\)?"))) << "message does not name tile 2: " << m;
}

TEST(Exceptions, DivergentBarrierCountsIn2DTile) {
  AMP_TEST_SKIP_ON_GPU("divergent barriers are undefined behaviour on a GPU");
  std::vector<int> out(8 * 12, 0);
  array_view<int, 2> o(8, 12, out);
  std::string m;
  try {
    // Work-item (3,2) of tile (1,2) waits at one barrier more than the rest.
    parallel_for_each(o.extent.tile<4, 4>(), [=](tiled_index<4, 4> t) restrict(amp) {
      o[t] = 1;
      t.barrier.wait();
      if (t.tile == index<2>(1, 2) && t.local == index<2>(3, 2)) t.barrier.wait();
    });
  } catch (const runtime_exception& e) {
    m = e.what();
  }
  ASSERT_FALSE(m.empty()) << "an unmatched barrier raised no runtime_exception";
  EXPECT_TRUE(std::regex_search(m, std::regex("tile *\\(? *1 *, *2 *\\)?"))) << "message does not name tile (1,2): "
                                                                               << m;
}

TEST(Exceptions, KernelsStillRunAfterDivergentBarrier) {
  AMP_TEST_SKIP_ON_GPU("divergent barriers are undefined behaviour on a GPU");
  ASSERT_FALSE(divergent_message(0, 7).empty());
  ASSERT_FALSE(divergent_message(7, 15).empty());
  // A correct tiled kernel with barriers, then a simple one.
  std::vector<int> sums(8, 0);
  array_view<int, 1> s(8, sums);
  parallel_for_each(extent<1>(8 * 16).tile<16>(), [=](tiled_index<16> t) restrict(amp) {
    tile_static int buf[16];
    buf[t.local[0]] = t.global[0];
    t.barrier.wait();
    if (t.local[0] == 0) {
      int acc = 0;
      for (int k = 0; k < 16; ++k) acc += buf[k];
      s[t.tile] = acc;
    }
  });
  s.synchronize();
  for (int k = 0; k < 8; ++k) EXPECT_EQ(sums[k], 16 * 16 * k + 120);
  std::vector<int> v(100, 0);
  array_view<int, 1> vv(100, v);
  parallel_for_each(vv.extent, [=](index<1> i) restrict(amp) { vv[i] = i[0]; });
  vv.synchronize();
  EXPECT_EQ(v, iota(100));
}

// ---- exceptions thrown by kernel code on the host accelerators

struct kernel_error : std::runtime_error {
  int where;
  kernel_error(int w) : std::runtime_error("kernel_error"), where(w) {}
};

void may_throw(int i, int bad) restrict(amp) {
#if !AMP_DEVICE_PASS // exceptions exist only in the host compilation
  if (i == bad) throw kernel_error(i);
#else
  (void)i;
  (void)bad;
#endif
}

TEST(Exceptions, KernelExceptionPropagatesSimpleModel) {
  AMP_TEST_SKIP_ON_GPU("kernels cannot throw on a GPU");
  std::vector<int> out(5000, 0);
  array_view<int, 1> o(5000, out);
  try {
    parallel_for_each(o.extent, [=](index<1> i) restrict(amp) {
      may_throw(i[0], 4321);
      o[i] = 1;
    });
    FAIL() << "no exception";
  } catch (const kernel_error& e) {
    EXPECT_EQ(e.where, 4321);
  } catch (...) {
    FAIL() << "wrong exception type";
  }
  // Standard exception types keep their type too.
  auto kernel = [=](index<2> i) restrict(amp) {
#if !AMP_DEVICE_PASS
    if (i[0] == 6 && i[1] == 8) throw std::out_of_range("last");
#else
    (void)i;
#endif
  };
  EXPECT_THROW(parallel_for_each(extent<2>(7, 9), kernel), std::out_of_range);
}

TEST(Exceptions, KernelExceptionPropagatesTiledModel) {
  AMP_TEST_SKIP_ON_GPU("kernels cannot throw on a GPU");
  std::vector<int> out(256, 0);
  array_view<int, 1> o(256, out);
  // Thrown before any barrier, by work-item 0 of a tile.
  try {
    parallel_for_each(o.extent.tile<64>(), [=](tiled_index<64> t) restrict(amp) {
      may_throw(t.global[0], 128);
      t.barrier.wait();
      o[t] = 1;
    });
    FAIL() << "no exception";
  } catch (const kernel_error& e) {
    EXPECT_EQ(e.where, 128);
  }
  // Thrown after a barrier, by a work-item other than 0 (it runs as a fiber on
  // the host), while the rest of its tile waits at the next barrier.
  for (int bad : {77, 64 + 63, 255}) {
    try {
      parallel_for_each(o.extent.tile<64>(), [=](tiled_index<64> t) restrict(amp) {
        o[t] = 0;
        t.barrier.wait();
        may_throw(t.global[0], bad);
        t.barrier.wait();
        o[t] = 1;
      });
      ADD_FAILURE() << "no exception for work-item " << bad;
    } catch (const kernel_error& e) {
      EXPECT_EQ(e.where, bad);
    } catch (const std::exception& e) {
      ADD_FAILURE() << "wrong exception type for work-item " << bad << ": " << e.what();
    }
  }
  // Thrown after the last barrier, by a work-item other than 0, once work-item
  // 0 has returned.
  try {
    parallel_for_each(o.extent.tile<64>(), [=](tiled_index<64> t) restrict(amp) {
      t.barrier.wait();
      may_throw(t.global[0], 64 * 2 + 5);
      o[t] = 1;
    });
    ADD_FAILURE() << "no exception after the last barrier";
  } catch (const kernel_error& e) {
    EXPECT_EQ(e.where, 64 * 2 + 5);
  }
  // The accelerator is usable afterwards.
  parallel_for_each(o.extent.tile<64>(), [=](tiled_index<64> t) restrict(amp) {
    tile_static int x[64];
    x[t.local[0]] = t.local[0];
    t.barrier.wait();
    o[t] = x[63 - t.local[0]];
  });
  o.synchronize();
  for (int i = 0; i < 256; ++i) ASSERT_EQ(out[i], 63 - i % 64);
}

// ---- accelerators

TEST(Exceptions, CpuAcceleratorCannotRunKernels) {
  const accelerator cpu(accelerator::cpu_accelerator);
  std::vector<int> v(4, 0);
  array_view<int, 1> av(4, v);
  EXPECT_THROW(parallel_for_each(cpu.default_view, av.extent, [=](index<1> i) restrict(amp) { av[i] = 1; }),
               runtime_exception);
  EXPECT_THROW(parallel_for_each(cpu.default_view, av.extent.tile<2>(),
                                 [=](tiled_index<2> t) restrict(amp) { av[t] = 1; }),
               runtime_exception);
  EXPECT_EQ(av[0], 0);
}

// Without an explicit view a kernel targets the view of the first array it
// captures; an array on the cpu accelerator makes that the cpu accelerator,
// which AMP refuses with this message. Staging arrays do not pick the target.
TEST(Exceptions, KernelOnCpuAcceleratorArrayThrows) {
  const accelerator_view cpu_av = accelerator(accelerator::cpu_accelerator).default_view;
  array<int, 1> arr(16, cpu_av);
  try {
    parallel_for_each(extent<1>(16), [&arr](index<1> i) restrict(amp) { arr[i] += 1; });
    FAIL() << "no exception";
  } catch (const runtime_exception& e) {
    EXPECT_NE(std::string(e.what()).find("concurrency::parallel_for_each is not supported on the selected "
                                         "accelerator \"CPU accelerator\"."),
              std::string::npos)
        << e.what();
  }
  array<int, 1> staged(16, cpu_av, accelerator().default_view);
  for (int i = 0; i < 16; ++i) staged[i] = i;
  array<int, 1> dev(16);
  copy(staged, dev);
  EXPECT_NO_THROW(parallel_for_each(dev.extent, [&dev](index<1> i) restrict(amp) { dev[i] *= 2; }));
  const std::vector<int> got = dev;
  EXPECT_EQ(got[7], 14);
}

// Arrays of two different views captured by a kernel given no view: AMP has
// no view to run it on and throws (Microsoft's Extent_Acclvw/General/Negative
// tests: two accelerators, or two views of one); arrays of one view run there.
TEST(Exceptions, KernelCapturingArraysOfTwoViewsThrows) {
  accelerator acc;
  array<int, 1> a(8, acc.default_view), b(8, acc.create_view());
  EXPECT_THROW(parallel_for_each(extent<1>(8), [&a, &b](index<1> i) restrict(amp) { a[i] = b[i]; }),
               runtime_exception);
  array<int, 1> c(8, acc.default_view);
  EXPECT_NO_THROW(parallel_for_each(extent<1>(8), [&a, &c](index<1> i) restrict(amp) { a[i] = c[i] + 1; }));
  EXPECT_EQ(std::vector<int>(a)[3], 1);
  // A staging array lives on the cpu accelerator, which runs no kernel: it
  // picks that target as any array does (Microsoft's
  // Extent_Accl_Staging/General/Negative/Test.01).
  array<int, 1> staging(8, accelerator(accelerator::cpu_accelerator).default_view, acc.default_view);
  EXPECT_THROW(parallel_for_each(extent<1>(8), [&staging](index<1> i) restrict(amp) { staging[i] = 1; }),
               runtime_exception);
}

// Bad extents and ranges for new data: a clear runtime_exception, never a
// wrapped size.
TEST(Exceptions, ArrayExtentAndRangeChecks) {
  EXPECT_THROW((array<int, 2>(extent<2>(4, -3))), runtime_exception);
  EXPECT_THROW((array<int, 1>(extent<1>(0))), runtime_exception);
  // Each dimension fits an int, their product does not fit the address space.
  EXPECT_THROW((array<int, 3>(extent<3>(INT_MAX, INT_MAX, INT_MAX))), runtime_exception);
  // pad() past INT_MAX yields a non-positive dimension: refused.
  EXPECT_THROW((array<int, 2>(extent<2>(INT_MAX, INT_MAX).tile<4, 4>().pad())), runtime_exception);
  // A source range longer than the extent (a shorter one fills the first
  // elements: test_copy.cpp).
  const std::vector<int> v = iota(10);
  EXPECT_THROW((array<int, 1>(extent<1>(9), v.begin(), v.end())), runtime_exception);
  EXPECT_NO_THROW((array<int, 1>(extent<1>(11), v.begin(), v.end())));
  array<int, 1> a(9);
  EXPECT_THROW(copy(v.begin(), v.end(), a), runtime_exception);
  std::vector<int> host(9, 0);
  array_view<int, 1> view(9, host);
  EXPECT_THROW(copy(v.begin(), v.end(), view), runtime_exception);
  EXPECT_NO_THROW(copy(v.begin(), v.begin() + 9, view));
  EXPECT_EQ(view[8], 8);
}

TEST(Exceptions, UnknownDevicePathThrows) {
  EXPECT_THROW(accelerator(L"no\\such\\device"), runtime_exception);
  try {
    accelerator a(L"direct3d\\nonexistent");
    FAIL() << "no exception";
  } catch (const runtime_exception& e) {
    EXPECT_STRNE(e.what(), "");
  }
}

} // namespace
