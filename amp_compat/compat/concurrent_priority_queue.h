// amp_compat/compat/concurrent_priority_queue.h -- concurrent_priority_queue
// (oneTBB's: push, try_pop of the largest element by Compare, empty, size).
#ifndef AMP_COMPAT_COMPAT_CONCURRENT_PRIORITY_QUEUE_H
#define AMP_COMPAT_COMPAT_CONCURRENT_PRIORITY_QUEUE_H
#include <functional>
#include <memory>
#include "../detail/foreign_begin.h"
#include <oneapi/tbb/concurrent_priority_queue.h>
#include "../detail/foreign_end.h"
namespace Concurrency {
template <class T, class Compare = std::less<T>, class Allocator = std::allocator<T>>
using concurrent_priority_queue = tbb::concurrent_priority_queue<T, Compare, Allocator>;
}
namespace concurrency = Concurrency;
#endif
