// secure_crt_report.cpp : squares and cubes on the accelerator, then writes a
// small report with the secure CRT functions Visual Studio asks for
// (sprintf_s, strcpy_s, strcat_s, fopen_s, _itoa_s) and reads it back.
//

#include "stdafx.h"
#include <amp.h>
#include <string.h>
#include <stdlib.h>

using namespace concurrency;

struct Stats
{
    int minimum;
    int maximum;
    long long total;
};

Stats Summarize(const int* values, int count)
{
    Stats s = { values[0], values[0], 0 };
    for (int i = 0; i < count; i++)
    {
        s.minimum = __min(s.minimum, values[i]);
        s.maximum = __max(s.maximum, values[i]);
        s.total += values[i];
    }
    return s;
}

int _tmain(int argc, _TCHAR* argv[])
{
    int values[64];
    for (int i = 0; i < _countof(values); i++)
        values[i] = i - 20;

    int squares[_countof(values)];
    int cubes[_countof(values)];
    array_view<const int, 1> in(_countof(values), values);
    array_view<int, 1> sq(_countof(squares), squares);
    array_view<int, 1> cu(_countof(cubes), cubes);
    sq.discard_data();
    cu.discard_data();
    parallel_for_each(in.extent, [=](index<1> idx) restrict(amp)
    {
        int v = in[idx];
        sq[idx] = v * v;
        cu[idx] = v * v * v;
    });
    sq.synchronize();
    cu.synchronize();

    Stats s = Summarize(squares, _countof(squares));
    Stats c = Summarize(cubes, _countof(cubes));

    char title[32];
    strcpy_s(title, "Report");
    strcat_s(title, sizeof(title), ": powers");
    char radix[16];
    _itoa_s(s.maximum, radix, 16);

    char line[128];
    sprintf_s(line, "%s of %d values", title, (int)_countof(values));

    char fileName[MAX_PATH];
    sprintf_s(fileName, "secure_crt_report_%lu.tmp", (unsigned long)GetCurrentProcessId());
    FILE* file = NULL;
    if (fopen_s(&file, fileName, "w") != 0)
    {
        printf("cannot write %s\n", fileName);
        return 1;
    }
    fprintf_s(file, "%s\n", line);
    fprintf_s(file, "squares: min %d max %d (0x%s) total %I64d\n", s.minimum, s.maximum, radix, s.total);
    fprintf_s(file, "cubes: min %d max %d total %I64d\n", c.minimum, c.maximum, c.total);
    fclose(file);

    if (fopen_s(&file, fileName, "r") != 0)
    {
        printf("cannot read %s\n", fileName);
        return 1;
    }
    char buffer[256];
    int lines = 0;
    while (fgets(buffer, _countof(buffer), file) != NULL)
    {
        printf("%s", buffer);
        lines++;
    }
    fclose(file);
    remove(fileName);

    char truncated[8];
    int written = _snprintf_s(truncated, _countof(truncated), _TRUNCATE, "%s", line);
    printf("%d lines read back; truncated title: \"%s\" (%d)\n", lines, truncated, written);
    return 0;
}
