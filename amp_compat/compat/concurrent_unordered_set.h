// amp_compat/compat/concurrent_unordered_set.h -- concurrent_unordered_set
// and concurrent_unordered_multiset (oneTBB's; see concurrent_unordered_map.h).
#ifndef AMP_COMPAT_COMPAT_CONCURRENT_UNORDERED_SET_H
#define AMP_COMPAT_COMPAT_CONCURRENT_UNORDERED_SET_H
#include <functional>
#include <memory>
#include "../detail/foreign_begin.h"
#include <oneapi/tbb/concurrent_unordered_set.h>
#include "../detail/foreign_end.h"
namespace Concurrency {
template <class K, class Hash = std::hash<K>, class Eq = std::equal_to<K>, class Allocator = std::allocator<K>>
using concurrent_unordered_set = tbb::concurrent_unordered_set<K, Hash, Eq, Allocator>;
template <class K, class Hash = std::hash<K>, class Eq = std::equal_to<K>, class Allocator = std::allocator<K>>
using concurrent_unordered_multiset = tbb::concurrent_unordered_multiset<K, Hash, Eq, Allocator>;
}
namespace concurrency = Concurrency;
#endif
