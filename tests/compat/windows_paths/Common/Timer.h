#pragma once
// Reached through a Windows spelling, and spells its own include the same way:
// "..." includes resolve from this file's folder.
#include "clock.H"  // the file is Clock.h
inline const char* timer_name() { return "Common/Timer.h"; }
