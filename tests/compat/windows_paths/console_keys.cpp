// A console program that waits for keys the Windows way (<conio.h>'s _getch,
// system("pause")), run with a redirected stdin: each wait takes one byte,
// and at the end of the input nothing waits (compat/conio.h,
// compat/detail/win_paths.cpp). Other commands still reach the shell.
#include <conio.h>
#include <stdio.h>
#include <stdlib.h>

int main()
{
    printf("before\n");
    int r = system("pause");      // prompt, takes 'a'
    int c = _getch();             // 'b', not echoed
    int e = _getche();            // 'c', echoed
    int k = _kbhit();             // 'd' is waiting
    system("PAUSE > NUL");        // takes 'd' silently
    int end = _getch();           // end of input: EOF, no wait
    int cls = system("cls");      // not a terminal: nothing written
    int shell = system("exit 3"); // a real command: the shell's status
    printf("\nr=%d c=%c e=%c k=%d end=%d cls=%d shell=%d\n", r, c, e, k, end, cls, WEXITSTATUS(shell));
    return 0;
}
