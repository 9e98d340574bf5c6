/* cp.async (LDGSTS): a copy from global to shared memory that does not pass
 * through registers.  Both sides of one request, from the rules measured on
 * the H100 (gpu/probes/matrix.cu; gpu/probes/h100-matrix.txt holds the
 * counters, tests/check_matrix.c replays them):
 *
 *   .ca (LDGSTS)          global: the sectors a load of the same lanes moves
 *                         shared: per 128-byte source line, its lanes' worst
 *                                 bank (distinct words), or the most lanes
 *                                 reading the same source bytes if more
 *   .cg (LDGSTS_BYPASS)   global: per 8-lane phase, the larger of its
 *                                 distinct sectors and the distinct 32-byte
 *                                 pieces of shared memory it writes
 *                         shared: no LSU wavefronts */
#include <string.h>

#include "coalsim.h"

/* Distinct values among V[0..n) (n <= 32). */
static unsigned distinct(const uint64_t *v, unsigned n)
{
    unsigned c = 0;
    for (unsigned i = 0; i < n; i++) {
        unsigned j = 0;
        while (j < i && v[j] != v[i]) j++;
        c += j == i;
    }
    return c;
}

/* .cg: each 8-lane phase moves max(distinct sectors, distinct 32-byte shared pieces). */
static unsigned bypass_sectors(const coalsim_arch *a, const coalsim_request *r, const uint64_t *dst)
{
    unsigned total = 0, sb = a->sector_bytes ? a->sector_bytes : 32;
    for (unsigned lo = 0; lo < COALSIM_MAX_WARP; lo += 8) {
        uint64_t sec[16], piece[16];
        unsigned ns = 0, np = 0;
        for (unsigned l = lo; l < lo + 8; l++) {
            if (!(r->active >> l & 1)) continue;
            for (uint64_t s = r->addr[l] / sb; s <= (r->addr[l] + r->size - 1) / sb && ns < 16; s++) sec[ns++] = s;
            if (dst)
                for (uint64_t p = dst[l] / 32; p <= (dst[l] + r->size - 1) / 32 && np < 16; p++) piece[np++] = p;
        }
        unsigned a1 = distinct(sec, ns), a2 = distinct(piece, np);
        total += a1 > a2 ? a1 : a2;
    }
    return total;
}

/* .ca's shared side: one pass set per source line. */
static void ca_shared(const coalsim_arch *a, const coalsim_request *r, const uint64_t *dst, coalsim_result *s)
{
    uint64_t lb = a->line_bytes ? a->line_bytes : 128, word = a->bank_mode / 8 ? a->bank_mode / 8 : 4;
    uint64_t per_row = (uint64_t)a->banks * a->bank_width / word;
    uint32_t left = r->active;
    s->active_threads = (unsigned)__builtin_popcount(r->active);
    s->requested_bytes = s->active_threads * r->size;
    while (left) {
        int l0 = __builtin_ctz(left);
        uint64_t line = r->addr[l0] / lb;
        uint32_t mine = 0;
        for (uint32_t m = left; m; m &= m - 1) {
            int l = __builtin_ctz(m);
            if (r->addr[l] / lb == line) mine |= 1u << l;
        }
        left &= ~mine;
        /* the worst bank's distinct rows among these lanes' words */
        uint64_t rows[64][8];
        unsigned nrows[64] = {0}, ways = 0, bank = 0;
        for (uint32_t m = mine; m; m &= m - 1) {
            int l = __builtin_ctz(m);
            for (uint64_t w = dst[l] / word; w <= (dst[l] + r->size - 1) / word; w++) {
                unsigned b = (unsigned)(w % a->banks) & 63, k;
                uint64_t row = w / per_row;
                for (k = 0; k < nrows[b] && rows[b][k] != row; k++) {}
                if (k == nrows[b] && k < 8) rows[b][nrows[b]++] = row;
                if (nrows[b] > ways || (nrows[b] == ways && b < bank)) ways = nrows[b], bank = b;
            }
        }
        /* lanes reading the same bytes: one a pass */
        unsigned same = 1;
        for (uint32_t m = mine; m; m &= m - 1) {
            int l = __builtin_ctz(m);
            unsigned c = 0;
            for (uint32_t q = mine; q; q &= q - 1) c += r->addr[__builtin_ctz(q)] == r->addr[l];
            if (c > same) same = c;
        }
        unsigned cost = ways > same ? ways : same;
        s->wavefronts += cost;
        s->phases++;
        if (ways > s->max_ways) s->max_ways = ways, s->worst_bank = bank;
    }
    unsigned row_bytes = a->banks * a->bank_width;
    s->ideal_wavefronts = (s->requested_bytes + row_bytes - 1) / row_bytes;
}

void coalsim_ldgsts(const coalsim_arch *a, const coalsim_request *src, const uint64_t *dst, coalsim_result *g,
                    coalsim_result *s)
{
    coalsim_gmem(a, src, g);
    memset(s, 0, sizeof *s);
    if (src->op == COALSIM_LDGSTS_BYPASS) {
        g->sectors = bypass_sectors(a, src, dst);
        return;
    }
    if (dst && src->active) ca_shared(a, src, dst, s);
}
