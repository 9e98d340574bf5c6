/* The command's subcommands other than the report (convert.c). */
#ifndef COALSIM_COMMANDS_H
#define COALSIM_COMMANDS_H

#include "coalsim.h"

/* coalsim convert [--warp-size N] IN OUT: text <-> binary.  argv[0] is
 * "convert"; returns the exit status. */
int convert_main(int argc, char **argv);
/* coalsim sketch FILE [--set NAME=VALUE]...: the sketch's trace on stdout. */
int sketch_main(int argc, char **argv);

#endif
