// A shared library with its own AMP kernels (built -fPIC -shared), linked by
// `app` and dlopen()ed by `loader`; both programs run kernels of their own too.
#include "tiled_matmul.h"

extern "C" int plugin_tiled_matmul(int n) { return consumer_tiled_matmul(n); }
