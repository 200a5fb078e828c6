// unicode_console.cpp : a console program built with Visual Studio's
// "Use Unicode Character Set" (_UNICODE and UNICODE defined by the project,
// see unicode_console.flags): wide _tmain, wide literals through _T(),
// std::wcout and _tprintf mixed, an AMP kernel over wide characters.
//

#include "stdafx.h"
#include <amp.h>
#include <string>

using namespace concurrency;

// Caesar shift of the ASCII letters of a wide string, on the accelerator.
std::wstring Shift(const std::wstring& text, int by)
{
    std::vector<int> codes(text.begin(), text.end());
    array_view<int, 1> view((int)codes.size(), codes);
    parallel_for_each(view.extent, [=](index<1> idx) restrict(amp)
    {
        int c = view[idx];
        if (c >= 'a' && c <= 'z')
            view[idx] = 'a' + (c - 'a' + by) % 26;
        else if (c >= 'A' && c <= 'Z')
            view[idx] = 'A' + (c - 'A' + by) % 26;
    });
    view.synchronize();
    return std::wstring(codes.begin(), codes.end());
}

int _tmain(int argc, _TCHAR* argv[])
{
    const TCHAR* greeting = TEXT("Hello, C++ AMP \u2013 na\u00efve caf\u00e9, \u03c0 \u2248 3.14159");
    std::wstring shifted = Shift(greeting, 3);

    std::wcout << L"Original: " << greeting << std::endl;
    _tprintf(_T("Shifted:  %s\n"), shifted.c_str());
    std::wcout << L"Back:     " << Shift(shifted, 23) << std::endl;

    TCHAR info[64];
    _stprintf_s(info, _T("%d characters, %d arguments"), (int)_tcslen(greeting), argc);
    std::wcout << info << std::endl;
    printf("narrow printf between wide lines\n");
    std::wcout << L"wchar_t is " << sizeof(_TCHAR) * 8 << L" bits here" << std::endl;
    return 0;
}
