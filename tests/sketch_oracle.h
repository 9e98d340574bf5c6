/* The old sketch runner, a test oracle (sketch_oracle.c). */
#ifndef COALSIM_SKETCH_ORACLE_H
#define COALSIM_SKETCH_ORACLE_H

#include <stdint.h>
#include <stdio.h>

/* Run the sketch TEXT and write its v1 trace to OUT, as coalsim did before
 * sketches were compiled.  0, or -1 with "NAME:LINE[:COL]: ..." in ERR. */
int sketch_oracle(const char *text, const char *name, const char *const *sets, FILE *out, uint64_t max_records,
                  char *err, size_t errcap);

#endif
