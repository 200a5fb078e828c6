"""The readers of the backends list (scripts/amp_driver/backends.txt) outside
the package: backends.py's filters, scripts/deps.sh's Kokkos options (the
host Kokkos' devices, Serial first as the existing installs' stamps were
taken) and the GPU bundle's backends.env. CTest: driver.unit."""
import contextlib
import io
import os
import subprocess
import tempfile
import unittest
from pathlib import Path

from amp_driver import backends

ROOT = Path(__file__).resolve().parents[2]


def shell_function(script, name):
    """The text of a shell function of script (name() { ... } up to the
    first line that is `}`)."""
    lines = (ROOT / script).read_text().splitlines()
    start = next(i for i, ln in enumerate(lines) if ln.startswith(name + "()"))
    end = next(i for i in range(start, len(lines)) if lines[i] == "}")
    return "\n".join(lines[start:end + 1]) + "\n"


class Filters(unittest.TestCase):
    def names(self, *argv):
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            backends.main(list(argv))
        return out.getvalue().split()

    def test_columns(self):
        rows = backends.read()
        self.assertEqual(self.names("--kind", "host", "--embedded"),
                         [b.name for b in rows if b.kind == "host" and b.embedded])
        self.assertEqual(self.names("--device", "SERIAL"), ["serial"])
        self.assertEqual(self.names("--kind", "gpu", "--build", "cuda"), ["cuda"])
        self.assertEqual(self.names("--name", "threads", "--field", "device"), ["THREADS"])
        with self.assertRaises(SystemExit):
            self.names("--colour", "red")


class Scripts(unittest.TestCase):
    def bash(self, text, **env):
        r = subprocess.run(["bash", "-c", text], capture_output=True, text=True, env=dict(os.environ, **env))
        self.assertEqual(r.returncode, 0, r.stderr)
        return r.stdout

    def test_deps_kokkos_options(self):
        """deps.sh builds the host Kokkos with the embedded host backends' devices."""
        text = f"REPO={ROOT}\n" + shell_function("scripts/deps.sh", "backends") + \
            shell_function("scripts/deps.sh", "kokkos_device_options")
        embedded = [b.device for b in backends.read() if b.kind == "host" and b.embedded]
        want = ["-DKokkos_ENABLE_SERIAL=ON"] * ("SERIAL" in embedded) + \
            [f"-DKokkos_ENABLE_{d}=ON" for d in embedded if d != "SERIAL"]
        self.assertEqual(self.bash(text + "kokkos_device_options --kind host --embedded").split(), want)
        self.assertEqual(self.bash(text + "kokkos_device_options --name threads").split(),
                         ["-DKokkos_ENABLE_THREADS=ON"])

    def test_bundle_backends_env(self):
        with tempfile.TemporaryDirectory() as out:
            text = f"ROOT={ROOT}; OUT={out}\n" + shell_function("scripts/gpu_bundle.sh", "backends_env") + \
                'backends_env cuda "openmp serial"; . "$OUT/backends.env"; echo "$GPU|$HOST|$SEQUENTIAL|$HOST_BACKENDS"'
            self.assertEqual(self.bash(text).strip(), "cuda|openmp|serial|openmp serial")


if __name__ == "__main__":
    unittest.main()
