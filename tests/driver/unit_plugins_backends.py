"""Unit tests of the plugin builder (plugins.py) and the backends list
(backends.py, backends.txt). CTest: driver.unit."""
import unittest

from amp_driver import backends, plugins


class Backends(unittest.TestCase):
    def test_rows(self):
        rows = backends.read()
        names = [b.name for b in rows]
        self.assertEqual(len(names), len(set(names)))
        self.assertEqual(backends.builds(rows), ["host", "cuda", "hip"])
        self.assertEqual([b.name for b in rows if b.kind == "host" and b.embedded], ["openmp", "serial"])
        for b in rows:
            self.assertIn(b.kind, ("host", "gpu"))
            self.assertEqual(b.device, b.device.upper())


class Plugins(unittest.TestCase):
    def test_each_plugin_has_a_source(self):
        for name in plugins.PLUGINS:
            src, prebuilt, _ = plugins._where(name, {})
            self.assertTrue(src.is_file(), src)
            self.assertIsNone(prebuilt)  # a source checkout

    def test_missing_clang_is_a_clear_error(self):
        with self.assertRaisesRegex(plugins.PluginError, "no-such-clang"):
            plugins.build("amp_check", {"AMP_CHECK_CLANG": "no-such-clang++-0"})


if __name__ == "__main__":
    unittest.main()
