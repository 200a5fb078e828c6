// amp_compat/compat/concurrent_unordered_map.h -- concurrent_unordered_map
// and concurrent_unordered_multimap: oneTBB's, with MSVC's interface (insert,
// find, count, operator[], at and iteration may run concurrently; erasure is
// unsafe_erase, not concurrency-safe, as in MSVC).
#ifndef AMP_COMPAT_COMPAT_CONCURRENT_UNORDERED_MAP_H
#define AMP_COMPAT_COMPAT_CONCURRENT_UNORDERED_MAP_H
#include <functional>
#include <memory>
#include <utility>
#include "../detail/foreign_begin.h"
#include <oneapi/tbb/concurrent_unordered_map.h>
#include "../detail/foreign_end.h"
namespace Concurrency {
template <class K, class V, class Hash = std::hash<K>, class Eq = std::equal_to<K>,
          class Allocator = std::allocator<std::pair<const K, V>>>
using concurrent_unordered_map = tbb::concurrent_unordered_map<K, V, Hash, Eq, Allocator>;
template <class K, class V, class Hash = std::hash<K>, class Eq = std::equal_to<K>,
          class Allocator = std::allocator<std::pair<const K, V>>>
using concurrent_unordered_multimap = tbb::concurrent_unordered_multimap<K, V, Hash, Eq, Allocator>;
}
namespace concurrency = Concurrency;
#endif
