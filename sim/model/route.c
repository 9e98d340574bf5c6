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

int coalsim_model_repeats(const coalsim_arch *a, const coalsim_request *prev, const coalsim_request *r)
{
    if (r->op != prev->op || r->space != prev->space || r->size != prev->size || r->active != prev->active || !r->active)
        return 0;
    uint64_t unit = a->line_bytes > a->sector_bytes ? a->line_bytes : a->sector_bytes;
    uint64_t row = (uint64_t)a->banks * a->bank_width;
    if (row > unit) unit = row;
    if (!unit || unit & (unit - 1)) return 0;
    int l0 = __builtin_ctz(r->active);
    uint64_t d = r->addr[l0] - prev->addr[l0], off = 0;
    if (d & (unit - 1)) return 0;
    if (r->active == 0xffffffffu) {
        /* XOR and OR only, so the loop vectorises */
        for (int l = 0; l < 32; l++) off |= (r->addr[l] - prev->addr[l]) ^ d;
    } else {
        for (uint32_t m = r->active; m; m &= m - 1) {
            int l = __builtin_ctz(m);
            off |= (r->addr[l] - prev->addr[l]) ^ d;
        }
    }
    return off == 0;
}
