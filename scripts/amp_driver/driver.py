"""amp++: the compiler driver for C++ AMP code on amp_compat; behaves like g++.

  amp++ [driver options] [compiler arguments]

The driver options are the table of options.py (`amp++ --help` prints it).
Everything else goes to the compiler unchanged, so amp++ can stand in for CXX
in a Makefile. It adds the amp_compat flags (prelude, include paths, -O2 and
the C++ standard of the Kokkos install, C++17 or later, as defaults that a
later -std=/-O overrides) and, when it links, Kokkos and Boost.Context. The
compile runs through the launcher (launcher.py) in this process, with the
modes of the options given (no pass reads them back from the compile line).

Silent on success: output is the compiler's own. In a source checkout the
first use builds Kokkos (scripts/deps.sh); that progress, `[deps] ...` on
stderr, appears only when something is installed or built, and always before
the compiler starts.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections import namedtuple
from pathlib import Path

from .job import SOURCE_EXT, expand_response_files, joined_output, parse_flags, replace_includes, scan
from . import options
from .options import GCC_LENIENCE

PROG = "amp++"


class DriverError(Exception):
    pass


def die(msg):
    raise DriverError(msg)


# ---- the options, as the table (options.py) names them ------------------------
class Request:
    """What the driver options of one amp++ call ask for."""

    def __init__(self, env):
        self.gpu = False
        self.gpu_kind = env.get("AMP_GPU", "cuda") or "cuda"
        self.arch = ""
        self.windows = self.msvc = self.fast = self.verbose = self.checked = False
        self.check = env.get("AMP_CHECK", "0") or "0"
        self.tiles_report = env.get("AMP_TILES_REPORT", "0") or "0"
        self.print = []   # "cflags" / "libs", in order
        self.args = []    # what goes to the compiler
        self.help = False


def parse_options(argv, env):
    r = Request(env)
    for a in argv:
        if a == "--gpu":
            r.gpu = True
        elif a.startswith("--gpu="):
            r.gpu, r.gpu_kind = True, a[len("--gpu="):]
            if r.gpu_kind not in options.GPU_KINDS:
                die(f"{a}: the GPU builds are --gpu=cuda and --gpu=hip")
        elif a == "--host":
            r.gpu = False
        elif a.startswith("--arch="):
            r.arch = a[len("--arch="):]
        elif a == "--windows-compat":
            r.windows = True
        elif a == "--msvc":
            r.msvc = True
        elif a == "--fast-math":
            r.fast = True
        elif a == "--cflags":
            r.print.append("cflags")
        elif a == "--libs":
            r.print.append("libs")
        elif a == "--amp-verbose":
            r.verbose = True
        elif a == "--amp-check":
            if r.check != "only":
                r.check = "1"
        elif a == "--tiles-report":
            r.tiles_report = "1"
        elif a == "--checked":
            r.checked = True
        elif a in ("--help", "--amp-help"):
            r.help = True
        else:
            r.args.append(a)
    return r


# ---- where amp_compat and Kokkos are -------------------------------------------
class Site:
    """Installed: PREFIX/bin/amp++ beside PREFIX/share/amp_compat/amp++.conf,
    which names the Kokkos installs (relative paths are relative to PREFIX).
    Source checkout: scripts/amp++, Kokkos under $AMP_BUILD_DIR/deps, built on
    first use."""

    def __init__(self, here, env):
        here = Path(here)
        self.conf = {}
        conf = here.parent / "share" / "amp_compat" / "amp++.conf"
        if conf.is_file():
            self.mode = "installed"
            self.prefix = here.parent.resolve()
            for line in conf.read_text().splitlines():
                m = re.match(r'\s*([A-Z_]+)="?([^"]*)"?\s*$', line)
                if m:
                    self.conf[m.group(1)] = m.group(2)
            self.incdir = self.prefix / "include" / "amp_compat"
            for k in ("KOKKOS_HOST", "KOKKOS_CUDA", "KOKKOS_HIP"):
                v = self.conf.get(k, "")
                self.conf[k] = v if (not v or v.startswith("/")) else str(self.prefix / v)
            self.share = self.prefix / "share" / "amp_compat"
        elif (here.parent / "amp_compat" / "amp.h").is_file() and os.access(here / "deps.sh", os.X_OK):
            self.mode = "source"
            self.root = here.parent.resolve()
            self.incdir = self.root / "amp_compat"
            self.build = Path(env.get("AMP_BUILD_DIR") or self.root / "build")
            self.conf["KOKKOS_HOST"] = str(self.build / "deps" / "kokkos-host")
            self.share = here
        else:
            die(f"cannot find amp_compat next to {here / 'amp++'} (neither an install nor a source checkout)")
        self.here = here


def kokkos_std(prefix):
    """The C++ standard the Kokkos install was configured for, C++17 at the
    least (KokkosCore_config.h: KOKKOS_ENABLE_CXX17, _CXX20 ...): its headers
    take that standard's code paths, which an earlier -std= does not parse."""
    try:
        text = (Path(prefix) / "include" / "KokkosCore_config.h").read_text(errors="replace")
    except OSError:
        return "17"
    for s in ("26", "23", "20"):
        if re.search(rf"^#define KOKKOS_ENABLE_CXX{s}\b", text, re.M):
            return s
    return "17"


