// amp_compat/compat/detail/win_paths.cpp -- Windows file names at run time,
// linked into every --windows-compat program (amp++ compiles it at link time;
// the amp_compat_windows CMake target adds it as a source of its users).
//
// Legacy programs open their data as ".\\data.dat", "Data\\Input.txt" or in
// another letter case than the file has, which Windows accepts. This file
// defines fopen, fopen64, open and open64 in the program, which come before
// the C library's in symbol lookup, so the C library, std::ifstream/ofstream
// (libstdc++ opens through fopen64), _wfopen, fopen_s, _tfopen and the user's
// own calls all go through them. Contract:
//   * A path that exists as given is opened as given, and a path that names
//     nothing is passed on unchanged unless one of the next two rules applies:
//     Linux semantics are never changed for a name Linux already resolves.
//   * A path containing `\` is read with `\` as `/`; each folder on the way is
//     matched case-insensitively where it does not exist as spelled (one
//     match only: with two candidates, e.g. Data/ and data/, the name is left
//     as spelled there). The last component is matched the same way; when
//     nothing matches and the open creates (fopen "w"/"a", O_CREAT), the file
//     is created under its spelled name, with `/` for `\` -- so ".\\out.txt"
//     creates out.txt, never a file named ".\out.txt".
//   * A relative path without `\` that does not exist is matched
//     case-insensitively the same way ("INPUT.DAT" opens input.dat). Absolute
//     paths without `\` are never case-folded (system files stay exact).
//   * Drive letters ("C:\\data") are not translated: there is no drive here.
// Not covered: stat/access/std::filesystem (only opens), openat, and programs
// built without --windows-compat. errno is the C library's.
#include <dirent.h>
#include <dlfcn.h>
#include <fcntl.h>
#include <sys/stat.h>

#include <cerrno>
#include <cstdarg>
#include <cstdio>
#include <string>
#include <strings.h>
#include <vector>

// The symbols are named by asm labels: this file declares none of the C
// library's prototypes for them, so fortified or 64-bit-offset headers
// (which turn open/fopen into inline wrappers or aliases) cannot clash.
extern "C" {
std::FILE* amp_compat_fopen(const char*, const char*) __asm__("fopen");
std::FILE* amp_compat_fopen64(const char*, const char*) __asm__("fopen64");
int amp_compat_open(const char*, int, ...) __asm__("open");
int amp_compat_open64(const char*, int, ...) __asm__("open64");
}

