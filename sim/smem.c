/* Shared memory: wavefronts and bank conflicts of one warp request.
 *
 * A request is served in phases, groups of consecutive lanes that the banks
 * can serve together when nothing conflicts: banks * bank_width bytes'
 * worth of lanes (a full warp of 4-byte lanes on 32 x 4-byte banks, a half
 * warp of 8-byte lanes, a quarter warp of 16-byte lanes).  Within a phase,
 * lanes that touch the same bank row share it (broadcast on loads, one write
 * on stores); lanes that touch different rows of one bank take one wavefront
 * each.  The phase costs the largest number of distinct rows any bank sees.
 */
#include "coalsim.h"
#include "uniq.h"

/* A 16-byte lane touches at most 4 bank words. */
#define MAXKEYS (COALSIM_MAX_WARP * 4)

typedef struct {
    unsigned ways;
    unsigned bank;
} phase_cost;

/* Cost of lanes [lo, hi) of r.  Key = bank in the low 8 bits, row above. */
static phase_cost cost(const coalsim_arch *a, const coalsim_request *r, unsigned lo, unsigned hi)
{
    uint64_t k[MAXKEYS];
    size_t n = 0, i, m;
    unsigned word = a->bank_mode / 8;                  /* bytes per bank step */
    uint64_t row_bytes = (uint64_t)a->banks * a->bank_width;
    phase_cost c = {0, 0};
    for (unsigned l = lo; l < hi; l++) {
        if (!(r->active >> l & 1)) continue;
        for (uint64_t w = r->addr[l] / word; w <= (r->addr[l] + r->size - 1) / word; w++) {
            uint64_t bank = w % a->banks, row = w * word / row_bytes;
            if (n < MAXKEYS) k[n++] = row << 8 | bank;
        }
    }
    /* distinct (row, bank) pairs, then count rows per bank */
    m = uniq_sort(k, n);
    unsigned per_bank[64] = {0};
    for (i = 0; i < m; i++) per_bank[k[i] & 0xff]++;
    for (i = 0; i < a->banks; i++)
        if (per_bank[i] > c.ways) c.ways = per_bank[i], c.bank = (unsigned)i;
    return c;
}

/* True if every active lane n whose partner n^x is active has its address. */
static int paired(const coalsim_request *r, unsigned warp, unsigned x)
{
    for (unsigned l = 0; l < warp; l++) {
        unsigned p = l ^ x;
        if (p >= warp || !(r->active >> l & 1) || !(r->active >> p & 1)) continue;
        if (r->addr[l] != r->addr[p]) return 0;
    }
    return 1;
}

static unsigned lanes_per_phase(const coalsim_arch *a, const coalsim_request *r)
{
    unsigned lanes = a->banks * a->bank_width / r->size;
    /* measured on sm_90: a load whose lanes come in equal pairs returns two
     * lanes' data per bank word, so twice the lanes fit in a wavefront */
    if (a->split == COALSIM_SPLIT_HW && r->op == COALSIM_LD && r->size >= 8 &&
        (paired(r, a->warp_size, 1) || paired(r, a->warp_size, 2)))
        lanes *= 2;
    if (lanes > a->warp_size) lanes = a->warp_size;
    return lanes ? lanes : 1;
}

static uint32_t lane_mask(unsigned lo, unsigned hi)
{
    uint64_t m = ((uint64_t)1 << hi) - ((uint64_t)1 << lo);
    return (uint32_t)m;
}

void coalsim_smem(const coalsim_arch *a, const coalsim_request *r, coalsim_result *out)
{
    unsigned step = lanes_per_phase(a, r);
    /* CC 2.x 128-bit accesses: each half warp costs one way more than its
     * worst quarter (Programming Guide, "Compute Capability 2.x", 128-bit). */
    int fermi16 = a->split == COALSIM_SPLIT_FERMI && r->size == 16;
    unsigned group = fermi16 ? 2 * step : step;

    out->active_threads = (unsigned)__builtin_popcount(r->active);
    out->requested_bytes = uniq_requested_bytes(r);
    for (unsigned lo = 0; lo < a->warp_size; lo += group) {
        unsigned hi = lo + group < a->warp_size ? lo + group : a->warp_size;
        if (!(r->active & lane_mask(lo, hi))) continue;
        phase_cost c = {0, 0};
        for (unsigned q = lo; q < hi; q += step) {
            phase_cost qc = cost(a, r, q, q + step < hi ? q + step : hi);
            if (qc.ways > c.ways) c = qc;
            if (!fermi16) break;
        }
        if (fermi16) c.ways += 1;
        out->phases++;
        out->ideal_wavefronts++;
        out->wavefronts += c.ways;
        if (c.ways > out->max_ways) out->max_ways = c.ways, out->worst_bank = c.bank;
    }
}