def read_flag_list(path):
    return [ln.strip() for ln in Path(path).read_text().splitlines() if ln.strip() and not ln.strip().startswith("#")]


# Per GPU build: its name, the Kokkos folder under deps/ (source checkout),
# the amp++.conf keys of its Kokkos and architecture (install), the
# variable naming another Kokkos. (Its compiler: options.compiler.)
GpuBuild = namedtuple("GpuBuild", "name deps_dir conf arch_conf root_var")
GPU_BUILDS = {
    "cuda": GpuBuild("CUDA", "kokkos-cuda-{arch}", "KOKKOS_CUDA", "CUDA_ARCH_CONF", "AMP_KOKKOS_CUDA_ROOT"),
    "hip": GpuBuild("HIP", "kokkos46-hip-{arch}", "KOKKOS_HIP", "HIP_ARCH_CONF", "AMP_KOKKOS_HIP_ROOT"),
}


class Build:
    """The compiler, the Kokkos install and the flags of one request."""

    def __init__(self, req, site, env):
        self.req, self.site, self.env = req, site, env
        if req.checked:
            if req.gpu:
                die("--checked is a host build (the checks run on the host accelerators): leave out --gpu")
            # The row's flag, on the compile line (not in --cflags); the
            # mode reaches the passes in the job (every work-item runs the
            # checks: no compiled host tiles, passes/host_tiles.enabled).
            req.args = options.flags("--checked", "cflags", "")[:1] + req.args
        if req.gpu_kind not in options.GPU_KINDS:
            die(f"AMP_GPU={req.gpu_kind}: expected cuda or hip")
        self.gpu_kind = req.gpu_kind if req.gpu else ""
        conf = site.conf
        if self.gpu_kind == "hip":
            self.arch = req.arch or env.get("AMP_HIP_ARCH") or conf.get("HIP_ARCH_CONF") or "gfx90a"
        else:
            self.arch = req.arch or env.get("AMP_CUDA_ARCH") or conf.get("CUDA_ARCH_CONF") or "sm_90"
        self.cuda_path = env.get("AMP_CUDA_PATH") or conf.get("CUDA_PATH_CONF") or "/usr/local/cuda"
        self._kokkos()
        self._flags()

    def _kokkos(self):
        req, site, env, conf = self.req, self.site, self.env, self.site.conf
        src = site.mode == "source"
        if req.gpu:
            # The GPU builds' Kokkos: HIP is hipcc (Debian's ROCm 5.2.3 drives
            # clang-15 with its own device libraries; Clang 22 cannot use them:
            # scripts/deps.sh) against Kokkos 4.6.01; CUDA is Clang 22.
            g = GPU_BUILDS[self.gpu_kind]
            k = str(site.build / "deps" / g.deps_dir.format(arch=self.arch)) if src else conf.get(g.conf, "")
            if not src and not env.get(g.root_var) and self.arch != conf.get(g.arch_conf, ""):
                die(f"this install's {g.name} Kokkos is for {conf.get(g.arch_conf) or 'no architecture'}; for "
                    f"{self.arch} set {g.root_var} to a Kokkos built for it")
            self.kokkos = env.get(g.root_var) or k
            self.deps_kind, root_var = self.gpu_kind, g.root_var
        else:
            # Host code in the MSVC dialect: clang-22 (its OpenMP runtime also
            # serves the GCC-built Kokkos, whose GOMP_* calls libomp provides).
            self.kokkos = env.get("AMP_KOKKOS_ROOT") or conf["KOKKOS_HOST"]
            self.deps_kind, root_var = "msvc" if req.msvc else "host", "AMP_KOKKOS_ROOT"
        self.cxx, self.cxx_var = options.compiler(self.gpu_kind, req.msvc, env)
        if src and not (env.get("AMP_KOKKOS_ROOT") or env.get("AMP_KOKKOS_CUDA_ROOT") or env.get("AMP_KOKKOS_HIP_ROOT")):
            # Quiet: deps.sh prints only what it installs or builds, to stderr,
            # before any compiler output.
            self.deps(self.deps_kind)
        if not self.kokkos:
            die(f"this amp_compat install has no {self.deps_kind} Kokkos; set {root_var}")
        klib = Path(self.kokkos) / "lib"
        if not klib.is_dir():
            klib = Path(self.kokkos) / "lib64"
        if not (Path(self.kokkos) / "include" / "Kokkos_Core.hpp").is_file() or not klib.is_dir():
            die(f"no Kokkos install at {self.kokkos} (set {root_var})")
        self.klib = str(klib)

    def deps(self, kind):
        site = self.site
        e = dict(self.env, AMP_DEPS_QUIET="1", AMP_BUILD_DIR=str(site.build), AMP_CUDA_PATH=self.cuda_path)
        e["AMP_HIP_ARCH" if self.gpu_kind == "hip" else "AMP_CUDA_ARCH"] = self.arch
        if subprocess.run([str(site.root / "scripts" / "deps.sh"), kind], env=e, stdout=sys.stderr).returncode:
            what = "Kokkos (" + kind + ")" if kind != "checker" else "the checker"
            die(f"setting up {what} failed")

    def _flags(self):
        req, inc, gpu_kind = self.req, self.site.incdir, self.gpu_kind
        self.std = kokkos_std(self.kokkos)
        # glibc's global `index` would clash with concurrency::index: -D_STRINGS_H
        # and the prelude (amp_prelude.h) come first in every translation unit.
        # stdlib/: standard headers that keep the program's min/max macros out of
        # libstdc++ (scripts/gen_minmax_guards.py).
        cflags = [f"-std=c++{self.std}", "-O2", "-D_STRINGS_H", "-include", f"{inc}/amp_prelude.h", f"-I{inc}",
                  "-isystem", f"{inc}/stdlib", "-isystem", f"{self.kokkos}/include"]
        libs = [f"-L{self.klib}", "-lkokkoscontainers", "-lkokkoscore"]
        if gpu_kind == "hip":
            # The same results as the host (README.md, "Results across
            # accelerators"): float denormals kept, float division and sqrt
            # correctly rounded, contraction off below. Serial is the HIP
            # Kokkos' host backend: no OpenMP. libamdhip64 is shared: the
            # system's, or one beside the program ($ORIGIN).
            # -fgpu-exclude-wrong-side-overloads: in the host pass of a
            # restrict(amp) kernel, an unqualified rsqrt(x) under `using
            # namespace precise_math` must find AMP's function, not HIP's
            # device-only one.
            cflags += [f"--offload-arch={self.arch}", "-fno-gpu-rdc", "-Wno-cuda-compat"] + GCC_LENIENCE + [
                       "-fno-gpu-flush-denormals-to-zero", "-fhip-fp32-correctly-rounded-divide-sqrt",
                       "-fgpu-exclude-wrong-side-overloads"]
            libs += ["-fno-gpu-rdc"]
            if not req.print:
                libs.append("-Wl,-rpath,$ORIGIN")
        elif req.gpu:
            # Denormals kept on the GPU as on the host; sqrtf correctly rounded
            # as on the host (libdevice's __nv_sqrtf otherwise takes
            # sqrt.approx.f32: Clang leaves __CUDA_PREC_SQRT at 0, nvcc sets 1).
            # GCC_LENIENCE: what GCC, the host build's compiler, and nvcc
            # take with a warning (`register` locals of CUDA ports, narrowing
            # in braces, `"%"PRId64`).
            cflags += [f"--cuda-gpu-arch={self.arch}", f"--cuda-path={self.cuda_path}", "-Wno-unknown-cuda-version",
                       "-Wno-cuda-compat"] + GCC_LENIENCE + ["-fno-gpu-flush-denormals-to-zero", "-mllvm",
                       "-nvvm-reflect-add=__CUDA_PREC_SQRT=1", "-fopenmp"]
            # Self-contained programs: static CUDA and C++ runtimes; Clang's
            # OpenMP runtime is copied next to the program.
            libs += ["-fopenmp", f"-L{self.cuda_path}/lib64", "-lcudart_static", "-lrt", "-static-libstdc++",
                     "-static-libgcc"]
            if req.print:
                # --libs output goes through shells and make: no '$ORIGIN' in
                # it; the program finds libomp where it is on this machine.
                r = subprocess.run([self.cxx, "-print-file-name=libomp.so"], capture_output=True, text=True)
                so = r.stdout.strip() if r.returncode == 0 else ""
                if so and os.path.isfile(so):
                    libs.append("-Wl,-rpath," + os.path.dirname(os.path.realpath(so)))
            else:
                libs.append("-Wl,-rpath,$ORIGIN")
        else:
            cflags.append("-fopenmp")
            libs.append("-fopenmp")
        # Windows/CRT companions: their directory first on the include path and
        # the CRT additions force-included; PPL runs on oneTBB.
        if req.windows:
            cflags += options.flags("--windows-compat", "cflags", inc)
            libs += options.flags("--windows-compat", "libs", inc)
        # MSVC dialect: the Microsoft-compatibility flags (one list, flags.txt)
        # and the header that restores the GNU macros libstdc++ needs.
        if req.msvc:
            self.msvc_flags = read_flag_list(f"{inc}/compat/msvc/flags.txt")
            cflags = [f"-std=gnu++{self.std}"] + self.msvc_flags + \
                ["-include", f"{inc}/compat/msvc/msvc_dialect.h"] + cflags[1:]
        # Floating-point contraction, in every mode (cmake/amp_compat_fp.cmake
        # says the same for CMake builds): off by default, so the same kernel
        # gives the same bits on the GPU and the host; --fast-math: fused on
        # both sides (Clang keeps honouring `#pragma clang fp contract(off)`).
        if req.fast:
            if gpu_kind == "hip":
                cflags.append("-ffp-contract=on")  # hipcc's clang-15 has no fast-honor-pragmas
            elif req.gpu or req.msvc or "clang" in os.path.basename(self.cxx):
                cflags.append("-ffp-contract=fast-honor-pragmas")
            else:
                cflags.append("-ffp-contract=fast")
        else:
            cflags.append("-ffp-contract=off")
        # (hipcc takes every argument ending in .a for an archive to unpack.)
        if gpu_kind == "hip":
            libs += ["-Wl,-Bstatic", "-lboost_context", "-Wl,-Bdynamic", "-ldl", "-pthread"]
        else:
            libs += ["-l:libboost_context.a", "-ldl", "-pthread"]
        self.cflags, self.libs = cflags, libs

    def modes(self):
        req = self.req
        return {"gpu": self.gpu_kind, "windows": req.windows, "msvc": req.msvc, "checked": req.checked}


