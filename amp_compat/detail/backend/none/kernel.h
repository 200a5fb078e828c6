// No device backend, stage "kernel": there is no device pass, so nothing
// includes this file's primitives (../../target.h includes it only when
// AMP_DEVICE_PASS is set, which none/config.h never does).
#pragma once
