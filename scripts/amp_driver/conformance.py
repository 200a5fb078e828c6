"""Runs Microsoft's C++ AMP conformance suite against amp_compat.

Usage (through the driver, which supplies the toolchain):
    ./amp conformance SUITE_DIR [--gpu] [--jobs N] [--filter RE] [--every N]
                      [--build-only | --run-only] [--compare PASSLIST]
                      [--update-passlist PASSLIST] [--out DIR]

The rules are those of the suite's own driver (SUITE_DIR/test_one.pl.in):
- every Tests/**/test.cpp is one test;
- `//#Expects: error` (or warning) anywhere in it makes it negative: it passes
  when it fails to compile;
- the nearest `*.conf` up the tree may set `compile_only` (the test passes when
  it compiles) and `definitions`, a list of -D sets: the test is built and run
  once per set and passes only if every set passes;
- a test whose source matches ` main *(` gets `-include test_main.h`;
- a runtime test passes on exit code 0 and is skipped on 2.

Built here, in a scratch copy under the output directory (the suite is never
modified): the suite's test library, adapted for GCC / Clang-CUDA (each
adaptation is printed), and a precompiled header of <amp.h> + <amp_math.h> +
<amptest.h>. Tests are compiled at -O0 through scripts/restrict_launcher.sh
(restrict(cpu)/restrict(amp) pairs, see migration_guide.md).

Microsoft's tree as shipped (a suite without HCC's test_main.h, e.g. the
CodePlex release): the rules are its run_tests.pl's (the same `//#Expects`,
`.conf` and exit-code rules; a negative test is compiled and linked, a
compile-only one compiled; the tests include <amptest_main.h> themselves).
Everything is built as a Visual Studio user would build it here, with
`amp++ --windows-compat --msvc` (-O0), the test library included: its
sources compiled once, unchanged, into OUT/libamptest.a. The restrict(amp)
rule checker runs as part of each compile (`--amp-check`) when available.

Writes OUT/results.json (every test, every set, with the first error line or
exit status), OUT/passlist.txt (passing tests, one path a line, relative to
SUITE_DIR/Tests) and OUT/summary.txt (the tables printed at the end).
"""
import argparse
import concurrent.futures as cf
import hashlib
import json
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

from .job import replace_includes

ROOT = Path(__file__).resolve().parents[2]
EXPECTS_RE = re.compile(r"//#\s*Expects\s*(\d*)\s*:\s*(warning|error)", re.I)
MAIN_RE = re.compile(r" main *\(")
SECTION_NAMES = {
    "2": "C++ language extensions",
    "3": "accelerators",
    "4": "index, extent",
    "5": "array, array_view",
    "7": "parallel_for_each",
    "8": "synchronisation",
}


def log(msg):
    print(f"[conformance] {msg}", flush=True)


# ---------------------------------------------------------------- suite model
def parse_conf(path):
    """The suite's .conf files are Perl hashes:
    %config = ('compile_only' => 1, 'definitions' => [ { 'K' => 'V', ... }, ... ]);
    Parsed into {'compile_only': bool, 'definitions': [dict, ...]}."""
    text = path.read_text(errors="replace")
    conf = {"compile_only": False, "definitions": [{}]}
    m = re.search(r"'compile_only'\s*=>\s*(\d+)", text)
    if m:
        conf["compile_only"] = m.group(1) != "0"
    m = re.search(r"'definitions'\s*=>\s*\[(.*)\]", text, re.S)
    if m:
        sets = []
        for body in re.findall(r"\{(.*?)\}", m.group(1), re.S):
            pairs = re.findall(r"'((?:[^'\\]|\\.)*)'\s*=>\s*'((?:[^'\\]|\\.)*)'", body)
            sets.append({k: v.replace("\\'", "'") for k, v in pairs})
        if sets:
            conf["definitions"] = sets
    return conf


def find_conf(test_dir, tests_root):
    d = test_dir
    while True:
        confs = sorted(d.glob("*.conf"))
        if len(confs) > 1:
            raise RuntimeError(f"more than one .conf in {d}")
        if confs:
            return confs[0]
        if d == tests_root:
            return None
        d = d.parent


class Test:
    def __init__(self, path, tests_root):
        self.path = path
        self.rel = str(path.parent.relative_to(tests_root))
        src = path.read_text(errors="replace")
        self.negative = bool(EXPECTS_RE.search(src))
        # MSVC's error codes the test names (C2338: a static_assert fired)
        self.expect_codes = sorted(set(re.findall(r"\b(C\d{4})\b", "\n".join(
            l for l in src.splitlines() if EXPECTS_RE.search(l)))))
        self.own_main = bool(MAIN_RE.search(src))
        conf_path = find_conf(path.parent, tests_root)
        conf = parse_conf(conf_path) if conf_path else {"compile_only": False, "definitions": [{}]}
        self.compile_only = conf["compile_only"]
        self.sets = conf["definitions"]
        self.section = self.rel.split("/")[0]

    @property
    def kind(self):
        if self.negative:
            return "negative"
        return "compile-only" if self.compile_only else "runtime"

    def slug(self):
        return re.sub(r"[^A-Za-z0-9_.-]", "_", self.rel)