# ---- the compile line ----------------------------------------------------------
DRIVER_SOURCE_EXT = SOURCE_EXT + (".ii",)


class Line:
    """The compiler arguments, classified: link or not, the sources, the
    output; GPU builds get -x cuda/hip before the sources and -x none before
    other inputs."""

    def __init__(self, args, gpu_kind):
        self.link, self.have_input, self.have_src, self.exe, self.lang = True, False, False, "a.out", ""
        self.srcs, self.args = [], []
        user_x = False
        for _, opt, value in scan(args):
            if opt is not None:
                if opt == "-o" and value is not None:
                    self.exe = value
                elif joined_output(opt):
                    self.exe = opt[2:]
                if opt in ("-c", "-S", "-E", "-M", "-MM", "-fsyntax-only"):
                    self.link = False
                elif opt.startswith("-x"):
                    user_x = True
                elif opt == "-shared":
                    self.exe = ""
                self.args += [opt] + ([value] if value is not None else [])
            elif value.endswith(DRIVER_SOURCE_EXT):
                self.have_input = self.have_src = True
                self.srcs.append(value)
                # GPU: sources are compiled as CUDA (HIP); objects and archives are not.
                if gpu_kind and not user_x and self.lang != "cuda":
                    self.args += ["-x", gpu_kind]
                    self.lang = "cuda"
                self.args.append(value)
            else:
                self.have_input = True
                if self.lang == "cuda":
                    self.args += ["-x", "none"]
                    self.lang = ""
                self.args.append(value)


