"""What a Visual C++ project means for a Linux build: its targets, sources,
definitions, include directories, forced includes, precompiled header and
libraries, read from an evaluated project (msbuild.Project) for one
configuration. Settings with no Linux meaning are listed in `notes`."""
import os
import re

from .msbuild import Project, VsError, winpath, resolve_path
from .sln import Solution, KNOWN_TYPES, FOLDER_TYPE

# Libraries of the Windows SDK: the program gets their functions from
# amp_compat's Windows companions (or does not need them) on Linux.
WINDOWS_LIBS = set("""
kernel32 user32 gdi32 winspool comdlg32 advapi32 shell32 ole32 oleaut32 uuid odbc32 odbccp32
d3d11 d3d10 d3d10_1 d3d9 d3d12 dxgi dxguid d3dcompiler d3dcsx d3dcsxd d3dx11 d3dx10 d2d1 dwrite
ws2_32 wsock32 winmm version shlwapi comctl32 setupapi rpcrt4 psapi dbghelp crypt32 bcrypt secur32
netapi32 iphlpapi userenv wininet winhttp urlmon imm32 msimg32 opengl32 glu32 mincore windowscodecs
runtimeobject ntdll powrprof wtsapi32 amp amp_math vcamp msvcrt msvcrtd libcmt libcmtd ucrt ucrtd
vcruntime vcruntimed libucrt libvcruntime delayimp
""".split())

# Google Test as built on Windows (GTEST_ROOT's msvc/ projects, NuGet) ->
# the targets of Debian's GoogleTest (libgtest-dev, find_package(GTest)).
GTEST_LIBS = {
    "gtest": "GTest::gtest", "gtestd": "GTest::gtest",
    "gtest_main": "GTest::gtest_main", "gtest_maind": "GTest::gtest_main",
    "gmock": "GTest::gmock", "gmockd": "GTest::gmock",
    "gmock_main": "GTest::gmock_main", "gmock_maind": "GTest::gmock_main",
    # Microsoft's native unit-test framework: its tests run through amp_compat's
    # CppUnitTest.h, which registers them with GoogleTest; gtest_main runs them.
    "microsoft.visualstudio.testtools.cppunittestframework": "GTest::gtest_main",
}

# A source that uses Microsoft's native unit-test framework.
CPPUNITTEST_INCLUDE = re.compile(rb'^[ \t]*#[ \t]*include[ \t]*[<"]CppUnitTest\.h[">]', re.M | re.I)

KINDS = {"application": "exe", "staticlibrary": "static", "dynamiclibrary": "shared"}
STANDARDS = {"stdcpp14": 17, "stdcpp17": 17, "stdcpp20": 20, "stdcpplatest": 20, "default": 17, "": 17}


def split_list(text):
    """An MSBuild list ('a;b;;c') without empty entries or duplicates, in order."""
    out = []
    for part in text.split(";"):
        part = part.strip()
        if part and part not in out:
            out.append(part)
    return out


class Source:
    def __init__(self, path):
        self.path = path
        self.pch = ""            # Create / Use / NotUsing / "" (none)
        self.defines, self.undefs, self.includes, self.forced = [], [], [], []
        self.language = "C" if path.lower().endswith(".c") else "CXX"


