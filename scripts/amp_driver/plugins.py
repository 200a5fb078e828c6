"""The one builder of amp_compat's Clang plugins (they run inside clang++-22,
which provides every Clang/LLVM symbol):

  amp_check      the restrict(amp) rule checker (tools/amp_check; amp++ --amp-check)
  tile_compiler  the host tile compiler (tools/tile_compiler; the host-tiles pass)

  python3 -m amp_driver plugin NAME     build NAME if needed; print its path
                                        (exit 3: no clang++, llvm-config or Clang headers)

Needs Clang 22's C++ headers (Debian: libclang-22-dev; scripts/deps.sh
checker installs them). AMP_CHECK_CLANG names another clang++ (its
llvm-config beside it, or llvm-config-<major>).

A plugin's source is every .cpp file of its folder (tools/NAME/, NAME.cpp
among them) with the .h files they include; each .cpp is compiled to its
own object (in parallel, AMP_JOBS at most; again only when it or a header
of the folder is newer) and the objects linked into NAME.so.

Where a plugin comes from: in a source checkout, built on first use into
$AMP_BUILD_DIR/NAME (default build/NAME). Installed (share/amp_compat/NAME/
holds its .cpp and .h files): the NAME.so `./amp install` built beside the
source, else one built on first use into $AMP_BUILD_DIR/NAME or
${XDG_CACHE_HOME:-~/.cache}/amp_compat/NAME. One build at a time (a lock):
the parallel compiles of a CMake build all ask for it.
"""
import os
import shutil
import subprocess
import sys
from collections import namedtuple
from pathlib import Path

# header: a Clang header the plugin needs (its absence names the package);
# flags: what the plugin's own code needs beyond llvm-config's.
Plugin = namedtuple("Plugin", "header flags")
PLUGINS = {
    "amp_check": Plugin("clang/AST/ASTConsumer.h", []),
    # -fexceptions: the analysis refuses a kernel by throwing (caught inside the plugin).
    "tile_compiler": Plugin("clang/Rewrite/Core/Rewriter.h", ["-fexceptions"]),
}
HERE = Path(__file__).resolve().parent


class PluginError(Exception):
    pass


def _where(name, env):
    """(main source NAME.cpp, prebuilt .so or None, build folder) of plugin
    name; its other sources lie beside the main one (sources())."""
    root = HERE.parents[1]
    src = root / "tools" / name / f"{name}.cpp"
    if src.is_file():  # a source checkout
        return src, None, Path(env.get("AMP_BUILD_DIR") or root / "build") / name
    share = HERE.parent / name  # installed: share/amp_compat/NAME/
    cache = env.get("AMP_BUILD_DIR") or Path(env.get("XDG_CACHE_HOME") or Path(env.get("HOME") or "/tmp") / ".cache") / "amp_compat"
    return share / f"{name}.cpp", share / f"{name}.so", Path(cache) / name


def sources(src):
    """(the .cpp files, the .h files) of the plugin whose main source is src."""
    folder = Path(src).parent
    return sorted(folder.glob("*.cpp")), sorted(folder.glob("*.h"))


def _newest(files):
    return max(f.stat().st_mtime for f in files)


def _compile(jobs, width):
    """Runs the compile commands jobs, width at a time; False when one fails."""
    ok, running = True, []
    for cmd in jobs:
        running.append(subprocess.Popen(cmd))
        if len(running) >= width:
            ok = running.pop(0).wait() == 0 and ok
    for r in running:
        ok = r.wait() == 0 and ok
    return ok


def llvm_config(clang):
    """The llvm-config of clang (beside it, or llvm-config-<major>)."""
    path = shutil.which(clang)
    beside = Path(os.path.realpath(path)).parent / "llvm-config"
    if beside.is_file() and os.access(beside, os.X_OK):
        return str(beside)
    major = subprocess.run([clang, "-dumpversion"], capture_output=True, text=True).stdout.strip().split(".")[0]
    found = shutil.which(f"llvm-config-{major}")
    if not found:
        raise PluginError(f"no llvm-config for {clang}")
    return found