namespace {

bool exists(const std::string& p) {
    struct stat st;
    return ::stat(p.c_str(), &st) == 0;
}

bool is_dir(const std::string& p) {
    struct stat st;
    return ::stat(p.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

// The one entry of `dir` equal to `name` ignoring case (a folder if want_dir),
// or "" when there is none or more than one.
std::string case_match(const std::string& dir, const std::string& name, bool want_dir) {
    DIR* d = ::opendir(dir.empty() ? "." : dir.c_str());
    if (!d) return "";
    std::string found;
    int n = 0;
    while (dirent* e = ::readdir(d)) {
        if (::strcasecmp(e->d_name, name.c_str()) != 0) continue;
        std::string full = (dir.empty() ? std::string() : dir + "/") + e->d_name;
        if (want_dir && !is_dir(full)) continue;
        found = e->d_name;
        ++n;
    }
    ::closedir(d);
    return n == 1 ? found : "";
}

// The name to open instead of `path`, or "" to open `path` itself.
std::string windows_path(const char* path) {
    if (!path || !*path) return "";
    std::string p(path);
    bool backslash = p.find('\\') != std::string::npos;
    bool absolute = p[0] == '/' || p[0] == '\\';
    if (!backslash && absolute) return "";
    if (exists(p)) return "";
    for (char& c : p)
        if (c == '\\') c = '/';
    std::vector<std::string> parts;
    for (std::size_t i = 0; i <= p.size();) {
        std::size_t j = p.find('/', i);
        if (j == std::string::npos) j = p.size();
        if (j > i) parts.push_back(p.substr(i, j - i));
        i = j + 1;
    }
    if (parts.empty()) return "";
    std::string cur = absolute ? "" : ".";  // "" + "/x" is the root's x
    bool changed = backslash;
    for (std::size_t k = 0; k < parts.size(); ++k) {
        const std::string& part = parts[k];
        bool last = k + 1 == parts.size();
        std::string next = cur + "/" + part;
        if (part != "." && part != ".." && !(last ? exists(next) : is_dir(next))) {
            std::string m = case_match(cur.empty() ? "/" : cur, part, !last);
            if (!m.empty()) {
                next = cur + "/" + m;
                changed = true;
            }
        }
        cur = next;
    }
    if (!changed) return "";
    // Without a backslash, a case-folded name is only used if it exists; a
    // creating open of a missing name keeps the name as given.
    if (!backslash && !exists(cur)) return "";
    return cur;
}

template <class F>
F real(const char* name) {
    return reinterpret_cast<F>(::dlsym(RTLD_NEXT, name));
}

int open_with(int (*fn)(const char*, int, ...), const char* path, int flags, va_list ap) {
    bool with_mode = (flags & O_CREAT) != 0;
#ifdef O_TMPFILE
    with_mode = with_mode || (flags & O_TMPFILE) == O_TMPFILE;
#endif
    unsigned mode = with_mode ? va_arg(ap, unsigned) : 0;
    std::string w = windows_path(path);
    return fn(w.empty() ? path : w.c_str(), flags, mode);
}

}  // namespace

extern "C" std::FILE* amp_compat_fopen(const char* path, const char* mode) {
    static auto fn = real<std::FILE* (*)(const char*, const char*)>("fopen");
    if (!fn) {
        errno = ENOSYS;
        return nullptr;
    }
    std::string w = windows_path(path);
    return fn(w.empty() ? path : w.c_str(), mode);
}

extern "C" std::FILE* amp_compat_fopen64(const char* path, const char* mode) {
    static auto fn = real<std::FILE* (*)(const char*, const char*)>("fopen64");
    if (!fn) {
        errno = ENOSYS;
        return nullptr;
    }
    std::string w = windows_path(path);
    return fn(w.empty() ? path : w.c_str(), mode);
}

extern "C" int amp_compat_open(const char* path, int flags, ...) {
    static auto fn = real<int (*)(const char*, int, ...)>("open");
    if (!fn) {
        errno = ENOSYS;
        return -1;
    }
    va_list ap;
    va_start(ap, flags);
    int r = open_with(fn, path, flags, ap);
    va_end(ap);
    return r;
}

extern "C" int amp_compat_open64(const char* path, int flags, ...) {
    static auto fn = real<int (*)(const char*, int, ...)>("open64");
    if (!fn) {
        errno = ENOSYS;
        return -1;
    }
    va_list ap;
    va_start(ap, flags);
    int r = open_with(fn, path, flags, ap);
    va_end(ap);
    return r;
}

// ---- system("pause"), system("cls") ----------------------------------------
// Visual Studio console programs end with system("pause") so that the window
// stays open, or clear it with system("cls"). Both are cmd.exe built-ins that
// /bin/sh lacks ("sh: 1: pause: not found"). The program's `system` answers
// them with cmd's behaviour and passes every other command to the C
// library's:
//   pause  prints "Press any key to continue . . . ", waits for one key
//          (conio.h's _getch: from a terminal without Enter; from a
//          redirected stdin one byte, never waiting at its end), prints a
//          line break and returns 0; `pause>nul` / `pause > nul` waits
//          without printing.
//   cls    clears the screen (ANSI) when stdout is a terminal, else writes
//          nothing; returns 0.
// The command words are matched case-insensitively, surrounded by blanks.
#include "../conio.h"

extern "C" int amp_compat_system(const char*) __asm__("system");

namespace {
std::string trimmed_lower(const char* s) {
    std::string t;
    for (; *s; ++s) t += static_cast<char>(*s >= 'A' && *s <= 'Z' ? *s - 'A' + 'a' : *s);
    const auto a = t.find_first_not_of(" \t\r\n");
    if (a == std::string::npos) return "";
    return t.substr(a, t.find_last_not_of(" \t\r\n") - a + 1);
}
}  // namespace

extern "C" int amp_compat_system(const char* command) {
    if (command) {
        std::string c = trimmed_lower(command);
        std::string nospace;
        for (char ch : c)
            if (ch != ' ' && ch != '\t') nospace += ch;
        if (c == "pause" || nospace == "pause>nul") {
            if (c == "pause") {
                std::fputs("Press any key to continue . . . ", stdout);
                std::fflush(stdout);
            }
            amp_compat_crt::console_key(false);
            if (c == "pause") std::fputs("\n", stdout);
            std::fflush(stdout);
            return 0;
        }
        if (c == "cls") {
            if (isatty(1)) {
                std::fputs("\x1b[2J\x1b[H", stdout);
                std::fflush(stdout);
            }
            return 0;
        }
    }
    static auto fn = real<int (*)(const char*)>("system");
    if (!fn) {
        errno = ENOSYS;
        return -1;
    }
    return fn(command);
}
