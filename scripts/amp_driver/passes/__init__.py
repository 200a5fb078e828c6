"""The launcher's source passes, one module each. Every pass module has
NAME (how a report names it), applies(job) (whether this compile needs it:
its mode, then a cheap scan of the files' text, so that a source with
nothing for it costs no parse), and its edits; the text passes have
file_edits(job, file, prior edits, extra) -> (edits, report lines) and
REPORT_KEYS (the words of their report lines).

  restrict_pairs  restrict(cpu)/restrict(amp) pairs, `restrict` as an
                  identifier, dynamic exception specifications (every compile)
  windows         --windows-compat: include spellings, `void main`, wmain,
                  std::exception(message), __declspec(align), rank deduction
  msvc            --msvc: MSVC's permissive template dialect
  gpu             --gpu: parallel_for_each in a lambda, tile_static of class type
  checked         --checked: tile_static arrays between guard zones
  host_tiles      tiled kernels with barriers compiled for the host
                  (tile_compiler.py, tools/tile_compiler)

Imported by the launcher only when a compile needs them (source_passes):
a plain compile imports none of the mode passes.
"""
import importlib

# The text passes whose edits follow the restrict pass's own, in this order,
# with the mode (job.Job attribute) each needs.
SOURCE_PASS_MODES = [("windows", "windows"), ("msvc", "msvc"), ("gpu", "gpu"), ("checked", "checked")]


def source_passes(job=None):
    """The text passes (modules) in order: those job's modes call for, or
    all of them when job is None."""
    return [importlib.import_module(f"{__name__}.{name}") for name, mode in SOURCE_PASS_MODES
            if job is None or getattr(job, mode)]
