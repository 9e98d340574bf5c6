/* The old shared-memory model, a test oracle (smem_oracle.c). */
#ifndef COALSIM_SMEM_ORACLE_H
#define COALSIM_SMEM_ORACLE_H

#include "coalsim.h"

void smem_oracle(const coalsim_arch *a, const coalsim_request *r, coalsim_result *out);

#endif