def _capture_fd2(fn):
    """Runs fn() with file descriptor 2 (this process's and its children's
    stderr) sent to a temporary file; (fn's result, what was written). Should
    fn raise, what was written is shown first."""
    sys.stderr.flush()
    saved = os.dup(2)
    with tempfile.TemporaryFile(prefix="amp++") as f:
        os.dup2(f.fileno(), 2)
        failed = True
        try:
            result = fn()
            failed = False
        finally:
            sys.stderr.flush()
            os.dup2(saved, 2)
            os.close(saved)
            f.seek(0)
            text = f.read().decode(errors="replace")
            if failed:
                sys.stderr.write(text)
    return result, text


def _launch(cmd, modes):
    """cmd (compiler and arguments) through the launcher, in this process."""
    from . import launcher
    return launcher.launch(cmd, modes, may_exec=False)


def main(argv, here):
    env = os.environ
    try:
        return _main(argv, here, env)
    except DriverError as e:
        sys.stderr.write(f"{PROG}: error: {e}\n")
        return 2


def _main(argv, here, env):
    # Response files (@FILE) read first: amp++'s own options, sources and
    # include folders may be there (job.expand_response_files).
    req = parse_options(expand_response_files(argv), env)
    if req.help:
        from .options import help_text
        sys.stdout.write(help_text(PROG))
        return 0
    site = Site(here, env)
    b = Build(req, site, env)
    if req.print:
        out = []
        for p in req.print:
            if p == "cflags":
                # -x cuda / -x hip: every source these flags compile is GPU code in a GPU build.
                if req.gpu:
                    out += ["-x", b.gpu_kind]
                out += b.cflags
            else:
                out += b.libs
        print(" ".join(out))
        return 0
    if not shutil.which(b.cxx):
        die(f"the compiler {b.cxx} is not found (set {b.cxx_var} to another)")
    line = Line(req.args, b.gpu_kind)
    if not line.have_input:
        # --version, -dumpversion, -print-*: the compiler alone.
        os.execvp(b.cxx, [b.cxx] + req.args)
    win_dir = None
    try:
        if req.windows or req.msvc:
            # The launcher's answers to Windows include spellings and `void
            # main` (passes/windows.py) go to a folder of this run.
            win_dir = tempfile.mkdtemp(prefix="amp++win.", dir=env.get("TMPDIR") or "/tmp")
            env["AMP_WIN_DIR"] = win_dir
        libs = list(b.libs)
        if line.link and req.windows:
            libs = [win_paths_object(b, win_dir)] + libs
        # A link of objects only gets no compile flags: with --cuda-gpu-arch and
        # -fopenmp but no CUDA source, Clang would link for OpenMP offloading.
        cmd = [b.cxx] + (b.cflags if line.have_src else []) + line.args
        from . import pch  # a precompiled <amp.h> where it gives the same program (pch.py)
        if line.have_src and pch.wanted(b.cxx, line.args, line.srcs, b.modes(), env):
            cmd = pch.cmd_with(b.cxx, b.cflags, line.args, pch.folder(site, env), env) or cmd
        if line.link:
            # Library files given by path are linker inputs, not CUDA (-x none).
            if line.lang == "cuda" and any(not x.startswith("-") for x in libs):
                cmd += ["-x", "none"]
            cmd += libs
        if req.verbose:
            sys.stderr.write(" ".join(cmd) + "\n")
        chkwarn = ""
        if req.check != "0" and line.have_src:
            rc, chkwarn = amp_check(b, req, site, env)
            if rc is not None:
                return rc
        census = None
        if req.tiles_report != "0":
            # The launcher appends a line per tiled kernel (passes/host_tiles.py).
            fd, census = tempfile.mkstemp(prefix="amp++tiles.", dir=env.get("TMPDIR") or "/tmp")
            os.close(fd)
            env["AMP_TILES_CENSUS"] = census
        try:
            rc, err = _capture_fd2(lambda: _launch(cmd, b.modes()))
            sys.stderr.write(err)
            sys.stderr.flush()
            if rc == 0 and chkwarn:
                sys.stderr.write(chkwarn + "\n")
            if census and rc == 0:
                from .passes.host_tiles import print_census
                print_census(census, sys.stderr)
        finally:
            if census:
                os.unlink(census)
        if rc != 0:
            from .hints import hints
            sys.stderr.write(hints(err, req, line.srcs))
            return rc
        if b.gpu_kind == "cuda" and line.link and line.exe:
            copy_libomp(line.exe)
        return 0
    finally:
        if win_dir:
            shutil.rmtree(win_dir, ignore_errors=True)