def build(name, env=None):
    """The path of plugin name's shared object, built if missing or older
    than one of its sources."""
    import fcntl
    env = os.environ if env is None else env
    spec = PLUGINS[name]
    from .options import parse_clang
    clang = parse_clang(env)
    if not shutil.which(clang):
        raise PluginError(f"{name}: {clang} not found")
    src, prebuilt, out_dir = _where(name, env)
    cpps, headers = sources(src) if src.is_file() else ([], [])
    if prebuilt and prebuilt.is_file() and not (cpps and _newest(cpps + headers) > prebuilt.stat().st_mtime):
        return str(prebuilt)
    if not src.is_file():
        raise PluginError(f"{name}: no plugin source at {src}")
    so = out_dir / f"{name}.so"
    out_dir.mkdir(parents=True, exist_ok=True)
    with open(out_dir / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if so.is_file() and so.stat().st_mtime >= _newest(cpps + headers):
            return str(so)
        try:
            cfg = llvm_config(clang)
        except PluginError as e:
            raise PluginError(f"{name}: {e}")
        incdir = subprocess.run([cfg, "--includedir"], capture_output=True, text=True).stdout.strip()
        if not (Path(incdir) / spec.header).is_file():
            major = subprocess.run([clang, "-dumpversion"], capture_output=True, text=True).stdout.split(".")[0]
            raise PluginError(f"{name}: Clang's C++ headers are missing (Debian: libclang-{major}-dev)")
        sys.stderr.write(f"{name}: building the plugin\n")
        cxxflags = subprocess.run([cfg, "--cxxflags"], capture_output=True, text=True).stdout.split()
        # One object per .cpp (obj/), compiled again when it or a header is newer.
        obj_dir = out_dir / "obj"
        obj_dir.mkdir(exist_ok=True)
        newest_header = _newest(headers) if headers else 0
        objs, jobs = [], []
        for cpp in cpps:
            obj = obj_dir / f"{cpp.stem}.o"
            objs.append(obj)
            if not (obj.is_file() and obj.stat().st_mtime >= max(cpp.stat().st_mtime, newest_header)):
                obj.unlink(missing_ok=True)
                jobs.append([clang] + cxxflags + spec.flags + ["-fPIC", "-O1", "-c", str(cpp), "-o", str(obj)])
        width = max(1, int(env.get("AMP_JOBS") or os.cpu_count() or 1))
        if not _compile(jobs, width):  # (a failed compile leaves no object)
            raise PluginError(f"{name}: building the plugin failed")
        tmp = f"{so}.tmp.{os.getpid()}"
        r = subprocess.run([clang] + cxxflags + spec.flags + ["-fPIC", "-shared", "-O1"] + [str(o) for o in objs]
                           + ["-o", tmp])
        if r.returncode != 0:
            raise PluginError(f"{name}: building the plugin failed")
        os.replace(tmp, so)
    return str(so)


def check_flags(build_dir=None, root=None):
    """The flags that add the restrict(amp) check to a clang++ host parse."""
    env = dict(os.environ)
    if build_dir:
        env["AMP_BUILD_DIR"] = str(build_dir)
    so = build("amp_check", env)
    root = Path(root) if root else HERE.parents[1]
    return ["-DAMP_CHECK_PASS=1", f"-fplugin={so}", "-Xclang", "-plugin-arg-amp-check", "-Xclang",
            f"lib={root}/amp_compat/"]


def main(argv):
    if len(argv) != 1 or argv[0] not in PLUGINS:
        sys.stderr.write(__doc__)
        return 2
    try:
        print(build(argv[0]))
    except PluginError as e:
        sys.stderr.write(f"{e}\n")
        return 3
    return 0
