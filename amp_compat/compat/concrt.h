// amp_compat/compat/concrt.h -- the Concurrency Runtime basics AMP programs
// use (opt-in, ./amp c++ --windows-compat): critical_section,
// reader_writer_lock, event, wait(), the ConcRT exceptions. Contracts in
// detail/ppl/sync.h. Schedulers, agents and contexts are not provided.
#ifndef AMP_COMPAT_COMPAT_CONCRT_H
#define AMP_COMPAT_COMPAT_CONCRT_H
#include "detail/ppl/exceptions.h"
#include "detail/ppl/sync.h"
#endif