def win_paths_object(b, win_dir):
    """Windows file names at run time: the program's own fopen/open
    (compat/detail/win_paths.cpp), compiled for this link; in a source
    checkout once per compiler into $AMP_BUILD_DIR/driver-cache (0.4 s a link)."""
    src = f"{b.site.incdir}/compat/detail/win_paths.cpp"
    obj = f"{win_dir}/win_paths.o"
    if b.site.mode == "source":
        tag = re.sub(r"[^A-Za-z0-9_.+-]", "", os.path.basename(b.cxx))
        obj = str(b.site.build / "driver-cache" / f"win_paths-{tag}.o")
    if not (os.path.exists(obj) and os.path.getmtime(obj) > os.path.getmtime(src)):
        os.makedirs(os.path.dirname(obj), exist_ok=True)
        tmp = f"{obj}.{os.getpid()}.o"
        if subprocess.run([b.cxx, "-O2", "-c", src, "-o", tmp]).returncode != 0:
            die(f"compiling {src} failed")
        os.replace(tmp, obj)
    return obj


def copy_libomp(exe):
    """The program finds libomp beside itself ($ORIGIN rpath): put it there."""
    r = subprocess.run(["ldd", exe], capture_output=True, text=True)
    omp = next((ln.split()[2] for ln in r.stdout.splitlines() if "libomp" in ln and len(ln.split()) > 2), "")
    if not omp or not os.path.isfile(omp):
        return
    dest = os.path.join(os.path.dirname(exe) or ".", os.path.basename(omp))
    if not (os.path.exists(dest) and os.path.samefile(omp, dest)):
        shutil.copyfile(omp, dest)
        shutil.copymode(omp, dest)


