"""The checked host build's source pass (--checked, amp_compat/detail/checked.h):
each tile_static array of the project's files is placed between guard zones,
so that a write past its end is caught (gpu.checked_tile_static_edits, which
shares the GPU pass's tile_static reading)."""
from pathlib import Path

from . import gpu

NAME = "checked build (--checked; passes/checked.py)"
REPORT_KEYS = ("checked build:",)


def mode_applies(job):
    return job.checked


def applies(job):
    """A checked host build and a file that declares tile_static (the cheap scan)."""
    return job.checked and job.any_text(gpu.CHECKED_HINT)


def file_edits(job, f, prior, extra):
    ce = gpu.checked_tile_static_edits(f.mask, f.path)
    if not ce:
        return [], []
    return ce, [f"{Path(f.path).name}: checked build: {len(ce)} tile_static array(s) between guard zones"]