def discover(suite):
    tests_root = suite / "Tests"
    tests = [Test(p, tests_root) for p in sorted(tests_root.rglob("test.cpp"))]
    tests.sort(key=lambda t: t.rel)
    return tests_root, tests


# ------------------------------------------------------- test library + PCH
# Each adaptation of the suite's test library: (file, description, function
# that takes the text and returns the adapted text). Applied to a scratch copy.
def _platform(text):
    return text.replace("#if __clang__", "#if __clang__ || __GNUC__  /* amp_compat: GCC too */", 1)


def _cstdarg(text):
    return text.replace("#include <sstream>", "#include <sstream>\n#include <cstdarg>  /* amp_compat: va_start */", 1)


LIB_ADAPTATIONS = [
    ("inc/amptest/platform.h", "accept GCC as well as Clang (`#if __clang__` -> `#if __clang__ || __GNUC__`)", _platform),
    ("src/logging.cpp", "#include <cstdarg> for va_start/va_end (it relied on a transitive include)", _cstdarg),
]


def prepare_library(suite, work, tc, args):
    """Scratch copy of amp_test_lib, adapted; static library and PCH built.
    Returns (include dir, library path, pch header or None, adaptations)."""
    lib_src = suite / "amp_test_lib"
    scratch = work / "amp_test_lib"
    if scratch.exists():
        shutil.rmtree(scratch)
    shutil.copytree(lib_src, scratch)
    adaptations = []
    for rel, what, fn in LIB_ADAPTATIONS:
        p = scratch / rel
        old = p.read_text()
        new = fn(old)
        if new == old:
            raise RuntimeError(f"adaptation of {rel} did not apply: {what}")
        p.write_text(new)
        adaptations.append(f"{rel}: {what}")
    # restrict(cpu)/restrict(amp) pairs in the library (runall_result::verify_exit_code):
    # the same rewrite that scripts/restrict_launcher.sh applies to every compiled file.
    from .passes import restrict_pairs
    files = sorted(str(p) for p in scratch.rglob("*") if p.suffix in (".h", ".cpp"))
    rewritten, report = restrict_pairs.rewrite_files(files)
    for f, t in rewritten.items():
        Path(f).write_text(t)
    for line in report:
        if line.strip():
            adaptations.append(f"{line.strip()} (scripts/amp_driver/passes/restrict_pairs.py, as for any user code)")
    inc = scratch / "inc"
    test_main = work / "test_main.h"
    shutil.copy(suite / "test_main.h", test_main)

    # Precompiled header: the prelude first (it must precede every other header),
    # then everything the tests include most. GCC only; Clang-CUDA builds include
    # the prelude directly.
    pch = None
    if tc.kind == "host" and not args.no_pch:
        pch = work / "pch" / "amp_conformance_pch.h"
        pch.parent.mkdir(parents=True, exist_ok=True)
        headers = ["amp_prelude.h", "amp.h", "amp_math.h"]
        for optional in ("amp_short_vectors.h", "amp_graphics.h"):
            if (ROOT / "amp_compat" / optional).exists():
                headers.append(optional)
        pch.write_text("".join(f"#include <{h}>\n" for h in headers) + "#include <amptest.h>\n")
        log(f"precompiling {', '.join(headers)} + amptest.h")
        r = subprocess.run(tc.cxx_cmd() + tc.flags(pch=None, inc=inc) + ["-x", "c++-header", str(pch), "-o", str(pch) + ".gch"],
                           capture_output=True, text=True)
        if r.returncode != 0:
            log("the precompiled header failed to build; going on without it: " + first_error(r.stderr))
            pch = None

    # The checker's precompiled header (Clang's, with AMP_CHECK_PASS=1).
    check_pch = None
    if args.check and not args.no_pch:
        check_pch = work / "pch-check" / "amp_conformance_pch.h"
        check_pch.parent.mkdir(parents=True, exist_ok=True)
        check_pch.write_text("".join(f"#include <{h}>\n" for h in headers) + "#include <amptest.h>\n"
                             if pch else "#include <amp_prelude.h>\n#include <amp.h>\n#include <amptest.h>\n")
        r = subprocess.run([tc.check_cxx] + tc.check_flags(pch=None, inc=inc)
                           + ["-x", "c++-header", str(check_pch), "-o", str(check_pch) + ".pch"],
                           capture_output=True, text=True)
        if r.returncode != 0:
            log("the checker's precompiled header failed to build; going on without it: " + first_error(r.stderr))
            check_pch = None
        else:
            check_pch = Path(str(check_pch) + ".pch")

    objs, lib_error = [], ""
    log("building the test library")
    lib = work / "libamptest.a"
    if lib.exists():
        lib.unlink()
    for src in sorted((scratch / "src").glob("*.cpp")):
        obj = work / "amp_test_lib" / (src.stem + ".o")
        r = subprocess.run(tc.cxx_cmd() + tc.flags(pch=pch, inc=inc) + ["-c", str(src), "-o", str(obj)],
                           capture_output=True, text=True)
        if r.returncode != 0:
            # Every test then fails with this reason.
            lib_error = f"the test library ({src.name}) does not compile: {first_error(r.stderr)}"
            log(lib_error)
            break
        objs.append(str(obj))
    if not lib_error:
        subprocess.run(["ar", "rcs", str(lib)] + objs, check=True)
    return inc, lib, pch, check_pch, test_main, adaptations, lib_error


