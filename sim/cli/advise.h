/* coalsim advise: padding and swizzle advice for shared tiles (command). */
#ifndef COALSIM_ADVISE_H
#define COALSIM_ADVISE_H

#include "coalsim.h"

/* Run `coalsim advise ARGS`; argv[0] is "advise".  Returns the exit status. */
int advise_main(int argc, char **argv);

#endif
