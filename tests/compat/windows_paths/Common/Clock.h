#pragma once
inline const char* clock_name() { return "Common/Clock.h"; }
