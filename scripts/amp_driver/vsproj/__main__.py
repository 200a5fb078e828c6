"""Visual Studio solutions and projects on amp_compat.

  scripts/amp_driver.sh vsproj build  X.sln|X.vcxproj [options]   generate, configure and build (CMake)
  scripts/amp_driver.sh vsproj import X.sln|X.vcxproj [options]   write an equivalent CMakeLists.txt
                                                            on find_package(amp_compat)
Options:
  --config C         Configuration|Platform (default Release|x64, else the first Release one)
  --out DIR          where to write (build: the build folder; import: default ./NAME-cmake)
  --print            print what each project means (flags, sources, notes); build nothing
  --no-windows-compat  leave out the Windows/PPL companions (default: in, as VS code is Windows code)
  --no-msvc          standard C++ instead of MSVC's permissive dialect (default: the dialect, Clang)
  --jobs N           parallel compiles (build)
  --test             build: then run the test programs (Google Test programs and CppUnitTest
                     projects, which become test programs) with CTest
  --amp-source DIR   build: amp_compat checkout to add_subdirectory (./amp passes it)
  --amp-prefix DIR   build: an amp_compat install to find_package (bin/amp-vs passes it)
  --out-base DIR     build: without --out, build in DIR/NAME/CONFIG (./amp: build/vs)
  --cmake-arg ARG    build: extra CMake configure argument (repeatable; ./amp passes compiler and Kokkos)

./amp build / ./amp import call this with the checkout's settings.
"""
import argparse
import os
import subprocess
import sys
import time

from .msbuild import VsError
from .model import Build
from .cmakegen import generate, target_names


def describe(build, args):
    """The --print report: what the build derives from each project."""
    rel = lambda p: os.path.relpath(p, build.dir)
    drv = "amp++" + ("" if args.no_windows_compat else " --windows-compat") + ("" if args.no_msvc else " --msvc")
    lines = [f"{os.path.basename(build.path)}: configuration {build.config}"
             + ("" if args.config else " (the default; --config Configuration|Platform to choose)")]
    lines += [f"  note: {n}" for n in build.notes]
    kinds = {"exe": "executable", "static": "static library (.a)", "shared": "shared library (.so)", None: "skipped"}
    for p in build.projects:
        lines.append(f"project {p.name} ({rel(p.path)}, {p.config}|{p.platform}): {kinds[p.kind]}"
                     + (f" {p.target_name}" if p.kind else ""))
        if not p.kind:
            lines += [f"  note: {n}" for n in p.notes]
            continue
        flags = [f"-D{d}" for d in p.defines] + [f"-U{u}" for u in p.undefs] \
            + [f"-I{rel(i)}" for i in p.includes] + [f"-include {rel(f) if os.path.isabs(f) else f}" for f in p.forced]
        lines.append(f"  compile: {drv} -std={'gnu' if not args.no_msvc else 'c'}++{p.std} {' '.join(flags)} -c SOURCE")
        lines.append(f"  sources ({len(p.sources)}): " + " ".join(rel(s.path) for s in p.sources))
        for s in p.sources:
            extra = [f"-D{d}" for d in s.defines] + [f"-U{u}" for u in s.undefs] \
                + [f"-I{rel(i)}" for i in s.includes] + [f"-include {f}" for f in s.forced]
            if extra or s.language == "C":
                lines.append(f"    {rel(s.path)}: " + " ".join(extra + (["(C)"] if s.language == "C" else [])))
        if p.excluded:
            lines.append("  excluded from the build: " + " ".join(rel(x) for x in p.excluded))
        if p.pch.lower() in ("use", "create"):
            creators = [rel(s.path) for s in p.sources if s.pch.lower() == "create"]
            hdr = p.pch_path()
            lines.append(f"  precompiled header: {p.pch} {p.pch_header}" + (f" ({rel(hdr)})" if hdr else " (not found)")
                         + (f", created by {' '.join(creators)}" if creators else "")
                         + "; compiled with each source that includes it")
        libs = [q.name for q in p.link_projects] + [l if isinstance(l, str) else f"-l{l[1]}" for l in p.libs]
        lines.append("  link: " + " ".join(libs + ["amp_compat"]) + (f" (-L {' '.join(p.lib_dirs)})" if p.lib_dirs else ""))
        if "gtest_root" not in {k for k in p.p.props} and any(isinstance(l, str) and l.startswith("GTest") for l in p.libs):
            lines.append("  note: GTEST_ROOT is not set: Google Test is the system's (Debian: libgtest-dev)")
        lines += [f"  note: {n}" for n in p.notes]
    return "\n".join(lines)


def tiles_summary(census):
    """One line: how many tiled kernels the build compiled (the file lists
    them), from the launcher's census."""
    rows = {}
    with open(census) as f:
        for ln in f:
            key, _, rest = ln.rstrip("\n").partition("\t")
            rows[key] = rest.partition("\t")[0]
    if rows:
        c = sum(1 for v in rows.values() if v == "compiled")
        print(f"[amp build] host tiles: {len(rows)} tiled kernel(s) with barriers, {c} compiled, "
              f"{len(rows) - c} on fibers (each with its reason: {census})", file=sys.stderr)


