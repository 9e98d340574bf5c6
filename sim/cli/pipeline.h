/* Reading a trace on a thread of its own: one thread reads and models the
 * requests in batches while the calling thread adds them up in order, so a
 * trace that cannot be split (binary, gzip, stdin, small) still uses two
 * cores.  The result is the one coalsim_reader_drain gives. */
#ifndef COALSIM_PIPELINE_H
#define COALSIM_PIPELINE_H

#include "coalsim.h"

/* Read every request of RD into AN (made with ARCH).  TICK(CTX), if not
 * NULL, is called now and then on the reading thread.  0 at the end; -1 on
 * bad input (coalsim_reader_error says why); 1 if AN stopped it, with
 * *LINE the reader's line at that request. */
int pipeline_drain(coalsim_reader *rd, coalsim_analysis *an, const coalsim_arch *arch, void (*tick)(void *),
                   void *ctx, unsigned long *line);

#endif
