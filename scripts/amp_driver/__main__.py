"""python3 -m amp_driver COMMAND ARGS...

  c++ BINDIR ARGS...       amp++ (driver.py); BINDIR: the folder of the amp++ script
  launch COMPILER ARGS...  the compiler launcher (launcher.py)
  rewrite [--in-place] [--report] [--out-dir DIR] FILE...   the restrict pass alone
  help                     amp++ --help (the option table)
  pkgconfig                the Cflags:/Libs: lines of amp_compat.pc (amp++'s host flags)
  readme-options           the README's option list (the option table)
  plugin NAME              build the Clang plugin NAME if needed; print its path (plugins.py)
  compiler [--gpu[=cuda|hip]] [--msvc] [--var]   the compiler of that build (options.compiler; a
                           bare --gpu: AMP_GPU's kind); --var: the variable that names another instead
  compiler --check         the Clang of the source parses (--amp-check, the tile compiler)
  check-flags              the flags that add the restrict(amp) check to a clang++ host parse, one a line
  tile-compiler SRC OUT FLAG...   the host tile compiler's parse alone (tile_compiler.py)
  tiles-census FILE        the census of tiled kernels a build wrote (AMP_TILES_CENSUS), as a user reads it
  backends [KIND]          the backends (backends.txt)
  vsproj build|import ...  Visual Studio solutions
  conformance ...          Microsoft's conformance suite
"""
import os
import sys


def main(argv):
    cmd, rest = (argv[0], argv[1:]) if argv else ("", [])
    if cmd == "launch" and rest:
        import shutil
        if not shutil.which(rest[0]):
            sys.stderr.write(f"launch: error: the compiler {rest[0]} is not found\n")
            return 2
        from .launcher import launch
        return launch(rest)
    if cmd == "c++":
        from .driver import main as driver_main
        return driver_main(rest[1:], rest[0])
    if cmd == "rewrite":
        from .passes.restrict_pairs import main as rewrite_main
        return rewrite_main(rest)
    if cmd == "help":
        from .options import help_text
        sys.stdout.write(help_text())
        return 0
    if cmd == "pkgconfig":
        from .driver import pkgconfig_lines
        print("\n".join(pkgconfig_lines()))
        return 0
    if cmd == "readme-options":
        from .options import readme_lines
        print("\n".join(readme_lines()))
        return 0
    if cmd == "plugin":
        from .plugins import main as plugin_main
        return plugin_main(rest)
    if cmd == "check-flags" and not rest:
        from .plugins import PluginError, check_flags
        try:
            print("\n".join(check_flags()))
        except PluginError as e:
            sys.stderr.write(f"{e}\n")
            return 3
        return 0
    if cmd == "compiler":
        return print_compiler(rest)
    if cmd == "tile-compiler":
        from .tile_compiler import main as tc_main
        return tc_main(rest)
    if cmd == "tiles-census" and len(rest) == 1:
        if not os.path.isfile(rest[0]):
            sys.stderr.write(f"tiles-census: error: no census file {rest[0]} (a build writes one where "
                             "AMP_TILES_CENSUS names)\n")
            return 2
        from .passes.host_tiles import print_census
        print_census(rest[0])
        return 0
    if cmd == "backends":
        from .backends import main as backends_main
        return backends_main(rest)
    if cmd == "vsproj":
        from .vsproj.__main__ import main as vs_main
        return vs_main(rest)
    if cmd == "conformance":
        from .conformance import main as conf_main
        sys.argv = ["amp conformance"] + rest
        return conf_main()
    sys.stderr.write(__doc__)
    return 2


def print_compiler(argv):
    """`compiler [--gpu[=cuda|hip]] [--msvc] [--var]` (./amp, bin/amp-vs):
    prints the compiler of that build, or with --var the variable that
    names another; exit status 2 for anything else or a bad GPU kind."""
    from .options import compiler, gpu_kind
    if argv == ["--check"]:
        from .options import parse_clang
        print(parse_clang(os.environ))
        return 0
    gpu, msvc, var = None, False, False
    for a in argv:
        if a == "--gpu" or a.startswith("--gpu="):
            gpu = a[len("--gpu="):]
        elif a in ("--msvc", "--var"):
            msvc, var = msvc or a == "--msvc", var or a == "--var"
        else:
            sys.stderr.write(f"compiler: error: unknown argument {a} (--gpu[=cuda|hip], --msvc, --var)\n")
            return 2
    try:
        kind = gpu_kind(gpu, os.environ) if gpu is not None else ""
    except ValueError as e:
        sys.stderr.write(f"compiler: error: {e}\n")
        return 2
    print(compiler(kind, msvc, os.environ)[1 if var else 0])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