class VcProject:
    """One C++ project for one configuration (Configuration|Platform)."""

    def __init__(self, path, config, platform, solution_dir=None, env=None):
        self.path = os.path.abspath(path)
        self.dir = os.path.dirname(self.path)
        self.config, self.platform = config, platform
        self.notes = []
        sdir = solution_dir or self.dir
        glob_props = {"Configuration": config, "Platform": platform,
                      "SolutionDir": sdir.rstrip("/") + "/", "SolutionName": os.path.basename(sdir)}
        if solution_dir is None:
            glob_props["SolutionDir"] = self.dir + "/"
        self.p = Project(self.path, glob_props, env)
        self.notes += self.p.notes
        props = self.p.props
        self.name = props.get("ProjectName") or os.path.splitext(os.path.basename(self.path))[0]
        self.guid = props.get("ProjectGuid", "").strip("{}").upper()
        self.target_name = props.get("TargetName") or self.name
        where = os.path.basename(self.path)

        cfgs = [i.include for i in self.p.items_of("ProjectConfiguration")]
        if cfgs and f"{config}|{platform}".lower() not in [c.lower() for c in cfgs]:
            raise VsError(f"{self.path}: no configuration '{config}|{platform}'; the project has: {', '.join(cfgs)}")
        ctype = props.get("ConfigurationType", "Application")
        self.kind = KINDS.get(ctype.lower())
        # Native unit-test projects (Visual Studio's "Native Unit Test Project":
        # a DLL that the IDE's test runner loads) become test programs: the
        # CppUnitTest.h companion registers their TEST_METHODs with GoogleTest,
        # gtest_main runs them, and CTest runs the program (self.test).
        self.test = None
        if self.kind in ("exe", "shared") and self._is_cppunittest(props):
            self.kind, self.test = "exe", "cppunittest"
            self.notes.append("CppUnitTest project: built as a test program (amp_compat's CppUnitTest.h over "
                              "GoogleTest) and registered with CTest")
        if self.kind is None:
            self.notes.append(f"skipped: ConfigurationType {ctype} (only Application, StaticLibrary and "
                              "DynamicLibrary projects are built)")
        for prop, what in (("CLRSupport", "C++/CLI (/clr)"), ("UseOfMfc", "MFC"), ("UseOfAtl", "ATL")):
            v = props.get(prop, "").lower()
            if v and v not in ("false", "no"):
                self.notes.append(f"not accepted: {prop}={props.get(prop)}: {what} does not exist on Linux; "
                                  "the sources that use it will not compile")

        cl = self.p.definitions.get("ClCompile", {})
        charset = props.get("CharacterSet", "").lower()
        implicit = []
        if charset == "unicode":
            implicit += ["UNICODE", "_UNICODE"]
        elif charset == "multibyte":
            implicit += ["_MBCS"]
        if self.kind == "shared":
            implicit.append("_WINDLL")   # Microsoft.Cpp.props adds it to DLL projects
        self.debug = props.get("UseDebugLibraries", "").lower() == "true"
        self.implicit = implicit
        self.ignored_options = []
        self.defines, self.undefs, self.includes, self.forced, self.std = self._compile_settings(cl, where, True)
        self.pch = cl.get("precompiledheader", "")
        self.pch_header = cl.get("precompiledheaderfile", "") or "stdafx.h"

        self.sources, self.excluded = [], []
        for item in self.p.items_of("ClCompile"):
            path = item.path()
            if item.get("excludedfrombuild").lower() == "true":
                self.excluded.append(path)
                continue
            if not os.path.isfile(path):
                raise VsError(f"{self.path}: source {item.include} not found ({path})")
            src = Source(path)
            src.pch = item.get("precompiledheader")
            if item.get("compileas").lower() == "compileasc":
                src.language = "C"
            elif item.get("compileas").lower() == "compileascpp":
                src.language = "CXX"
            d, u, inc, fi, _ = self._compile_settings(item.meta, f"{where}:{item.include}", False)
            src.defines = [x for x in d if x not in self.defines]
            # Per-file definitions that replace the project's (no %(PreprocessorDefinitions)).
            src.undefs = [x.split("=")[0] for x in self.defines if x not in d] + [x for x in u if x not in self.undefs]
            src.includes = [x for x in inc if x not in self.includes]
            src.forced = [x for x in fi if x not in self.forced]
            self.sources.append(src)
        if self.kind and not self.sources:
            self.notes.append("no sources to compile in this configuration")
        if self.ignored_options:
            self.notes.append("ignored MSVC compiler options: " + " ".join(sorted(set(self.ignored_options))))

        # Skipped build steps and item types with no Linux meaning.
        for step in ("PreBuildEvent", "PreLinkEvent", "PostBuildEvent", "CustomBuildStep"):
            cmd = self.p.definitions.get(step, {}).get("command", "").strip()
            if cmd:
                self.notes.append(f"skipped: {step} `{cmd.splitlines()[0].strip()}`"
                                  + (" ..." if len(cmd.splitlines()) > 1 else "")
                                  + " (Windows commands are not run)")
        for itype, what in (("ResourceCompile", "Windows resource (.rc)"), ("CustomBuild", "custom build step"),
                            ("MASM", "MASM assembly"), ("FxCompile", "HLSL shader"), ("Midl", "MIDL interface")):
            for item in self.p.items_of(itype):
                if item.get("excludedfrombuild").lower() != "true":
                    self.notes.append(f"skipped: {what} {item.include}")

        # Linking.
        link = self.p.definitions.get("Lib" if self.kind == "static" else "Link", {})
        self.lib_dirs = []
        for d in split_list(link.get("additionallibrarydirectories", "")) + split_list(props.get("LibraryPath", "")):
            p = resolve_path(os.path.normpath(os.path.join(self.dir, winpath(d))))
            if os.path.isdir(p):
                if p not in self.lib_dirs:
                    self.lib_dirs.append(p)
            else:
                self.notes.append(f"library directory {d} does not exist here: left out")
        deps = split_list(link.get("additionaldependencies", ""))
        deps += [i.include for i in self.p.items_of("Library")]
        self.libs, dropped = [], []
        for dep in deps:
            base = os.path.basename(winpath(dep))
            stem = re.sub(r"\.lib$", "", base, flags=re.I)
            if stem.lower() in GTEST_LIBS:
                self._add_lib(GTEST_LIBS[stem.lower()])
            elif stem.lower() in WINDOWS_LIBS:
                dropped.append(base)
            else:
                self._add_lib(("lib", stem))
        if dropped:
            self.notes.append("Windows libraries left out (their functions come from the Windows companions "
                              "or do not exist on Linux): " + ", ".join(dropped))
        pkgs = os.path.join(self.dir, "packages.config")
        nuget = [i.include for i in self.p.items_of("PackageReference")]
        if os.path.isfile(pkgs):
            with open(pkgs, encoding="utf-8-sig", errors="replace") as f:
                nuget += re.findall(r'<package\s+[^>]*id="([^"]+)"', f.read())
        for pkg in nuget:
            if re.search(r"googletest|gtest", pkg, re.I):
                self.notes.append(f"NuGet package {pkg}: Debian's GoogleTest (gtest, gtest_main) instead")
                self._add_lib("GTest::gtest")
                self._add_lib("GTest::gtest_main")
            else:
                self.notes.append(f"NuGet package {pkg}: not available here, left out")
        if self.test == "cppunittest":
            self._add_lib("GTest::gtest")
            self._add_lib("GTest::gtest_main")
        elif self.kind == "exe" and any(l in ("GTest::gtest", "GTest::gtest_main", "GTest::gmock") for l in self.libs):
            self.test = "gtest"   # a Google Test program: CTest runs it too
        self.references = []   # (path, link?) of referenced projects
        for item in self.p.items_of("ProjectReference"):
            link_it = item.get("linklibrarydependencies", "true").lower() != "false" \
                and item.get("referenceoutputassembly", "true").lower() != "false"
            self.references.append((item.path(), link_it))

    def _is_cppunittest(self, props):
        """Whether this is a native unit-test project: its ProjectSubType says
        so, or one of its sources includes CppUnitTest.h."""
        if props.get("ProjectSubType", "").lower() == "nativeunittestproject":
            return True
        for item in self.p.items_of("ClCompile"):
            try:
                with open(item.path(), "rb") as f:
                    if CPPUNITTEST_INCLUDE.search(f.read()):
                        return True
            except OSError:
                pass   # a missing source is reported where sources are read
        return False

    def _add_lib(self, lib):
        if lib not in self.libs:
            self.libs.append(lib)

    def _compile_settings(self, cl, where, project_level):
        """(defines, undefs, include dirs, forced includes, C++ standard) of ClCompile metadata."""
        defines = split_list(cl.get("preprocessordefinitions", ""))
        undefs = split_list(cl.get("undefinepreprocessordefinitions", ""))
        incs = split_list(cl.get("additionalincludedirectories", ""))
        if project_level:
            incs += split_list(self.p.props.get("IncludePath", "")) + split_list(self.p.props.get("ExternalIncludePath", ""))
        forced = split_list(cl.get("forcedincludefiles", ""))
        std = STANDARDS.get(cl.get("languagestandard", "").lower(), 17)
        opts = cl.get("additionaloptions", "").split()
        i = 0
        while i < len(opts):
            o = opts[i]
            m = re.match(r"^[/-](D|U|I|FI)(.*)$", o)
            if m:
                val = m.group(2) or (opts[i + 1] if i + 1 < len(opts) else "")
                i += 1 if m.group(2) else 2
                {"D": defines, "U": undefs, "I": incs, "FI": forced}[m.group(1)].append(val)
                continue
            m = re.match(r"^[/-]std:c\+\+(\d+|latest)$", o)
            if m:
                std = 20 if m.group(1) == "latest" else max(17, int(m.group(1)))
            elif project_level:
                self.ignored_options.append(o)
            i += 1
        # Implicit definitions, for a file too: its list is compared with the project's.
        defines = [d for d in self.implicit if d not in defines] + defines
        if cl.get("runtimelibrary", "").lower() in ("multithreadeddebug", "multithreadeddebugdll"):
            defines.append("_DEBUG")  # what /MTd and /MDd define
        out_incs = []
        for d in incs:
            p = resolve_path(os.path.normpath(os.path.join(self.dir, winpath(d))))
            if os.path.isdir(p):
                if p not in out_incs:
                    out_incs.append(p)
            elif project_level:
                self.notes.append(f"include directory {d} does not exist here: left out")
        out_forced = []
        for f in forced:
            p = resolve_path(os.path.normpath(os.path.join(self.dir, winpath(f))))
            if not os.path.isfile(p):
                p = next((resolve_path(os.path.join(d, winpath(f))) for d in out_incs
                          if os.path.isfile(resolve_path(os.path.join(d, winpath(f))))), winpath(f))
            out_forced.append(p)
        return list(dict.fromkeys(defines)), undefs, out_incs, out_forced, std

    def pch_path(self):
        """The precompiled header as a file here (searched like #include "..."
        from the creating source, then the include directories), or None."""
        creators = [s for s in self.sources if s.pch.lower() == "create"]
        dirs = [os.path.dirname(s.path) for s in creators] + [self.dir] + self.includes
        for d in dirs:
            p = resolve_path(os.path.join(d, winpath(self.pch_header)))
            if os.path.isfile(p):
                return p
        return None