def prepare_library_ms(suite, work, tc, args):
    """Microsoft's tree: its amp_test_lib compiled unchanged with amp++
    --windows-compat --msvc (as the nmakefile does with cl: every src/*.cpp,
    AMP_TEST_LIB_BUILD), archived as OUT/libamptest.a."""
    inc = suite / "amp_test_lib" / "inc"
    objdir = work / "amp_test_lib"
    objdir.mkdir(parents=True, exist_ok=True)
    lib = work / "libamptest.a"
    if lib.exists():
        lib.unlink()
    log("building the test library (unchanged) with " + " ".join(tc.cxx_cmd()))
    objs, lib_error = [], ""
    srcs = sorted((suite / "amp_test_lib" / "src").glob("*.cpp"))

    def one(src):
        obj = objdir / (src.stem + ".o")
        r = subprocess.run(tc.cxx_cmd() + tc.flags(pch=None, inc=inc) + ["-DAMP_TEST_LIB_BUILD", "-c", str(src),
                                                                           "-o", str(obj)],
                           capture_output=True, text=True)
        return src, obj, r

    with cf.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        for src, obj, r in pool.map(one, srcs):
            if r.returncode != 0 and not lib_error:
                lib_error = f"the test library ({src.name}) does not compile: {first_error(r.stderr)}"
                log(lib_error)
            objs.append(str(obj))
    if not lib_error:
        subprocess.run(["ar", "rcs", str(lib)] + objs, check=True)
    return inc, lib, None, None, None, [], lib_error


class MsvcToolchain:
    """Microsoft's tree: `amp++ --windows-compat --msvc` (and --gpu), the
    compiler driver a Visual Studio user runs here; -O0 as for HCC's port."""

    def __init__(self, gpu, check):
        self.kind = "cuda" if gpu else "host"
        self.driver = [str(ROOT / "scripts" / "amp++"), "--windows-compat", "--msvc"] + (["--gpu"] if gpu else [])
        if check:
            self.driver.append("--amp-check")
        self.libs = []
        self.check_cxx = ""
        self.check_plugin = []

    def cxx_cmd(self, launch=False, cxx=None):
        return list(self.driver)  # amp++ runs the launcher itself

    def test_env(self, build_dir):
        """The environment of each test's compile, set up once (the library's
        compile, before it, checked the dependencies as any amp++ call does):
        this Python first on PATH (amp++ runs `python3`; a version manager's
        shim costs about 2 s a call) and, for host builds, the Kokkos install
        named (amp++ then skips its dependency check, about 1 s a call)."""
        env = dict(os.environ)
        env["PATH"] = os.path.dirname(sys.executable) + os.pathsep + env.get("PATH", "")
        kokkos = build_dir / "deps" / "kokkos-host"
        if self.kind == "host" and (kokkos / "include" / "Kokkos_Core.hpp").is_file():
            env["AMP_KOKKOS_ROOT"] = str(kokkos)
        return env

    def flags(self, pch, inc):
        return ["-O0", "-w", f"-I{inc}"]


class Toolchain:
    """Compiler, flags and libraries as `./amp c++` uses them (from the driver's
    environment), at -O0, with the prelude replaced by the PCH when there is one."""

    def __init__(self, gpu):
        self.kind = "cuda" if gpu else "host"
        self.cxx = os.environ.get("AMP_TC_CXX")
        if not self.cxx:
            raise SystemExit("run this through `./amp conformance` (it supplies the toolchain)")
        self.base = [f for f in os.environ.get("AMP_TC_FLAGS", "").split("\n") if f]
        self.libs = [f for f in os.environ.get("AMP_TC_LIBS", "").split("\n") if f]
        self.launcher = ROOT / "scripts" / "restrict_launcher.sh"
        # The restrict(amp) rule checker (tools/amp_check): a Clang parse of the
        # host build's source with the plugin; empty when it is not available.
        self.check_cxx = os.environ.get("AMP_TC_CHECK_CXX", "")
        self.check_base = [f for f in os.environ.get("AMP_TC_CHECK_FLAGS", "").split("\n") if f]
        self.check_plugin = [f for f in os.environ.get("AMP_TC_CHECK_PLUGIN", "").split("\n") if f]

    def check_flags(self, pch, inc):
        """Flags of the checker's parse: the host flags, the prelude replaced by
        Clang's PCH when there is one."""
        out = replace_prelude(self.check_base, ["-include-pch", str(pch)] if pch else None)
        return out + ["-DAMP_CHECK_PASS=1", "-w", f"-I{inc}"]

    def cxx_cmd(self, launch=False, cxx=None):
        cxx = cxx or self.cxx
        if launch and self.launcher.exists():
            return [str(self.launcher), cxx]
        return [cxx]

    def flags(self, pch, inc):
        out = replace_prelude(self.base, ["-include", str(pch)] if pch else None)
        out += ["-O0", "-w", f"-I{inc}"]
        if pch:
            out.append("-Winvalid-pch")
        return out


