// A console program whose entry point is wmain, in a project without
// _UNICODE and without <tchar.h> (Visual Studio enters it through
// wmainCRTStartup): the launcher supplies main (compat/detail/wmain_entry.h),
// which passes the arguments as wide strings.
#include <cwchar>
#include <iostream>
#include <string>

int wmain(int argc, wchar_t* argv[])
{
    std::wstring all;
    for (int i = 1; i < argc; ++i) all += std::wstring(argv[i]) + L"|";
    std::wcout << L"wmain " << argc << L" " << all << std::wcslen(argc > 1 ? argv[1] : L"") << std::endl;
    return argc == 3 ? 0 : 1;
}
