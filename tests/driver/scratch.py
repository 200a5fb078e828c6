"""What several driver unit tests share (not a test module: the discovery
pattern is unit_*.py): files written into a test's scratch folder."""
import os
from pathlib import Path


class WritesFiles:
    """A test case with a scratch folder self.d: write(rel, text, mode)
    creates d/rel (and its folders) holding text, made executable with mode
    (e.g. 0o755 for a stand-in compiler), and returns its path."""

    def write(self, rel, text, mode=None):
        p = os.path.join(self.d, rel)
        os.makedirs(os.path.dirname(p), exist_ok=True)
        Path(p).write_text(text)
        if mode:
            os.chmod(p, mode)
        return p