def replace_prelude(base, with_flags):
    """base with its `-include .../amp_prelude.h` replaced by with_flags (a
    precompiled header's flags), or unchanged when with_flags is None."""
    return replace_includes(base, lambda f: f.endswith("amp_prelude.h"), with_flags) if with_flags else base


# --------------------------------------------------------------- one test
def first_error(text):
    for line in text.splitlines():
        if line.startswith("amp++: warning:"):  # the checker could not parse: not the build's error
            continue
        if " error: " in line or line.startswith("error:") or "fatal error:" in line:
            return line.strip()[:400]
    lines = [l for l in text.splitlines() if l.strip()]
    return lines[-1].strip()[:400] if lines else ""


def cause_of(msg):
    """A failure message with the test-specific parts removed, to group failures."""
    m = re.search(r"error: (.*)", msg)
    s = m.group(1) if m else msg
    s = re.sub(r"'[^']*'", "'…'", s)
    s = re.sub(r"‘[^’]*’", "'…'", s)
    s = re.sub(r"\d+", "N", s)
    return s[:160]


def set_defines(defs):
    return [f"-D{k}={v}" for k, v in defs.items()]


def compile_logged(cmd, test, args, log, what):
    """Runs a compiler command (niced, in the test's folder, bounded by
    --build-timeout); writes the command and its output to log. Returns
    (exit status, output)."""
    # In a session of its own, so that a timeout stops the compilers the
    # driver started too, not only the driver.
    p = subprocess.Popen(["nice", "-n", "5"] + cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         cwd=str(test.path.parent), start_new_session=True, env=args.compile_env)
    try:
        so, se = p.communicate(timeout=args.build_timeout)
        rc, out = p.returncode, so + se
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        p.communicate()
        rc, out = -1, f"{what} timed out after {args.build_timeout} s"
    log.write_text(" ".join(shlex.quote(c) for c in cmd) + "\n" + out)
    return rc, out


def build_one(test, k, tc, ctx, args):
    """Builds definition set k of the test. Returns a dict."""
    d = ctx["work"] / "t" / test.slug() / f"set{k}"
    d.mkdir(parents=True, exist_ok=True)
    cmd = tc.cxx_cmd(launch=True) + tc.flags(pch=ctx["pch"], inc=ctx["inc"])
    if test.own_main and ctx["test_main"]:
        cmd += ["-include", str(ctx["test_main"])]
    cmd += set_defines(test.sets[k])
    exe = d / "test.out"
    if ctx.get("flavor") == "microsoft":
        # run_tests.pl: `cl CFLAGS defs [/c] test.cpp`: a negative test is
        # compiled and linked (it passes when either fails), a compile-only
        # one compiled.
        if test.compile_only:
            cmd += ["-c", str(test.path), "-o", str(d / "test.o")]
        else:
            cmd += [str(test.path), str(ctx["lib"]), "-o", str(exe)]
    elif test.negative or test.compile_only:
        cmd += ["-D__CPU__=1", "-fsyntax-only", str(test.path)]
    else:
        cmd += [str(test.path)]
        if tc.kind == "cuda":
            cmd += ["-x", "none"]  # the rest is linked, not compiled as CUDA
        cmd += [str(ctx["lib"])] + tc.libs + ["-o", str(exe)]
    if exe.exists():
        exe.unlink()
    t0 = time.time()
    rc, out = compile_logged(cmd, test, args, d / "build.log", "build")
    return {"built": rc == 0, "build_s": round(time.time() - t0, 2), "build_timed_out": rc == -1,
            "build_error": "" if rc == 0 else first_error(out),
            "static_assert": rc != 0 and "static assertion failed" in out,
            "amp_check": rc != 0 and "[C++ AMP C" in out}


def finished_build(state_file):
    """Whether an earlier run left a verdict for this build: a build cut by
    --build-timeout (a loaded machine, a cold cache) has none and is built
    again by --resume."""
    if not state_file.exists():
        return False
    try:
        return not json.loads(state_file.read_text()).get("build_timed_out")
    except ValueError:  # cut while being written
        return False


def read_log(test, k, ctx):
    p = ctx["work"] / "t" / test.slug() / f"set{k}" / "build.log"
    return p.read_text(errors="replace") if p.exists() else ""


def check_one(test, k, tc, ctx, args):
    """The restrict(amp) rule checker over definition set k (after the build
    succeeded). Returns a dict: checked, check_error, check_codes."""
    d = ctx["work"] / "t" / test.slug() / f"set{k}"
    cmd = tc.cxx_cmd(launch=True, cxx=tc.check_cxx) + tc.check_flags(pch=ctx["check_pch"], inc=ctx["inc"])
    cmd += tc.check_plugin
    if test.own_main:
        cmd += ["-include", str(ctx["test_main"])]
    cmd += set_defines(test.sets[k])
    if test.negative or test.compile_only:
        cmd += ["-D__CPU__=1"]
    cmd += ["-fsyntax-only", str(test.path)]
    rc, out = compile_logged(cmd, test, args, d / "check.log", "check")
    codes = sorted(set(re.findall(r"\[C\+\+ AMP (C\d{4})\]", out)))
    # Only the checker's own diagnostics count as a rejection; any other error
    # means Clang could not parse what GCC compiled (reported as such).
    rejected = rc != 0 and bool(codes)
    return {"checked": True, "check_rejected": rejected,
            "check_error": first_error(out) if rejected else "", "check_codes": codes,
            "check_unparsed": "" if rc == 0 or rejected else first_error(out)}


