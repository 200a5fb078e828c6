// `void main()` as Visual Studio accepts it (--windows-compat / --msvc: the
// launcher compiles it as int main, `return;` as `return 0;`).
#include <cstdio>
#include <cstring>

static int helper() { return 7; }

void main(int argc, char* argv[]) {
    const char* s = "void main() { return; }";  // a string is not rewritten
    std::printf("%s|%d|%zu\n", s, helper(), std::strlen(s));
    if (argc > 1 && std::strcmp(argv[1], "early") == 0) {
        std::printf("early return\n");
        return;
    }
    std::printf("end of main\n");
}
