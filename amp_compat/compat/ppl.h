// amp_compat/compat/ppl.h -- the Parallel Patterns Library as AMP programs
// use it, over oneTBB (opt-in: ./amp c++ --windows-compat, which also links
// libtbb; CMake: amp_compat_ppl). Namespace Concurrency (and concurrency):
//   parallel_for, parallel_for_each, parallel_invoke, parallel_reduce,
//   parallel_transform, parallel_sort, parallel_buffered_sort,
//   parallel_radixsort, the partitioners (detail/ppl/algorithms.h);
//   task_group, structured_task_group, task_handle, make_task, combinable
//   (detail/ppl/task_group.h); cancellation tokens
//   (detail/ppl/cancellation.h); and <concrt.h>.
// Tasks (task<T>, create_task, ...) are in <ppltasks.h>; concurrent
// containers in <concurrent_vector.h> & co.
#ifndef AMP_COMPAT_COMPAT_PPL_H
#define AMP_COMPAT_COMPAT_PPL_H
#include "concrt.h"
#include "detail/ppl/algorithms.h"
#include "detail/ppl/cancellation.h"
#include "detail/ppl/task_group.h"
#endif
