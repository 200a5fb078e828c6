// Host tiles (amp_compat/detail/backend/host/fiber.h): a tile's work-items run on one OS
// thread, as persistent fibers once a barrier is reached. These tests pin what
// the fiber machinery promises beyond the tiled model itself: fibers are made
// only for barriers and reused by later tiles and kernels (also after a tile
// that failed), suspended work-items are unwound when a tile fails, and a
// work-item on a fiber has an ABI-conforming, large enough stack.
#include "amp_test_util.h"

#include <atomic>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <thread>
#include <type_traits>

using namespace concurrency;

namespace {

// Objects a work-item holds across barriers; counted on the host so that a
// test can tell whether the suspended work-items of a failed tile were unwound.
std::atomic<int> live_objects{0};
struct held_across_barrier {
  held_across_barrier() restrict(amp) {
#if !AMP_DEVICE_PASS
    ++live_objects;
#endif
  }
  ~held_across_barrier() restrict(amp) {
#if !AMP_DEVICE_PASS
    --live_objects;
#endif
  }
};

struct item_failure : std::runtime_error {
  item_failure() : std::runtime_error("item_failure") {}
};
void fail_if(bool cond) restrict(amp) {
#if !AMP_DEVICE_PASS // exceptions exist only in the host compilation
  if (cond) throw item_failure();
#else
  (void)cond;
#endif
}

// Each work-item passes its value to its right neighbour `rounds` times
// (one barrier per round) and checks where the values end up.
template <int TS> void ring_check(int tiles, int rounds) {
  const int n = TS * tiles;
  std::vector<int> out(n);
  array_view<int, 1> o(n, out);
  o.discard_data();
  parallel_for_each(o.extent.tile<TS>(), [=](tiled_index<TS> t) restrict(amp) {
    tile_static int ring[2][TS];
    const int l = t.local[0];
    held_across_barrier h;
    ring[0][l] = l + 10000 * t.tile[0];
    t.barrier.wait();
    for (int r = 0; r < rounds; ++r) {
      ring[(r + 1) % 2][(l + 1) % TS] = ring[r % 2][l];
      t.barrier.wait();
    }
    o[t] = ring[rounds % 2][l];
  });
  o.synchronize();
  for (int i = 0; i < n; ++i)
    ASSERT_EQ(out[i], (i % TS - rounds % TS + TS) % TS + 10000 * (i / TS)) << "tile size " << TS << ", item " << i;
}

// A kernel whose tile `bad_tile` fails in its second barrier round: work-item
// `bad_item` either returns early (divergent barrier) or throws, while the
// others of its tile are suspended holding objects.
template <int TS> std::string failing_kernel(int tiles, int bad_tile, int bad_item, bool throw_instead) {
  std::vector<int> out(TS * tiles, 0);
  array_view<int, 1> o(TS * tiles, out);
  try {
    parallel_for_each(o.extent.tile<TS>(), [=](tiled_index<TS> t) restrict(amp) {
      held_across_barrier h;
      const bool bad = t.tile[0] == bad_tile && t.local[0] == bad_item;
      o[t] = 1;
      t.barrier.wait();
      held_across_barrier h2;
      if (bad) {
        fail_if(throw_instead);
        return;
      }
      t.barrier.wait();
      o[t] = 2;
    });
  } catch (const item_failure&) {
    return "item_failure";
  } catch (const runtime_exception& e) {
    return e.what();
  }
  return "";
}

TEST(HostTiles, SuspendedWorkItemsAreUnwound) {
  AMP_TEST_SKIP_ON_GPU("host fibers");
  live_objects = 0;
  // Divergence found at work-item 0's barrier, at its last round, by a late
  // work-item, and an exception in the middle, at the end and at the start of
  // a tile.
  EXPECT_NE(failing_kernel<64>(4, 2, 17, false).find("tile (2)"), std::string::npos);
  EXPECT_EQ(live_objects.load(), 0) << "objects of suspended work-items were not destroyed";
  EXPECT_NE(failing_kernel<64>(4, 1, 0, false).find("tile (1)"), std::string::npos);
  EXPECT_EQ(live_objects.load(), 0);
  EXPECT_EQ(failing_kernel<128>(3, 1, 77, true), "item_failure");
  EXPECT_EQ(live_objects.load(), 0);
  EXPECT_EQ(failing_kernel<128>(3, 2, 127, true), "item_failure");
  EXPECT_EQ(live_objects.load(), 0);
  EXPECT_EQ(failing_kernel<128>(3, 0, 0, true), "item_failure");
  EXPECT_EQ(live_objects.load(), 0);
  // A work-item that waits at one barrier more than the rest of its tile.
  std::vector<int> v(4 * 32, 0);
  array_view<int, 1> o(4 * 32, v);
  EXPECT_THROW(parallel_for_each(o.extent.tile<32>(),
                                 [=](tiled_index<32> t) restrict(amp) {
                                   held_across_barrier h;
                                   t.barrier.wait();
                                   if (t.tile[0] == 3 && t.local[0] == 31) t.barrier.wait();
                                   o[t] = 1;
                                 }),
               runtime_exception);
  EXPECT_EQ(live_objects.load(), 0);
}

// Persistent fibers serve tiles of every size and kernel that follow, also
// after tiles that failed with work-items suspended on them.
TEST(HostTiles, FibersServeLaterKernelsAfterFailures) {
  AMP_TEST_SKIP_ON_GPU("host fibers");
  live_objects = 0;
  ring_check<64>(5, 3);
  ASSERT_FALSE(failing_kernel<64>(4, 2, 17, false).empty());
  ring_check<64>(5, 3);
  ASSERT_EQ(failing_kernel<256>(2, 1, 200, true), "item_failure");
  ring_check<256>(3, 5);  // more fibers than the thread had
  ring_check<16>(7, 40);  // fewer
  ASSERT_FALSE(failing_kernel<1024>(2, 0, 1023, false).empty());
  ring_check<1024>(2, 2); // the largest tile
  ring_check<1>(3, 2);    // a tile of one work-item: barriers are no-ops
  // A barrier-free tiled kernel between them.
  std::vector<int> v(512, 0);
  array_view<int, 1> o(512, v);
  parallel_for_each(o.extent.tile<128>(), [=](tiled_index<128> t) restrict(amp) { o[t] = t.global[0] + 1; });
  o.synchronize();
  for (int i = 0; i < 512; ++i) ASSERT_EQ(v[i], i + 1);
  ring_check<128>(4, 9);
  EXPECT_EQ(live_objects.load(), 0);
}

#if defined(KOKKOS_ENABLE_SERIAL)
// On the Serial accelerator a kernel runs on the launching thread, so a fresh
// thread shows exactly which fibers the kernels needed.
TEST(HostTiles, FibersAreMadeOnlyForBarriersAndReused) {
  AMP_TEST_SKIP_ON_GPU("host fibers");
  const accelerator_view ref = accelerator(accelerator::direct3d_ref).default_view;
  std::string failure;
  std::thread worker([&] {
    try {
      auto fibers = [] { return Concurrency::detail::host_tiles::tile_run::local().fibers(); };
      std::vector<int> v(1024, 0);
      array_view<int, 1> o(1024, v);
      parallel_for_each(ref, o.extent.tile<256>(), [=](tiled_index<256> t) restrict(amp) {
        tile_static int own[256]; // tile_static without a barrier
        own[t.local[0]] = t.global[0];
        o[t] = own[t.local[0]] * 2;
      });
      o.synchronize();
      for (int i = 0; i < 1024; ++i)
        if (v[i] != 2 * i) failure += "barrier-free kernel: wrong result; ";
      if (fibers() != 0) failure += "a barrier-free kernel made fibers; ";
      auto with_barrier = [&](auto tile_tag) {
        constexpr int TS = decltype(tile_tag)::value;
        parallel_for_each(ref, o.extent.tile<TS>(), [=](tiled_index<TS> t) restrict(amp) {
          tile_static int s[TS];
          s[t.local[0]] = t.global[0];
          t.barrier.wait();
          o[t] = s[TS - 1 - t.local[0]];
        });
        o.synchronize();
        for (int i = 0; i < 1024; ++i)
          if (v[i] != i / TS * TS + TS - 1 - i % TS) {
            failure += "tile " + std::to_string(TS) + ": wrong result; ";
            break;
          }
      };
      with_barrier(std::integral_constant<int, 64>());
      if (fibers() != 63) failure += "tile 64 made " + std::to_string(fibers()) + " fibers; ";
      with_barrier(std::integral_constant<int, 16>());
      with_barrier(std::integral_constant<int, 64>());
      if (fibers() != 63) failure += "fibers were not reused (" + std::to_string(fibers()) + "); ";
      try {
        parallel_for_each(ref, o.extent.tile<32>(), [=](tiled_index<32> t) restrict(amp) {
          t.barrier.wait();
          if (t.local[0] == 5) return;
          t.barrier.wait();
        });
        failure += "no exception for a divergent barrier; ";
      } catch (const runtime_exception&) {
      }
      with_barrier(std::integral_constant<int, 64>());
      if (fibers() != 63) failure += "a failed tile changed the fibers (" + std::to_string(fibers()) + "); ";
      with_barrier(std::integral_constant<int, 256>());
      if (fibers() != 255) failure += "tile 256 left " + std::to_string(fibers()) + " fibers; ";
    } catch (const std::exception& e) {
      failure += e.what();
    }
  });
  worker.join();
  EXPECT_EQ(failure, "");
}
#endif

#if !AMP_DEVICE_PASS
// Whether the caller's stack is aligned as the ABI requires at a call: a frame
// of its own (an over-aligned local in the kernel would make the compiler
// realign the kernel's frame), and a pointer the compiler cannot reason about.
[[gnu::noinline]] bool stack_is_aligned() {
  alignas(16) char local[16];
  char* p = local;
  asm volatile("" : "+r"(p));
  return reinterpret_cast<std::uintptr_t>(p) % 16 == 0;
}
#endif

// A work-item on a fiber gets an ABI-aligned stack of at least the default
// AMP_FIBER_STACK_KB (128 KB).
TEST(HostTiles, FiberStacks) {
  AMP_TEST_SKIP_ON_GPU("host fibers");
  constexpr int TS = 32;
  std::vector<int> out(TS * 3, -1);
  array_view<int, 1> o(TS * 3, out);
  o.discard_data();
  parallel_for_each(o.extent.tile<TS>(), [=](tiled_index<TS> t) restrict(amp) {
    t.barrier.wait();
    int result = 0;
#if !AMP_DEVICE_PASS
    result += stack_is_aligned() ? 1 : 0;
    volatile char big[96 * 1024];
    for (int k = 0; k < static_cast<int>(sizeof(big)); k += 4096) big[k] = static_cast<char>(k / 4096);
    int s = 0;
    for (int k = 0; k < static_cast<int>(sizeof(big)); k += 4096) s += big[k];
    result += s == 23 * 24 / 2 ? 2 : 0;
#endif
    t.barrier.wait();
    o[t] = result;
  });
  o.synchronize();
  for (int i = 0; i < TS * 3; ++i) ASSERT_EQ(out[i], 3) << "work-item " << i << " (1: aligned stack, 2: 96 KB of stack)";
}

} // namespace
