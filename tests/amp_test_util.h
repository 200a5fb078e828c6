// Helpers shared by the test files. Every test runs on the default accelerator,
// which the environment picks (AMP_DEFAULT_ACCELERATOR=openmp|serial|cuda), so
// the same binary tests each backend.
#pragma once
#include <amp.h>

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

namespace amp_test {

inline Concurrency::accelerator default_accelerator() { return Concurrency::accelerator(); }
inline Concurrency::accelerator_view default_view() { return Concurrency::accelerator().default_view; }

// The CUDA accelerators' device paths in this implementation: cuda0, cuda1, ...
inline bool default_is_gpu() { return Concurrency::accelerator().device_path.rfind(L"cuda", 0) == 0; }

inline std::string narrow(const std::wstring& w) { return std::string(w.begin(), w.end()); }

// 0, 1, 2, ... (as T), n elements.
template <class T = int> std::vector<T> iota(std::size_t n, T first = T(0)) {
  std::vector<T> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = static_cast<T>(first + static_cast<T>(i));
  return v;
}

// The 32 low bits of an HRESULT (HRESULT is 32 bits on Windows, `long` here).
inline std::uint32_t hr_bits(HRESULT hr) { return static_cast<std::uint32_t>(hr); }
constexpr std::uint32_t E_INVALIDARG_BITS = 0x80070057u;

} // namespace amp_test

// Host-only behaviour (exceptions out of kernels, divergent-barrier detection)
// is not defined on a GPU.
#define AMP_TEST_SKIP_ON_GPU(why)                                                                  \
  do {                                                                                             \
    if (amp_test::default_is_gpu()) GTEST_SKIP() << why;                                           \
  } while (0)
