// Force-included (-include amp_prelude.h, together with -D_STRINGS_H) before any
// other header of a translation unit that uses <amp.h>.
//
// Why: glibc's <strings.h> declares a global function `index`, and Kokkos (and
// Clang's CUDA wrapper, which is included before any user header) pull it in.
// Under `using namespace concurrency;` the name `index<2>` is then ambiguous.
// -D_STRINGS_H blocks every ordinary inclusion of <strings.h>; here we include it
// once with `index`/`rindex` renamed, so strcasecmp & co. stay available and the
// global `index` never exists.
#ifndef AMP_COMPAT_PRELUDE_H
#define AMP_COMPAT_PRELUDE_H
#ifdef _STRINGS_H
#undef _STRINGS_H
#endif
#define index amp_compat_glibc_index
#define rindex amp_compat_glibc_rindex
#include <strings.h>
#undef index
#undef rindex
#endif
