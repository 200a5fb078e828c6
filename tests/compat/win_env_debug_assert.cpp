// _ASSERTE in a debug build (-D_DEBUG), reached through <amp.h> alone: a
// false assertion prints MSVC's message and aborts (CTest expects both).
#include <amp.h>

#include <cstdio>

int main(int argc, char**) {
    int evaluated = 0;
    _ASSERTE(++evaluated == 1);  // true: evaluated once, continues
    std::printf("evaluated %d\n", evaluated);
    std::fflush(stdout);
    _ASSERTE(argc == 42);
    std::printf("not reached\n");
    return 0;
}
