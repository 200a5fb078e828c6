// No device backend, stage "math": there is no device pass, so nothing
// includes device math (../../math/target_math.h includes this stage only
// when AMP_DEVICE_PASS is set).
#pragma once
