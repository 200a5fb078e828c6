#!/usr/bin/env bash
# Compiler launcher: `restrict_launcher.sh COMPILER ARGS...` compiles as
# `COMPILER ARGS...`, with the source passes (restrict(cpu)/restrict(amp)
# pairs, Windows spellings, the MSVC dialect, GPU edits, host tiles) applied
# first to copies of the sources and their project headers (the driver
# package beside this script: amp_driver/launcher.py; files no pass applies
# to are compiled unchanged). Used by CMake builds as
# CMAKE_CXX_COMPILER_LAUNCHER and by `./amp conformance`; amp++ runs the
# same launcher in its own process.
HERE="$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")"
PYTHONPATH="$HERE${PYTHONPATH:+:$PYTHONPATH}" exec python3 -S -m amp_driver launch "$@"