class Build:
    """The C++ projects a .sln or .vcxproj builds in one configuration, in
    link order (referenced projects first), with the skipped ones noted."""

    def __init__(self, path, config=None, env=None):
        self.path = os.path.abspath(path)
        self.notes, self.projects, self.order_deps = [], [], {}
        if not os.path.isfile(self.path):
            raise VsError(f"{path}: no such file")
        ext = os.path.splitext(self.path)[1].lower()
        if ext == ".sln":
            sln = Solution(self.path)
            self.name, self.dir = sln.name, sln.dir
            self.config = sln.pick_config(config)
            by_guid = {}
            for sp in sln.projects:
                if sp.type_guid == FOLDER_TYPE:
                    continue
                if not sp.is_cpp:
                    kind = KNOWN_TYPES.get(sp.type_guid, f"type {{{sp.type_guid}}}")
                    self.notes.append(f"skipped: {kind} project {sp.name} ({sp.relpath}): only C++ projects are built")
                    continue
                pcfg, built = sp.configs.get(self.config, (self.config, True))
                if not built:
                    self.notes.append(f"skipped: {sp.name}: not built in solution configuration {self.config}")
                    continue
                if not os.path.isfile(sp.path):
                    raise VsError(f"{self.path}: project {sp.name}: {sp.path} does not exist")
                c, _, plat = pcfg.partition("|")
                vp = VcProject(sp.path, c, plat, sln.dir, env)
                by_guid[sp.guid] = vp
                self.projects.append(vp)
            for sp in sln.projects:
                if sp.guid in by_guid:
                    self.order_deps[by_guid[sp.guid].path] = [by_guid[g].path for g in sp.depends if g in by_guid]
        elif ext == ".vcxproj":
            self.name = os.path.splitext(os.path.basename(self.path))[0]
            self.dir = os.path.dirname(self.path)
            self.config = config or "Release|x64"
            c, _, plat = self.config.partition("|")
            if not plat:
                raise VsError(f"--config {self.config}: write it as Configuration|Platform, e.g. Release|x64")
            todo, seen = [self.path], set()
            while todo:
                p = todo.pop(0)
                if p in seen:
                    continue
                seen.add(p)
                if not os.path.isfile(p):
                    raise VsError(f"{self.path}: referenced project {p} does not exist")
                vp = VcProject(p, c, plat, None, env)
                self.projects.append(vp)
                todo += [r for r, _ in vp.references]
        else:
            raise VsError(f"{path}: expected a .sln or .vcxproj file")
        self._order()

    def project(self, path):
        return next((p for p in self.projects if p.path == path), None)

    def _order(self):
        """Referenced projects before the projects that use them; a reference
        outside the build or a cycle is an error."""
        done, out, stack = set(), [], []

        def visit(p):
            if p.path in done:
                return
            if p.path in stack:
                raise VsError(f"project references form a cycle: {' -> '.join(stack + [p.path])}")
            stack.append(p.path)
            for r, _ in p.references:
                q = self.project(r)
                if q is None:
                    raise VsError(f"{p.path}: ProjectReference {r} is not a C++ project of this build")
                visit(q)
            for r in self.order_deps.get(p.path, []):
                visit(self.project(r))
            stack.pop()
            done.add(p.path)
            out.append(p)

        for p in list(self.projects):
            visit(p)
        self.projects = out
        # An AdditionalDependencies entry naming another project's output is that project.
        by_target = {p.target_name.lower(): p for p in self.projects if p.kind in ("static", "shared")}
        for p in self.projects:
            p.link_projects = [self.project(r) for r, link in p.references
                               if link and self.project(r).kind in ("static", "shared")]
            kept = []
            for lib in p.libs:
                q = by_target.get(lib[1].lower()) if isinstance(lib, tuple) else None
                if q is not None and q is not p:
                    if q not in p.link_projects:
                        p.link_projects.append(q)
                else:
                    kept.append(lib)
            p.libs = kept

    @property
    def debug(self):
        return any(p.debug for p in self.projects)
