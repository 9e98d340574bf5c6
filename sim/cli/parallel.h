/* Analysing one large text trace on several threads (the command's side:
 * the library has no globals, so each thread runs its own reader). */
#ifndef COALSIM_PARALLEL_H
#define COALSIM_PARALLEL_H

#include "coalsim.h"

/* Split the regular text file PATH into up to THREADS parts at lines where the
 * block index changes (no warp request can span such a line), analyse the
 * parts at once and merge their totals in file order: the result is the one a
 * single pass gives.  Returns 0 with *out set; 1 if the file is not a
 * candidate (not a regular file, gzip, binary, another tool's trace, or no
 * cut found): analyse it in one pass; -1 after printing "coalsim: FILE:LINE: ..." on stderr. */
int parallel_analyse(const char *path, const coalsim_arch *a, unsigned threads, coalsim_analysis **out);

#endif
