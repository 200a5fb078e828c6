// Data files opened the Windows way at run time (compat/detail/win_paths.cpp,
// linked by --windows-compat): ".\\Data\\Input.dat", another letter case, C
// stdio, fopen_s, open() and the C++ streams; a new file written as
// ".\\Data\\result.txt" lands in Data/result.txt. The program works in a
// fresh folder of its own; it prints one line per check.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>

static int failures = 0;
static void check(const char* what, bool ok) {
    std::printf("%s %s\n", ok ? "ok  " : "FAIL", what);
    if (!ok) ++failures;
}

static std::string read_all(std::FILE* f) {
    std::string s;
    if (!f) return "<not opened>";
    char buf[64];
    while (std::size_t n = std::fread(buf, 1, sizeof buf, f)) s.append(buf, n);
    std::fclose(f);
    return s;
}

int main() {
    char dir[] = "/tmp/amp_win_paths.XXXXXX";
    if (!mkdtemp(dir) || chdir(dir) != 0) return 2;
    mkdir("Data", 0755);
    std::FILE* w = std::fopen("Data/Input.dat", "w");  // POSIX names: created as spelled
    if (!w) return 2;
    std::fputs("42 7\n", w);
    std::fclose(w);

    check("fopen(\".\\\\Data\\\\Input.dat\")", read_all(std::fopen(".\\Data\\Input.dat", "r")) == "42 7\n");
    check("fopen(\"DATA/input.DAT\") (case only)", read_all(std::fopen("DATA/input.DAT", "rb")) == "42 7\n");
    std::FILE* fs = nullptr;
    check("fopen_s(\"data\\\\INPUT.dat\")", fopen_s(&fs, "data\\INPUT.dat", "r") == 0 && read_all(fs) == "42 7\n");
    int a = 0, b = 0;
    std::ifstream in("data\\input.dat");
    check("std::ifstream(\"data\\\\input.dat\")", static_cast<bool>(in >> a >> b) && a == 42 && b == 7);
    int fd = open(".\\Data\\Input.dat", O_RDONLY);
    char c = 0;
    check("open(\".\\\\Data\\\\Input.dat\")", fd >= 0 && read(fd, &c, 1) == 1 && c == '4');
    if (fd >= 0) close(fd);

    { std::ofstream out(".\\Data\\result.txt"); out << a + b << "\n"; }
    struct stat st;
    check("std::ofstream(\".\\\\Data\\\\result.txt\") wrote Data/result.txt",
          stat("Data/result.txt", &st) == 0 && stat(".\\Data\\result.txt", &st) != 0);
    check("read back", read_all(std::fopen("Data\\Result.TXT", "r")) == "49\n");

    errno = 0;
    check("a missing file still fails with ENOENT",
          std::fopen("Data\\missing.dat", "r") == nullptr && errno == ENOENT);
    std::FILE* lit = std::fopen("plain name", "w");  // no backslash: as given
    check("a new name without backslashes is created as given", lit && stat("plain name", &st) == 0);
    if (lit) std::fclose(lit);

    std::remove("Data/result.txt");
    std::remove("Data/Input.dat");
    std::remove("plain name");
    rmdir("Data");
    if (chdir("/") == 0) rmdir(dir);
    std::printf("%d failed\n", failures);
    return failures == 0 ? 0 : 1;
}
