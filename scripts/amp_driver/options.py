"""The driver's options, one row each: the command-line flag, the environment
variable that sets it too, its CMake counterpart, what it adds to the
`--cflags`/`--libs` (and pkg-config) output, and the mark it leaves on a
compile line, by which the CMake launcher (which sees only the compile line)
knows the mode. `amp++ --help` and the README's option list
("Compiling your own AMP code", checked by tests/driver) are this table.

Kept free of imports beyond the standard library's `re`: every compile reads it.
"""
import re
from collections import namedtuple

# flag: as typed (VALUE: takes one); env: the variable that sets the same
# (or names the value); cmake: the CMake option or target; cflags / libs:
# what it adds to `amp++ --cflags` / `--libs` ("" none; where it is a plain
# list of flags, the driver takes them from here: flags()); mark: a regex that
# finds the mode on a compile line (None: no mode of the source passes);
# help: one sentence.
Option = namedtuple("Option", "flag env cmake cflags libs mark help")

OPTIONS = [
    Option("--gpu[=cuda|hip]", "AMP_GPU=cuda|hip (what a bare --gpu means)", "AMP_CUDA=ON / AMP_HIP=ON",
           "-x cuda --cuda-gpu-arch=ARCH --cuda-path=CUDA -fopenmp ... (HIP: -x hip --offload-arch=ARCH ...)",
           "-lcudart_static -fopenmp ... (HIP: -fno-gpu-rdc)",
           r"^(--cuda-gpu-arch|--offload-arch)|^-x(cuda|hip)$",
           "GPU build: CUDA (clang++-22 -x cuda against the CUDA Kokkos), or HIP (hipcc against Kokkos 4.6.01 "
           "built for HIP)"),
    Option("--host", "", "(default)", "-fopenmp", "-fopenmp", None,
           "host build (default): g++, Kokkos OpenMP + Serial"),
    Option("--arch=ARCH", "AMP_CUDA_ARCH / AMP_HIP_ARCH", "AMP_CUDA_ARCH / AMP_HIP_ARCH",
           "--cuda-gpu-arch=ARCH / --offload-arch=ARCH", "", None,
           "GPU architecture (default sm_90; HIP: gfx90a)"),
    Option("--windows-compat", "", "target amp_compat::windows",
           "-I<include>/compat -include <include>/compat/crt_compat.h", "-ltbb",
           r"(^|/)compat/crt_compat\.h$",
           "the Windows/CRT and PPL companions (<Windows.h>, <tchar.h>, the secure CRT, <ppl.h> over oneTBB), "
           "include names in another case or with backslashes, `void main`, Windows file names at run time "
           "(migration_guide.md)"),
    Option("--msvc", "AMP_MSVC_CXX (the compiler, default clang++-22)", "target amp_compat::msvc",
           "-std=gnu++STD, amp_compat/compat/msvc/flags.txt, -include <include>/compat/msvc/msvc_dialect.h", "",
           r"^-fms-compatibility$|(^|/)compat/msvc/msvc_dialect\.h$",
           "MSVC's permissive template dialect: clang-22 with the flags of amp_compat/compat/msvc/flags.txt"),
    Option("--fast-math", "", "AMP_FAST_MATH=ON",
           "-ffp-contract=fast (Clang: fast-honor-pragmas) instead of -ffp-contract=off", "", None,
           "let the compiler fuse a*b+c into fused multiply-adds on the host and the GPU (off by default: the "
           "same bits on every accelerator)"),
    Option("--checked", "", "", "-DAMP_CHECKED=1 (on the compile line)", "", r"^-DAMP_CHECKED=1$",
           "a checked host build: out-of-range element accesses and tile_static overruns raise a "
           "runtime_exception naming the kernel, the tile and the work-item; not with --gpu"),
    Option("--amp-check", "AMP_CHECK=1 (AMP_CHECK=only: the check alone; AMP_CHECK_PCH=0: no precompiled "
           "header)", "", "", "", None,
           "first check C++ AMP's restrict(amp) rules with tools/amp_check (Clang 22), as Microsoft's compiler "
           "does; a violation fails the compile with the MSVC error code (C3581...); source checkout only"),
    Option("--tiles-report", "AMP_TILES_REPORT=1", "", "", "", None,
           "after the compile, list every tiled kernel with a barrier: compiled on the host accelerators, or on "
           "fibers and why"),
    Option("--cflags", "", "pkg-config --cflags amp_compat", "", "", None,
           "print the compile flags (for other build systems)"),
    Option("--libs", "", "pkg-config --libs amp_compat", "", "", None,
           "print the link flags (for other build systems)"),
    Option("--amp-verbose", "", "", "", "", None, "print the compiler command before running it"),
    Option("--help", "", "", "", "", None, "this text (also --amp-help)"),
]

