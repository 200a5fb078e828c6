"""A CMakeLists.txt equivalent to a Build (model.Build) on the amp_compat
targets: amp_compat::amp_compat, amp_compat::windows (the Windows/PPL
companions) and amp_compat::msvc (MSVC's template dialect).

Two ways to get amp_compat: `source` (add_subdirectory of a checkout: what
`./amp build` uses) or find_package(amp_compat) (what `./amp import` writes
for users who move to CMake). Sources are referred to by path: nothing is
written into the user's tree."""
import os
import re

RESERVED = {"amp_compat", "amp_compat_windows", "amp_compat_msvc", "amp_compat_gpu", "all", "test", "install",
            "clean", "help", "package"}


def q(text):
    """TEXT as a CMake quoted argument."""
    # ${VS_SOLUTION_DIR} is ours and stays a reference; any other $ is literal.
    return '"' + re.sub(r'[\\"]|\$(?!\{VS_SOLUTION_DIR\})', lambda m: "\\" + m.group(0), text) + '"'


def target_names(build):
    """Project -> CMake target name (CMake's rules; no clash with amp_compat's)."""
    names, used = {}, set()
    for p in build.projects:
        n = re.sub(r"[^A-Za-z0-9_.+-]", "_", p.name)
        if n.lower() in RESERVED or n.lower() in used:
            n += "_vs"
        used.add(n.lower())
        names[p.path] = n
    return names


