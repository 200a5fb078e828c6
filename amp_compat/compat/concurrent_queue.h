// amp_compat/compat/concurrent_queue.h -- Concurrency::concurrent_queue:
// oneTBB's unbounded FIFO with MSVC's interface (push, try_pop, empty,
// unsafe_size, clear, unsafe_begin/unsafe_end); push and try_pop may run
// concurrently from any number of threads.
#ifndef AMP_COMPAT_COMPAT_CONCURRENT_QUEUE_H
#define AMP_COMPAT_COMPAT_CONCURRENT_QUEUE_H
#include <memory>
#include "../detail/foreign_begin.h"
#include <oneapi/tbb/concurrent_queue.h>
#include "../detail/foreign_end.h"
namespace Concurrency {
template <class T, class Allocator = std::allocator<T>>
using concurrent_queue = tbb::concurrent_queue<T, Allocator>;
}
namespace concurrency = Concurrency;
#endif
