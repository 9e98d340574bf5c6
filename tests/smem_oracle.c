/* The shared-memory model as it was before its divisions became shifts and
 * it gained a fast path for lanes on distinct banks (commit 552799f's
 * sim/model/smem.c and uniq.h), kept as a test oracle for tests/check_smem.c. */
#include <string.h>

#include "coalsim.h"
#include "smem_oracle.h"

/* Sort k[0..n) ascending and drop repeats; returns the count left.
 * Insertion sort: n is small and often nearly sorted (lanes in order). */
static inline size_t uniq_sort(uint64_t *k, size_t n)
{
    size_t i, j, m;
    for (i = 1; i < n; i++) {
        uint64_t v = k[i];
        for (j = i; j > 0 && k[j - 1] > v; j--) k[j] = k[j - 1];
        k[j] = v;
    }
    for (i = 0, m = 0; i < n; i++)
        if (m == 0 || k[m - 1] != k[i]) k[m++] = k[i];
    return m;
}

/* Distinct bytes the active lanes of r touch.  Lane addresses are aligned to
 * the lane size, so two lanes' bytes either coincide or do not overlap. */
static inline unsigned uniq_requested_bytes(const coalsim_request *r)
{
    uint64_t k[COALSIM_MAX_WARP];
    size_t n = 0;
    for (unsigned l = 0; l < COALSIM_MAX_WARP; l++)
        if (r->active >> l & 1) k[n++] = r->addr[l];
    return (unsigned)uniq_sort(k, n) * r->size;
}


/* A 16-byte lane touches at most 4 bank words. */
#define MAXKEYS (COALSIM_MAX_WARP * 4)

typedef struct {
    unsigned ways;
    unsigned bank;
} phase_cost;

/* Cost of lanes [lo, hi) of r: the most distinct rows any one bank is asked
 * for.  Each bank keeps a chain of the rows seen so far (usually one), so the
 * work is linear in the lanes unless they conflict.  Works for any 64-bit
 * address (the reader already limits shared ones to 4 GiB). */
static phase_cost cost(const coalsim_arch *a, const coalsim_request *r, unsigned lo, unsigned hi)
{
    uint64_t row[MAXKEYS];
    unsigned char next[MAXKEYS], count[64];
    unsigned char head[64];               /* chain start + 1 per bank, 0 = empty */
    unsigned n = 0;
    unsigned word = a->bank_mode / 8;     /* bytes per bank step */
    uint64_t words_per_row = (uint64_t)a->banks * a->bank_width / word;
    phase_cost c = {0, 0};
    memset(head, 0, a->banks);
    memset(count, 0, a->banks);
    for (unsigned l = lo; l < hi; l++) {
        if (!(r->active >> l & 1)) continue;
        uint64_t last = (r->addr[l] + r->size - 1) / word;
        for (uint64_t w = r->addr[l] / word; w <= last && n < MAXKEYS; w++) {
            unsigned bank = (unsigned)(w % a->banks);
            uint64_t rw = w / words_per_row;
            unsigned k = head[bank];
            while (k && row[k - 1] != rw) k = next[k - 1];
            if (k) continue;                                  /* row already counted */
            row[n] = rw;
            next[n] = head[bank];
            head[bank] = (unsigned char)++n;
            unsigned ways = ++count[bank];
            if (ways > c.ways || (ways == c.ways && bank < c.bank)) c.ways = ways, c.bank = bank;
        }
    }
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

void smem_oracle(const coalsim_arch *a, const coalsim_request *r, coalsim_result *out)
{
    unsigned step = lanes_per_phase(a, r);
    /* CC 2.x 128-bit accesses: each half warp costs one way more than its
     * worst quarter (Programming Guide, "Compute Capability 2.x", 128-bit). */
    int fermi16 = a->split == COALSIM_SPLIT_FERMI && r->size == 16;
    unsigned group = fermi16 ? 2 * step : step;
    *out = (coalsim_result){0};

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

