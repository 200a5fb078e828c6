"""Unit tests of the one table of compilers (options.COMPILERS, options.compiler,
`python3 -m amp_driver compiler`): the compiler of each build (host, --msvc,
--gpu cuda, --gpu hip) and the variable that names another, as amp++, ./amp
build, ./amp conformance, the project's CMake builds, scripts/deps.sh and
bin/amp-vs use it.

Run: PYTHONPATH=scripts python3 -m unittest discover -s tests/driver -p "unit_*.py"   (CTest: driver.unit)
"""
import contextlib
import io
import os
import re
import shutil
import subprocess
import tempfile
import unittest
from pathlib import Path
from unittest import mock

from amp_driver import options
from amp_driver.__main__ import main as package_main

ROOT = Path(__file__).resolve().parents[2]
# One variable per build: AMP_MSVC_CXX stands for none but --msvc.
ENV = {"AMP_CXX": "host-cc", "AMP_MSVC_CXX": "msvc-cc", "AMP_CUDA_CXX": "cuda-cc", "AMP_HIP_CXX": "hip-cc",
       "AMP_CHECK_CLANG": "parse-cc"}


class Table(unittest.TestCase):
    def test_defaults(self):
        self.assertEqual(options.compiler("", False, {}), ("g++", "AMP_CXX"))
        self.assertEqual(options.compiler("", True, {}), ("clang++-22", "AMP_MSVC_CXX"))
        self.assertEqual(options.compiler("cuda", False, {}), ("clang++-22", "AMP_CUDA_CXX"))
        self.assertEqual(options.compiler("hip", False, {}), ("hipcc", "AMP_HIP_CXX"))
        self.assertEqual(options.parse_clang({}), "clang++-22")

    def test_each_variable_names_its_builds_compiler(self):
        self.assertEqual(options.compiler("", False, ENV)[0], "host-cc")
        self.assertEqual(options.compiler("", True, ENV)[0], "msvc-cc")
        self.assertEqual(options.compiler("cuda", False, ENV)[0], "cuda-cc")
        self.assertEqual(options.compiler("hip", False, ENV)[0], "hip-cc")
        self.assertEqual(options.parse_clang(ENV), "parse-cc")
        self.assertEqual(options.compiler("", False, {"AMP_CXX": ""})[0], "g++", "an empty variable names none")

    def test_a_gpu_build_takes_the_gpu_compiler_with_msvc_too(self):
        """bin/amp-vs --gpu used to take AMP_MSVC_CXX: the GPU build's compiler is AMP_CUDA_CXX's
        (or AMP_HIP_CXX's), --msvc or not, as amp++ --gpu --msvc compiles."""
        self.assertEqual(options.compiler("cuda", True, ENV), ("cuda-cc", "AMP_CUDA_CXX"))
        self.assertEqual(options.compiler("hip", True, ENV), ("hip-cc", "AMP_HIP_CXX"))

    def test_gpu_kind(self):
        self.assertEqual(options.gpu_kind("", {}), "cuda")
        self.assertEqual(options.gpu_kind(None, {"AMP_GPU": "hip"}), "hip")
        self.assertEqual(options.gpu_kind("cuda", {"AMP_GPU": "hip"}), "cuda", "--gpu=KIND wins over AMP_GPU")
        with self.assertRaisesRegex(ValueError, "AMP_GPU=metal: expected cuda or hip"):
            options.gpu_kind("", {"AMP_GPU": "metal"})
        with self.assertRaisesRegex(ValueError, "--gpu=metal: the GPU builds are"):
            options.gpu_kind("metal", {})

    def test_help_says_each_default(self):
        text = options.help_text()
        for c in options.COMPILERS.values():
            self.assertRegex(text, rf"{c.var}\b.*default {re.escape(c.default)}\)")


