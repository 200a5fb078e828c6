"""The host-tiles pass: tiled kernels with a barrier compiled for the host
accelerators instead of run on fibers (tools/tile_compiler, a Clang plugin).
Its work is scripts/host_tiles_launch.py's (which drives
scripts/tile_compiler.sh); this module is its place among the passes, called
through host_tiles_launch's interface: wanted(), run().

host_tiles_launch.py lives beside the package (scripts/, or share/amp_compat
when installed), which is on the import path of every entry point."""
import host_tiles_launch

NAME = "host tiles (scripts/host_tiles_launch.py, tools/tile_compiler)"


def applies(job):
    """A host or Clang CUDA compile (host_tiles_launch.enabled) whose sources
    or project headers hold a barrier (the cheap scan: no Clang parse for
    the others)."""
    return host_tiles_launch.wanted(job.args, list(job.sources), job.headers)


def run(compiler, args, sources, out, headers=(), capture=False):
    """Compiles args with the tiled kernels of the sources (indices into
    args) and headers rewritten; (exit status, stderr when capture)."""
    return host_tiles_launch.run(compiler, args, list(sources), out, headers, capture)


def exec_or_call(job):
    """The compile of job as written (no text pass applied): exec'd (or run,
    when job.may_exec is off) when no kernel is for the host-tiles pass, else
    compiled through it; the exit status."""
    if not applies(job):
        if job.may_exec:
            import os
            os.execvp(job.compiler, [job.compiler] + job.args)
        import subprocess
        return subprocess.run([job.compiler] + job.args).returncode
    return host_tiles_launch.call(job.compiler, job.args, list(job.sources), job.out, job.headers)
