/* Constant memory: the constant cache serves one address a pass, so a warp
 * whose lanes read N distinct addresses is served in N passes (CUDA C
 * Programming Guide, "Constant Memory": "a request is split into as many
 * separate requests as there are different memory addresses").  The passes
 * are reported as wavefronts, a broadcast being the ideal of one. */
#include "coalsim.h"
#include "popcount.h"
#include "uniq.h"

void coalsim_cmem(const coalsim_arch *a, const coalsim_request *r, coalsim_result *out)
{
    (void)a;
    *out = (coalsim_result){0};
    out->active_threads = popcount32(r->active);
    out->requested_bytes = uniq_requested_bytes(r);
    out->wavefronts = out->requested_bytes / r->size;
    out->ideal_wavefronts = out->active_threads ? 1 : 0;
    out->phases = 1;
    out->max_ways = out->wavefronts;
}