def run_one(test, k, ctx, args):
    d = ctx["work"] / "t" / test.slug() / f"set{k}"
    exe = d / "test.out"
    env = dict(os.environ)
    env.setdefault("OMP_NUM_THREADS", "2")
    env.setdefault("OMP_PROC_BIND", "false")
    t0 = time.time()
    try:
        r = subprocess.run([str(exe)], capture_output=True, text=True, timeout=args.timeout, cwd=str(d),
                           env=env, errors="replace")
        rc, out = r.returncode, r.stdout + r.stderr
    except subprocess.TimeoutExpired as e:
        rc, out = "timeout", f"timed out after {args.timeout} s"
    (d / "run.log").write_text(out)
    return rc, round(time.time() - t0, 2), out


def judge(test, k, tc, ctx, args):
    """Result of set k: pass / fail / skip, with a reason."""
    res = {"set": k, "defines": test.sets[k]}
    if ctx["lib_error"]:
        # Without a compiling test library a negative test's compile error says
        # nothing about the test: it fails too.
        res.update(status="fail", built=False, reason="build: " + ctx["lib_error"])
        return res
    if args.check_only:
        # Only the checker: negative tests pass when it rejects them, the others
        # when it accepts them (a quick way to look for its false positives).
        (ctx["work"] / "t" / test.slug() / f"set{k}").mkdir(parents=True, exist_ok=True)
        res.update(check_one(test, k, tc, ctx, args))
        if test.negative:
            ok = res["check_rejected"]
            res.update(status="pass" if ok else "fail", rejected_by="amp_check" if ok else "",
                       reason="" if ok else "the checker accepted it")
        else:
            ok = not res["check_error"]
            res.update(status="pass" if ok else "fail", reason="" if ok else "amp_check: " + res["check_error"])
        return res
    state_file = ctx["work"] / "t" / test.slug() / f"set{k}" / "build.json"
    if args.resume and not args.run_only and finished_build(state_file):
        res.update(json.loads(state_file.read_text()))  # built by an earlier run
    elif not args.run_only:
        res.update(build_one(test, k, tc, ctx, args))
        state_file.write_text(json.dumps(res))
    else:
        state_file = ctx["work"] / "t" / test.slug() / f"set{k}" / "build.json"
        if not state_file.exists():
            res.update(status="fail", reason="not built (run --build-only first)")
            return res
        res.update(json.loads(state_file.read_text()))
    if res["built"] and args.check and not args.run_only:
        res.update(check_one(test, k, tc, ctx, args))
        state_file.write_text(json.dumps(res))
    if test.negative:
        if res.get("build_timed_out"):
            # A compile cut by --build-timeout rejected nothing.
            res.update(status="fail", reason="build: " + res["build_error"])
            return res
        if not res["built"]:
            res.update(status="pass", reason="", rejected_by="amp_check" if res.get("amp_check") else
                       "static_assert" if res.get("static_assert") else "compiler")
            if res.get("amp_check"):
                res["check_codes"] = sorted(set(re.findall(r"\[C\+\+ AMP (C\d{4})\]", read_log(test, k, ctx))))
        elif res.get("check_rejected"):
            res.update(status="pass", reason="", rejected_by="amp_check")
        else:
            res["status"] = "fail"
            res["reason"] = "compiled, but the test expects a compile error" + (
                f" (amp_check: {res['check_error']})" if res.get("check_error") else "")
        return res
    if not res["built"]:
        res.update(status="fail", reason="build: " + res["build_error"])
        return res
    if res.get("check_error"):
        res.update(status="fail", reason="amp_check: " + res["check_error"])
        return res
    if test.compile_only:
        res.update(status="pass", reason="")
        return res
    if args.build_only:
        res.update(status="built", reason="")
        return res
    rc, secs, out = run_one(test, k, ctx, args)
    res["run_s"] = secs
    res["exit"] = rc
    if rc == 0:
        res.update(status="pass", reason="")
    elif rc == 2:
        res.update(status="skip", reason="exit code 2 (skipped by the test)")
    else:
        if rc == "timeout":
            why = f"run: timed out after {args.timeout} s"
        elif isinstance(rc, int) and rc < 0:
            why = f"run: killed by signal {-rc}"
        else:
            why = f"run: exit code {rc}"
        tail = [l for l in out.splitlines() if l.strip()]
        res.update(status="fail", reason=why, output_tail=tail[-3:] if tail else [])
    return res