ENVIRONMENT = [
    ("AMP_CXX", "the host compiler (default g++)"),
    ("AMP_CUDA_CXX", "the CUDA compiler (default clang++-22)"),
    ("AMP_CUDA_PATH", "the CUDA toolkit (default /usr/local/cuda)"),
    ("AMP_HIP_CXX", "the HIP compiler (default hipcc)"),
    ("AMP_KOKKOS_ROOT, AMP_KOKKOS_CUDA_ROOT, AMP_KOKKOS_HIP_ROOT", "use this Kokkos install instead of the "
     "configured one"),
    ("AMP_PCH=0", "no precompiled <amp.h> for g++ compiles (built once per set of flags into "
     "$AMP_BUILD_DIR/driver-cache/pch or ~/.cache/amp_compat/pch)"),
    ("AMP_PREFIX_PCH=0", "no precompiled prefix header: a source's first #include \"stdafx.h\" (any header of "
     "its own) precompiled for --msvc compiles and the host tile compiler's parses, as Visual Studio's /Yu "
     "(into $AMP_BUILD_DIR/prefix-pch or ~/.cache/amp_compat/prefix-pch)"),
]

# The mode each marked row stands for on a compile line.
MODE_OF_FLAG = {"--gpu[=cuda|hip]": "gpu", "--windows-compat": "windows", "--msvc": "msvc", "--checked": "checked"}
MODE_MARKS = {MODE_OF_FLAG[o.flag]: re.compile(o.mark) for o in OPTIONS if o.mark}


def flags(flag, column, include):
    """The flags a row's cflags or libs column lists, <include> being the
    amp_compat include folder (driver.py adds these as written here)."""
    row = next(o for o in OPTIONS if o.flag == flag)
    return getattr(row, column).replace("<include>", str(include)).split()


def modes_of(args):
    """The modes a compile line carries, by the table's marks: {gpu: ""|"cuda"|"hip",
    windows, msvc, checked}. Forced includes are read as their file names
    (-include FILE and -includeFILE), `-x LANG` as `-xLANG`."""
    words = []
    for i, a in enumerate(args):
        if a in ("-include", "-x") and i + 1 < len(args):
            continue
        if i and args[i - 1] == "-include":
            words.append(a.replace("\\", "/"))
        elif i and args[i - 1] == "-x":
            words.append("-x" + a)
        elif a.startswith("-include") and len(a) > 8 and not a.startswith("-include-"):
            words.append(a[8:].replace("\\", "/"))
        else:
            words.append(a)
    found = {m: any(r.search(w) for w in words) for m, r in MODE_MARKS.items()}
    gpu = ""
    if found["gpu"]:
        hip = any(w.startswith("--offload-arch") or w == "-xhip" for w in words)
        gpu = "hip" if hip else "cuda"
    return {"gpu": gpu, "windows": found["windows"], "msvc": found["msvc"], "checked": found["checked"] and not gpu}


def help_text(prog="amp++"):
    """`amp++ --help`: the table."""
    out = [f"{prog} -- compiler driver for C++ AMP code on amp_compat; behaves like g++.", "",
           f"  {prog} [driver options] [compiler arguments]", "",
           "Everything that is not a driver option goes to the compiler unchanged (-c, -o, several sources,",
           "objects and archives, -std=, -O, -g, -D/-U/-I, -fPIC, -shared, -Wl,...). It adds the amp_compat",
           "flags (prelude, include paths, -O2 and the C++ standard of the Kokkos install) and, when it links,",
           "Kokkos and Boost.Context.", "", "Driver options:"]
    for o in OPTIONS:
        out.append(f"  {o.flag}")
        out.append(f"      {o.help}")
        extra = [("environment", o.env), ("CMake", o.cmake), ("--cflags", o.cflags), ("--libs", o.libs)]
        out += [f"      {k}: {v}" for k, v in extra if v]
    out += ["", "Environment:"] + [f"  {k}: {v}" for k, v in ENVIRONMENT]
    out += ["", "The compiler's own options: run it with --help (g++ --help, clang++-22 --help)."]
    return "\n".join(out) + "\n"


def readme_lines():
    """The option list of README.md's "Compiling your own AMP code" (one line
    each, as tests/driver checks it there)."""
    return [f"- `{o.flag}`: {o.help}" for o in OPTIONS]


if __name__ == "__main__":
    import sys
    if sys.argv[1:] == ["--readme"]:
        print("\n".join(readme_lines()))
    else:
        sys.stdout.write(help_text())
