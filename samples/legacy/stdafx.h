// stdafx.h : the precompiled header of the legacy console programs: the
// system headers every program of the project includes, changed rarely.
//

#pragma once

#include "targetver.h"

#include <stdio.h>
#include <tchar.h>

// Headers the programs of this project need as well.
#include <windows.h>
#include <iostream>
#include <iomanip>
#include <vector>
