// amp_compat/compat/concurrent_vector.h -- Concurrency::concurrent_vector:
// oneTBB's concurrent_vector, whose interface is MSVC's (push_back and
// grow_by return iterators, grow_to_at_least, operator[] and at, iteration,
// reserve, shrink_to_fit; push_back/grow_* and reads may run concurrently;
// clear/reserve/shrink_to_fit may not). Elements never move once added.
// The default allocator is std::allocator, as MSVC's.
#ifndef AMP_COMPAT_COMPAT_CONCURRENT_VECTOR_H
#define AMP_COMPAT_COMPAT_CONCURRENT_VECTOR_H
#include <memory>
#include "../detail/foreign_begin.h"
#include <oneapi/tbb/concurrent_vector.h>
#include "../detail/foreign_end.h"
namespace Concurrency {
template <class T, class Allocator = std::allocator<T>>
using concurrent_vector = tbb::concurrent_vector<T, Allocator>;
}
namespace concurrency = Concurrency;
#endif
