/* The old trace reader, a test oracle (trace_oracle.c). */
#ifndef COALSIM_TRACE_ORACLE_H
#define COALSIM_TRACE_ORACLE_H

#include <stdio.h>

#include "coalsim.h"

typedef struct trace_oracle trace_oracle;
trace_oracle *trace_oracle_new(FILE *fp, const char *name, unsigned warp_size);
void trace_oracle_free(trace_oracle *rd);
int trace_oracle_next(trace_oracle *rd, coalsim_request *out);
const char *trace_oracle_error(const trace_oracle *rd);

#endif
