#!/usr/bin/env bash
# Compiler launcher: `restrict_launcher.sh COMPILER ARGS...` compiles as
# `COMPILER ARGS...`, with restrict(cpu)/restrict(amp) overload pairs in the
# sources and their project headers rewritten first (scripts/restrict_rewrite.py;
# files without such pairs are compiled unchanged). Used by `./amp c++`,
# `./amp conformance` and, as CMAKE_CXX_COMPILER_LAUNCHER, by CMake builds.
exec python3 "$(dirname "${BASH_SOURCE[0]}")/restrict_rewrite.py" --launch "$@"
