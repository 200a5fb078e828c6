#pragma once

// The Windows SDK version header of a Visual Studio 2012 console project.
// SDKDDKVer.h selects the newest Windows platform; define _WIN32_WINNT
// before this include to target an older one.
#include <SDKDDKVer.h>
