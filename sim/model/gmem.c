/* Global memory: sectors, lines and requested bytes of one warp request. */
#include "coalsim.h"
#include "uniq.h"

/* A lane touches at most size/sector + 1 units; 16-byte lanes and sectors of
 * at least 1 byte give at most 17 units a lane. */
#define MAXUNITS (COALSIM_MAX_WARP * 17)

/* Distinct units of UNIT bytes (a power of two: arch_check) touched by the
 * active lanes.  Shifts, not divisions: this runs for every lane of every
 * global request. */
static unsigned count_units(const coalsim_request *r, unsigned unit)
{
    unsigned sh = (unsigned)__builtin_ctz(unit);
    /* lanes in address order (the common case): count new units as they
     * come, no sort; the first lane that steps back sends us to the sort */
    uint64_t last = 0;
    unsigned count = 0;
    int any = 0;
    for (uint32_t m = r->active; m; m &= m - 1) {
        unsigned l = (unsigned)__builtin_ctz(m);
        uint64_t u0 = r->addr[l] >> sh, u1 = (r->addr[l] + r->size - 1) >> sh;
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
        uint64_t u0 = r->addr[l] >> sh, u1 = (r->addr[l] + r->size - 1) >> sh;
        for (uint64_t u = u0; u <= u1 && n < MAXUNITS; u++) k[n++] = u;
    }
    return (unsigned)uniq_sort(k, n);
}

/* One pass for the common request whose lanes' addresses never step back:
 * sectors, lines and requested bytes together.  0 if a lane steps back (then
 * the general counts apply).  Lanes' addresses are aligned to their common
 * size, so two lanes either touch the same bytes or none in common. */
static int in_order(const coalsim_arch *a, const coalsim_request *r, coalsim_result *out)
{
    unsigned ss = (unsigned)__builtin_ctz(a->sector_bytes), ls = (unsigned)__builtin_ctz(a->line_bytes);
    uint64_t prev = 0, last_s = 0, last_l = 0;
    unsigned sectors = 0, lines = 0, distinct = 0;
    int any = 0;
    for (uint32_t m = r->active; m; m &= m - 1) {
        uint64_t a0 = r->addr[__builtin_ctz(m)], a1 = a0 + r->size - 1;
        uint64_t s0 = a0 >> ss, s1 = a1 >> ss, l0 = a0 >> ls, l1 = a1 >> ls;
        if (!any) {
            any = 1;
            sectors = (unsigned)(s1 - s0 + 1), lines = (unsigned)(l1 - l0 + 1), distinct = 1;
        } else if (a0 > prev) {
            distinct++;
            sectors += (unsigned)(s1 - s0) + (s0 > last_s);
            lines += (unsigned)(l1 - l0) + (l0 > last_l);
        } else if (a0 < prev) {
            return 0;
        }
        prev = a0, last_s = s1, last_l = l1;
    }
    out->requested_bytes = distinct * r->size;
    out->sectors = sectors;
    out->lines = lines;
    return 1;
}

/* Sectors of an atomic or reduction: lanes that name the same address are
 * served one after another, so a sector is accessed as many times as the
 * most lanes on any one address in it.  Measured on the H100 (outside suite,
 * gpu/results/h100/outside/compare_count.txt): 32 lanes adding to one float
 * cost 32 sectors (jacobi: 65536 for 2048 requests), and a histogram's
 * integer atomics come within 2% of this rule (the distinct sectors are 10%
 * under). */
static unsigned atomic_sectors(const coalsim_arch *a, const coalsim_request *r)
{
    unsigned sh = (unsigned)__builtin_ctz(a->sector_bytes), n = 0, total = 0;
    uint64_t addr[COALSIM_MAX_WARP];
    for (uint32_t m = r->active; m; m &= m - 1) addr[n++] = r->addr[__builtin_ctz(m)];
    /* sort by address: equal addresses and then equal sectors are adjacent */
    for (unsigned i = 1; i < n; i++) {
        uint64_t v = addr[i];
        unsigned j = i;
        for (; j > 0 && addr[j - 1] > v; j--) addr[j] = addr[j - 1];
        addr[j] = v;
    }
    for (unsigned i = 0; i < n;) {
        uint64_t sec = addr[i] >> sh;
        unsigned most = 0;
        while (i < n && addr[i] >> sh == sec) {
            unsigned k = i;
            while (k < n && addr[k] == addr[i]) k++;
            if (k - i > most) most = k - i;
            i = k;
        }
        total += most;
    }
    return total;
}

void coalsim_gmem(const coalsim_arch *a, const coalsim_request *r, coalsim_result *out)
{
    *out = (coalsim_result){0};
    out->active_threads = (unsigned)__builtin_popcount(r->active);
    if (!in_order(a, r, out)) {
        out->requested_bytes = uniq_requested_bytes(r);
        out->sectors = count_units(r, a->sector_bytes);
        out->lines = count_units(r, a->line_bytes);
    }
    if ((r->op == COALSIM_ATOM || r->op == COALSIM_RED) && r->size <= a->sector_bytes) out->sectors = atomic_sectors(a, r);
    out->ideal_sectors = (out->requested_bytes + a->sector_bytes - 1) / a->sector_bytes;
}
