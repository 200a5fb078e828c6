"""A precompiled <amp.h> for amp++'s GCC compiles: the prelude, the
companions --windows-compat force-includes and <amp.h> with Kokkos, parsed
once per set of flags instead of in every compile (about 0.8 of a seed
program's 3 s of g++; the AMP Algorithms Library's sources include a header
of their own first and get none).

Used where it gives the same program: a host compile by GCC (not
--windows-compat, not --msvc) whose every
source includes nothing but standard headers (and comments, #line, #pragma
once) before <amp.h> (tile_compiler.amp_first), that force-includes nothing
of its own (-include) and writes no dependency file (-M*: the precompiled
header would stand in them for the headers it holds). The header replaces
the compile's -include options, in their order; <amp.h> read before the
source's standard headers parses the same, and the source's own
`#include <amp.h>` is then skipped by its guard. GCC ignores a precompiled
header that does not fit the compile and reads the header's text instead
(the same result, without the gain). Built on first use into
$AMP_BUILD_DIR/driver-cache/pch (source checkout) or
${XDG_CACHE_HOME:-~/.cache}/amp_compat/pch, one folder per compiler and
flags, again when a header it was built from changes. AMP_PCH=0: never.
"""
import hashlib
import os
import re
import shutil
import subprocess
from pathlib import Path

from .job import forced_include, joined_output, replace_includes, scan
from .tile_compiler import amp_first

# GCC's names (g++, g++-12, x86_64-linux-gnu-g++-12), not clang++'s.
GCC = re.compile(r"(?:.*-)?g\+\+(?:-[\d.]+)?")
# What a compile line may hold for the header to be used.
REFUSE = ("-M", "-MM", "-MD", "-MMD", "-MF", "-E", "-include", "-imacros", "-x", "-fsyntax-only")


def wanted(cxx, args, sources, modes, env):
    """Whether a compile (cxx, its own args: not the driver's flags; modes:
    the job's, options.modes_of's dict) may use the precompiled header: not
    a GPU, --windows-compat or --msvc one (the Windows pass finds the
    companions' folder by the forced crt_compat.h, which the header would
    hide)."""
    if env.get("AMP_PCH", "1") == "0" or modes.get("gpu") or modes.get("windows") or modes.get("msvc") or \
            not sources or not GCC.fullmatch(os.path.basename(cxx)):
        return False
    if any(o in REFUSE or (o or "").startswith(("-M", "-include", "-x")) for _, o, _ in scan(args)):
        return False
    for s in sources:
        try:
            if not amp_first(Path(s).read_text(errors="replace")):
                return False
        except OSError:
            return False
    return True


def header_flags(cflags, args):
    """(the flags the header is built with: the driver's and the compile's,
    less the inputs, the output, -c and link options; the -include files,
    in order). Not job.parse_flags (the meaning-deciding flags a Clang parse
    beside the compile keeps): GCC uses a precompiled header only when it
    was built with the compile's own code generation flags (-O, -f..., -m...,
    -g), so every compile flag is kept here."""
    flags, includes = [], []
    for _, o, v in scan(list(cflags) + list(args)):
        if o is None or o in ("-o", "-c") or joined_output(o) or o.startswith(("-l", "-L", "-Wl,")):
            continue
        forced = forced_include(o, v)
        if forced is not None:
            includes.append(forced)
            continue
        flags += [o] + ([v] if v is not None else [])
    return flags, includes


def cmd_with(cxx, cflags, args, folder, env):
    """cxx cflags args with the precompiled header (built if missing or out
    of date) in place of the -include options; None when it cannot be built."""
    flags, includes = header_flags(cflags, args)
    compiler = shutil.which(cxx) or cxx
    try:
        stamp = f"{os.path.realpath(compiler)} {os.path.getmtime(compiler)}"
    except OSError:
        return None
    key = hashlib.sha1("\n".join([stamp] + flags + includes).encode()).hexdigest()[:16]
    d = Path(folder) / key
    header = d / "amp_pch.h"
    if not _fresh(d) and not _build(cxx, flags, includes, d):
        return None
    return [cxx] + replace_includes(list(cflags), lambda f: True, ["-include", str(header)]) + list(args)


def _fresh(d):
    """Whether d's precompiled header exists and is newer than every header
    it was built from (its dependency list)."""
    gch = d / "amp_pch.h.gch"
    try:
        built = gch.stat().st_mtime
        deps = (d / "deps.d").read_text()
    except OSError:
        return False
    for word in deps.replace("\\\n", " ").split()[1:]:
        try:
            if os.path.getmtime(word) > built:
                return False
        except OSError:
            return False
    return True


def _build(cxx, flags, includes, d):
    def make():
        (d / "amp_pch.h").write_text("".join(f'#include "{h}"\n' for h in includes) + "#include <amp.h>\n")
        return build_header([cxx] + flags, d / "amp_pch.h", d / "amp_pch.h.gch", d / "deps.d")
    return under_lock(d, _fresh, make)


def under_lock(d, fresh, make):
    """In folder d (created), under its lock file (one build at a time across
    processes): True if fresh(d), else make()'s result; False on an OS
    error."""
    import fcntl
    try:
        d.mkdir(parents=True, exist_ok=True)
        with open(d / ".lock", "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            return fresh(d) or make()
    except OSError:
        return False


def build_header(cmd, header, out, deps_out):
    """Compiles header with cmd (a compiler and its flags) into out, its
    dependency list into deps_out; False if the compile fails (nothing left
    behind). Both are written under temporary names and renamed, the header
    first, then its list (a reader between the two sees the new header with
    the old list: fresh, rightly)."""
    tmp = out.with_name(f"{out.name}.{os.getpid()}")
    deps = deps_out.with_name(f"{deps_out.name}.{os.getpid()}")
    r = subprocess.run(cmd + ["-x", "c++-header", str(header), "-o", str(tmp), "-MD", "-MF", str(deps)],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    if r.returncode != 0:
        tmp.unlink(missing_ok=True)
        deps.unlink(missing_ok=True)
        return False
    os.replace(tmp, out)
    os.replace(deps, deps_out)
    return True


def folder(site, env):
    """Where the precompiled headers go."""
    if env.get("AMP_BUILD_DIR") or site.mode == "source":
        return Path(env.get("AMP_BUILD_DIR") or site.build) / "driver-cache" / "pch"
    cache = env.get("XDG_CACHE_HOME") or os.path.join(env.get("HOME") or "/tmp", ".cache")
    return Path(cache) / "amp_compat" / "pch"