class Command(unittest.TestCase):
    def run_cmd(self, *argv, env=None):
        out, err = io.StringIO(), io.StringIO()
        with mock.patch.dict(os.environ, ENV if env is None else env, clear=True), \
                contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            rc = package_main(["compiler"] + list(argv))
        return rc, out.getvalue().strip(), err.getvalue()

    def test_modes(self):
        self.assertEqual(self.run_cmd()[:2], (0, "host-cc"))
        self.assertEqual(self.run_cmd("--msvc")[:2], (0, "msvc-cc"))
        self.assertEqual(self.run_cmd("--msvc", "--gpu")[:2], (0, "cuda-cc"))
        self.assertEqual(self.run_cmd("--gpu=hip")[:2], (0, "hip-cc"))
        self.assertEqual(self.run_cmd("--gpu", "--msvc", env=dict(ENV, AMP_GPU="hip"))[:2], (0, "hip-cc"))
        self.assertEqual(self.run_cmd("--gpu=hip", "--var")[:2], (0, "AMP_HIP_CXX"))
        self.assertEqual(self.run_cmd("--check")[:2], (0, "parse-cc"))
        self.assertEqual(self.run_cmd(env={})[:2], (0, "g++"))

    def test_bad_input(self):
        rc, out, err = self.run_cmd("--gpu", env={"AMP_GPU": "metal"})
        self.assertEqual((rc, out), (2, ""))
        self.assertIn("AMP_GPU=metal: expected cuda or hip", err)
        self.assertEqual(self.run_cmd("--gpu=metal")[0], 2)
        self.assertIn("unknown argument --no-msvc", self.run_cmd("--no-msvc")[2])


class Scripts(unittest.TestCase):
    """The bash entry points ask the table: none spells a compiler variable's default itself."""

    def test_no_script_chooses_a_compiler_itself(self):
        own = re.compile(r"\$\{AMP_(CXX|MSVC_CXX|CUDA_CXX|HIP_CXX|CHECK_CLANG):-")
        for rel in ("amp", "scripts/amp-vs", "scripts/deps.sh", "scripts/amp++", "scripts/gpu_bundle.sh"):
            text = (ROOT / rel).read_text()
            self.assertIsNone(own.search(text), f"{rel} chooses a compiler itself: {own.search(text)}")

    @unittest.skipUnless(shutil.which("bash"), "bash")
    def test_amp_vs_passes_the_tables_compiler(self):
        """bin/amp-vs on an install: its CMake compiler for each build (the package's vsproj stands in)."""
        with tempfile.TemporaryDirectory() as d:
            share = Path(d, "share", "amp_compat")
            share.mkdir(parents=True)
            Path(d, "bin").mkdir()
            shutil.copy(ROOT / "scripts" / "amp-vs", Path(d, "bin", "amp-vs"))
            tool = share / "amp_driver.sh"
            tool.write_text('#!/usr/bin/env bash\n'
                            f'[ "$1" = compiler ] && PYTHONPATH="{ROOT}/scripts" exec python3 -S -m amp_driver "$@"\n'
                            'echo "$@"\n')
            tool.chmod(0o755)

            def amp_vs(*argv, **env):
                r = subprocess.run(["bash", str(Path(d, "bin", "amp-vs")), "build", "x.sln"] + list(argv),
                                   env=dict(os.environ, **ENV, **env), capture_output=True, text=True, cwd=d)
                return r.returncode, r.stdout, r.stderr

            for argv, env, cxx in [((), {}, "msvc-cc"), (("--no-msvc",), {}, "host-cc"),
                                   (("--gpu",), {}, "cuda-cc"), (("--gpu", "--no-msvc"), {}, "cuda-cc"),
                                   (("--gpu",), {"AMP_GPU": "hip"}, "hip-cc")]:
                rc, out, err = amp_vs(*argv, **env)
                self.assertEqual(rc, 0, err)
                self.assertIn(f"--cmake-arg=-DCMAKE_CXX_COMPILER={cxx} ", out, (argv, env))
                self.assertEqual("-DAMP_COMPAT_GPU=ON" in out, "--gpu" in argv)
            rc, out, err = amp_vs("--gpu", AMP_GPU="metal")
            self.assertEqual((rc, out), (2, ""))
            self.assertIn("AMP_GPU=metal", err)


if __name__ == "__main__":
    unittest.main()
