// No device backend (a host-only build), stage "config" (backend.h): one
// compilation pass, for the host; the function attributes are empty, except in
// the restrict(amp) check pass (tools/amp_check, a Clang plugin run over a
// host build's source), where what the library offers to both sides is
// marked so.
#pragma once

#define AMP_DEVICE_PASS 0
#if AMP_CHECK_PASS
#define AMP_HD __attribute__((annotate("amp_restrict:cpu,amp")))
#else
#define AMP_HD
#endif
#define AMP_HOST_ONLY
#define AMP_DEVICE_ONLY