# ---- the restrict(amp) rule check (--amp-check) ----------------------------------
AMP_ERROR = re.compile(r"\[C\+\+ AMP C[0-9]*\]")


def amp_check(b, req, site, env):
    """A Clang parse of the sources with the host flags and the checker
    plugin; the rules are the same for every backend. Only what decides the
    parse is passed on (-D/-U/-I/-std/-include...), never -c/-o or link
    inputs. (exit status to return now or None, warning to give after a
    successful compile). What decides the parse: job.parse_flags, the same
    rule as the host tile compiler's parse."""
    if site.mode != "source":
        die("--amp-check needs a source checkout of amp_compat (tools/amp_check)")
    b.deps("checker")
    from . import plugins
    try:
        checkflags = plugins.check_flags(site.build, site.root)
    except plugins.PluginError as e:
        sys.stderr.write(f"{e}\n")
        die("the restrict(amp) checker is not available")
    hk = env.get("AMP_KOKKOS_ROOT") or site.conf["KOKKOS_HOST"]
    if req.gpu and not env.get("AMP_KOKKOS_ROOT"):
        b.deps("host")
    hstd = kokkos_std(hk)
    inc = site.incdir
    clang = options.parse_clang(env)
    flags = [f"-std=c++{hstd}", "-D_STRINGS_H", "-include", f"{inc}/amp_prelude.h", f"-I{inc}", "-isystem",
             f"{inc}/stdlib", "-isystem", f"{hk}/include", "-fopenmp"]
    if req.windows:
        flags += options.flags("--windows-compat", "cflags", inc)
    if req.msvc:
        flags = [f"-std=gnu++{hstd}"] + b.msvc_flags + ["-include", f"{inc}/compat/msvc/msvc_dialect.h"] + flags[1:]
    # A precompiled header of the prelude and Kokkos (the larger part of a
    # parse: 0.6 of 1.2 s) for the check's flags so far, built once into
    # $AMP_BUILD_DIR/amp_check/pch; Kokkos comes before any user macro, as
    # amp.h reads it inside its foreign_begin/end guards. AMP_CHECK_PCH=0: none.
    pch = ""
    if env.get("AMP_CHECK_PCH", "1") != "0":
        pch = check_pch(clang, flags, inc, site)
    sources = [v for _, opt, v in scan(req.args) if opt is None and v.endswith(DRIVER_SOURCE_EXT)]
    tail = parse_flags(req.args) + sources + checkflags + ["-fsyntax-only", "-w"]
    chk = [clang] + (["-include-pch", pch] if pch else []) + flags + tail
    # The check parses what the compile parses: the same source passes, the host modes.
    modes = {"gpu": "", "windows": req.windows, "msvc": req.msvc, "checked": False}
    if req.verbose:
        sys.stderr.write(" ".join(chk) + "\n")
    crc, err = _capture_fd2(lambda: _launch(chk, modes))
    if crc != 0 and pch and not AMP_ERROR.search(err):
        # The precompiled header may be out of date (Kokkos or the prelude
        # changed) or not fit these flags: without it, and built afresh next time.
        try:
            os.unlink(pch)
        except OSError:
            pass
        chk = [clang] + flags + tail
        crc, err = _capture_fd2(lambda: _launch(chk, modes))
    warn = ""
    if crc != 0:
        if AMP_ERROR.search(err):
            sys.stderr.write("".join(ln for ln in err.splitlines(True) if not re.match(r"[0-9]* errors? generated", ln)))
            return 1, ""
        # Not a rule violation: Clang could not parse this source. Said after
        # the compile, and only if that succeeds.
        first = next((ln for ln in err.splitlines() if "error:" in ln), "")
        warn = (f"{PROG}: warning: --amp-check: Clang could not parse this source, so its restrict(amp) rules "
                f"were not checked: {first}")
    if req.check == "only":
        return 0, ""
    return None, warn