def run_test(test, tc, ctx, args):
    sets = [judge(test, k, tc, ctx, args) for k in range(len(test.sets))]
    states = [s["status"] for s in sets]
    if "fail" in states:
        status = "fail"
    elif "built" in states:
        status = "built"
    elif "skip" in states:
        status = "skip"
    else:
        status = "pass"
    reason = next((s["reason"] for s in sets if s["status"] == "fail"), "")
    r = {"test": test.rel, "kind": test.kind, "section": test.section, "status": status,
         "reason": reason, "sets": sets}
    if test.negative:
        r["expects"] = test.expect_codes
        r["rejected_by_static_assert"] = status == "pass" and all(s.get("static_assert") for s in sets)
        if status == "pass":
            by = {s.get("rejected_by") for s in sets}
            r["rejected_by"] = by.pop() if len(by) == 1 else "mixed"
            r["check_codes"] = sorted({c for s in sets for c in s.get("check_codes", [])})
    return r


# ------------------------------------------------------------------ report
def tables(results, adaptations, elapsed, args):
    lines = []
    if adaptations:
        lines.append("Test library adaptations (scratch copy; the suite itself is unchanged):")
        lines += [f"  - {a}" for a in adaptations]
    else:
        lines.append("Test library: built unchanged.")
    lines.append("")
    head = f"{'section':<34} {'runtime pass/total':>19} {'skip':>5} {'negative pass/total':>20} {'all pass/total':>15}"
    lines.append(head)
    lines.append("-" * len(head))
    sections = sorted({r["section"] for r in results})

    def counts(rs):
        rt = [r for r in rs if r["kind"] != "negative"]
        ng = [r for r in rs if r["kind"] == "negative"]
        return (sum(r["status"] == "pass" for r in rt), len(rt), sum(r["status"] == "skip" for r in rt),
                sum(r["status"] == "pass" for r in ng), len(ng))

    for s in sections:
        rp, rt, sk, np_, nt = counts([r for r in results if r["section"] == s])
        name = f"{s} ({SECTION_NAMES.get(s.split('_')[0], '')})"
        lines.append(f"{name[:34]:<34} {rp:>9}/{rt:<9} {sk:>5} {np_:>10}/{nt:<9} {rp + np_:>7}/{rt + nt:<7}")
    rp, rt, sk, np_, nt = counts(results)
    lines.append("-" * len(head))
    lines.append(f"{'total':<34} {rp:>9}/{rt:<9} {sk:>5} {np_:>10}/{nt:<9} {rp + np_:>7}/{rt + nt:<7}")
    nsets = sum(len(r["sets"]) for r in results)
    if args.time_limit and len(results) < args.selected:
        lines.append(f"(cut by --time-limit: {len(results)} of the {args.selected} selected tests ran)")
    lines.append(f"({len(results)} tests, {nsets} definition sets, {elapsed:.0f} s"
                 + (f", every {args.every}th test" if args.every > 1 else "")
                 + (f", filter {args.filter!r}" if 0 < len(args.filter) <= 200 else
                    f", a filter of {len(args.filter)} characters" if args.filter else "") + ")")
    neg_pass = [r for r in results if r["kind"] == "negative" and r["status"] == "pass"]
    if neg_pass:
        by_sa = [r for r in neg_pass if r.get("rejected_by_static_assert")]
        want_sa = [r for r in neg_pass if "C2338" in r.get("expects", [])]
        lines.append(f"Negative tests rejected: {len(neg_pass)}; by one of amp_compat's static_asserts: {len(by_sa)} "
                     f"(of the {len(want_sa)} rejected ones that expect MSVC's static_assert C2338: "
                     f"{sum(1 for r in want_sa if r.get('rejected_by_static_assert'))}); "
                     f"the others by an ordinary compile error (see results.json for each)")
        by_chk = [r for r in neg_pass if r.get("rejected_by") == "amp_check"]
        named = [r for r in by_chk if set(r.get("expects", [])) & set(r.get("check_codes", []))]
        lines.append(f"  ... of which rejected by the restrict(amp) checker (tools/amp_check): {len(by_chk)}; "
                     f"with an error code the test names: {len(named)}")
    if args.check:
        wrong = [r for r in results if r["kind"] != "negative" and r["reason"].startswith("amp_check")]
        lines.append(f"Runtime and compile-only tests the checker rejected (false positives): {len(wrong)}")
        unparsed = [r for r in results if any(s.get("check_unparsed") for s in r["sets"])]
        if unparsed:
            lines.append(f"Tests Clang could not parse for the checker (GCC builds them; not checked): "
                         f"{len(unparsed)}")
    causes = {}
    for r in results:
        if r["status"] == "fail":
            key = (r["kind"] == "negative", cause_of(r["reason"]))
            causes[key] = causes.get(key, 0) + 1
    if causes:
        lines.append("")
        lines.append("Most common failure causes (runtime / compile-only tests):")
        for (neg, c), n in sorted(causes.items(), key=lambda x: -x[1]):
            if not neg:
                lines.append(f"  {n:5}  {c}")
        top = [(c, n) for (neg, c), n in causes.items() if neg]
        if top:
            lines.append(f"  negative tests that compiled: {sum(n for _, n in top)}")
    return lines


def listed_tests(p):
    """The tests a results table or a pass list names (each line's first
    tab-separated field; # comments skipped)."""
    return {l.split("\t")[0].strip() for l in Path(p).read_text().splitlines() if l.strip() and not l.startswith("#")}


