// amp_compat/compat/ppltasks.h -- PPL tasks: task<T>, create_task, then,
// when_all, when_any, operators && and ||, task_completion_event,
// cancel_current_task (contracts in detail/ppl/tasks.h). With it included,
// completion_future::to_task() returns a concurrency::task<void>.
#ifndef AMP_COMPAT_COMPAT_PPLTASKS_H
#define AMP_COMPAT_COMPAT_PPLTASKS_H
#include "ppl.h"
#include "detail/ppl/tasks.h"
#endif
