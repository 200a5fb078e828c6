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

# The compiler of each build, in one place (amp++, ./amp build, bin/amp-vs,
# the project's own CMake builds and ./amp conformance ask compiler() or
# `python3 -m amp_driver compiler`): the variable that names another, the
# default, and what the variable says in --help.
Compiler = namedtuple("Compiler", "var default what")
COMPILERS = {
    "host": Compiler("AMP_CXX", "g++", "the host compiler"),
    "msvc": Compiler("AMP_MSVC_CXX", "clang++-22", "the compiler of the MSVC dialect (--msvc)"),
    "cuda": Compiler("AMP_CUDA_CXX", "clang++-22", "the CUDA compiler"),
    "hip": Compiler("AMP_HIP_CXX", "hipcc", "the HIP compiler"),
    "check": Compiler("AMP_CHECK_CLANG", "clang++-22", "the Clang that parses for --amp-check, the host tile "
                      "compiler and the Clang plugins' build"),
}
GPU_KINDS = ("cuda", "hip")

# Clang's errors where GCC (the host build's compiler) and nvcc only warn:
# `register` locals (C++17 made them an error in Clang; CUDA ports keep
# them), narrowing in braces (`unsigned char b[] = {i + 200};`) and a macro
# right after a string literal (`"%"PRId64`). Turned off in the tile
# compiler's Clang parse (where a failed parse left every tiled kernel of
# the file on fibers) and in GPU compiles (driver.py, and
# cmake/amp_compat_gpu.cmake), so that a source GCC builds builds there too.
GCC_LENIENCE = ["-Wno-register", "-Wno-c++11-narrowing", "-Wno-reserved-user-defined-literal"]


def gpu_kind(value, env):
    """The GPU build that --gpu=VALUE means ("" or None: a bare --gpu, whose
    kind AMP_GPU names, CUDA by default); ValueError for another."""
    kind = value or env.get("AMP_GPU") or "cuda"
    if kind not in GPU_KINDS:
        raise ValueError(f"--gpu={kind}: the GPU builds are --gpu=cuda and --gpu=hip" if value else
                         f"AMP_GPU={kind}: expected cuda or hip")
    return kind


def compiler(gpu, msvc, env):
    """(the compiler, the variable that names another) of a build: gpu ""
    (host), "cuda" or "hip"; msvc: --msvc. A GPU build's compiler is its
    GPU compiler, --msvc or not (the dialect's flags go to that compiler)."""
    return _named(COMPILERS[gpu or ("msvc" if msvc else "host")], env)


def parse_clang(env):
    """The Clang of the source parses (the restrict(amp) check, the host tile
    compiler) and of the plugins they load, whatever the build's compiler."""
    return _named(COMPILERS["check"], env)[0]


def _named(row, env):
    return env.get(row.var) or row.default, row.var


def _compiler_env(mode):
    row = COMPILERS[mode]
    return f"{row.var} (the compiler, default {row.default})"


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
    Option("--msvc", _compiler_env("msvc"), "target amp_compat::msvc",
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

ENVIRONMENT = [(c.var, f"{c.what} (default {c.default})") for m, c in COMPILERS.items() if m != "msvc"] + [
    ("AMP_CUDA_PATH", "the CUDA toolkit (default /usr/local/cuda)"),
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
    (-include FILE and -includeFILE), `-x LANG` as `-xLANG`, `-D X` as `-DX`."""
    from .job import forced_includes, scan  # the one reading of the compile line (os and re only)
    words = [f.replace("\\", "/") for f in forced_includes(args)]
    for _, opt, value in scan(args):
        if opt in ("-x", "-D", "-U") and value is not None:
            words.append(opt + value)
        elif opt in ("-o", "-MF", "-MT", "-MQ"):  # a file's name is no mark
            words.append(opt)
        elif opt is None or not opt.startswith("-include") or opt.startswith("-include-"):
            words += [w for w in (opt, value) if w is not None]
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