def generate(build, amp_source=None, windows=True, msvc=True):
    """The CMakeLists.txt text. amp_source: an amp_compat checkout to
    add_subdirectory (else find_package(amp_compat))."""
    base = build.dir
    rel = lambda p: "${VS_SOLUTION_DIR}/" + os.path.relpath(p, base) if os.path.commonpath([p, base]) == base else p
    path = lambda p: q(rel(p))
    projects = [p for p in build.projects if p.kind]
    langs = "C CXX" if any(s.language == "C" for p in projects for s in p.sources) else "CXX"
    std = max([p.std for p in projects] + [17])
    out = [
        "# Generated from " + os.path.basename(build.path) + f" ({build.config}) by amp_compat's",
        "# `amp import`/`amp build` (scripts/amp_driver/vsproj). Sources stay where they are: VS_SOLUTION_DIR.",
        "cmake_minimum_required(VERSION 3.16)",
        f"project({re.sub(r'[^A-Za-z0-9_]', '_', build.name)} LANGUAGES {langs})",
        "",
        f"set(VS_SOLUTION_DIR {q(base)} CACHE PATH \"Folder of the Visual Studio solution\")",
        f"set(CMAKE_CXX_STANDARD {std})",
        "set(CMAKE_CXX_STANDARD_REQUIRED ON)",
        "if(NOT CMAKE_BUILD_TYPE)",
        f"  set(CMAKE_BUILD_TYPE {'Debug' if build.debug else 'Release'})",
        "endif()",
        "set(CMAKE_RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/bin)",
        "set(CMAKE_LIBRARY_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/lib)",
        "set(CMAKE_ARCHIVE_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/lib)",
    ]
    if any(p.kind == "shared" for p in projects):
        out.append("set(CMAKE_POSITION_INDEPENDENT_CODE ON)  # static libraries may end up in a .so")
    out.append("")
    if amp_source:
        out += [
            "# amp_compat from a source checkout (its tests, samples and install rules stay off).",
            f"add_subdirectory({q(amp_source)} amp_compat)",
            "# restrict(cpu)/restrict(amp) overload pairs need amp_compat's source rewrite.",
            "if(NOT CMAKE_CXX_COMPILER_LAUNCHER)",
            f"  set(CMAKE_CXX_COMPILER_LAUNCHER {q(os.path.join(amp_source, 'scripts', 'restrict_launcher.sh'))})",
            "endif()",
        ]
    else:
        out += [
            "find_package(amp_compat CONFIG REQUIRED)",
            "# restrict(cpu)/restrict(amp) overload pairs need amp_compat's source rewrite.",
            "if(NOT CMAKE_CXX_COMPILER_LAUNCHER AND AMP_COMPAT_RESTRICT_LAUNCHER)",
            "  set(CMAKE_CXX_COMPILER_LAUNCHER ${AMP_COMPAT_RESTRICT_LAUNCHER})",
            "endif()",
        ]
    # The MSVC dialect is GNU C++ plus Microsoft's extensions (amp++ --msvc:
    # -std=gnu++17). Set after find_package: Kokkos' package config turns it off.
    out.append(f"set(CMAKE_CXX_EXTENSIONS {'ON' if msvc else 'OFF'})")
    if any(isinstance(l, str) and l.startswith("GTest::") for p in projects for l in p.libs):
        out += ["# Google Test: GTEST_ROOT if set, else the system's (Debian: libgtest-dev).",
                "if(DEFINED ENV{GTEST_ROOT} AND NOT DEFINED GTEST_ROOT)",
                "  set(GTEST_ROOT $ENV{GTEST_ROOT})",
                "endif()",
                "find_package(GTest REQUIRED)"]
    if any(p.test for p in projects):
        out += ["# Test programs (Google Test, and CppUnitTest projects through amp_compat's",
                "# CppUnitTest.h) run under CTest: ctest --test-dir <build folder>.",
                "enable_testing()"]
    # In amp++'s order: the MSVC dialect's header comes before amp_compat's prelude
    # (it sets up the GNU macros libstdc++ reads), the Windows companions after it.
    amp_libs = (["amp_compat::msvc"] if msvc else []) + ["amp_compat::amp_compat"] \
        + (["amp_compat::windows"] if windows else [])
    names = target_names(build)
    for note in build.notes:
        out.append(f"# note: {note}")
    for p in projects:
        t = names[p.path]
        out += ["", f"# ---- {p.name} ({os.path.relpath(p.path, base)}, {p.config}|{p.platform})"]
        for note in p.notes:
            out.append(f"# note: {note}")
        for x in p.excluded:
            out.append(f"# excluded from the build by the project: {rel(x)}")
        cmd = {"exe": f"add_executable({t}", "static": f"add_library({t} STATIC", "shared": f"add_library({t} SHARED"}
        out.append(cmd[p.kind])
        out += [f"  {path(s.path)}" for s in p.sources]
        out.append(")")
        if p.target_name != p.name:
            out.append(f"set_target_properties({t} PROPERTIES OUTPUT_NAME {q(p.target_name)})")
        if p.defines:
            out.append(f"target_compile_definitions({t} PRIVATE " + " ".join(q(d) for d in p.defines) + ")")
        if p.includes:
            out.append(f"target_include_directories({t} PRIVATE " + " ".join(path(i) for i in p.includes) + ")")
        opts = [f"-U{u}" for u in p.undefs] + [f"SHELL:-include {rel(x) if os.path.isabs(x) else x}" for x in p.forced]
        if opts:
            out.append(f"target_compile_options({t} PRIVATE " + " ".join(q(o) for o in opts) + ")")
        if p.pch.lower() == "use":
            hdr = p.pch_path()
            out.append(f"# precompiled header {p.pch_header}"
                       + (f" ({rel(hdr)})" if hdr else "") + ": every source includes it itself, as"
                       " MSVC requires; it is compiled with each source")
        for s in p.sources:
            props = []
            if s.defines:
                props.append("COMPILE_DEFINITIONS " + q(";".join(s.defines)))
            if s.includes:
                props.append("INCLUDE_DIRECTORIES " + q(";".join(rel(i) for i in s.includes)))
            fopts = [f"-U{u}" for u in s.undefs] + [f"SHELL:-include {rel(x) if os.path.isabs(x) else x}" for x in s.forced]
            if fopts:
                props.append("COMPILE_OPTIONS " + q(";".join(fopts)))
            if s.language != ("C" if s.path.lower().endswith(".c") else "CXX"):
                props.append(f"LANGUAGE {s.language}")
            if props:
                out.append(f"set_source_files_properties({path(s.path)} PROPERTIES " + " ".join(props) + ")")
        if p.lib_dirs:
            out.append(f"target_link_directories({t} PRIVATE " + " ".join(path(d) for d in p.lib_dirs) + ")")
        scope = "PUBLIC" if p.kind == "static" else "PRIVATE"
        libs = [names[r.path] for r in p.link_projects] + [l if isinstance(l, str) else l[1] for l in p.libs]
        out.append(f"target_link_libraries({t} {scope} " + " ".join(libs + amp_libs) + ")")
        order = [names[r] for r in build.order_deps.get(p.path, []) if build.project(r).kind]
        if order:
            out.append(f"add_dependencies({t} " + " ".join(order) + ")")
        if p.test:
            # Run where Visual Studio's test runner would: the project's folder
            # (relative data files are found as on Windows).
            out.append(f"add_test(NAME {t} COMMAND {t} WORKING_DIRECTORY {path(p.dir)})")
    return "\n".join(out) + "\n"