def main(argv):
    ap = argparse.ArgumentParser(prog="amp build|import", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("command", choices=["build", "import"])
    ap.add_argument("path")
    ap.add_argument("--config")
    ap.add_argument("--out")
    ap.add_argument("--print", action="store_true", dest="print_only")
    ap.add_argument("--dry-run", action="store_true", dest="print_only")
    ap.add_argument("--no-windows-compat", action="store_true")
    ap.add_argument("--no-msvc", action="store_true")
    ap.add_argument("--jobs", type=int, default=int(os.environ.get("AMP_JOBS", os.cpu_count() or 1)))
    ap.add_argument("--amp-source")
    ap.add_argument("--amp-prefix")
    ap.add_argument("--cmake-arg", action="append", default=[])
    ap.add_argument("--out-base", default="vs-build")
    ap.add_argument("--test", action="store_true")  # build: then run the test programs with CTest
    ap.add_argument("--gpu", action="store_true", help=argparse.SUPPRESS)  # handled by ./amp
    args = ap.parse_args(argv)
    try:
        build = Build(args.path, args.config)
    except VsError as e:
        print(f"amp {args.command}: error: {e}", file=sys.stderr)
        return 2
    if args.print_only:
        print(describe(build, args))
        return 0
    if not any(p.kind for p in build.projects):
        print(f"amp {args.command}: error: {args.path}: no C++ project to build in {build.config}", file=sys.stderr)
        print(describe(build, args), file=sys.stderr)
        return 2
    print(describe(build, args), file=sys.stderr)
    windows, msvc = not args.no_windows_compat, not args.no_msvc
    if args.command == "import":
        out = os.path.abspath(args.out or f"{build.name}-cmake")
        os.makedirs(out, exist_ok=True)
        with open(os.path.join(out, "CMakeLists.txt"), "w") as f:
            f.write(generate(build, None, windows, msvc))
        from ..options import compiler
        cxx = "" if not msvc else f" -DCMAKE_CXX_COMPILER={compiler('', True, {})[0]}"
        print(f"wrote {os.path.join(out, 'CMakeLists.txt')}\n"
              f"build it: cmake -S {out} -B {out}/build{cxx} -DCMAKE_PREFIX_PATH=<amp_compat install> "
              f"&& cmake --build {out}/build", file=sys.stderr)
        return 0
    if bool(args.amp_source) == bool(args.amp_prefix):
        print("amp build: error: give --amp-source (a checkout) or --amp-prefix (an install); "
              "use ./amp build or bin/amp-vs build", file=sys.stderr)
        return 2
    if args.amp_prefix:
        args.cmake_arg.append(f"-DCMAKE_PREFIX_PATH={os.path.abspath(args.amp_prefix)}")
    cfg = build.config.replace("|", "-") + ("-gpu" if args.gpu else "") + ("" if msvc else "-nomsvc")
    base = os.path.join(args.out_base, build.name) if args.amp_source else \
        os.path.join(args.out_base, f"{build.name}-build")
    out = os.path.abspath(args.out or os.path.join(base, cfg))
    os.makedirs(out, exist_ok=True)
    cml = os.path.join(out, "CMakeLists.txt")
    text = generate(build, os.path.abspath(args.amp_source) if args.amp_source else None, windows, msvc)
    if not os.path.isfile(cml) or open(cml).read() != text:
        with open(cml, "w") as f:
            f.write(text)
    bdir = os.path.join(out, "build")
    print(f"[amp build] {cml}", file=sys.stderr)
    rc = subprocess.call(["cmake", "-S", out, "-B", bdir] + args.cmake_arg, stdout=sys.stderr)
    if rc != 0:
        print("amp build: error: CMake could not configure the build (above)", file=sys.stderr)
        return 1
    # -k: build every target that can be built; report what could not.
    start = time.time() - 1
    # The host tile census of what this build compiled (the launcher appends
    # a line per tiled kernel; tools/tile_compiler/README.md): its summary
    # ends the build's report.
    census = os.path.join(out, "tiles-census.txt")
    open(census, "w").close()
    env = dict(os.environ, AMP_TILES_CENSUS=census)
    rc = subprocess.call(["cmake", "--build", bdir, "-j", str(args.jobs), "--", "-k"], stdout=sys.stderr, env=env)
    tiles_summary(census)
    names = target_names(build)
    built, missing = [], []
    for p in build.projects:
        if not p.kind:
            continue
        stem = p.target_name if p.target_name != p.name else names[p.path]
        if p.kind == "exe":
            f = os.path.join(bdir, "bin", stem)
        else:
            f = os.path.join(bdir, "lib", f"lib{stem}." + ("a" if p.kind == "static" else "so"))
        # After a failed build an old file does not count: only what this run made or found up to date.
        ok = os.path.isfile(f) and (rc == 0 or os.path.getmtime(f) >= start)
        (built if ok else missing).append((p, f))
    for p, f in built:
        print(f"built {p.name}: {f}", file=sys.stderr)
        if p.kind == "exe":
            print(f)  # stdout: the programs, one a line
    if rc != 0:
        print("amp build: error: the build stopped; not built: " + ", ".join(p.name for p, _ in missing)
              + " (compiler errors above)", file=sys.stderr)
        return 1
    if any(p.test for p, _ in built):
        print(f"[amp build] test programs: ctest --test-dir {bdir}", file=sys.stderr)
        if args.test:
            rc = subprocess.call(["ctest", "--test-dir", bdir, "--output-on-failure"], stdout=sys.stderr)
            if rc != 0:
                print("amp build: error: tests failed (above)", file=sys.stderr)
                return 1
    elif args.test:
        print("amp build: note: --test: the solution has no test program", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
