// amp_compat/compat/pplcancellation_token.h -- cancellation tokens (see
// detail/ppl/cancellation.h); also part of <ppl.h>.
#ifndef AMP_COMPAT_COMPAT_PPLCANCELLATION_TOKEN_H
#define AMP_COMPAT_COMPAT_PPLCANCELLATION_TOKEN_H
#include "detail/ppl/cancellation.h"
#endif