def check_pch(clang, flags, inc, site):
    """The checker's precompiled header of Kokkos for these flags (without
    --windows-compat's forced crt_compat.h, whose _T, TRUE ... would precede
    Kokkos); "" when it cannot be built."""
    import hashlib
    base = [clang] + replace_includes(flags, lambda f: f == f"{inc}/compat/crt_compat.h", [])
    r = subprocess.run([clang, "--version"], capture_output=True, text=True)
    version = r.stdout.splitlines()[0] if r.stdout else ""
    key = hashlib.sha256(("\n".join(base + [version]) + "\n").encode()).hexdigest()[:16]
    pch = site.build / "amp_check" / "pch" / f"{key}.pch"
    if pch.is_file():
        return str(pch)
    pch.parent.mkdir(parents=True, exist_ok=True)
    header = Path(str(pch) + ".h")
    header.write_text("#include <Kokkos_Core.hpp>\n")
    tmp = f"{pch}.{os.getpid()}"
    r = subprocess.run(base + ["-DAMP_CHECK_PASS=1", "-w", "-x", "c++-header", str(header), "-o", tmp],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    if r.returncode != 0:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        return ""
    os.replace(tmp, pch)
    return str(pch)


def template_build(req, include="${includedir}/amp_compat", kokkos="${kokkos}"):
    """The flags of request req (a host build) written on placeholders for
    the include folder and Kokkos, without a Kokkos install (pkg-config,
    tests)."""
    b = Build.__new__(Build)
    b.req, b.env, b.gpu_kind = req, {}, ""
    b.site = type("TemplateSite", (), {"incdir": include})()
    b.kokkos, b.klib, b.cxx = kokkos, f"{kokkos}/lib", options.compiler("", False, {})[0]
    b._flags()
    return b


def pkgconfig_lines():
    """The Cflags: and Libs: lines of amp_compat.pc (cmake/install.cmake): the
    host build's `amp++ --cflags` / `--libs`, written on pkg-config's
    ${includedir} and ${kokkos}, without the -O2 default (a build system
    chooses its own optimisation)."""
    req = Request({})
    req.print = ["cflags", "libs"]
    b = template_build(req)
    return [f"Cflags: {' '.join(f for f in b.cflags if f != '-O2')}", f"Libs: {' '.join(b.libs)}"]
