#pragma once
inline const char* winlib_name() { return "inc/winlib/api.h"; }
