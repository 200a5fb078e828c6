// Include names written the Windows way (--windows-compat; scripts/amp_driver/passes/windows.py):
// another case than the file's, backslash paths, and both in an angle include
// found through -I. Every header prints its name from a function: the program
// shows which files were included.
#include "blackscholes.h"           // the file is BlackScholes.h
#include "..\Common\TIMER.h"        // the file is ../Common/Timer.h
#include <WinLib\Api.h>             // the file is inc/winlib/api.h (-I inc)

#include <cstdio>

int main() {
    std::printf("%s %s %s %s\n", black_scholes_name(), timer_name(), clock_name(), winlib_name());
    return 0;
}