def read_passlist(p):
    return {l.strip() for l in Path(p).read_text().splitlines() if l.strip() and not l.startswith("#")}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("suite", help="the conformance suite (the folder with Tests/ and amp_test_lib/)")
    ap.add_argument("--gpu", action="store_true", help="build with the CUDA toolchain (Clang-CUDA)")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--filter", default="", help="regular expression on the test path (relative to Tests/)")
    ap.add_argument("--every", type=int, default=1, help="only every Nth test (sorted by path): a deterministic sample")
    ap.add_argument("--build-only", action="store_true", help="build, do not run (for --run-only later)")
    ap.add_argument("--run-only", action="store_true", help="run what --build-only built")
    ap.add_argument("--bundle", metavar="DIR",
                    help="with --gpu --build-only: pack the test binaries, the build verdicts and a run script "
                         "into DIR for a GPU machine without a toolchain (scripts/conformance_bundle.py)")
    ap.add_argument("--resume", action="store_true",
                    help="keep the builds an earlier run into the same --out finished (their verdicts, and the "
                         "programs, which run again); build the rest, and again those cut by --build-timeout. "
                         "Repeat a run cut by --time-limit with --resume to go on where it stopped")
    ap.add_argument("--skip-listed", metavar="TABLE",
                    help="leave out the tests TABLE lists (a results table such as tests/conformance/"
                         "ms-results-host.tsv, or a pass list: the first field of each line): run the rest of a "
                         "tree that earlier runs covered in part, then merge (tests/conformance/merge_results.py)")
    ap.add_argument("--timeout", type=int, default=60, help="seconds per test run")
    ap.add_argument("--build-timeout", type=int, default=300, help="seconds per test build")
    ap.add_argument("--out", default="", help="output directory (default build/conformance-host or -gpu)")
    ap.add_argument("--compare", metavar="PASSLIST",
                    help="fail (exit 1) if a test listed there (and selected) does not pass now")
    ap.add_argument("--update-passlist", metavar="PASSLIST", help="write the passing tests there")
    ap.add_argument("--time-limit", type=int, default=0,
                    help="stop starting tests after this many seconds; report what ran")
    ap.add_argument("--no-pch", action="store_true", help="do not use the precompiled header")
    ap.add_argument("--check-only", action="store_true",
                    help="run only the restrict(amp) checker (no builds, no runs): negative tests pass when it "
                         "rejects them, the others when it accepts them")
    ap.add_argument("--no-check", action="store_true",
                    help="do not run the restrict(amp) rule checker (tools/amp_check) after each build")
    args = ap.parse_args()
    if args.bundle and not (args.gpu and args.build_only):
        raise SystemExit("--bundle: with --gpu --build-only (the bundle carries GPU builds to a GPU machine)")

    suite = Path(args.suite).resolve()
    if not (suite / "Tests").is_dir() or not (suite / "amp_test_lib").is_dir():
        raise SystemExit(f"{suite}: not the conformance suite (no Tests/ or amp_test_lib/)")
    # HCC's port brings test_main.h (included into tests with their own main);
    # Microsoft's tree does not, and is built the Visual Studio way.
    flavor = "hcc" if (suite / "test_main.h").is_file() else "microsoft"
    tc = Toolchain(args.gpu)
    checker = not args.no_check and bool(tc.check_cxx and tc.check_plugin)
    if flavor == "microsoft":
        if args.check_only:
            raise SystemExit("--check-only: HCC's port only (Microsoft's tree checks within each compile)")
        tc = MsvcToolchain(args.gpu, checker)
        log("Microsoft's tree as shipped: built with " + " ".join(tc.cxx_cmd()[1:]) + " (run_tests.pl's rules)")
    args.check = checker and flavor == "hcc"
    if not args.no_check and not checker:
        log("the restrict(amp) checker is not available (see scripts/amp_check.sh); negative tests it would "
            "reject will fail")
    build_dir = Path(os.environ.get("AMP_BUILD_DIR", ROOT / "build"))
    work = Path(args.out).resolve() if args.out else build_dir / (
        f"conformance-{'ms-' if flavor == 'microsoft' else ''}{'gpu' if args.gpu else 'host'}")
    work.mkdir(parents=True, exist_ok=True)

    tests_root, tests = discover(suite)
    total = len(tests)
    if args.filter:
        tests = [t for t in tests if re.search(args.filter, t.rel)]
    if args.every > 1:
        tests = [t for i, t in enumerate(tests) if i % args.every == 0]
    if args.skip_listed:
        listed = listed_tests(args.skip_listed)
        tests = [t for t in tests if t.rel not in listed]
    args.selected = len(tests)
    log(f"{len(tests)} of {total} tests selected; {args.jobs} jobs; output in {work}")
    args.compile_env = None

    t0 = time.time()
    if args.run_only or (args.resume and (work / "library.json").exists()):
        meta = json.loads((work / "library.json").read_text())
        ctx = {"work": work, "inc": Path(meta["inc"]), "lib": Path(meta["lib"]),
               "pch": Path(meta["pch"]) if meta["pch"] else None, "test_main": Path(meta["test_main"]),
               "check_pch": Path(meta["check_pch"]) if meta.get("check_pch") else None,
               "lib_error": meta.get("lib_error", ""), "flavor": flavor}
        if not meta["test_main"]:
            ctx["test_main"] = None
        adaptations = meta["adaptations"]
    else:
        prepare = prepare_library_ms if flavor == "microsoft" else prepare_library
        inc, lib, pch, check_pch, test_main, adaptations, lib_error = prepare(suite, work, tc, args)
        ctx = {"work": work, "inc": inc, "lib": lib, "pch": pch, "check_pch": check_pch, "test_main": test_main,
               "lib_error": lib_error, "flavor": flavor}
        (work / "library.json").write_text(json.dumps(
            {"inc": str(inc), "lib": str(lib), "pch": str(pch) if pch else "",
             "test_main": str(test_main) if test_main else "",
             "check_pch": str(check_pch) if check_pch else "",
             "adaptations": adaptations, "lib_error": lib_error}, indent=1))
    if flavor == "microsoft":
        args.compile_env = tc.test_env(build_dir)
    log("test library adaptations:" if adaptations else "test library: no adaptations")
    for a in adaptations:
        print(f"  - {a}", flush=True)

    results, done = [], 0
    # Tests start in a fixed pseudo-random order (not by path), so that a run cut
    # short by --time-limit still covers every section.
    order = sorted(tests, key=lambda t: hashlib.sha1(t.rel.encode()).hexdigest())
    progress = open(work / "progress.jsonl", "w")
    pool = cf.ThreadPoolExecutor(max_workers=max(1, args.jobs))
    futs = {pool.submit(run_test, t, tc, ctx, args): t for t in order}
    deadline = t0 + args.time_limit if args.time_limit else None
    cut = False
    try:
        for f in cf.as_completed(futs, timeout=(deadline - time.time()) if deadline else None):
            t = futs[f]
            try:
                r = f.result()
            except Exception as e:  # a runner bug must not hide the other results
                r = {"test": t.rel, "kind": t.kind, "section": t.section, "status": "fail",
                     "reason": f"runner error: {e}", "sets": []}
            results.append(r)
            progress.write(json.dumps(r) + "\n")
            progress.flush()
            done += 1
            if r["status"] == "fail" or done % 50 == 0 or done == len(tests):
                print(f"  [{done}/{len(tests)} {time.time() - t0:5.0f}s] {r['status']:5} {r['test']}"
                      + (f"  -- {r['reason'][:200]}" if r["status"] == "fail" else ""), flush=True)
    except cf.TimeoutError:
        cut = True
        log(f"--time-limit {args.time_limit} s reached: {len(tests) - done} tests not run (left out of the tables)")
    pool.shutdown(wait=not cut, cancel_futures=True)
    progress.close()
    not_run = sorted({t.rel for t in tests} - {r["test"] for r in results})
    results.sort(key=lambda r: r["test"])
    elapsed = time.time() - t0

    summary = tables(results, adaptations, elapsed, args)
    print("\n".join(summary))
    passing = [r["test"] for r in results if r["status"] == "pass"]
    (work / "results.json").write_text(json.dumps(
        {"suite": str(suite), "toolchain": tc.kind, "every": args.every, "filter": args.filter,
         "seconds": round(elapsed), "adaptations": adaptations, "not_run": not_run, "results": results}, indent=1))
    (work / "passlist.txt").write_text("".join(p + "\n" for p in passing))
    (work / "summary.txt").write_text("\n".join(summary) + "\n")
    log(f"wrote {work / 'results.json'}, {work / 'passlist.txt'}, {work / 'summary.txt'}")

    rc = 0
    if args.bundle:
        subprocess.run([sys.executable, str(ROOT / "scripts" / "conformance_bundle.py"), str(work), args.bundle],
                       check=True)
    if args.compare:
        expected = read_passlist(args.compare)
        selected = {t.rel for t in tests}
        now = set(passing)
        lost = sorted((expected & selected) - now - set(not_run))
        if not_run and expected & set(not_run):
            log(f"{len(expected & set(not_run))} listed tests were not run (time limit)")
        new = sorted(now - expected)
        for t in new:
            print(f"  NEW PASS  {t}")
        for t in lost:
            r = next((r for r in results if r["test"] == t), None)
            print(f"  REGRESSED {t}  -- {r['reason'][:200] if r else 'not run'}")
        log(f"compared with {args.compare}: {len(expected & selected)} expected passes selected, "
            f"{len(lost)} regressed, {len(new)} new passes"
            + (" (add them with --update-passlist)" if new else ""))
        if lost:
            rc = 1
    if args.update_passlist:
        p = Path(args.update_passlist)
        keep = read_passlist(p) - {t.rel for t in tests} if p.exists() else set()
        merged = sorted(keep | set(passing))
        p.write_text("# Conformance tests (relative to Tests/) that pass on the host; "
                     "written by ./amp conformance --update-passlist\n" + "".join(t + "\n" for t in merged))
        log(f"wrote {p} ({len(merged)} tests)")
    return rc


if __name__ == "__main__":
    sys.exit(main())
