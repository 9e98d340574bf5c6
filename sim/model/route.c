/* The one place that routes a request to the model of its memory space. */
#include "coalsim.h"

void coalsim_model(const coalsim_arch *a, const coalsim_request *r, coalsim_result *out)
{
    switch (r->space) {
    case COALSIM_SHARED: coalsim_smem(a, r, out); break;
    case COALSIM_CONST: coalsim_cmem(a, r, out); break;
    case COALSIM_GLOBAL:
    case COALSIM_LOCAL:
    default: coalsim_gmem(a, r, out); break;   /* local memory is cached like global */
    }
}
