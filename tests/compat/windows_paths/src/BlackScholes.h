#pragma once
inline const char* black_scholes_name() { return "BlackScholes.h"; }
