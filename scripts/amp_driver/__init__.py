"""amp_compat's compiler driver, one package (as AdaptiveCpp's acpp is one
Python driver with one option table):

  options.py        the option table: flag, environment variable, CMake
                    option, --cflags/--libs output; `amp++ --help`
  job.py            one compile, parsed once, its modes explicit
  driver.py         amp++ (scripts/amp++): flags, Kokkos, the compile, hints
  launcher.py       the compiler launcher: the source passes, then the compile
  passes/           one module per source pass, each with applies(job)
  cpp_lexer.py, pp_conditionals.py   what the passes read C++ with
  plugins.py        the builder of the Clang plugins (amp_check, tile_compiler)
  backends.py       the backends, read from backends.txt
  vsproj/           Visual Studio solutions (./amp build, ./amp import)
  conformance.py    Microsoft's conformance suite (./amp conformance)

Entry: python3 -m amp_driver COMMAND ... with this package's folder on the
import path (the scripts in scripts/ set it), or
scripts/amp++ / scripts/restrict_launcher.sh.
"""
