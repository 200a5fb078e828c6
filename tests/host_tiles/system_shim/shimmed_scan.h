// Stands for a `--windows-compat` include shim: a file in a system include
// folder (host_tiles.analysis passes this folder with -idirafter) that
// includes the user's own header, which Clang then marks system too.
#include "../shimmed_decls.h"
