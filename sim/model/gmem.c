/* Global memory: sectors, lines and requested bytes of one warp request. */
#include "coalsim.h"
#include "uniq.h"

/* A lane touches at most size/sector + 1 units; 16-byte lanes and sectors of
 * at least 1 byte give at most 17 units a lane. */
#define MAXUNITS (COALSIM_MAX_WARP * 17)

/* Distinct units of UNIT bytes touched by the active lanes. */
static unsigned count_units(const coalsim_request *r, unsigned unit)
{
    /* lanes in address order (the common case): count new units as they
     * come, no sort; the first lane that steps back sends us to the sort */
    uint64_t last = 0;
    unsigned count = 0;
    int any = 0;
    for (uint32_t m = r->active; m; m &= m - 1) {
        unsigned l = (unsigned)__builtin_ctz(m);
        uint64_t u0 = r->addr[l] / unit, u1 = (r->addr[l] + r->size - 1) / unit;
        if (!any) count = (unsigned)(u1 - u0 + 1), any = 1;
        else if (u0 > last) count += (unsigned)(u1 - u0 + 1);
        else if (u0 == last) count += (unsigned)(u1 - u0);
        else goto sort;
        last = u1;
    }
    return count;
sort:;
    uint64_t k[MAXUNITS];
    size_t n = 0;
    for (unsigned l = 0; l < COALSIM_MAX_WARP; l++) {
        if (!(r->active >> l & 1)) continue;
        uint64_t u0 = r->addr[l] / unit, u1 = (r->addr[l] + r->size - 1) / unit;
        for (uint64_t u = u0; u <= u1 && n < MAXUNITS; u++) k[n++] = u;
    }
    return (unsigned)uniq_sort(k, n);
}

void coalsim_gmem(const coalsim_arch *a, const coalsim_request *r, coalsim_result *out)
{
    *out = (coalsim_result){0};
    out->active_threads = (unsigned)__builtin_popcount(r->active);
    out->requested_bytes = uniq_requested_bytes(r);
    out->sectors = count_units(r, a->sector_bytes);
    out->lines = count_units(r, a->line_bytes);
    out->ideal_sectors = (out->requested_bytes + a->sector_bytes - 1) / a->sector_bytes;
}
