#!/usr/bin/env bash
# `amp_driver.sh COMMAND ARGS...`: python3 -m amp_driver COMMAND ARGS... with
# the driver package (beside this script) on the import path; `amp_driver.sh`
# alone lists the commands.
HERE="$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")"
PYTHONPATH="$HERE${PYTHONPATH:+:$PYTHONPATH}" exec python3 -S -m amp_driver "$@"
