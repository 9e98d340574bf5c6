/* The old memory-hierarchy model, a test oracle (hier_oracle.c). */
#ifndef COALSIM_HIER_ORACLE_H
#define COALSIM_HIER_ORACLE_H

#include "coalsim.h"

typedef struct hier_oracle hier_oracle;
hier_oracle *hier_oracle_new(const coalsim_hier_cfg *cfg);
void hier_oracle_free(hier_oracle *h);
void hier_oracle_request(hier_oracle *h, const coalsim_request *r, coalsim_hier_counts *c);
uint64_t hier_oracle_dirty_bytes(const hier_oracle *h);

#endif
